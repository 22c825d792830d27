"""The base every Speedway screen shares: a polite "terminal too small" notice.

Owns `SpeedwayScreen`: subclasses yield their content from `body()`; below `MIN_SIZE` the body
is hidden and one centred notice says what size is needed. Must not hold game state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from tui.compositor import BandedCompositor
from tui.widgets.fastlines import FastLines

if TYPE_CHECKING:
    from tui.app import SpeedwayApp


class TooSmall(Static):
    """Shown instead of a screen's body when the terminal is below its minimum size."""


class SpeedwayScreen(FastLines, Screen[None]):
    MIN_SIZE: ClassVar[tuple[int, int]] = (80, 24)

    def __init__(self) -> None:
        super().__init__()
        # Repaint separate changed areas separately (tui.compositor): a step changes a few
        # lines at the top and bottom, not the whole screen.
        self._compositor = BandedCompositor()

    def _screen_resized(self, size: Size) -> None:
        """A resize to the size the screen is laid out at changes nothing: no second layout.

        Textual sends a newly shown screen a resize event after its resume has laid it out,
        and each resize lays out every screen behind it too: opening the new-game form was
        three layouts of ~15 ms (itself twice, the lobby behind it once) where one does."""
        if size == self._compositor.size and not self._layout_required:
            return
        super()._screen_resized(size)

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
