"""A modal over a table lists its own keys, and only those (issue 13): its footer is as tall as
the table's (two rows at 80 columns for Champions and Cthulhu 500), so no row of the table's
footer — keys that do nothing while the modal is open — shows under or beside the modal's."""

from __future__ import annotations

import pytest

from net.local_hub import LocalHub
from tests.tui.conftest import go500_app
from tests.tui.test_champions_screen import champions_app, open_table
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.table import LeaveTable, TableInfoScreen
from tui.widgets.keys import KeyFooter

SIZES = [(80, 24), (120, 40)]


def footer_of(screen) -> KeyFooter:
    return next(node for node in screen.children if isinstance(node, KeyFooter))


@pytest.mark.parametrize(("key", "modal"), [("I", TableInfoScreen), ("escape", LeaveTable)])
async def test_a_modal_footer_covers_the_table_footer(key, modal):
    app = champions_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(app, pilot)
        await pilot.pause()
        below = footer_of(table)
        assert below.rows == 2  # the Champions keys take two rows at 80 columns
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, modal))
        await pilot.pause()
        mine = footer_of(app.screen)
        assert mine.size.height == below.size.height == 2
        assert mine.region.y == below.region.y  # exactly over it: no table key shows
        assert "Roll" not in mine.shown
        assert set(mine.shown) & {"Close", "Keep for later"}


async def test_a_one_row_table_footer_keeps_the_modal_footer_one_row():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: getattr(app.screen, "fold", None) is not None)
        await pilot.press("I")
        await wait_for(pilot, lambda: isinstance(app.screen, TableInfoScreen))
        await pilot.pause()
        assert footer_of(app.screen).size.height == 1
        assert list(footer_of(app.screen).shown) == ["Close"]


@pytest.mark.parametrize("size", SIZES)
def test_the_info_panel_over_a_champions_table(snap_compare, size, monkeypatch):
    monkeypatch.setattr(LocalHub, "_new_id", lambda self: "5eed7ab1")  # the title shows the id

    async def open_info(pilot) -> None:
        await open_table(pilot.app, pilot)
        await pilot.pause()
        await pilot.press("I")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TableInfoScreen))
        await pilot.pause()

    assert snap_compare(champions_app(), terminal_size=size, run_before=open_info)


async def test_the_pass_the_keyboard_cover_lists_its_key():
    from tests.tui.test_cthulhu_screen import cthulhu_app
    from tui.screens.table import PassKeyboard

    app = cthulhu_app("me,hot:Bea,random", seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PassKeyboard))
        await pilot.pause()
        assert list(footer_of(app.screen).shown) == ["Show my seat"]
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, PassKeyboard))
