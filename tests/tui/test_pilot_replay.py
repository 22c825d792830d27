"""The replay viewer with a real replay file: open, verify, step, seek, play, view, branch."""

from __future__ import annotations

from pathlib import Path

from replays import open_replay
from tests.tui.conftest import make_app, write_replay
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenReplay
from tui.screens.go500 import Go500TableScreen
from tui.screens.replay import AskTurn, BranchDialog, ReplayScreen
from tui.screens.replay_browser import ReplayBrowser


def viewer(app) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


async def test_open_step_and_seek_a_replay(replay_file: Path):
    replay = open_replay(replay_file)
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = viewer(app)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.report is not None
        assert screen.report.ok
        assert "✓ Verified" in str(screen.query_one("#verify-line").render())
        # A finished file opens at its start; the result is one key away.
        assert screen.k == 0
        assert "End: the result" in str(screen.query_one("#timeline").render())
        await pilot.press("end")
        assert screen.k == replay.last_step
        await pilot.press("home")
        assert screen.k == 0
        await pilot.press("right", "right", "right")
        assert screen.k == 3
        await pilot.press("left")
        assert screen.k == 2
        # One turn forward lands on a step where a new turn starts.
        await pilot.press("right_square_bracket")
        assert screen.k in screen._turn_starts
        assert screen.k > 2
        turn_before = screen.turn_index()
        await pilot.press("left_square_bracket")
        assert screen.turn_index() == turn_before - 1
        # Go to turn 5.
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, AskTurn))
        await pilot.press("5", "enter")
        await pilot.pause()
        assert screen.k == screen._turn_starts[4]
        assert screen.turn_index() == 5
        # The board shows the state the file has at that step.
        data = screen.data()
        assert data.state == replay.state_at(screen.k)
        await pilot.press("end")
        assert screen.k == replay.last_step
        assert f"step {replay.last_step}/{replay.last_step}" in str(
            screen.query_one("#timeline").render()
        )


async def test_play_pause_and_perspective(replay_file: Path):
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = viewer(app)
        await pilot.press("home", "space")
        assert screen.playing
        await wait_for(pilot, lambda: screen.k >= 2, tries=2000)
        await pilot.press("space")
        assert not screen.playing
        k = screen.k
        await pilot.pause(0.2)
        assert screen.k == k
        await pilot.press("v")
        assert screen.perspective == 0
        assert "view: Cautious's view" in str(screen.query_one("#timeline").render())
        await pilot.press("v", "v", "v")
        assert screen.perspective is None
        from tui.screens.chart import RaceChartScreen

        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceChartScreen))
        assert app.screen.cursor_state_id == k


async def test_a_broken_file_says_why(tmp_path: Path):
    bad = tmp_path / "bad.replay"
    bad.write_bytes(b"this is not a replay")
    app = make_app(start=OpenReplay(path=str(bad)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        text = str(app.screen.query_one("#verify-line").render())
        assert text.startswith("✗ Cannot open:")


async def test_branch_starts_a_new_table_from_exactly_that_state(replay_file: Path):
    replay = open_replay(replay_file)
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = viewer(app)
        screen.goto_turn(6)
        k = screen.k
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BranchDialog))
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        table = app.screen
        # The new table's setup is exactly the replay's past up to step k; seat 1 is now "me".
        live = app.hub.table(table.table_id)
        assert live.history[0].events == replay.events_upto(k)
        game = replay.game
        state = game.new_state(replay.config, len(replay.seats))
        for event in live.history[0].events:
            state = game.evolve(state, event)
        assert state == replay.state_at(k)
        info = app.hub.tables(app.identity)[0]
        assert info.seats[0].identity == app.identity.id
        assert info.seats[1].bot == replay.seats[1].bot
        assert table.perspective == 0
        # The branch names its source by replay id, not by a path on this machine.
        source = app.hub._room(table.table_id).spec.branched_from
        assert source["source"] == replay_file.stem
        assert "/" not in source["source"]
        assert source["step"] == k


async def test_browser_lists_replays_newest_first_and_opens_one(tmp_path: Path):
    folder = tmp_path / "replays"
    write_replay(folder, seed=5)
    write_replay(folder, seed=6, bots=("bold", "random"))
    app = make_app(data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayBrowser))
        browser = app.screen
        assert len(browser.files) == 2
        assert {len(f.players) for f in browser.files} == {2, 3}
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.path == browser.files[0].path
