"""A screen's big work leaves the shared event loop to others in between (the sliced first
paint of `SpeedwayScreen`, `tui.release.release_in_slices`) and still does all of it. On a
server every session runs on one loop: one player opening the rules page held every other
table's step back for 50-80 ms."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.tui.conftest import make_app
from tui.screens.base import SpeedwayScreen
from tui.screens.rules import RulesScreen
from tui.widgets.rulespage import RulesPage


async def test_a_big_first_paint_is_sliced_and_paints_what_a_full_render_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rules page's first frame is rendered in slices with the loop free in between,
    then painted from the warm caches; the frame equals a full render of the screen."""
    slices: list[float] = []
    paint_slice = SpeedwayScreen._paint_slice

    def counting(self: Any) -> None:
        slices.append(time.perf_counter())
        paint_slice(self)

    monkeypatch.setattr(SpeedwayScreen, "_paint_slice", counting)
    monkeypatch.setattr("tui.screens.base.PAINT_SLICE", 0.0)  # a slice per widget
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        slices.clear()
        app.show_rules("go500")
        for _ in range(100):
            await pilot.pause(0.01)
            if isinstance(app.screen, RulesScreen) and app.screen._painting is None and slices:
                break
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        assert len(slices) >= 3, "the first paint took several turns of the loop"
        shown = app.export_screenshot()
        screen._compositor._dirty_regions.add(screen.size.region)
        monkeypatch.setattr("tui.screens.base.BIG_PAINT", 2.0)  # now one full paint
        screen.refresh()
        await pilot.pause()
        assert app.export_screenshot() == shown
        assert "Go 500" in "".join(str(s.text) for s in screen.query_one(RulesPage).lines(78))


async def test_rules_pages_are_laid_out_once_for_every_session() -> None:
    """Two apps (two SSH sessions) showing the same page at the same width share its lines."""
    pages = []
    for _ in range(2):
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.show_rules("cthulhu500")
            for _ in range(50):
                await pilot.pause(0.01)
                if isinstance(app.screen, RulesScreen) and app.screen.query(RulesPage):
                    break
            await pilot.pause()
            page = app.screen.query_one("#cthulhu500 RulesPage", RulesPage)
            width = page.scrollable_content_region.width
            assert width > 0
            pages.append(page.lines(width))
            before = page.scroll_offset.y
            await pilot.press("pagedown")
            await pilot.pause()
            assert page.scroll_offset.y > before, "PgDn scrolls the page"
    assert pages[0] is pages[1], "the second session reused the first one's lines"
    assert len(pages[0]) > 24
