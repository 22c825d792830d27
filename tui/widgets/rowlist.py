"""`RowList`: rows of plain-text cells in columns, with a cursor: the lobby's list of tables.

Owns drawing the rows (a header line, zebra stripes, the cursor row) straight into strips, one
segment per cell, and moving the cursor (↑/↓, Home/End, PgUp/PgDn, a click) with the list
scrolled to keep it in view. Textual's ``DataTable`` renders every cell through Rich and keeps
its caches per widget: in the lobby, which every new SSH session builds and every change of a
table redraws, that was about a fifth of a login's CPU on a server shared by every player.

Columns are as wide as their widest cell (the header included); when they do not fit, the
last columns give way first, down to a few cells, and a cut cell ends in "…". Widths count
terminal cells (a wide character takes two).

Must not know what the rows mean (the screen keeps its own list; `cursor_row` indexes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

__all__ = ["RowList", "column_widths"]

PAD = 1  # cells of space on each side of a cell
NARROWEST = 4  # a column that gives way keeps at least this many cells


def column_widths(header: Sequence[str], rows: Sequence[Sequence[str]], room: int) -> list[int]:
    """Each column's width in cells (padding included), the last ones narrowed to fit ``room``."""
    widths = [cell_len(name) for name in header]
    for row in rows:
        for i, cell in enumerate(row[: len(widths)]):
            widths[i] = max(widths[i], cell_len(cell))
    widths = [w + 2 * PAD for w in widths]
    excess = sum(widths) - room
    for i in reversed(range(len(widths))):
        if excess <= 0:
            break
        give = min(excess, max(0, widths[i] - (NARROWEST + 2 * PAD)))
        widths[i] -= give
        excess -= give
    return widths


def _cell(text: str, width: int) -> str:
    inner = width - 2 * PAD
    if inner <= 0:
        return " " * max(0, width)
    if cell_len(text) > inner:
        text = set_cell_size(text, inner - 1) + "…"
    return " " * PAD + set_cell_size(text, inner) + " " * PAD


class RowList(ScrollView, can_focus=True):
    """A header and rows of cells; ``cursor_row`` is the row under the cursor (-1: no rows)."""

    DEFAULT_CSS = """
    RowList {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        & > .rowlist--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .rowlist--header { background: ansi_bright_blue; color: ansi_default; }
        & > .rowlist--even-row { background: $surface-lighten-1 50%; }
        &:dark > .rowlist--even-row { background: $surface-darken-1 40%; }
        & > .rowlist--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .rowlist--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """
    COMPONENT_CLASSES: ClassVar = {
        "rowlist--header",
        "rowlist--even-row",
        "rowlist--cursor",
    }
    BINDINGS: ClassVar = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "to(0)", "First", show=False),
        Binding("end", "to(-1)", "Last", show=False),
    ]

    def __init__(self, header: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.header = list(header)
        self.rows: list[list[str]] = []
        self.cursor_row = -1
        self._widths: list[int] = []
        self._laid_width = 0  # the width the columns were fitted to
        self._strips: dict[int, Strip] = {}  # row index (-1: header) -> its drawn line

    # ------------------------------------------------------------------ content

    def set_rows(self, rows: Sequence[Sequence[str]]) -> None:
        """Show ``rows`` (the cursor stays on its index, or the last row if fewer remain)."""
        self.rows = [list(row) for row in rows]
        self.cursor_row = min(max(self.cursor_row, 0), len(self.rows) - 1)
        self._relayout()
        self._follow_cursor()

    def _relayout(self) -> None:
        self._fit(self.scrollable_content_region.width or 80)
        self.virtual_size = Size(self._laid_width, len(self.rows) + 1)
        self.refresh()

    def _fit(self, width: int) -> None:
        self._laid_width = width
        self._widths = column_widths(self.header, self.rows, width)
        self._strips.clear()

    def on_resize(self, _event: events.Resize) -> None:
        self._relayout()
        self._follow_cursor()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def _on_focus(self, event: events.Focus) -> None:
        self._strips.pop(self.cursor_row, None)  # the cursor's colours follow the focus

    def _on_blur(self, event: events.Blur) -> None:
        self._strips.pop(self.cursor_row, None)

    # ------------------------------------------------------------------ drawing

    def render_line(self, y: int) -> Strip:
        if self.scrollable_content_region.width != self._laid_width:  # a scrollbar came or went
            self._fit(self.scrollable_content_region.width)
        index = -1 if y == 0 else y - 1 + self.scroll_offset.y
        if index >= len(self.rows):
            return Strip.blank(self.scrollable_content_region.width, self.rich_style)
        strip = self._strips.get(index)
        if strip is None:
            strip = self._strips[index] = self._draw(index)
        return strip

    def _draw(self, index: int) -> Strip:
        base = self.rich_style
        if index < 0:
            cells, style = self.header, base + self.get_component_rich_style("rowlist--header")
        else:
            cells = self.rows[index]
            style = base
            if index % 2 == 1:
                style += self.get_component_rich_style("rowlist--even-row")
            if index == self.cursor_row:
                style += self.get_component_rich_style("rowlist--cursor")
        text = "".join(_cell(c, w) for c, w in zip(cells, self._widths, strict=False))
        width = self.scrollable_content_region.width
        line = set_cell_size(text, width)
        return Strip([Segment(line, style)], width)

    # ------------------------------------------------------------------ the cursor

    def move_cursor(self, row: int) -> None:
        if not self.rows:
            return
        row = min(max(row, 0), len(self.rows) - 1)
        if row == self.cursor_row:
            return
        old, self.cursor_row = self.cursor_row, row
        for changed in (old, row):
            self._strips.pop(changed, None)
            self._refresh_row(changed)
        self._follow_cursor()

    def _refresh_row(self, index: int) -> None:
        self.refresh_lines(index + 1)  # (virtual lines: the header is line 0)

    def _follow_cursor(self) -> None:
        shown = max(1, self.size.height - 1)  # rows under the header
        top = self.scroll_offset.y
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False)
        elif self.cursor_row >= top + shown:
            self.scroll_to(y=self.cursor_row - shown + 1, animate=False)

    def action_move(self, delta: int) -> None:
        self.move_cursor(self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        self.move_cursor(self.cursor_row + direction * max(1, self.size.height - 2))

    def action_to(self, row: int) -> None:
        self.move_cursor(len(self.rows) - 1 if row < 0 else row)

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self.move_cursor(event.y - 1 + self.scroll_offset.y)
