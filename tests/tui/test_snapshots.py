"""Snapshot tests (pytest-textual-snapshot) at 80x24 and 120x40: fixed seeds, bots without
delay, animations off, replays written at a fixed time. Update with ``--snapshot-update`` and
look at the SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import go500_app, make_app, write_replay
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenReplay
from tui.screens.go500 import Go500TableScreen, stage_of
from tui.screens.replay import ReplayScreen

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES)
def test_home(snap_compare, size):
    assert snap_compare(make_app(), terminal_size=size)


def test_too_small_notice(snap_compare):
    assert snap_compare(make_app(), terminal_size=(50, 14))


async def _mid_turn(pilot) -> None:
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
    )
    screen = app.screen
    for _ in range(80):
        await wait_for(pilot, lambda: screen.acting_seat() == 0)
        if stage_of(screen.fold.state, 0) == "decide":
            break
        await pilot.press("r")
    turn = screen.fold.state.turns[0]
    pick = next(i for i in range(1, 6) if not turn.saved[i] and not turn.removed[i])
    await pilot.press(str(pick))
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_go500_table_mid_turn(snap_compare, size):
    assert snap_compare(
        go500_app("me,cautious,bold", seed=3), terminal_size=size, run_before=_mid_turn
    )


async def _finish(pilot, *, clear: bool = True) -> None:
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
    )
    screen = app.screen
    for _ in range(400):
        await wait_for(pilot, lambda: screen.acting_seat() == 0 or screen.fold.result() is not None)
        if screen.fold.result() is not None:
            break
        stage = stage_of(screen.fold.state, 0)
        await pilot.press(
            "s" if stage == "decide" and screen.fold.state.turns[0].showing >= 60 else "r"
        )
    assert screen.fold.result() is not None
    if clear:
        app.clear_notifications()
    await pilot.pause()


def test_go500_finished_race(snap_compare):
    assert snap_compare(
        go500_app("me,cautious,bold", seed=3), terminal_size=(100, 30), run_before=_finish
    )


@pytest.mark.parametrize("size", SIZES)
def test_replay_viewer(snap_compare, size, tmp_path: Path):
    path = write_replay(tmp_path, seed=5)

    async def seek(pilot) -> None:
        app = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await app.workers.wait_for_complete()
        app.screen.goto_turn(9)
        await pilot.pause()

    assert snap_compare(
        make_app(start=OpenReplay(path=str(path))), terminal_size=size, run_before=seek
    )


async def _open_new_game_form(pilot) -> None:
    from tui.screens.newgame import NewGameScreen

    app = pilot.app
    await pilot.press("n")
    await wait_for(
        pilot, lambda: isinstance(app.screen, NewGameScreen) and bool(app.screen.query("#newgame-form"))
    )
    await pilot.press("tab", "tab", "right")  # race length 500 -> 600, focused


def test_new_game_form(snap_compare):
    assert snap_compare(make_app(), terminal_size=(100, 40), run_before=_open_new_game_form)
