"""What a new player saw wrong in a whole Go 500 game at 80x24 (issue 13, played by keyboard in
tmux: a game against bots, left and resumed, its replay stepped by turn): a resumed table showed
a driver's qualifying dice and a flag from turns ago at the start of a turn; the footer read
"1 Save 1-6"; the replay list did not say how to open one; Home's long "Resume" entries wrapped
under the key and split "turn 5"."""

from __future__ import annotations

from pathlib import Path

from core.go500.model import TurnStarted
from tests.tui.conftest import go500_app, make_app, write_replay
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.go500 import Go500TableScreen, stage_of
from tui.screens.home import HomeScreen, entry_text
from tui.screens.replay_browser import ReplayBrowser
from tui.screens.table import LeaveTable
from tui.widgets.go500 import Callouts, DiceTray
from tui.widgets.keys import KeyFooter


def at_table(app) -> bool:
    return isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None


def footer_words(screen) -> str:
    return str(screen.query_one(KeyFooter).render())


async def test_a_resumed_table_shows_the_last_roll_not_qualifying_or_an_old_flag():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        screen = app.screen
        # Qualify, then play turns until Ann is asked again at the start of a later turn.
        for _ in range(40):
            await wait_for(pilot, lambda: screen.acting_seat() == 0)
            state = screen.fold.state
            if state.phase == "turn" and state.turns[0].rolls == 0 and state.round > 1:
                break
            stage = stage_of(state, 0)
            await pilot.press("s" if stage == "decide" else "r")
        else:
            raise AssertionError("Ann never started a later turn")
        live_caption = screen.query_one(DiceTray).views()[3]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveTable))
        await pilot.press("k")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("u")
        await wait_for(pilot, lambda: at_table(app))
        await pilot.pause()
        resumed = app.screen
        caption = resumed.query_one(DiceTray).views()[3]
        assert "qualifies" not in caption, caption
        assert caption == live_caption  # the same picture as before leaving
        events = resumed.fold.last_events
        since = max(i for i, e in enumerate(events) if isinstance(e, TurnStarted))
        shown = str(resumed.query_one(Callouts).render())
        assert "more in the log" not in shown or since < len(events) - 1
        assert "pole" not in shown  # not qualifying's call-out from the race's start


async def test_the_save_keys_read_1_to_6_save():
    app = go500_app("me,cautious", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        await pilot.pause()
        words = footer_words(app.screen)
        assert " 1-6 Save " in words
        assert "Save 1-6" not in words


async def test_the_replay_list_says_enter_opens(tmp_path: Path):
    write_replay(tmp_path / "replays")
    app = make_app(data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayBrowser))
        await pilot.pause()
        assert "Open " in footer_words(app.screen)
        assert "Open" in app.screen.query_one(KeyFooter).shown


def test_a_long_resume_entry_wraps_under_its_words():
    words = "Resume Cthulhu 500 · Ann, Shrewd, Random, Random2, Random3, Random4 · turn 12"
    lines = entry_text("u", words).plain.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("u  Resume Cthulhu 500")
    assert lines[1].startswith("   ")
    assert not lines[1].startswith("    ")
    assert all(len(line) <= 56 for line in lines)  # inside the menu, its scrollbar too
    assert not lines[0].endswith("turn")
    assert "turn 12" in lines[1]


async def test_the_next_cup_race_waits_behind_the_standings():
    from tui.screens.go500 import CupStandings

    app = go500_app("me,cautious", seed=3, mode="cup", schedule=[["Short", 400], ["Long", 400]])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        screen = app.screen
        for _ in range(400):
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, CupStandings)
                or (app.screen is screen and screen.acting_seat() == 0),
            )
            if isinstance(app.screen, CupStandings):
                break
            stage = stage_of(screen.fold.state, 0)
            turn = screen.fold.state.turns[0]
            await pilot.press("s" if stage == "decide" and turn.showing >= 60 else "r")
        else:
            raise AssertionError("the first race never ended")
        held = screen.fold.state_id
        await pilot.pause(0.3)
        assert screen.fold.state_id == held, "nothing of the next race shows behind the standings"
        assert screen._holding
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen)
        assert not screen._holding


async def test_the_seed_commitment_shows_in_the_race_log_at_80_columns():
    """The log's first line (the commitment, eight rows at 80 columns) is not paged away at the
    start: the box is filled, not left with the last line alone at its top."""
    from tui.widgets.common import RaceLog

    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        await pilot.pause()
        log = app.screen.query_one(RaceLog)
        rows = [log.render_line(y).text for y in range(log.content_size.height)]
        commitment = app.screen.fold.table.commitment
        shown = "".join(row.strip() for row in rows)
        assert commitment in shown, rows
        assert rows[-1].strip() == "engines!"  # the newest line still ends the box
