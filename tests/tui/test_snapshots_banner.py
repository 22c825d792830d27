"""Snapshots of the hot-seat "your turn" banner (issue 13) at 80x24 and 120x40: a Go 500 game
of two players at one keyboard, just after the keyboard passed from Ann to Bea."""

from __future__ import annotations

import pytest

from tests.tui.conftest import go500_app
from tests.tui.test_hot_seat import hand_over
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.go500 import Go500TableScreen

SIZES = [(80, 24), (120, 40)]


async def _handed_over(pilot) -> None:
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
    )
    await hand_over(pilot, app.screen)
    assert app.screen.query_one("#turn-banner").display


@pytest.mark.parametrize("size", SIZES)
def test_the_your_turn_banner(snap_compare, size):
    assert snap_compare(
        go500_app("me,hot:Bea", seed=1, race_length=400),
        terminal_size=size,
        run_before=_handed_over,
    )
