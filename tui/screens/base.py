"""The base every Speedway screen shares: a polite "terminal too small" notice.

Owns `SpeedwayScreen`: subclasses yield their content from `body()`; below `MIN_SIZE` the body
is hidden and one centred notice says what size is needed. Must not hold game state.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from tui.compositor import BandedCompositor, bands
from tui.release import is_closed
from tui.widgets.fastlines import FastLines

if TYPE_CHECKING:
    from tui.app import SpeedwayApp


class TooSmall(Static):
    """Shown instead of a screen's body when the terminal is below its minimum size."""


PAINT_SLICE = 0.005  # seconds of rendering per turn of the event loop in a big paint
BIG_PAINT = 0.25  # a paint over at least this share of the screen is rendered in slices


class SpeedwayScreen(FastLines, Screen[None]):
    MIN_SIZE: ClassVar[tuple[int, int]] = (80, 24)

    def __init__(self) -> None:
        super().__init__()
        # Repaint separate changed areas separately (tui.compositor): a step changes a few
        # lines at the top and bottom, not the whole screen.
        self._compositor = BandedCompositor()
        self._painting: Iterator[Any] | None = None

    def _screen_resized(self, size: Size) -> None:
        """A resize to the size the screen is laid out at changes nothing: no second layout.

        Textual sends a newly shown screen a resize event after its resume has laid it out,
        and each resize lays out every screen behind it too: opening the new-game form was
        three layouts of ~15 ms (itself twice, the lobby behind it once) where one does."""
        if size == self._compositor.size and not self._layout_required:
            return
        super()._screen_resized(size)

    def _compositor_refresh(self) -> None:
        """Paint what changed; a big paint (a screen's first frame, a screen shown again) is
        rendered a slice at a time first.

        On a server every session shares one event loop: the first frame of a rules page or a
        new-game form is 25-65 ms of rendering in one go, and every step of every other table
        waits behind it. Here the widgets under the changed area are rendered ahead, in slices
        of `PAINT_SLICE` with the loop free in between (`Compositor._get_renders` is the very
        walk the paint does; the lines land in the widgets' caches), and then the frame is
        painted as usual from the warm caches. Paint requests while the slices run are folded
        into that one paint (what changed meanwhile is still marked dirty)."""
        if self._painting is not None:
            return
        compositor = self._compositor
        dirty = compositor._dirty_regions
        app = self.app
        size = compositor.size
        if (
            not dirty
            or self is not app.screen
            or app.is_inline
            or sum(band.area for band in bands(dirty)) < BIG_PAINT * size.area
        ):
            super()._compositor_refresh()
            return
        screen = size.region
        self._painting = (
            render
            for band in bands(dirty)
            if (crop := band.intersection(screen))
            for render in compositor._get_renders(crop)
        )
        self._paint_slice()

    def _paint_slice(self) -> None:
        renders = self._painting
        if renders is None or is_closed(self):
            self._painting = None
            return
        start = time.perf_counter()
        try:
            for _ in renders:
                if time.perf_counter() - start >= PAINT_SLICE:
                    asyncio.get_running_loop().call_soon(self._paint_slice)
                    return
        except Exception as error:  # as a paint would: the app reports it
            self._painting = None
            self.app._handle_exception(error)
            return
        if time.perf_counter() - start >= PAINT_SLICE / 2:  # the paint itself in a turn of its own
            self._painting = iter(())
            asyncio.get_running_loop().call_soon(self._paint_slice)
            return
        self._painting = None
        # Widgets that changed meanwhile: their areas join the paint (as the update timer
        # does before it paints), or the paint would forget them.
        self._compositor.update_widgets(self._dirty_widgets)
        super()._compositor_refresh()

    @property
    def speedway(self) -> SpeedwayApp:
        from tui.app import SpeedwayApp

        app = self.app
        assert isinstance(app, SpeedwayApp)
        return app

    def body(self) -> Iterable[Widget]:
        return ()

    def compose(self) -> ComposeResult:
        w, h = self.MIN_SIZE
        yield TooSmall(
            f"This screen needs a terminal of at least {w}×{h}.\n"
            "Please make the window larger (or the font smaller).\n\nctrl+q quits.",
            id="too-small",
        )
        yield from self.body()

    def on_mount(self) -> None:
        self._check_size(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def on_screen_resume(self) -> None:
        self._check_size(self.app.size.width, self.app.size.height)

    def _check_size(self, width: int, height: int) -> None:
        w, h = self.MIN_SIZE
        self.set_class(width < w or height < h, "-too-small")
