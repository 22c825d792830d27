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

from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.strip import Strip

__all__ = ["FastLines"]


class FastLines:
    """Mixin for `Widget` subclasses (put it first in the bases)."""

    FAST_LINES: ClassVar[bool] = True  # tests switch it off to compare with plain renders
    _fast_lines: dict[int, Strip]
    _fast_key: Any
    _fast_style: Any = None
    _fast_frame: _Frame | None = None

    def _fast_reset(self) -> None:
        self._fast_lines = {}

    def refresh(self, *regions: Region, **kwargs: Any) -> Any:
        cache = getattr(self, "_fast_lines", None)
        if cache:
            if regions:
                # `content_offset.y` (scrollbars take no rows above the content), without the
                # scrollbar sizes it adds and drops again: this runs for every line changed
                offset_y = self.styles.gutter.top  # type: ignore[attr-defined]
                for region in regions:
                    top = region.y + offset_y
                    for y in range(top, top + region.height):
                        cache.pop(y, None)
            else:
                cache.clear()
        return super().refresh(*regions, **kwargs)  # type: ignore[misc]

    def notify_style_update(self) -> None:
        if getattr(self, "_fast_lines", None):
            self._fast_lines.clear()
        self._fast_style = None
        self._fast_frame = None
        super().notify_style_update()  # type: ignore[misc]

    def drawn_size(self) -> Size:
        """`size` (the content area) as drawing needs it: the size the layout gave the widget
        less its gutter. `size` finds the widget on its screen (a walk up the DOM and a map
        lookup) at every call, several times for every line drawn; this is the same value
        while the widget is laid out, which is when it is drawn."""
        width, height = self._size  # type: ignore[attr-defined]
        gutter = self.styles.gutter  # type: ignore[attr-defined]
        return Size(max(0, width - gutter.width), max(0, height - gutter.height))

    @property
    def base_style(self) -> Any:
        """`rich_style`, kept until the next restyle (Textual recomputes it on every refresh)."""
        app = self.app  # type: ignore[attr-defined]
        key = (app.theme, app.classes)  # an inherited colour may change with these alone
        cached = getattr(self, "_fast_style", None)
        if cached is None or cached[0] != key:
            cached = self._fast_style = (key, self.rich_style)  # type: ignore[attr-defined]
        return cached[1]

    def render_lines(self, crop: Region) -> list[Strip]:
        render = super().render_lines  # type: ignore[misc]
        if not FastLines.FAST_LINES:
            return list(render(crop))
        app = self.app  # type: ignore[attr-defined]
        key = (self.drawn_size(), crop.x, crop.width, app.theme, app.classes)
        if getattr(self, "_fast_key", None) != key or not hasattr(self, "_fast_lines"):
            self._fast_key = key
            self._fast_lines = {}
            self._fast_frame = None
        cache = self._fast_lines
        rows = crop.line_range
        missing = [y for y in rows if y not in cache]
        if not missing:
            return [cache[y] for y in rows]
        frame = self._frame(crop)
        if frame is not None and not _hovering_link(self):
            for y in missing:
                strip = frame.row(self, y) if frame.top <= y < frame.bottom else None
                if strip is None:
                    strip = render(Region(crop.x, y, crop.width, 1))[0]
                cache[y] = strip
            return [cache[y] for y in rows]
        strips = list(render(crop))
        for y, strip in zip(rows, strips, strict=False):
            cache[y] = strip
        return strips

    def _frame(self, crop: Region) -> _Frame | None:
        """The widget's border, padding and filters for drawing content rows directly."""
        frame = self._fast_frame
        if frame is None:  # built again on a new size, crop, theme or style (`_fast_key`)
            self._fast_frame = frame = _Frame.build(self, crop)
        return frame if frame.usable else None


def _join(parts: list[Strip]) -> Strip:
    """`Strip.join` of a row's edges and content: the same segments and cells (a part with
    no text adds nothing), without its passes over every part."""
    segments: list[Any] = []
    cells = 0
    for part in parts:
        if part.cell_count:
            segments.extend(part._segments)
            cells += part.cell_length
    return Strip(segments, cells)


