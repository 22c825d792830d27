"""A grid of styled characters that the oval is drawn on: `Canvas`.

Owns putting text at (x, y) and joining the grid into `Strip` lines or one `Text`. The oval is
drawn afresh on every step (about a hundred puts); the cells of a put are kept per process by
text and style (`_RUNS`: the same labels, dots and cars again and again), so a put is one slice
assignment, and an unchanged cell is the same object as before (comparing rows is cheap). Must
not: know about Champions, game state or widgets.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip


class Canvas:
    """A grid of styled characters, joined into one `Text`."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.cells: list[list[tuple[str, Style | None]]] = [
            [(" ", None)] * width for _ in range(height)
        ]

    def put(self, x: int, y: int, text: str | Text, style: Style | None = None) -> None:
        if not 0 <= y < len(self.cells):
            return
        cells = _text_cells(text) if isinstance(text, Text) else _cells(text, style)
        # Each character one cell; those off the grid are dropped.
        lo, hi = max(0, -x), min(len(cells), self.width - x)
        if lo < hi:
            self.cells[y][x + lo : x + hi] = cells[lo:hi]

    def put_under(
        self, x: int, y: int, text: str, style: Style | None, over: list[set[int]]
    ) -> None:
        """`put`, but not on the cells of row ``y`` in ``over`` (drawn over what is put)."""
        if not 0 <= y < len(self.cells):
            return
        row, covered = self.cells[y], over[y]
        for offset, cell in enumerate(_cells(text, style)):
            at = x + offset
            if 0 <= at < self.width and at not in covered:
                row[at] = cell

    def strips(self) -> list[Strip]:
        """One `Strip` per line (runs of one style joined into one segment)."""
        return [self.row_strip(y) for y in range(len(self.cells))]

    def row_strip(self, y: int) -> Strip:
        """Line ``y`` as a `Strip` (runs of one style joined into one segment)."""
        row = self.cells[y]
        segments: list[Segment] = []
        run, run_style = "", None
        for ch, style in row:
            if style is not run_style and style != run_style and run:
                segments.append(Segment(run, run_style))
                run = ""
            run_style = style
            run += ch
        if run:
            segments.append(Segment(run, run_style))
        return Strip(segments, len(row))

    def text(self) -> Text:
        out = Text()
        for n, row in enumerate(self.cells):
            if n:
                out.append("\n")
            run, run_style = "", None
            for ch, style in row:
                if style != run_style and run:
                    out.append(run, style=run_style)
                    run = ""
                run_style = style
                run += ch
            if run:
                out.append(run, style=run_style)
        return out


_RUNS: dict[tuple[str, Style | None], tuple[tuple[str, Style | None], ...]] = {}
"""The cells of a plain put, by text and style (emptied when it holds `_RUNS_KEPT`)."""
_RUNS_KEPT = 4096
_TEXT_RUNS: dict[tuple[object, ...], tuple[tuple[str, Style | None], ...]] = {}
"""The cells of a `Text` put, by its text, spans and style (emptied the same way)."""


def _cells(text: str, style: Style | None) -> tuple[tuple[str, Style | None], ...]:
    key = (text, style)
    cells = _RUNS.get(key)
    if cells is None:
        if len(_RUNS) >= _RUNS_KEPT:
            _RUNS.clear()
        cells = _RUNS[key] = tuple((ch, style) for ch in text)
    return cells


def _text_cells(text: Text) -> tuple[tuple[str, Style | None], ...]:
    key = (text.plain, tuple(text.spans), text.style)
    cells = _TEXT_RUNS.get(key)
    if cells is None:
        if len(_TEXT_RUNS) >= _RUNS_KEPT:
            _TEXT_RUNS.clear()
        cells = _TEXT_RUNS[key] = tuple(_styled_chars(text))
    return cells


def _styled_chars(text: Text) -> list[tuple[str, Style | None]]:
    """Each character of ``text`` with its combined style."""
    base = text.style if isinstance(text.style, Style) else Style.parse(str(text.style or ""))
    styles = [base] * len(text.plain)
    for span in text.spans:
        extra = span.style if isinstance(span.style, Style) else Style.parse(str(span.style))
        for i in range(span.start, min(span.end, len(styles))):
            styles[i] = styles[i] + extra
    return list(zip(text.plain, styles, strict=True))
