"""The NASCAR Champions table screen, driven through a real Textual pilot and a real `LocalHub`.

A whole two-lap game against bots is played with the keyboard alone; the board is checked for
what the player must see (cars by number, destinations as ``[n]``, own Sponsor colours but only
counts for others, places); snapshots pin the compact (80x24) and large (120x40) layouts.
Nothing here touches game state directly: every move goes through keys and the hub.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from core.champions.data import COMPONENTS
from core.champions.model import CardTargetsChosen, CarMoved, ChampionsState
from net.local_hub import LocalHub
from tests.tui.conftest import ME, make_app
from tui.launch import start_for_play
from tui.screens.champions import ChampionsTableScreen
from tui.widgets.champions import ChampionsScoreboard, OvalGeometry, OvalTrack
from tui.widgets.common import ActionList, StatusLine


def champions_app(seats: str = "me,promoter,random", seed: int = 7, **options: Any) -> Any:
    return make_app(start=start_for_play("champions", seats, seed, options, ME))


async def wait_for(pilot: Any, predicate: Callable[[], bool], tries: int = 600) -> None:
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause()
    raise AssertionError("the screen never reached the expected state")


def screen_of(app: Any) -> ChampionsTableScreen:
    screen = app.screen
    assert isinstance(screen, ChampionsTableScreen)
    return screen


async def open_table(app: Any, pilot: Any) -> ChampionsTableScreen:
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, ChampionsTableScreen) and app.screen.fold is not None,
    )
    return screen_of(app)


SUMMARIES: list[str] = []  # titles of the lap summaries `my_move` closed (latest game)


async def my_move(pilot: Any, screen: ChampionsTableScreen) -> bool:
    """Wait until seat 0 is asked (True) or the game is over (False); a lap summary on the way
    is read (its title kept in `SUMMARIES`) and closed with Enter."""
    from tui.screens.champions_modals import LapSummary

    app = pilot.app
    for _ in range(10):
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, LapSummary)
                or (
                    screen.fold is not None
                    and (
                        screen.fold.result() is not None
                        or (screen.acting_seat() == 0 and bool(screen.legal_now()))
                    )
                )
            ),
        )
        if not isinstance(app.screen, LapSummary):
            break
        SUMMARIES.append(app.screen.title_words)
        await pilot.press("enter")
        await pilot.pause()
    assert screen.fold is not None
    return screen.fold.result() is None


def plain(widget: Any) -> str:
    return str(widget.render().plain)


def oval_lines(screen: ChampionsTableScreen) -> list[str]:
    return plain(screen.query_one(OvalTrack)).split("\n")


def cell_text(screen: ChampionsTableScreen, row: int, lane: int) -> str:
    oval = screen.query_one(OvalTrack)
    geo: OvalGeometry = oval.geometry
    x, y = geo.cell(row, lane)
    return oval_lines(screen)[y][x : x + geo.cw - 1]


# ---------------------------------------------------------------------------------- whole game


async def test_play_a_whole_champions_game_against_bots_with_the_keyboard():
    app = champions_app("me,promoter,random", seed=7)
    SUMMARIES.clear()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        seen: set[str] = set()
        checked_board = checked_sponsors = shifted = False
        for _ in range(800):
            if not await my_move(pilot, screen):
                break
            assert screen.fold is not None
            state: ChampionsState = screen.fold.state
            phase = state.phase
            seen.add(phase)
            if phase == "choose_car":
                await pilot.press("3")  # Red #24
            elif phase == "roll":
                title = str(screen.query_one("#table-title").render())  # N-LAP-LIMIT count
                assert f"lap {state.lap} of 2 · turn {state.turn} of 100" in title
                await pilot.press("r")
            elif phase == "choose_dice":
                if not shifted and state.shift_gears[0] > 0 and not state.shifted:
                    await pilot.press("g")
                    await wait_for(pilot, lambda: screen.fold.state.shifted)
                    assert screen.fold.state.shift_gears[0] == 0
                    shifted = True
                    continue
                for key in ("1", "2", "4"):
                    await pilot.press(key)
                assert screen.picked == {1, 2, 4}, "1-5 pick the dice to keep"
                await pilot.press("enter")
                await wait_for(pilot, lambda: screen.fold.state.phase != "choose_dice")
            else:
                head = state.queue[0]
                tag = type(head).__struct_config__.tag
                if tag == "move" and state.cars[head.car].backwards:
                    seen.add("backwards")
                    steps = len(screen.fold.history)
                    await pilot.press("f")
                    await wait_for(pilot, lambda n=steps: len(screen.fold.history) > n)
                    turned = [type(e).__name__ for e in screen.fold.history[steps][2]]
                    assert "CarTurnedForward" in turned, "f turns the backwards car forward"
                elif tag == "move":
                    seen.add("destination")
                    if not checked_board:
                        # Every legal destination is drawn as [n] on its space.
                        for n, action in enumerate(screen.legal_now(), start=1):
                            if action.end is not None:
                                assert cell_text(screen, *action.end) == f"[{n}]"
                        car = state.cars[head.car]
                        assert str(car.number) in cell_text(screen, car.row, car.lane)
                        ends = [a.end for a in screen.legal_now() if a.end is not None]
                        if ends:
                            # A click on a [n] space picks that destination.
                            geo = screen.query_one(OvalTrack).geometry
                            x, y = geo.cell(*ends[0])
                            steps = len(screen.fold.history)
                            await pilot.click("#oval", offset=(x + 1, y))
                            await wait_for(pilot, lambda n=steps: len(screen.fold.history) > n)
                            _, seat, events = screen.fold.history[steps]
                            move = next(e for e in events if isinstance(e, CarMoved))
                            assert seat == 0
                            assert (move.car, tuple(move.end)) == (head.car, tuple(ends[0]))
                            checked_board = True
                            continue
                    await pilot.press("1")
                elif tag == "targets" and COMPONENTS.cards[head.card].cars == 2:
                    # A two-car card: first car, then the second (two presses, one move).
                    seen.add("two_cars")
                    steps = len(screen.fold.history)
                    await pilot.press("1")
                    assert screen.first_target is not None
                    assert len(screen.fold.history) == steps, "the first car is not a move"
                    rows = screen.query_one(ActionList)
                    labels = [str(rows.get_option_at_index(i).prompt) for i in range(3)]
                    assert all(", then " in label for label in labels[:2]), labels
                    first = screen.first_target
                    await pilot.press("enter")
                    await wait_for(pilot, lambda n=steps: len(screen.fold.history) > n)
                    chosen = screen.fold.history[steps][2][0]
                    assert isinstance(chosen, CardTargetsChosen)
                    assert chosen.cars[0] == first
                    assert len(chosen.cars) == 2
                else:
                    seen.add(tag)
                    await pilot.press("enter")  # the highlighted (first) choice
            hands = screen.fold.state.sponsors
            if not checked_sponsors and hands[0] and hands[1] and not state.sponsors_revealed:
                board = plain(screen.query_one(ChampionsScoreboard))
                mine = "".join("KBRGY"[h.colour] for h in hands[0])
                assert f"Sponsors: {mine}\n" in board, board
                assert f"Sponsors: {len(hands[1])}?\n" in board, board
                checked_sponsors = True
            await pilot.pause()
        assert screen.fold is not None
        result = screen.fold.result()
        assert result is not None, "the game should end"
        state = screen.fold.state
        assert state.phase == "over"
        assert len(state.lap_places) == 2
        # (seed 7 also asks for card targets and meets a backwards car: f turns it forward)
        assert {"choose_car", "roll", "choose_dice", "destination", "two_cars", "backwards"} <= seen
        assert shifted, "g should have shifted gears once"
        assert checked_board, "a destination choice should have been checked on the board"
        assert checked_sponsors, "the scoreboard should have shown Sponsor cards"
        status = str(screen.query_one(StatusLine).render())
        assert "Race over" in status
        for place, seat in enumerate(result.ranking):  # the final money written one way too
            assert f"{place + 1}. {screen.fold.names[seat]} ${result.scores[seat]:,}" in status
        assert len(status) <= 78, "the final line fits 80 columns"
        from tui.widgets.keys import KeyFooter

        assert screen.check_action("roll", ()) is False, "no move keys after the game"
        footer = str(screen.query_one(KeyFooter).render())
        assert "Roll" not in footer
        assert "Chart" in footer
        # The scoreboard ranks the players; every player's money is shown.
        board = plain(screen.query_one(ChampionsScoreboard))
        for seat, money in enumerate(state.money):
            assert f"${money:,}" in board  # money is written one way: $325,000
            assert f"{result.ranking.index(seat) + 1}{screen.fold.names[seat][:8]}" in board
        # Lap 1 ended on a summary that waited for Enter; the game ends on the final results.
        from tui.screens.champions_modals import LapSummary

        await wait_for(pilot, lambda: isinstance(app.screen, LapSummary) or "Final results" in SUMMARIES)
        if isinstance(app.screen, LapSummary):
            SUMMARIES.append(app.screen.title_words)
        assert SUMMARIES[-2:] == ["Lap 1 is over", "Final results"]


# ---------------------------------------------------------------------------------- keys


async def test_keys_out_of_turn_and_out_of_phase_say_why():
    app = champions_app("me,promoter", seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        assert await my_move(pilot, screen)
        state = screen.fold.state
        if state.phase == "choose_car":
            await pilot.press("1")
            assert await my_move(pilot, screen)
        await pilot.press("f")
        text = str(screen.query_one(StatusLine).render())
        assert screen.query_one(StatusLine).has_class("-error")
        assert "No backwards car" in text
        await pilot.press("g")
        assert "Shift Gears re-rolls the dice right after a roll" in str(
            screen.query_one(StatusLine).render()
        )
        before = screen.fold.state_id
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.fold.state_id != before)
        assert screen.fold.state.phase == "choose_dice"
        # A fourth die cannot be picked; the sentence says why.
        for key in ("1", "2", "3", "4"):
            await pilot.press(key)
        assert screen.picked == {1, 2, 3}
        assert "exactly three dice" in str(screen.query_one(StatusLine).render())
        # Un-pick with the same key.
        await pilot.press("2")
        assert screen.picked == {1, 3}


async def test_clicking_dice_and_list_rows_picks_dice():
    app = champions_app("me,promoter", seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        for _ in range(10):
            assert await my_move(pilot, screen)
            phase = screen.fold.state.phase
            if phase == "choose_dice":
                break
            await pilot.press("1" if phase == "choose_car" else "r")
        assert screen.fold.state.phase == "choose_dice"
        geo = screen.query_one(OvalTrack).geometry
        x0, y0, _, _ = geo.infield()
        # Die 2's chip sits 6 columns a die into the infield, on its second line.
        await pilot.click("#oval", offset=(x0 + 1 + 6 + 1, y0 + 1))
        assert screen.picked == {2}
        await pilot.click("#oval", offset=(x0 + 1 + 6 + 1, y0 + 1))
        assert screen.picked == set()
        # The choice list has one row per die: choosing row 5 toggles die 5.
        screen.query_one(ActionList).choose(4)
        await pilot.pause()
        assert screen.picked == {5}
        assert not screen.query_one(StatusLine).has_class("-error"), "a toggle is not a move"
        assert screen.fold.state.phase == "choose_dice"
        assert "◀ keep" in str(screen.query_one(ActionList).get_option_at_index(4).prompt)


# ---------------------------------------------------------------------------------- snapshots


async def _mid_turn(pilot: Any) -> None:
    """Choose a car, roll, and pick two dice: a table mid-turn."""
    app = pilot.app
    screen = await open_table(app, pilot)
    for _ in range(10):
        assert await my_move(pilot, screen)
        phase = screen.fold.state.phase
        if phase == "choose_dice":
            break
        await pilot.press("3" if phase == "choose_car" else "r")
    await pilot.press("1")
    await pilot.press("4")
    await pilot.pause()


async def test_at_80_columns_the_players_panel_says_sponsors_and_gears_in_words():
    app = champions_app("me,promoter,random", seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        panel = screen.query_one(ChampionsScoreboard)
        await pilot.pause()
        lines = plain(panel).split("\n")
        assert lines[:3] == [lines[0], " Sponsors: 0", " Gears: 1"], lines
        assert lines[0].startswith("▶Ann")
        assert len(lines) == 9  # three players, three lines each: they fit the box's 10 rows
        assert not any("Sp:" in line or "SG:" in line for line in lines)
        assert all(len(line) <= panel.size.width for line in lines)
    app = champions_app("me,promoter,random,random,random", seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        panel = screen.query_one(ChampionsScoreboard)
        await pilot.pause()
        lines = plain(panel).split("\n")
        assert len(lines) == 10  # five players: two lines each, in short words (no room for 15)
        assert lines[1] == " Sp:0 SG:1"


@pytest.fixture
def fixed_table_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LocalHub, "_new_id", lambda self: "champ001")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_champions_table_mid_turn(snap_compare, fixed_table_id, size):
    assert snap_compare(champions_app(seed=7), terminal_size=size, run_before=_mid_turn)


# ---------------------------------------------------------------------------------- replays


async def test_replay_viewer_draws_a_champions_game_on_the_oval(tmp_path):
    from core import registry
    from core.game import Seat, Table
    from replays import save_finished_table
    from tests.tui.conftest import FIXED
    from tui.app import OpenReplay

    game = registry.get("champions")
    seats = [Seat(name="Promo", bot="promoter"), Seat(name="Rand", bot="random")]
    table = Table(game, game.default_config(), seats, 5)
    table.run_bots()
    path = save_finished_table(table, tmp_path, now=FIXED)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query(OvalTrack)))
        await pilot.press("end")  # the viewer opens at the start; End is the result
        await pilot.pause()
        final = plain(app.screen.query_one(OvalTrack))
        assert "Race over" in final
        # Every car is listed with its place in the finished corner.
        for car in table.state.cars:
            assert f"{car.place}·{car.number}" in final
        await pilot.press("[", "[", "[")
        board = plain(app.screen.query_one(OvalTrack))
        on_track = [c for c in app.screen.data().state.cars if c.row is not None]
        assert on_track, "three turns back, cars are racing"
        for car in on_track:
            assert str(car.number) in board


async def test_hot_seat_cover_hides_the_last_players_sponsor_cards():
    """Two players at one keyboard: the pass-the-keyboard cover is opaque (Sponsor cards are
    secret), and after Enter the table shows the new seat's own cards."""
    from tui.screens.table import PassKeyboard

    app = champions_app("me,hot:Bea", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PassKeyboard))
        assert app.screen.player == "Ann"  # the first screen is covered too
        await pilot.press("enter")
        screen = await open_table(app, pilot)
        await wait_for(pilot, lambda: screen.acting_seat() is not None and app.screen is screen)
        await pilot.press("2")  # Ann drives Blue; Bea chooses next, behind the cover
        await wait_for(pilot, lambda: isinstance(app.screen, PassKeyboard))
        shot = app.export_screenshot().replace("&#160;", " ")
        assert "Pass the keyboard to Bea" in shot
        assert "Players" not in shot, "the table (and its scoreboard) must not show through"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.perspective == 1)
        assert screen.fold.seat == 1


async def test_new_game_form_offers_the_lap_turn_limit_and_refuses_a_negative_one():
    """N-LAP-LIMIT: the form builds a number field from the option; -1 is refused in words."""
    from textual.widgets import Static

    from tui.screens.newgame import NewGameScreen
    from tui.widgets.form import FormRows

    app = make_app()
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.press("n")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, NewGameScreen) and bool(app.screen.query("#newgame-form")),
        )
        form = app.screen.query_one(FormRows)
        form.set_value("game", "champions")
        await wait_for(pilot, lambda: form.has_row("opt-lap_turn_limit"))
        assert form.value("opt-lap_turn_limit") == "100"
        form.set_value("opt-lap_turn_limit", "-1")
        await pilot.press("ctrl+s")
        error = app.screen.query_one("#newgame-error", Static)
        await wait_for(pilot, lambda: "cannot be negative" in str(error.render()))
        assert isinstance(app.screen, NewGameScreen)
        form.set_value("opt-lap_turn_limit", "40")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        table = app.hub.table(app.hub.tables(ME)[0].id)
        assert table.config.lap_turn_limit == 40
