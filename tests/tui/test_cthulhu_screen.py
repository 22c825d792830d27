"""The Cthulhu 500 table screen, driven through a real Textual pilot and a real `LocalHub`.

A whole race (shortened with the ``round_limit`` table option) is played against bots with the
keyboard alone; the pack, the hand (names and effect texts), the turn line and the reaction
prompt rules are checked on the screen; snapshots pin 80x24 and 120x40. Nothing here touches
game state directly: every move goes through keys and the hub.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.cthulhu500.data import name_of
from net.local_hub import LocalHub
from tests.tui.conftest import ME, make_app
from tests.tui.test_champions_screen import wait_for
from tui.launch import start_for_play
from tui.screens.cthulhu500 import CthulhuTableScreen
from tui.widgets.common import ActionList, StatusLine, tag_of
from tui.widgets.cthulhu500 import HandView, PackView, TurnLine, top_task


def cthulhu_app(seats: str = "me,shrewd,random", seed: int = 7, **options: Any) -> Any:
    return make_app(start=start_for_play("cthulhu500", seats, seed, options, ME))


async def open_table(app: Any, pilot: Any) -> CthulhuTableScreen:
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, CthulhuTableScreen) and app.screen.fold is not None,
    )
    screen = app.screen
    assert isinstance(screen, CthulhuTableScreen)
    return screen


async def my_move(pilot: Any, screen: CthulhuTableScreen) -> bool:
    await wait_for(
        pilot,
        lambda: (
            screen.fold is not None
            and (
                screen.fold.result() is not None
                or (screen.acting_seat() == 0 and bool(screen.legal_now()))
            )
        ),
    )
    assert screen.fold is not None
    return screen.fold.result() is None


def plain(widget: Any) -> str:
    shown = widget.render()
    if hasattr(shown, "plain"):
        return str(shown.plain)
    from rich.console import Console  # a grid (the hand): render it to plain text

    console = Console(width=max(widget.size.width, 40), color_system=None)
    with console.capture() as capture:
        console.print(widget.content)
    return capture.get()


def status_text(screen: CthulhuTableScreen) -> str:
    return str(screen.query_one(StatusLine).render())


async def test_play_a_whole_cthulhu_race_against_bots_with_the_keyboard():
    app = cthulhu_app("me,shrewd,random", seed=7, round_limit=4)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        seen: set[str] = set()
        checked_hand = False
        for _ in range(400):
            if not await my_move(pilot, screen):
                break
            assert screen.fold is not None
            state = screen.fold.state
            top = tag_of(top_task(state))
            seen.add(top)
            hand = [c for c in state.hands[0] if c]
            if not checked_hand and hand:
                # The hand shows every card's name and its short effect text.
                text = plain(screen.query_one(HandView))
                for cid in hand:
                    assert name_of(cid) in text
                checked_hand = True
            if top in ("d_setup_discard", "d_discard"):
                if len(hand) >= 2 and top == "d_setup_discard":
                    await pilot.press("1")
                    assert screen.picked == {hand[0]}, "1 picks the first hand card"
                    await pilot.press("1")
                    assert not screen.picked, "pressing it again un-picks it"
                    screen.query_one(ActionList).choose(1)  # a click on the second card's row
                    await pilot.pause()
                    assert screen.picked == {hand[1]}
                    assert not screen.query_one(StatusLine).has_class("-error"), "not a move"
                    await pilot.press("2")
                    assert not screen.picked
                await pilot.press("enter")  # the highlighted row: discard what is picked
            elif top in ("d_window", "d_chain"):
                await pilot.press("n")
            elif top == "d_actions" and state.actions_left == 0:
                await pilot.press("e")
            else:
                await pilot.press("1")
            await pilot.pause()
        assert screen.fold is not None
        result = screen.fold.result()
        assert result is not None, "the race should end"
        assert {"d_setup_discard", "d_actions"} <= seen
        assert checked_hand
        assert "Race over" in status_text(screen)
        from tui.widgets.keys import KeyFooter

        await pilot.pause()
        assert screen.check_action("attempt_pass", ()) is False, "no move keys after the race"
        footer = str(screen.query_one(KeyFooter).render())
        assert "Pass" not in footer
        assert "Chart" in footer
        pack = plain(screen.query_one(PackView))
        for seat, name in enumerate(screen.fold.names):
            assert f"#{result.ranking.index(seat) + 1}" in pack
            assert name[:10] in pack


async def test_turn_line_pack_and_choices_are_in_words():
    app = cthulhu_app("me,random", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        for _ in range(40):
            assert await my_move(pilot, screen)
            top = tag_of(top_task(screen.fold.state))
            if top == "d_actions":
                break
            await pilot.press("n" if top in ("d_window", "d_chain") else "enter")
        assert tag_of(top_task(screen.fold.state)) == "d_actions"
        line = plain(screen.query_one(TurnLine))
        assert "actions left" in line
        assert "draw pile about" in line
        pack = plain(screen.query_one(PackView))
        for seat in screen.fold.state.pack:
            assert name_of(screen.fold.state.vehicles[seat].marker) in pack
        rows = screen.query_one(ActionList)
        labels = [str(rows.get_option_at_index(i).prompt) for i in range(rows.option_count)]
        assert any("Try to pass" in label for label in labels)
        assert any("End my actions" in label for label in labels)
        # e ends the actions through the hub; the keys say why when they do not apply.
        await pilot.press("n")
        assert "Nobody is asking you for a reaction" in status_text(screen)
        before = screen.fold.state_id
        await pilot.press("e")
        await wait_for(pilot, lambda: screen.fold.state_id != before)


async def test_only_the_asked_seat_sees_a_reaction_prompt():
    """Others read "Waiting for reactions…" and never who is asked (checked at every redraw)."""
    app = cthulhu_app("me,shrewd,shrewd", seed=5, reaction_prompt="everyone", round_limit=2)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        seen = {"mine": 0, "others": 0}
        redraw = screen.redraw

        def spy() -> None:
            redraw()
            fold = screen.fold
            if fold is None or fold.result() is not None or screen._queue:
                return
            if tag_of(top_task(fold.state)) not in ("d_window", "d_chain"):
                return
            title = str(screen.query_one(ActionList).border_title)
            if screen.acting_seat() == 0:
                seen["mine"] += 1
                assert title.startswith("React?")
            else:
                seen["others"] += 1
                assert title == "Waiting for reactions…"
                assert status_text(screen) == "Waiting for reactions…"
                markers = plain(screen.query_one(PackView)).split("\n")
                pointed = [line for line in markers if line[2:3] == "▶"]
                assert len(pointed) <= 1, "only the active seat is marked, never the asked one"

        screen.redraw = spy  # type: ignore[method-assign]
        for _ in range(400):
            if not await my_move(pilot, screen):
                break
            top = tag_of(top_task(screen.fold.state))
            if top in ("d_window", "d_chain"):
                await pilot.press("n")
            elif top in ("d_setup_discard", "d_discard"):
                await pilot.press("enter")
            else:
                await pilot.press("1")
        assert seen["mine"] > 0, "the race should have asked this seat for a reaction"
        assert seen["others"] > 0, "the race should have asked a bot for a reaction"


async def _mid_turn(pilot: Any) -> None:
    app = pilot.app
    screen = await open_table(app, pilot)
    for _ in range(40):
        assert await my_move(pilot, screen)
        top = tag_of(top_task(screen.fold.state))
        if top == "d_actions":
            break
        await pilot.press("n" if top in ("d_window", "d_chain") else "enter")
    await pilot.pause()


@pytest.fixture
def fixed_table_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LocalHub, "_new_id", lambda self: "cthulhu1")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_cthulhu_table_mid_turn(snap_compare, fixed_table_id, size):
    assert snap_compare(cthulhu_app(seed=7), terminal_size=size, run_before=_mid_turn)


async def test_replay_viewer_shows_every_hand_to_everyone(tmp_path):
    from core import registry
    from core.game import Seat, Table, config_from_options
    from replays import save_finished_table
    from tests.tui.conftest import FIXED
    from tui.app import OpenReplay

    game = registry.get("cthulhu500")
    seats = [Seat(name="Shrewd", bot="shrewd"), Seat(name="Rand", bot="random")]
    table = Table(game, config_from_options(game, {"round_limit": 3}), seats, 5)
    table.run_bots()
    path = save_finished_table(table, tmp_path, now=FIXED)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query(HandView)))
        await pilot.press("end")  # the viewer opens at the start; End is the result
        await pilot.pause()
        hands = plain(app.screen.query_one(HandView))
        for seat, hand in enumerate(table.state.hands):
            assert f"{table.seats[seat].name}: " in hands
            for cid in hand:
                assert name_of(cid) in hands
        pack = plain(app.screen.query_one(PackView))
        for seat in table.state.pack:
            assert name_of(table.state.vehicles[seat].marker) in pack
