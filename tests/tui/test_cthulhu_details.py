"""Cthulhu 500 table, issue 13/14: Enter on a pack row or a hand card (browsed to with Tab) opens
the shared details view with the vehicle or card in full; the turn line fits 80 columns and
uses the room of 120; the seat chips follow the colour-blind palette; keys are typed.

Every move still goes through keys and the hub; snapshots pin the details view at 80x24 and
120x40.
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text

from core.cthulhu500.config import Config
from core.cthulhu500.data import CARDS, card, name_of
from core.cthulhu500.describe import card_timing, vehicle_lines
from core.cthulhu500.model import State, Vehicle
from tests.tui.test_champions_screen import wait_for
from tests.tui.test_cthulhu_more import _pack_formed
from tests.tui.test_cthulhu_screen import cthulhu_app, fixed_table_id, my_move, open_table
from tui.screens.cthulhu_modals import CthulhuDetails
from tui.theme import COLOURS, seat_styles
from tui.widgets.common import ActionList
from tui.widgets.cthulhu500 import HandView, PackView, seat_chip, turn_text

__all__ = ["fixed_table_id"]  # the fixture, shared with the table snapshots


async def test_enter_on_a_pack_row_or_a_hand_card_opens_it_in_full():
    app = cthulhu_app("me,shrewd,random", seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        await _pack_formed(pilot, screen)
        assert isinstance(app.focused, ActionList), "the choices have the focus first"
        await pilot.press("tab")
        pack = screen.query_one(PackView)
        assert app.focused is pack
        assert pack.cursor_seat() == 0, "the cursor starts on your own vehicle"
        await pilot.press("up")
        state = screen.fold.state
        seat = state.pack[state.pack.index(0) - 1]
        assert pack.cursor_seat() == seat
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CthulhuDetails))
        shown = app.screen.shown_text
        marker = state.vehicles[seat].marker
        assert shown.startswith(f"{screen.fold.names[seat]}'s {name_of(marker)}")
        spec = card(marker)
        assert f"Speed {spec.speed} undamaged, {spec.speed_damaged} damaged" in shown
        assert f"Complexity {spec.complexity}" in shown
        assert "Driver: " in shown
        assert "Equipment: " in shown
        assert f"Hand: {len(state.hands[seat])} card" in shown
        for cid in state.hands[0]:
            assert name_of(cid) not in shown, "a vehicle's details never show its owner's hand"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.focused is pack, "closing the details gives the pack its focus back"

        await pilot.press("tab")
        hand_view = screen.query_one(HandView)
        assert app.focused is hand_view
        await pilot.press("down")
        hand = [c for c in screen.fold.state.hands[0] if c]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CthulhuDetails))
        shown = app.screen.shown_text
        assert shown.startswith(name_of(hand[1]))
        assert CARDS[hand[1]].text in shown
        assert card_timing(hand[1]) in shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)

        # Tab goes back to the choices; the keys still play while the player browses.
        await pilot.press("tab")
        assert isinstance(app.focused, ActionList)


async def test_browsing_keeps_the_focus_while_the_table_moves_on():
    app = cthulhu_app("me,shrewd,random", seed=7, round_limit=2)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        await _pack_formed(pilot, screen)
        await pilot.press("tab")
        pack = screen.query_one(PackView)
        assert app.focused is pack
        for _ in range(6):  # play on by keys: p and e work from the pack
            if not await my_move(pilot, screen):
                break
            before = screen.fold.state_id
            top = type(screen._top()).__name__
            await pilot.press("n" if top in ("DWindow", "DChain") else "e")
            await pilot.pause()
            if screen.fold.state_id == before:
                await pilot.press("1")
            assert app.focused is pack, "a redraw never takes the focus from the pack"


def _state(**vehicle: Any) -> State:
    v = Vehicle(marker=5, **vehicle)  # Car of Cthulhu
    return State(
        config=Config(),
        n=2,
        vehicles=(v, Vehicle(marker=1)),
        pack=(1, 0),
        hands=((0, 0, 0), (40,)),
    )


def test_vehicle_lines_say_only_what_every_player_sees():
    # Hotshoe driving, Tentacle Grapples and Shoggoth exhaust (+7 attacking, capped at 4).
    tentacle = next(c.id for c in CARDS.values() if c.name == "Tentacle Grapples")
    shoggoth = next(c.id for c in CARDS.values() if c.name == "Shoggoth-Lined Exhaust")
    hotshoe = next(c.id for c in CARDS.values() if c.name == "Deep One Hotshoe")
    lines = vehicle_lines(
        _state(driver=hotshoe, mods=(tentacle, shoggoth), damaged=True, laps=1),
        ["Ann", "Bob"],
        0,
    )
    text = "\n".join(lines)
    assert lines[0] == "Ann's Car of Cthulhu: 2 of 2 in the pack, 1 lap, DAMAGED."
    assert "Speed 3 undamaged, 1 damaged (now 1)" in text
    assert "Complexity 5" in text
    assert "Drive 3" in text
    assert "Equipment: +4 attacking, -2 defending (capped at 4, C-EQUIP-CAP)." in text
    assert "Hand: 3 cards" in text
    assert "Once per passing test" in text  # the vehicle's own ability


def test_turn_line_fits_80_columns_and_uses_the_room_of_120():
    state = State(
        config=Config(),
        n=3,
        vehicles=(Vehicle(marker=1),) * 3,
        pack=(2, 1, 0),
        active=0,
        turn=1,
        actions_left=2,
        draw_size=75,
        discard=(next(c.id for c in CARDS.values() if c.name == "Nitrous Injection"),),
    )
    names = ["Ann", "Shrewd", "Random"]
    narrow, aside = turn_text(state, names, 78)  # 80 columns less the padding
    assert narrow.plain == "Turn 1 · Ann · 2 actions left · draw about 75 · discard Nitrous Injection"
    assert not aside
    wide, aside = turn_text(state, names, 118)
    assert wide.plain.endswith("draw pile about 75 · top of the discard pile: Nitrous Injection")
    assert not aside
    # a longer name: the top card moves to the standings line when it has room there...
    names = ["Abcdefghijklmnop", "B", "C"]
    line, aside = turn_text(state, names, 60, spare=30)
    assert line.plain == "Turn 1 · Abcdefghijklmnop · 2 actions left · draw about 75"
    assert aside.plain == "discard: Nitrous Injection"
    # ...else the turn line is cut at its end, never in what the player acts on
    line, aside = turn_text(state, names, 60, spare=10)
    assert not aside
    assert "2 actions left" in line.plain
    assert line.plain.endswith("…")
    assert line.cell_len == 60


def test_seat_chips_follow_the_colour_blind_palette():
    for seat in range(8):
        normal = seat_chip(seat).style
        safe = seat_chip(seat, colour_blind=True).style
        assert normal.bgcolor.name == COLOURS[f"seat-{seat + 1}"]
        assert safe.bgcolor.name == COLOURS[f"seat-cb-{seat + 1}"]
    assert len(set(seat_styles(True))) == 8


async def test_the_pack_draws_in_the_colour_blind_palette_when_the_setting_asks():
    app = cthulhu_app("me,random", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        await _pack_formed(pilot, screen)
        app.set_class(True, "-colour-blind")
        screen.redraw()
        await pilot.pause()
        pack = screen.query_one(PackView)
        colours = {
            str(span.style.bgcolor.name)
            for line in pack.render().split("\n")
            for span in line.spans
            if not isinstance(span.style, str) and span.style.bgcolor is not None
        }
        assert colours & {COLOURS[f"seat-cb-{s + 1}"] for s in range(2)}
        assert not colours & {COLOURS[f"seat-{s + 1}"] for s in range(2)}


async def _details_of(pilot: Any, what: str) -> None:
    from tests.tui.test_cthulhu_screen import _mid_turn

    await _mid_turn(pilot)
    await pilot.press("tab")  # the pack, the cursor on your own vehicle
    if what == "card":
        await pilot.press("tab", "down")  # the hand, its second card
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CthulhuDetails))
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("what", ["vehicle", "card"])
def test_snapshot_cthulhu_details(snap_compare, fixed_table_id, size, what):
    async def run_before(pilot: Any) -> None:
        await _details_of(pilot, what)

    assert snap_compare(cthulhu_app(seed=7), terminal_size=size, run_before=run_before)


def test_a_long_row_gives_way_to_counts_then_short_forms():
    from tui.widgets.cthulhu500 import pack_details

    crew = tuple(c.id for c in CARDS.values() if c.type == "crew")[:3]
    v = Vehicle(marker=5, crew=crew, driver=crew[0])
    full = pack_details(v, 5, [], 200).plain
    assert full.startswith("lap 0 · Speed 3 (dmg 1) · Complexity 5 · hand 5 · driver Herbert West")
    assert full.endswith(f"crew {name_of(crew[0])}, {name_of(crew[1])}, {name_of(crew[2])}")
    counted = pack_details(v, 5, [], 80).plain
    assert counted.endswith("· driver Herbert West · crew 3"), "names give way to a count first"
    assert "Speed 3 (dmg 1) · Complexity 5" in counted
    tight = pack_details(v, 5, [], 60)
    assert tight.plain == "lap 0 · Spd 3/1 · Cx 5 · hand 5 · Drive 1 · crew 3"
    assert Text(tight.plain).cell_len <= 60
    tighter = pack_details(v, 5, [], 45).plain
    assert tighter == "lap 0 · Speed 3/1 · hand 5 · Drive 1 · crew 3", "Complexity goes last"
    assert pack_details(v, 5, [], 42).plain == "lap 0 · Spd 3/1 · hand 5 · Drive 1 · crew 3"


def test_a_vehicle_without_a_driver_says_so_in_words():
    """Not "Drv 0" (a driver with Drive 0?) at 80 columns: "no driver", in every wording."""
    from tui.widgets.cthulhu500 import pack_details

    v = Vehicle(marker=5)
    for room in (200, 60, 40, 30):
        words = pack_details(v, 5, [], room).plain
        assert "no driver" in words, (room, words)
        assert "Drv" not in words
        assert "Drive 0" not in words
    assert pack_details(v, 5, [], 40).plain == "lap 0 · Speed 3/1 · hand 5 · no driver"


def test_a_vehicles_line_is_kept_until_the_vehicle_or_the_room_changes():
    """Every step redraws every vehicle's line: an unchanged vehicle's comes from the cache,
    a changed one (a lap, damage, a hand) or another width is worded afresh."""
    from tui.widgets.cthulhu500 import pack_details

    v = Vehicle(marker=5)
    line = pack_details(v, 5, [], 60)
    assert pack_details(Vehicle(marker=5), 5, [], 60) is line
    assert pack_details(Vehicle(marker=5, laps=1), 5, [], 60).plain.startswith("lap 1 ·")
    assert "DMG" not in line.plain
    assert "dmg" in pack_details(Vehicle(marker=5, damaged=True), 5, [], 200).plain
    assert "hand 4" in pack_details(v, 4, [], 60).plain
    assert pack_details(v, 5, [], 30).cell_len <= pack_details(v, 5, [], 60).cell_len
