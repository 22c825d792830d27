"""`RulesPage`: one game's rules page, scrolled, its lines laid out once per process and width.

Owns turning a parsed Markdown page into lines of a given width and showing them through a
scrolled window. A `Static` holding the Markdown lays the whole page out again in every session
that opens the rules — to measure its height, then to draw it: 30-60 ms of CPU in one go on a
server where every other session waits meanwhile. The lines depend only on the page, the width
and the colours, so they are made once and shared (`Strip`s are immutable); a session only
picks the rows its window shows.

Must not hold game state or change what the page says (the Markdown source is `tui.games`').
"""

from __future__ import annotations

from typing import Any

from rich.markdown import Markdown
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

__all__ = ["RulesPage"]

_LINES: LRUCache[tuple[Any, ...], list[Strip]] = LRUCache(32)  # 3 pages x widths and themes


class RulesPage(ScrollView):
    """A Markdown page in a scrolled window (↑/↓, PgUp/PgDn, Home/End, the mouse wheel: the
    keys of Textual's scrollable containers)."""

    DEFAULT_CSS = """
    RulesPage { height: 1fr; overflow-x: hidden; scrollbar-gutter: stable; }
    """

    def __init__(self, page: Markdown, *, key: str, **kwargs: Any) -> None:
        """``key`` names the page (its lines are shared by every widget showing that key)."""
        super().__init__(**kwargs)
        self.page = page
        self.key = key

    def show(self, page: Markdown, *, key: str) -> None:
        """Show another page (``key`` names it as in `__init__`), from its top."""
        if key == self.key:
            return
        self.page, self.key = page, key
        self.scroll_to(y=0, animate=False)
        self._measure()
        self.refresh()

    def lines(self, width: int) -> list[Strip]:
        """The page laid out ``width`` cells wide, in this widget's colours."""
        style = self.rich_style
        app = self.app
        cache_key = (self.key, width, style, app.theme, app.ansi_color)
        lines = _LINES.get(cache_key)
        if lines is None:
            console = app.console
            options = console.options.update(width=width, height=None, highlight=False)
            rendered = console.render_lines(self.page, options, style=style, pad=True)
            lines = _LINES[cache_key] = [Strip(line, width) for line in rendered]
        return lines

    def _page_width(self) -> int:
        return self.scrollable_content_region.width

    def on_resize(self) -> None:
        self._measure()

    def on_mount(self) -> None:
        self._measure()

    def _measure(self) -> None:
        width = self._page_width()
        if width > 0:  # not before it is laid out (a page in a hidden tab never is)
            self.virtual_size = Size(width, len(self.lines(width)))

    def render_line(self, y: int) -> Strip:
        width = self._page_width()
        lines = self.lines(width) if width > 0 else []
        row = self.scroll_offset.y + y
        if 0 <= row < len(lines):
            return lines[row]
        return Strip.blank(width, self.rich_style)
