"""`SharedLines`: a small widget's drawn lines, kept once per process for every session.

Owns the `SharedLines` mixin. Many small widgets show the same thing in every session — the
rules page's tab bar, a form row ("Seat 3 ◀ Bot: Shrewd ▶": 0.35 ms a row when the new-game
form was a widget per row, drawn again on each of its first layouts) — and Textual draws them
again for each widget, on the event loop every table of the server shares. A `SharedLines`
widget (`tui.widgets.tabbar.TabBar`) names what it shows (`shared_key`) and its drawn lines are
kept in one process-wide cache under that name and everything else the drawing depends on: the
size and crop, the colours and text style it ends up with (its pseudo-classes such as
``:focus`` included), its box (padding, border, outline, tint, opacity, alignment) and the
app's line filters and ANSI theme. A miss draws through Textual exactly as before, so what is
kept is Textual's own drawing. (`tui.widgets.form.FormRows` draws its rows itself and keeps
them the same way.)

Must not: be used by a widget whose lines depend on anything but `shared_key` and the styles
named above (a border title, a link under the mouse, a scroll position); such a widget
returns ``None`` from `shared_key` and draws as usual.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip

from tui.instance_caches import SLOT_PREFIX

__all__ = ["SharedLines"]

_LINES: LRUCache[Hashable, tuple[Strip, ...]] = LRUCache(2048)


def _filters_key(widget: Any) -> tuple[Hashable, ...]:
    out: list[Hashable] = []
    for line_filter in widget.get_line_filters():
        state = tuple(
            sorted(
                (name, value if isinstance(value, int | float | str | bool) else id(value))
                for name, value in vars(line_filter).items()
                if not name.startswith(SLOT_PREFIX)  # memos (`tui.instance_caches`), not state
            )
        )
        out.append((type(line_filter), state))
    return tuple(out)


class SharedLines:
    """Mixin for `Widget` subclasses (put it first in the bases)."""

    SHARED_LINES: ClassVar[bool] = True  # tests switch it off to compare with plain renders

    def shared_key(self) -> Hashable | None:
        """What the widget shows, as a hashable value; ``None``: draw without the cache."""
        return None

    def render_lines(self, crop: Region) -> list[Strip]:
        render = super().render_lines  # type: ignore[misc]
        content = self.shared_key() if SharedLines.SHARED_LINES else None
        if content is None or self._border_title or self._border_subtitle:  # type: ignore[attr-defined]
            return list(render(crop))
        styles = self.styles  # type: ignore[attr-defined]
        app = self.app  # type: ignore[attr-defined]
        key = (
            type(self),
            content,
            self.region.size,  # type: ignore[attr-defined]
            crop,
            self.background_colors,  # type: ignore[attr-defined]
            self.rich_style,  # type: ignore[attr-defined]
            styles.padding,
            tuple(styles.border),
            tuple(styles.outline),
            styles.tint,
            styles.opacity,
            styles.text_opacity,
            styles.text_align,
            styles.content_align,
            _filters_key(self),
            id(app.ansi_theme),
            app.native_ansi_color,
        )
        lines = _LINES.get(key)
        if lines is None:
            lines = tuple(render(crop))
            _LINES[key] = lines
        return list(lines)
