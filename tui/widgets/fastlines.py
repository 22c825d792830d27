"""`FastLines`: a widget keeps its finished lines and hands them out again until it changes.

Owns the `FastLines` mixin. Every frame, Textual's compositor asks each widget under a changed
area for its lines (`render_lines`), and each such call costs a fixed overhead (background and
border-title styles, filters, cropping) even when the widget itself did not change; on a table
screen most widgets under a changed line did not. A `FastLines` widget keeps the lines it last
produced, per row of its region, and serves them again until it is refreshed (every change of
content goes through `refresh`), restyled or resized; a refresh of some rows forgets only
those rows. `tests/tui/test_compositor.py` checks frames against renders with this turned off.

Must not: serve a line the widget has changed since (every path that changes what a widget
shows calls `refresh` or restyles it).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.geometry import Region
from textual.strip import Strip

__all__ = ["FastLines"]


class FastLines:
    """Mixin for `Widget` subclasses (put it first in the bases)."""

    FAST_LINES: ClassVar[bool] = True  # tests switch it off to compare with plain renders
    _fast_lines: dict[int, Strip]
    _fast_key: Any

    def _fast_reset(self) -> None:
        self._fast_lines = {}

    def refresh(self, *regions: Region, **kwargs: Any) -> Any:
        cache = getattr(self, "_fast_lines", None)
        if cache:
            if regions:
                offset = self.content_offset  # type: ignore[attr-defined]
                for region in regions:
                    top = region.y + offset.y
                    for y in range(top, top + region.height):
                        cache.pop(y, None)
            else:
                cache.clear()
        return super().refresh(*regions, **kwargs)  # type: ignore[misc]

    def notify_style_update(self) -> None:
        if getattr(self, "_fast_lines", None):
            self._fast_lines.clear()
        self._fast_style = None
        super().notify_style_update()  # type: ignore[misc]

    @property
    def base_style(self) -> Any:
        """`rich_style`, kept until the next restyle (Textual recomputes it on every refresh)."""
        app = self.app  # type: ignore[attr-defined]
        key = (app.theme, app.classes)  # an inherited colour may change with these alone
        cached = getattr(self, "_fast_style", None)
        if cached is None or cached[0] != key:
            cached = self._fast_style = (key, self.rich_style)  # type: ignore[attr-defined,assignment]
        return cached[1]

    def render_lines(self, crop: Region) -> list[Strip]:
        render = super().render_lines  # type: ignore[misc]
        if not FastLines.FAST_LINES:
            return list(render(crop))
        app = self.app  # type: ignore[attr-defined]
        key = (self.size, crop.x, crop.width, app.theme, app.classes)  # type: ignore[attr-defined]
        if getattr(self, "_fast_key", None) != key or not hasattr(self, "_fast_lines"):
            self._fast_key = key
            self._fast_lines = {}
        cache = self._fast_lines
        rows = crop.line_range
        if all(y in cache for y in rows):
            return [cache[y] for y in rows]
        strips = list(render(crop))
        for y, strip in zip(rows, strips, strict=False):
            cache[y] = strip
        return strips
