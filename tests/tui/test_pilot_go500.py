"""A whole Go 500 race against bots, played through the keyboard with a real Textual pilot.

The app talks to a real in-process hub (`LocalHub`); nothing here touches game state directly.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.go500.model import Go500State
from tests.tui.conftest import go500_app
from tui.screens.go500 import Go500TableScreen, stage_of
from tui.widgets.common import StatusLine


async def wait_for(pilot, predicate: Callable[[], bool], tries: int = 400) -> None:
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause()
    raise AssertionError("the screen never reached the expected state")


def table_screen(app) -> Go500TableScreen:
    screen = app.screen
    assert isinstance(screen, Go500TableScreen)
    return screen


async def test_play_a_whole_go500_race_against_bots_with_the_keyboard():
    app = go500_app("me,cautious,bold", seed=3, race_length=400)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        screen = table_screen(app)
        keys_sent = 0
        saved_something = False
        for _ in range(600):
            await wait_for(
                pilot,
                lambda: screen.fold.result() is not None or screen.acting_seat() == 0,
            )
            if screen.fold.result() is not None:
                break
            state: Go500State = screen.fold.state
            stage = stage_of(state, 0)
            if stage == "decide":
                turn = state.turns[0]
                if turn.showing >= 140:
                    await pilot.press("s")
                else:
                    # Save the best unsaved track die with its number key, then roll the rest.
                    options = [
                        i
                        for i in range(1, 6)
                        if not turn.saved[i] and not turn.removed[i] and not turn.lost[i]
                    ]
                    if len(options) > 1:
                        await pilot.press(str(options[0]))
                        assert screen.picked, "the number key should pick a die to save"
                        saved_something = True
                    await pilot.press("r")
            else:
                await pilot.press("r")
            keys_sent += 1
            await pilot.pause()
        result = screen.fold.result()
        assert result is not None, "the race should end"
        assert keys_sent > 5
        assert saved_something
        totals = screen.fold.state.totals
        assert max(totals) >= 400
        # The scoreboard and status say the race is over.
        status = str(screen.query_one(StatusLine).render())
        assert "Race over" in status
        # The footer drops the move keys once the race is over (the table screens' rule).
        await pilot.pause()
        assert screen.check_action("roll", ()) is False
        rows = app.screen._compositor.render_strips()
        footer = " ".join("".join(s.text for s in row) for row in rows[-2:])
        assert "r Roll" not in footer
        # The race chart: one line per driver, ending at each driver's final total.
        from tui.screens.chart import RaceChartScreen

        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceChartScreen))
        (miles,) = app.screen.series
        assert [line[-1] for line in miles.values] == list(totals)
        await pilot.press("escape")
        assert app.screen is screen


async def test_illegal_action_shows_the_rules_sentence():
    app = go500_app("me,cautious", seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, Go500TableScreen)
                and app.screen.fold is not None
                and app.screen.acting_seat() == 0
            ),
        )
        screen = table_screen(app)
        # Stop before rolling: the engine refuses, and its sentence is shown.
        before = screen.fold.state_id
        await pilot.press("s")
        await wait_for(pilot, lambda: screen.query_one(StatusLine).has_class("-error"))
        text = str(screen.query_one(StatusLine).render())
        assert "Qualifying is one roll of the five Track Dice" in text
        assert "(rule G-QUALIFY)" in text
        assert screen.fold.state_id == before


async def test_clicking_a_die_picks_it_to_save():
    app = go500_app("me,cautious", seed=8)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        screen = table_screen(app)
        for _ in range(60):
            await wait_for(
                pilot, lambda: screen.acting_seat() == 0 or screen.fold.result() is not None
            )
            if stage_of(screen.fold.state, 0) == "decide":
                break
            await pilot.press("r")
        assert stage_of(screen.fold.state, 0) == "decide"
        turn = screen.fold.state.turns[0]
        target = next(i for i in range(1, 6) if not turn.saved[i])
        # Die i sits at columns 8*i .. 8*i+7 of the tray, rows 1-4.
        await pilot.click("#tray", offset=(8 * target + 3, 2))
        die = f"T{target}"
        assert die in screen.picked
        await pilot.click("#tray", offset=(8 * target + 3, 2))
        assert die not in screen.picked


async def play_to_the_end(pilot, screen: Go500TableScreen, on_modal=None) -> int:
    """Roll until 60+ miles show, then stop; close any Cup standings. Returns modals seen."""
    from tui.screens.go500 import CupStandings

    modals = 0
    app = pilot.app
    for _ in range(2000):
        await wait_for(
            pilot,
            lambda: (
                screen.fold.result() is not None
                or isinstance(app.screen, CupStandings)
                or (app.screen is screen and screen.acting_seat() == 0)
            ),
        )
        if isinstance(app.screen, CupStandings):
            modals += 1
            await pilot.press("enter")
            continue
        if screen.fold.result() is not None:
            break
        stage = stage_of(screen.fold.state, 0)
        if stage == "decide" and screen.fold.state.turns[0].showing >= 60:
            await pilot.press("s")
        else:
            await pilot.press("r")
    return modals


@pytest.mark.parametrize(
    ("options", "standings"),
    [
        ({"mode": "time_trial", "hours": 2}, 0),
        ({"mode": "multi_game", "race_length": 400}, 0),
        ({"mode": "cup", "schedule": [["Short", 400]]}, 1),
    ],
    ids=["time_trial", "multi_game", "cup"],
)
async def test_other_modes_play_from_the_screen(options, standings):
    app = go500_app("me,bold", seed=6, **options)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        screen = table_screen(app)
        modals = await play_to_the_end(pilot, screen)
        assert screen.fold.result() is not None
        assert screen.fold.config.mode == options["mode"]
        assert modals == standings


async def test_hot_seat_go500_two_humans_share_the_keyboard():
    app = go500_app("me,hot:Bea", seed=9, race_length=400)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        screen = table_screen(app)
        acted = set()
        for _ in range(600):
            await wait_for(
                pilot,
                lambda: screen.fold.result() is not None or screen.acting_seat() is not None,
            )
            if screen.fold.result() is not None:
                break
            seat = screen.acting_seat()
            acted.add(seat)
            state = screen.fold.state
            stage = stage_of(state, seat)
            done = stage == "decide" and state.turns[seat].showing >= 60
            await pilot.press("s" if done else "r")
        assert screen.fold.result() is not None
        assert acted == {0, 1}  # both humans played from this keyboard, no cover needed
        assert screen.perspective == 0
