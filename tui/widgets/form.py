"""`FormRows`: a whole form of pickers and number rows in one widget.

Owns showing a list of labelled rows — a choice among a few values (◀ value ▶) or a whole
number — with a cursor on one of them, and editing the row under the cursor: ←/→ step a choice
(enter, space and a click step it on) or count a number down and up; digits type a number (the
first digit after the cursor arrives starts a new one), backspace takes one back, delete clears
it (empty means "none" where the option allows none), and a leading minus may be typed so the
game itself can say why a negative number is refused. ↑/↓ and Tab/Shift+Tab move the cursor
between rows (past the last row the focus moves on, to the form's buttons); a click puts the
cursor on a row. Rows may be hidden and shown again, and headings (lines of words) sit between
them.

Why one widget: a form of thirty rows as thirty widgets (or sixty, with labels) is thirty
widgets to build, style, lay out and draw for every session that opens it, on the event loop
every table of a server shares — opening the new-game form took 126 ms of CPU, one piece of
it ~45 ms, while every other player's screen waited. Here the rows are plain data, and the form
draws only the lines its window shows (`render_line`); each drawn line is kept once per process
(every session's form shows the same rows in the same colours).

Must not know what the values mean: the screen reads them (`value`) and checks them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

__all__ = ["FormRow", "FormRows", "heading"]

NUMBER_WIDTH = 8  # cells for a number between its arrows


@dataclass
class FormRow:
    """One row: a choice among ``options`` (label, value), a number (``options`` None), or a
    heading (words only)."""

    id: str
    label: str
    options: list[tuple[str, Any]] | None = None
    index: int = 0
    text: str = ""
    placeholder: str = ""
    is_heading: bool = False
    shown: bool = True

    def __post_init__(self) -> None:
        if self.options is not None and not self.options:
            raise ValueError("A choice needs at least one option.")

    @property
    def width(self) -> int:
        """Cells for the value between the arrows: the longest choice, or a number's."""
        if self.options is not None:
            return max(len(label) for label, _ in self.options)
        return NUMBER_WIDTH

    @classmethod
    def choice(
        cls, row_id: str, label: str, options: Sequence[tuple[str, Any]], value: Any
    ) -> FormRow:
        values = [v for _, v in options]
        return cls(row_id, label, list(options), values.index(value) if value in values else 0)

    @classmethod
    def number(cls, row_id: str, label: str, text: str, placeholder: str = "") -> FormRow:
        return cls(row_id, label, None, text=text, placeholder=placeholder)

    @property
    def is_number(self) -> bool:
        return self.options is None and not self.is_heading

    @property
    def is_field(self) -> bool:
        return not self.is_heading

    @property
    def value(self) -> Any:
        """A choice's value, a number's text ("" when empty)."""
        if self.options is not None:
            return self.options[self.index][1]
        return self.text

    @property
    def shown_value(self) -> str:
        """The words the row shows for its value."""
        if self.options is not None:
            return self.options[self.index][0]
        return self.text


def heading(row_id: str, words: str = "") -> FormRow:
    """A line of words between rows (empty: a blank line)."""
    return FormRow(row_id, words, is_heading=True)


_LINES: LRUCache[Hashable, Strip] = LRUCache(4096)  # drawn rows, shared by every session


