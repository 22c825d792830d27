"""A grid of styled characters that the oval is drawn on: `Canvas`.

Owns putting text at (x, y) and joining the grid into `Strip` lines or one `Text`. Must not: know
about Champions, game state or widgets.
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
        if isinstance(text, Text):
            for offset, (ch, ch_style) in enumerate(_styled_chars(text)):
                self._set(x + offset, y, ch, ch_style)
            return
        for offset, ch in enumerate(text):
            self._set(x + offset, y, ch, style)

    def _set(self, x: int, y: int, ch: str, style: Style | None) -> None:
        if 0 <= x < self.width:
            self.cells[y][x] = (ch, style)

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


def _styled_chars(text: Text) -> list[tuple[str, Style | None]]:
    """Each character of ``text`` with its combined style."""
    base = text.style if isinstance(text.style, Style) else Style.parse(str(text.style or ""))
    styles = [base] * len(text.plain)
    for span in text.spans:
        extra = span.style if isinstance(span.style, Style) else Style.parse(str(span.style))
        for i in range(span.start, min(span.end, len(styles))):
            styles[i] = styles[i] + extra
    return list(zip(text.plain, styles, strict=True))
