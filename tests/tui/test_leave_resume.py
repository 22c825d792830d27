"""Leaving a running local game asks first; a kept game waits, paused, and Home resumes it; an
abandoned one is gone; a finished game just leaves. Over SSH a player with a seat at a running
table lands back at it (of several, the one played most recently), the lobby one key away. The
race log opens with the seed commitment."""

from __future__ import annotations

import asyncio

import pytest

from net.hub import SeatSpec, TableSpec
from tests.fakegame import GAME as DASH
from tests.fakegame import Stop
from tests.tui.conftest import ME, go500_app, make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenLobby
from tui.screens.go500 import Go500TableScreen
from tui.screens.home import HomeScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.table import LeaveTable, TableScreen


def at_table(app) -> bool:
    return isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None


async def test_keep_for_later_pauses_the_game_and_home_resumes_it():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        table_id = app.screen.table_id
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveTable))
        await pilot.press("k")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        state_id = app.hub.table(table_id).state_id
        await asyncio.sleep(0.2)
        assert app.hub.table(table_id).state_id == state_id  # paused: nobody plays Ann's seat
        menu = app.screen.query_one("#home-menu")
        first = str(menu.get_option_at_index(0).prompt)
        turn = app.hub.info(table_id).turn
        when = f"turn {turn}" if turn else "starting"  # Ann has not qualified yet: "starting"
        assert first == f"u  Resume Go 500 · Ann, Cautious, Bold · {when}"
        await pilot.press("u")
        await wait_for(pilot, lambda: at_table(app))
        assert app.screen.table_id == table_id
        assert app.screen.perspective == 0


async def test_abandon_ends_the_game_and_home_offers_no_resume():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        table_id = app.screen.table_id
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveTable))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert table_id not in [t.id for t in app.hub.tables(ME)]
        prompts = [str(o.prompt) for o in app.screen.query_one("#home-menu").options]
        assert not any("Resume" in p for p in prompts)


async def test_esc_in_the_leave_question_stays_at_the_table():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        table = app.screen
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveTable))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is table)


async def test_a_hot_seat_game_resumes_with_both_players_at_the_keyboard():
    app = go500_app("me,hot:Bea,cautious", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveTable))
        await pilot.press("k")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.local_identities = {ME.id: ME}  # as in a fresh process: only "me" is known
        await pilot.press("u")
        await wait_for(pilot, lambda: at_table(app))
        assert app.screen.local_seats() == [0, 1]


async def test_the_race_log_opens_with_the_seed_commitment():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        fold = app.screen.fold
        commitment = fold.table.commitment
        assert len(commitment) == 64
        assert fold.log[0].text.startswith("Fair dice: this table's seed is committed as")
        assert commitment in fold.log[0].text


def test_reconnecting_over_ssh_lands_back_at_the_running_table():
    app = make_app(start=OpenLobby(), network=True)
    spec = TableSpec(
        game="go500",
        seats=[SeatSpec(kind="human"), SeatSpec(kind="bot", bot="cautious")],
        seed=3,
    )
    # The table was there before this (new) session opened.
    table_id = asyncio.run(app.hub.create_table(spec, ME))

    async def session() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: at_table(app))
            assert app.screen.table_id == table_id
            assert app.screen.perspective == 0
            assert isinstance(app.screen_stack[-2], LobbyScreen)
            await pilot.press("escape")  # a network table leaves without asking: the lobby
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))

    asyncio.run(session())



@pytest.mark.parametrize("played_last", ["created first", "created last"])
async def test_reconnecting_lands_at_the_table_played_most_recently(played_last):
    app = make_app(start=OpenLobby(), network=True, games={"dash": DASH})
    now = [100.0]
    app.hub.wall = lambda: now[0]  # `TableInfo.played_at`: when a table last moved
    bea = SeatSpec(kind="human", name="Bea", identity="ssh:bea")
    spec = TableSpec(game="dash", seats=[SeatSpec(kind="human"), bea])
    # Both tables were there, running, before this (new) session opened.
    first = await app.hub.create_table(spec, ME)
    now[0] = 200.0
    last = await app.hub.create_table(spec, ME)
    assert [t.id for t in app.hub.tables(ME)] == [first, last]  # the hub lists them so
    now[0] = 300.0
    played = first if played_last == "created first" else last
    await app.hub.submit(played, ME, 0, Stop(), 0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.screen.table_id == played
        assert app.screen.perspective == 0

async def test_u_resumes_the_most_recently_played_kept_game_listed_first():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: at_table(app))
        older = app.screen.table_id
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaveTable))
        await pilot.press("k")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        # A second game, played after the first was kept, and kept too.
        spec = TableSpec(
            game="cthulhu500",
            seats=[SeatSpec(kind="human", identity=ME.id), SeatSpec(kind="bot", bot="shrewd")],
            seed=4,
            bot_delay=0.0,
        )
        newer = await app.hub.create_table(spec, ME)
        app.screen.on_screen_resume()  # (as when Home shows again)
        await pilot.pause()
        prompts = [str(o.prompt) for o in app.screen.query_one("#home-menu").options]
        assert prompts[0].startswith("u  Resume Cthulhu 500")
        assert prompts[1].startswith("   Resume Go 500")
        await pilot.press("u")
        await wait_for(pilot, lambda: getattr(app.screen, "fold", None) is not None)
        assert app.screen.table_id == newer != older
