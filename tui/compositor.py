"""A compositor that repaints separate dirty areas separately.

Owns `BandedCompositor`, a `textual._compositor.Compositor` whose partial update renders each
horizontal *band* of dirty regions on its own. Textual's own partial update crops to the one
rectangle around every dirty region: a change in the top line and one in the status line near
the bottom make it render every widget of the screen over the whole height (each cached line
still goes through the styles cache, filters and the cut-up into chops, and an `OptionList`
renders its lines again every time). Grouping the dirty regions into bands whose line ranges do
not overlap, and cropping each band to its own rectangle, renders only the widgets under the
changed areas. The bytes sent are the same spans as before (`_Chops` writes them as
`ChopsUpdate` does); the test `tests/tui/test_compositor.py` checks that a screen updated this
way equals a full render.

Textual is pinned exactly (pyproject), so this private seam cannot move under us silently;
`SpeedwayScreen` installs it. Must not: change what a frame shows, only how much is rendered.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region

__all__ = ["BandedCompositor", "bands"]


def bands(regions: Iterable[Region]) -> list[Region]:
    """Dirty regions grouped into rectangles whose line ranges are disjoint (not touching).

    >>> bands([Region(0, 0, 80, 1), Region(0, 22, 80, 1), Region(10, 5, 5, 3), Region(40, 6, 5, 4)])
    [Region(x=0, y=0, width=80, height=1), Region(x=10, y=5, width=35, height=5), Region(x=0, y=22, width=80, height=1)]
    """
    out: list[Region] = []
    for region in sorted(regions, key=lambda r: (r.y, r.x)):
        if not region:
            continue
        if out and region.y <= out[-1].bottom:
            out[-1] = out[-1].union(region)
        else:
            out.append(region)
    return out


def _add_span(spans: list[tuple[int, int]], x1: int, x2: int) -> list[tuple[int, int]]:
    """``spans`` with ``[x1, x2)`` added, kept sorted and merged (touching spans join)."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if b < x1 or a > x2:
            out.append((a, b))
        else:
            x1, x2 = min(a, x1), max(b, x2)
    out.append((x1, x2))
    out.sort()
    return out


class _Chops(ChopsUpdate):
    """`ChopsUpdate` whose bytes are written as Textual writes them, with each cursor move
    formatted directly (Rich builds a `Control` and its segment for every move: a tenth of
    the cost of writing a frame)."""

    def render_segments(self, console: Any) -> str:
        sequences: list[str] = []
        append = sequences.append
        chops = self.chops
        chop_ends = self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            line = chops[y]
            ends = chop_ends[y]
            for end, (x, strip) in zip(ends, line.items(), strict=False):
                if strip is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)
                append(f"\x1b[{y + 1};{x + 1}H")  # `Control.move_to(x, y)`
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


class BandedCompositor(Compositor):
    """`Compositor` with a partial update that renders each band of dirty regions alone."""

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Any]]]:
        """As Textual's, but a crop also limits the *lines* rendered, not only the widgets.

        Textual renders every line of every widget whose clip overlaps the crop. Here a widget
        is rendered only if its visible area overlaps the crop, and only over the crop's lines
        (the full visible width, so every chop still starts and ends on a cut).
        """
        if crop is None or self._plain:
            yield from super()._get_renders(crop)
            return
        top, bottom = crop.y, crop.bottom
        left, right = crop.x, crop.right
        # Cells already painted by widgets in front, per line of the crop: merged (x1, x2)
        # spans. Widgets come front to back and the first strip for a cell wins, so a widget
        # whose area in the crop is fully covered (a container behind its children) is skipped,
        # and one partly covered is rendered only over its lines that still show.
        covered: list[list[tuple[int, int]]] = [[] for _ in range(bottom - top)]
        for widget, (region, clip) in self.visible_widgets.items():
            visible = region.intersection(clip)
            if not visible or visible.right <= left or visible.x >= right:
                continue
            y1 = max(visible.y, top)
            y2 = min(visible.bottom, bottom)
            if y2 <= y1:
                continue
            x1, x2 = visible.x, visible.right
            # Only cells inside the crop matter: a chop that starts left of it and reaches into
            # it is covered by the same widgets over its whole width (there is a cut at every
            # widget's edge), and nothing outside the crop is sent. (A container whose children
            # cover it inside the crop, though not a child outside it, is skipped.)
            c1, c2 = max(x1, left), min(x2, right)
            shows = []
            for y in range(y1, y2):
                spans = covered[y - top]
                for a, b in spans:  # inline, not a call: this runs for every line of every widget
                    if a <= c1 and c2 <= b:
                        break  # covered: adding the span would change nothing
                else:
                    shows.append(y)
                    covered[y - top] = _add_span(spans, c1, c2) if spans else [(c1, c2)]
            if not shows:
                continue
            y1, y2 = shows[0], shows[-1] + 1
            area = Region(x1, y1, x2 - x1, y2 - y1)
            strips = widget.render_lines(
                Region(area.x - region.x, area.y - region.y, area.width, area.height)
            )
            if len(strips) < area.height:
                self._short = True  # what it covers was skipped: a hole (`_render_chops`)
            yield area, area, strips

    _plain = False  # render as Textual does (`_render_chops` falls back to it)
    _short = False  # a widget rendered fewer lines than the area it covers

    def _render_chops(self, crop: Region, is_rendered_line: Any) -> Any:
        """As Textual's; should a widget in front render fewer lines than its area (what is
        behind it was skipped, leaving a hole), that crop is rendered again the way Textual
        renders it, every widget over its whole clip."""
        self._short = False
        chops = super()._render_chops(crop, is_rendered_line)
        if not self._short:
            return chops
        self._plain = True
        try:
            return super()._render_chops(crop, is_rendered_line)
        finally:
            self._plain = False

    def render_partial_update(self) -> ChopsUpdate | None:
        screen_region = self.size.region
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        spans = list(self._regions_to_spans(update_regions))
        is_rendered_line = {y for y, _, _ in spans}.__contains__
        crops = [b.intersection(screen_region) for b in bands(update_regions)]
        crops = [c for c in crops if c]
        if not crops:
            return None
        chops: list[Any] = list(self._render_chops(crops[0], is_rendered_line))
        for crop in crops[1:]:
            part = self._render_chops(crop, is_rendered_line)
            for y in crop.line_range:
                chops[y] = part[y]
        chop_ends = [cut_set[1:] for cut_set in self.cuts]
        return _Chops(chops, spans, chop_ends)
