"""Snapshots of leaving a local game: the keep/abandon question over the table, and Home with a
kept game to resume (80x24 and 120x40). Update with ``--snapshot-update`` and look at them."""

from __future__ import annotations

import pytest

from tests.tui.conftest import go500_app
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.go500 import Go500TableScreen
from tui.screens.home import HomeScreen
from tui.screens.table import LeaveTable

SIZES = [(80, 24), (120, 40)]


async def _ask(pilot) -> None:
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
    )
    await wait_for(pilot, lambda: app.screen.acting_seat() == 0)
    await pilot.press("escape")
    await wait_for(pilot, lambda: isinstance(app.screen, LeaveTable))
    await pilot.pause()


async def _kept(pilot) -> None:
    await _ask(pilot)
    await pilot.press("k")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, HomeScreen))
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_leave_question(snap_compare, size):
    assert snap_compare(go500_app("me,cautious,bold", seed=3), terminal_size=size, run_before=_ask)


@pytest.mark.parametrize("size", SIZES)
def test_home_offers_the_kept_game(snap_compare, size):
    assert snap_compare(
        go500_app("me,cautious,bold", seed=3), terminal_size=size, run_before=_kept
    )