class FormRows(ScrollView, can_focus=True):
    """A form's rows in one widget (see the module docstring); ``label_width`` cells of label."""

    DEFAULT_CSS = """
    FormRows { height: 1fr; overflow-x: hidden; }
    FormRows > .form-rows--value { background: $boost; }
    FormRows > .form-rows--cursor { background: $accent 40%; text-style: bold; }
    FormRows > .form-rows--arrow { color: $text-muted; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "form-rows--value",
        "form-rows--cursor",
        "form-rows--arrow",
    }
    BINDINGS: ClassVar = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("tab", "move(1)", "Next", show=False),
        Binding("shift+tab", "move(-1)", "Previous", show=False),
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right,enter,space", "step(1)", "Next", show=False),
        Binding("backspace", "erase", "Erase", show=False),
        Binding("delete,ctrl+u", "clear", "Clear", show=False),
    ]

    class Changed(Message):
        """A row's value changed (``row_id``, ``value``)."""

        def __init__(self, form: FormRows, row_id: str, value: Any) -> None:
            super().__init__()
            self.form = form
            self.row_id = row_id
            self.value = value

        @property
        def control(self) -> FormRows:
            return self.form

    def __init__(
        self,
        rows: Iterable[FormRow],
        *,
        label_width: int = 22,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.label_width = label_width
        self._rows: list[FormRow] = []
        self._by_id: dict[str, FormRow] = {}
        self._cursor = ""  # the id of the row under the cursor
        self._fresh = True  # the next digit starts a new number
        self._styles_key: Any = None
        self._styles: tuple[Style, Style, Style, Style] | None = None
        self.set_rows(rows)

    # ------------------------------------------------------------------ rows and values

    @property
    def rows(self) -> list[FormRow]:
        return list(self._rows)

    def row(self, row_id: str) -> FormRow:
        return self._by_id[row_id]

    def has_row(self, row_id: str) -> bool:
        return row_id in self._by_id

    def value(self, row_id: str) -> Any:
        return self._by_id[row_id].value

    def set_value(self, row_id: str, value: Any) -> None:
        """Set a choice to one of its values, or a number row to a text."""
        row = self._by_id[row_id]
        if row.options is not None:
            values = [v for _, v in row.options]
            if value not in values:
                raise ValueError(f"{value!r} is not one of the choices.")
            self._change(row, index=values.index(value))
        else:
            self._change(row, text=str(value))

    def set_rows(self, rows: Iterable[FormRow]) -> None:
        """Show these rows instead (the cursor stays on its row if it is still there)."""
        self._rows = list(rows)
        self._by_id = {row.id: row for row in self._rows}
        if len(self._by_id) != len(self._rows):
            raise ValueError("Two rows of a form share an id.")
        if self._cursor not in self._by_id or not self._by_id[self._cursor].shown:
            fields = self._shown_fields()
            self._cursor = fields[0].id if fields else ""
        self._layout_rows()

    def show(self, row_id: str, shown: bool) -> None:
        row = self._by_id[row_id]
        if row.shown != shown:
            row.shown = shown
            if not shown and row_id == self._cursor:
                self._cursor = self._nearest_shown(row_id)
            self._layout_rows()

    def shown(self, row_id: str) -> bool:
        return self._by_id[row_id].shown

    @property
    def cursor(self) -> str:
        """The id of the row under the cursor."""
        return self._cursor

    def move_to(self, row_id: str) -> None:
        row = self._by_id[row_id]
        if row.is_field and row.shown and row_id != self._cursor:
            self._cursor = row_id
            self._fresh = True
            self._scroll_to_cursor()
            self.refresh()

    def _shown(self) -> list[FormRow]:
        return [row for row in self._rows if row.shown]

    def _shown_fields(self) -> list[FormRow]:
        return [row for row in self._rows if row.shown and row.is_field]

    def _nearest_shown(self, row_id: str) -> str:
        index = next(i for i, row in enumerate(self._rows) if row.id == row_id)
        later = [r for r in self._rows[index + 1 :] if r.shown and r.is_field]
        earlier = [r for r in self._rows[:index] if r.shown and r.is_field]
        nearest = later[0] if later else (earlier[-1] if earlier else None)
        return nearest.id if nearest else ""

    def _change(self, row: FormRow, *, index: int | None = None, text: str | None = None) -> None:
        before = row.value
        if index is not None:
            row.index = index
        if text is not None:
            row.text = text
        if row.value != before:
            self.refresh()
            self.post_message(self.Changed(self, row.id, row.value))

    def _layout_rows(self) -> None:
        width = self.label_width + max((r.width for r in self._rows), default=0) + 4
        self.virtual_size = Size(width, len(self._shown()))
        self.refresh()
        if self.is_attached:
            self._scroll_to_cursor()

    def _line_of(self, row_id: str) -> int:
        return next((y for y, row in enumerate(self._shown()) if row.id == row_id), 0)

    def _scroll_to_cursor(self) -> None:
        if self._cursor:
            y = self._line_of(self._cursor)
            self.scroll_to_region(Region(0, y, 1, 1), animate=False, force=True)

    def on_mount(self) -> None:
        self.call_after_refresh(self._scroll_to_cursor)

    # ------------------------------------------------------------------ keys and mouse

    def _current(self) -> FormRow | None:
        return self._by_id.get(self._cursor)

    def action_move(self, delta: int) -> None:
        fields = self._shown_fields()
        ids = [row.id for row in fields]
        if self._cursor not in ids:
            if ids:
                self.move_to(ids[0])
            return
        index = ids.index(self._cursor) + delta
        if 0 <= index < len(ids):
            self.move_to(ids[index])
        elif delta > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    def action_step(self, delta: int) -> None:
        row = self._current()
        if row is None:
            return
        if row.options is not None:
            self._change(row, index=(row.index + delta) % len(row.options))
            return
        try:
            number = int(row.text) if row.text.strip() else 0
        except ValueError:
            return  # not a number yet: nothing to count from
        self._change(row, text=str(number + delta))
        self._fresh = False

    def action_erase(self) -> None:
        row = self._current()
        if row is not None and row.is_number:
            self._change(row, text=row.text[:-1])
            self._fresh = False

    def action_clear(self) -> None:
        row = self._current()
        if row is not None and row.is_number:
            self._change(row, text="")
            self._fresh = False

    def on_key(self, event: events.Key) -> None:
        row = self._current()
        char = event.character
        if row is None or not row.is_number or char is None:
            return
        if not (char.isdigit() or (char == "-" and (self._fresh or not row.text))):
            return
        event.stop()
        event.prevent_default()
        self._change(row, text=char if self._fresh else (row.text + char)[:NUMBER_WIDTH])
        self._fresh = False

    def on_focus(self, event: events.Focus) -> None:
        self._fresh = True
        self.refresh()

    def on_blur(self, event: events.Blur) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        y = event.y + self.scroll_offset.y
        shown = self._shown()
        if not 0 <= y < len(shown) or not shown[y].is_field:
            return
        row = shown[y]
        on_value = event.x >= self.label_width
        was_cursor = row.id == self._cursor
        self.move_to(row.id)
        if on_value and row.options is not None and (was_cursor or self.has_focus):
            self.action_step(1)
        self.focus()

    # ------------------------------------------------------------------ drawing

    def notify_style_update(self) -> None:
        self._styles = None
        super().notify_style_update()

    def _row_styles(self) -> tuple[Style, Style, Style, Style]:
        """(base, value, cursor, arrow) rich styles, kept until the next restyle or theme."""
        key = (self.app.theme, self.app.classes)
        if self._styles is None or self._styles_key != key:
            self._styles_key = key
            self._styles = (
                self.rich_style,
                self.get_component_rich_style("form-rows--value"),
                self.get_component_rich_style("form-rows--cursor"),
                self.get_component_rich_style("form-rows--arrow", partial=True),
            )
        return self._styles

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base, value_style, cursor_style, arrow = self._row_styles()
        shown = self._shown()
        line = y + self.scroll_offset.y
        if not 0 <= line < len(shown):
            return Strip.blank(width, base)
        row = shown[line]
        on_cursor = row.id == self._cursor and self.has_focus
        key = (
            row.label,
            row.is_heading,
            row.shown_value,
            row.placeholder,
            row.width,
            row.options is not None and len(row.options) > 1,
            self.label_width,
            width,
            base,
            cursor_style if on_cursor else value_style,
            arrow,
        )
        strip = _LINES.get(key)
        if strip is None:
            strip = _LINES[key] = self._draw(row, width, on_cursor)
        return strip

    def _draw(self, row: FormRow, width: int, on_cursor: bool) -> Strip:
        base, value_style, cursor_style, arrow = self._row_styles()
        cells = row.width
        if row.is_heading:
            return Strip([Segment(row.label[:width], base)]).adjust_cell_length(width, base)
        field_style = base + (cursor_style if on_cursor else value_style)
        many = row.options is None or len(row.options) > 1
        label = row.label[: self.label_width - 1].ljust(self.label_width)
        words = row.shown_value
        words_style = field_style
        if not words and row.is_number:
            words, words_style = row.placeholder, field_style + Style(dim=True)
        segments = [
            Segment(label, base),
            Segment("◀ " if many else "  ", field_style + arrow),
            Segment(words[:cells].ljust(cells), words_style),
            Segment(" ▶" if many else "  ", field_style + arrow),
        ]
        return Strip(segments).adjust_cell_length(width, base)
