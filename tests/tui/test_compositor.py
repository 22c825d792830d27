"""`tui.compositor.BandedCompositor` and `tui.widgets.fastlines.FastLines`: a screen kept up to
date by its partial updates equals a fresh full render of the same screen (every widget
rendered again, no kept lines), frame after frame, while a real table plays.

A tiny terminal (a grid of cells) applies every update the screen's compositor produces, exactly
as a terminal would (cursor moves and text); after each update the grid must equal the
compositor's own full render, cell by cell (text and style).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.app import App
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from tui.app import OpenTable, SpeedwayApp
from tui.compositor import BandedCompositor, bands
from tui.screens.base import SpeedwayScreen
from tui.widgets.fastlines import FastLines

ME = Identity(id="test:me", nickname="me")


class Grid:
    """The cells a terminal shows: (text, style) per cell."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[tuple[str, Any]]] = [[(" ", None)] * width for _ in range(height)]

    def load(self, strips: list[Any]) -> None:
        for y, strip in enumerate(strips[: self.height]):
            if not isinstance(strip, Strip):  # a layout update's line is its chops
                strip = Strip.join(list(strip))
            self._write(0, y, list(strip))

    def _write(self, x: int, y: int, segments: list[Segment]) -> int:
        for seg in segments:
            for ch in seg.text:
                for k in range(cell_len(ch)):  # a wide character takes two cells
                    if 0 <= x < self.width and 0 <= y < self.height:
                        self.cells[y][x] = (ch if k == 0 else "", seg.style)
                    x += 1
        return x

    def apply(self, update: Any, console: Console) -> None:
        if isinstance(update, LayoutUpdate):
            self.load(list(update.strips))
            return
        x = y = 0
        for seg in update.__rich_console__(console, console.options):
            if seg.control:
                for control in seg.control:
                    if control[0].name == "CURSOR_MOVE_TO":
                        x, y = control[1], control[2]
            elif seg.text == "\n":
                continue
            else:
                x = self._write(x, y, [seg])


def test_bands_group_dirty_regions_by_lines():
    got = bands([Region(0, 10, 5, 2), Region(0, 0, 80, 1), Region(30, 11, 5, 3), Region(0, 1, 2, 1)])
    assert got == [Region(0, 0, 80, 2), Region(0, 10, 35, 4)]


@pytest.mark.parametrize(
    ("game_id", "bot", "players"),
    [("cthulhu500", "shrewd", 4), ("go500", "bold", 3), ("champions", "promoter", 3)],
)
async def test_partial_updates_keep_the_terminal_equal_to_a_full_render(game_id, bot, players):
    hub = LocalHub(None, persist=False, bot_delay=1e9, lobby_interval=0.0)
    seats = [SeatSpec(kind="human", name=f"P{i}", identity=ME.id) for i in range(players)]
    table_id = await hub.create_table(TableSpec(game=game_id, seats=seats, seed=11), ME)
    app = SpeedwayApp(
        hub, Identity(id="test:v", nickname="v"), start=OpenTable(table_id=table_id),
        animate=False, network=True,
    )
    checked = 0
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            if getattr(app.screen, "fold", None) is not None:
                break
            await pilot.pause(0.01)
        screen = app.screen
        compositor = screen._compositor
        assert isinstance(compositor, BandedCompositor)
        console = Console(width=80, height=24, color_system="truecolor", force_terminal=True)
        grid = Grid(80, 24)
        FastLines.FAST_LINES = False
        try:
            grid.load(compositor.render_strips())
        finally:
            FastLines.FAST_LINES = True
        original = compositor.render_update
        mismatches: list[int] = []

        def render_update(*args: Any, **kwargs: Any) -> Any:
            nonlocal checked
            update = original(*args, **kwargs)
            if update is not None:
                grid.apply(update, console)
                expect = Grid(80, 24)
                FastLines.FAST_LINES = False  # the truth: every widget rendered afresh
                try:
                    expect.load(compositor.render_strips())
                finally:
                    FastLines.FAST_LINES = True
                if isinstance(update, ChopsUpdate):
                    checked += 1
                if expect.cells != grid.cells:
                    mismatches.append(checked)
                    for y in range(24):
                        if expect.cells[y] != grid.cells[y]:
                            xs = [x for x in range(80) if expect.cells[y][x] != grid.cells[y][x]]
                            print("DIFF", game_id, checked, y, xs[:6], repr("".join(c for c, _ in grid.cells[y])), repr("".join(c for c, _ in expect.cells[y])))
            return update

        compositor.render_update = render_update  # type: ignore[method-assign]
        table = hub.table(table_id)
        for _ in range(40):
            pending = list(table.pending())
            if not pending or table.result() is not None:
                break
            action = await hub.hint(table_id, ME, pending[0], bot)
            await hub.submit(table_id, ME, pending[0], action, table.state_id)
            await pilot.pause()
            await asyncio.sleep(0.02)
    await hub.close()
    assert checked >= 20, "the steps should have been drawn as partial updates"
    assert mismatches == []


class _Short(Widget):
    """Renders one line fewer than it is tall (as a scroll bar caught between two layouts)."""

    DEFAULT_CSS = "_Short { height: 3; width: 100%; }"

    def render_lines(self, crop: Region) -> list[Strip]:
        return super().render_lines(crop)[:-1]


class _Front(SpeedwayScreen):
    def body(self) -> Any:
        yield Static("behind " * 40, id="behind")  # 4 lines at 80 columns
        yield _Short()


class _FrontApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(_Front())


async def test_a_widget_that_renders_fewer_lines_leaves_no_hole_in_the_frame():
    """The band renderer skips what is behind a widget in front; if that widget then renders
    fewer lines than its area, the crop is rendered again as Textual does: no cell is left
    without a strip (it used to end the session: "'NoneType' has no attribute 'render'")."""
    app = _FrontApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        assert isinstance(compositor, BandedCompositor)
        screen = compositor.size.region
        chops = compositor._render_chops(screen, lambda y: True)
        assert all(None not in line.values() for line in chops)
        update = compositor.render_update(full=True)
        assert isinstance(update, LayoutUpdate)
        console = Console(width=80, height=24, force_terminal=True)
        assert list(update.render_segments(console))  # every strip is there to render
