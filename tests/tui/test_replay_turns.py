"""The replay viewer counts the game's own turns, refuses turns a game does not have, jumps to
races and happenings, shows the Cup standings between races, keeps its key keys on screen at 80
columns, and `esc` from `speedway replay FILE` ends the app."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import registry
from core.game import Seat, Table, config_from_options
from replays import open_replay, save_finished_table
from tests.tui.conftest import FIXED, make_app, write_replay
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenReplay
from tui.screens.go500 import CupStandings
from tui.screens.replay import AskTurn, ReplayScreen
from tui.widgets.keys import KeyFooter


def cthulhu_replay(folder: Path) -> Path:
    game = registry.get("cthulhu500")
    seats = [Seat(name=n, bot="shrewd") for n in ("Ann", "Bob", "Cy")]
    table = Table(game, game.default_config(), seats, 7)
    table.run_bots()
    return save_finished_table(table, folder, now=FIXED)


async def open_viewer(app, pilot) -> ReplayScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


async def test_a_cthulhu_turn_is_the_games_turn_and_g_lands_on_it(tmp_path: Path):
    path = cthulhu_replay(tmp_path)
    replay = open_replay(path)
    last_turn = replay.state_at(replay.last_step).turn
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_viewer(app, pilot)
        assert len(screen._turn_starts) == last_turn  # "Turn 69" in the game = 69 turns here
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, AskTurn))
        await pilot.press("3", "0", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        assert replay.state_at(screen.k).turn == 30
        assert f"Turn 30/{last_turn}" in str(screen.query_one("#timeline").render())
        # One turn on is the game's next turn, not the next change of who answers.
        await pilot.press("right_square_bracket")
        assert replay.state_at(screen.k).turn == 31
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert replay.state_at(screen.k).turn == 29


async def test_g_refuses_a_turn_the_game_does_not_have(replay_file: Path):
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_viewer(app, pilot)
        turns = len(screen._turn_starts)
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, AskTurn))
        await pilot.press("9", "9", "9", "enter")
        await pilot.pause()
        assert isinstance(app.screen, AskTurn)  # still asking
        error = str(app.screen.query_one("#turn-error").render())
        assert f"There is no turn 999: this game has turns 1 to {turns}." in error
        await pilot.press("escape")
        assert app.screen is screen
        assert screen.k == 0


async def test_n_and_f_jump_to_the_next_race_landmark_and_happening(replay_file: Path):
    replay = open_replay(replay_file)
    game = replay.game
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_viewer(app, pilot)
        await pilot.press("f")
        assert screen.k > 0
        assert "event" in {game.landmark(e) for e in replay.steps[screen.k].events}
        earlier = [
            k
            for k in range(1, screen.k)
            if "event" in {game.landmark(e) for e in replay.steps[k].events}
        ]
        assert earlier == []  # the first one, none skipped
        await pilot.press("n")
        assert "race" in {game.landmark(e) for e in replay.steps[screen.k].events}
        assert game.result(replay.state_at(screen.k)) is not None  # the race's end


async def test_stepping_past_a_cup_race_shows_the_standings(tmp_path: Path):
    path = write_replay(
        tmp_path,
        seed=2,
        bots=("bold", "bold"),
        mode="cup",
        schedule='[["Short", 400], ["Long", 400]]',
    )
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_viewer(app, pilot)
        await pilot.press("n")  # the end of the first race
        await wait_for(pilot, lambda: isinstance(app.screen, CupStandings))
        assert not app.screen.final
        await pilot.press("enter")
        assert app.screen is screen


async def test_the_footer_keeps_back_branch_and_chart_at_80_columns(replay_file: Path):
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_viewer(app, pilot)
        await pilot.pause()
        shown = screen.query_one(KeyFooter).shown
        for label in ("Back", "Branch", "Chart", "Step"):
            assert label in shown
            start, end = shown[label]
            assert end <= 80
            assert end - start >= len(label) + 2, "the whole key and word are on screen"


async def test_esc_from_speedway_replay_file_ends_the_app(replay_file: Path):
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_viewer(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app._exit  # the app is ending: back to the shell, not to Home


async def test_esc_from_a_replay_opened_from_home_goes_back(replay_file: Path):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        home = app.screen
        app.open_replay(replay_file)
        await open_viewer(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home


@pytest.mark.parametrize("game_id", ["go500", "cthulhu500", "champions"])
def test_every_game_declares_turns(game_id):
    game = registry.get(game_id)
    bot = game.default_bot
    table = Table(game, config_from_options(game, {}), [Seat(name=n, bot=bot) for n in "AB"], 3)
    table.run_bots()
    assert any(game.turn_started(e) for step in table.history for e in step.events)


async def test_arrows_and_footer_work_over_a_cthulhu_board_at_80_columns(tmp_path: Path):
    path = cthulhu_replay(tmp_path)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_viewer(app, pilot)
        await pilot.pause()
        await pilot.press("right", "right", "left")  # no list on the board takes the arrows
        assert screen.k == 1
        await pilot.press("end")
        assert screen.k == open_replay(path).last_step
        shown = screen.query_one(KeyFooter).shown
        for label in ("Back", "Branch", "Chart", "Step"):
            start, end = shown[label]
            assert end <= 80
            assert end - start >= len(label) + 2
        timeline = str(screen.query_one("#timeline").render())
        assert len(timeline.splitlines()[0]) <= 78  # one line, never wrapped over the bar