def _hovering_link(widget: Any) -> bool:
    """True while the mouse is over a clickable link in ``widget`` (the styles cache then
    restyles the link; such frames take its path)."""
    if not widget.auto_links:
        return False
    hover = widget.hover_style
    return bool(hover._link_id and hover._meta and "@click" in hover.meta)


class _Frame:
    """What Textual's styles cache adds around a content row, taken from one row it drew.

    For a widget with only a border and padding (no outline, hatch, tint, opacity or text
    opacity: what every line widget here uses), a content row on screen is: the left border
    and padding, the widget's own line cut or padded to the content width in the inner
    background, the right padding and border, then the app's line filters. `row` builds that
    from the widget's `render_line` without the styles cache's per-call overheads; the edges
    are cut from one row the styles cache itself rendered, so colours and characters are its.
    `tests/tui/test_compositor.py` compares frames drawn this way with Textual's own renders.
    """

    def __init__(self) -> None:
        self.usable = False
        self.top = self.bottom = self.content_width = self.x1 = self.x2 = 0
        self.full = True
        self.background = Color(0, 0, 0)
        self.inner_style = Style()
        self.filters: tuple[LineFilter, ...] = ()
        self.edge_left: Strip | None = None
        self.edge_right: Strip | None = None
        self.rows: dict[int, tuple[Strip, Strip]] = {}  # id(content) -> (content, row)

    @classmethod
    def build(cls, widget: Any, crop: Region) -> _Frame:
        """The frame of ``widget`` drawn over ``crop`` (border titles are on border rows,
        which the styles cache draws: a title change does not change a frame)."""
        frame = cls()
        styles = widget.styles
        width, height = widget.region.size  # the whole box (`size` is the content area)
        gutter = styles.gutter
        if (
            width <= 0
            or height <= 0
            or any(edge for edge, _ in styles.outline)
            or (styles.has_rule("hatch") and styles.hatch != "none")
            or styles.tint.a
            or styles.text_opacity != 1.0
            or widget.opacity != 1.0
            or gutter.top + gutter.bottom >= height
        ):
            return frame
        frame.top, frame.bottom = gutter.top, height - gutter.bottom
        frame.content_width = width - gutter.width
        frame.x1, frame.x2 = crop.x, crop.right
        frame.full = crop.x == 0 and crop.width == width
        base_background, background = widget.background_colors
        frame.background = background
        frame.inner_style = Style(bgcolor=(base_background + background).rich_color)
        frame.filters = tuple(widget.get_line_filters())
        sample = widget._styles_cache.render_widget(widget, Region(0, frame.top, width, 1))[0]
        frame.edge_left = sample.crop(0, gutter.left) if gutter.left else None
        frame.edge_right = sample.crop(width - gutter.right, width) if gutter.right else None
        frame.usable = True
        return frame

    def row(self, widget: Any, y: int) -> Strip:
        content: Strip = widget.render_line(y - self.top)
        # The row drawn from this very strip before (a strip never changes, nor does a frame):
        # a log's page turn shows rows it drew already, empty rows share one strip, a die line
        # comes back.
        kept = self.rows.get(id(content))
        if kept is not None and kept[0] is content:
            return kept[1]
        line = content.adjust_cell_length(self.content_width, self.inner_style)
        for line_filter in self.filters:
            line = line.apply_filter(line_filter, self.background)
        if self.edge_left is not None or self.edge_right is not None:
            parts = [p for p in (self.edge_left, line, self.edge_right) if p is not None]
            line = _join(parts)
        if not self.full:
            line = line.crop(self.x1, self.x2)
        if len(self.rows) >= 2 * (self.bottom - self.top) + 8:
            self.rows.clear()  # bounded: about two boxes' worth of rows
        self.rows[id(content)] = (content, line)
        return line
