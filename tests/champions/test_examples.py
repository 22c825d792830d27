"""Spec §8 worked examples, scripted through real chance (dice faces and Fisher–Yates draws).

P1 Red, P2 Black, P3 Green (seats 0–2); Blue and Yellow unowned; default options.
"""

from __future__ import annotations

from msgspec.structs import replace

from core.champions.config import ChampionsConfig
from core.champions.model import (
    CarBlocked,
    CardDrawn,
    CardResolved,
    CarFinished,
    CarMoved,
    CarTurnedBackwards,
    CarTurnedForward,
    ChooseDestination,
    ChooseDice,
    ChooseTargets,
    DieResolved,
    GameEnded,
    GridPlaced,
    HeldSponsor,
    LapEnded,
    LeaveBackwards,
    MoneyAwarded,
    RedLineCrossed,
    SponsorDealt,
    TurnForward,
    TurnStarted,
)
from tests.champions.helpers import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Player,
    of_type,
    position,
    started,
)


def dest(*ends: tuple[int, int] | None) -> list[ChooseDestination]:
    return [ChooseDestination(end=e) for e in ends]


def moved(events: list, car: int) -> CarMoved:
    (move,) = [e for e in events if isinstance(e, CarMoved) and e.car == car]
    return move


def test_example_1_the_seeds_game_play_example():
    """N-GRID, N-FIRST-PLAYER, N-ORDER, N-MOVE, N-BLOCKED, N-CARD-TARGETS, N-LAST-CAR,
    N-SPIN-OUT, N-RED-LINE, N-TURN-FORWARD, N-DECISIONS: the rulebook's three-player example."""
    state, chance = started(
        grid=(RED, GREEN, BLACK, BLUE, YELLOW),
        sponsor_top=(BLUE, GREEN, YELLOW),
        flag_top=("MOVE_2x3", "SPIN_OUT", "BACK_BURNER"),
    )
    p = Player(state, chance)
    assert [p.where(c) for c in (RED, GREEN, BLACK, BLUE, YELLOW)] == [
        (3, 0),
        (3, 1),
        (2, 0),
        (2, 1),
        (0, 0),
    ]
    assert p.state.active == 0  # P1, Red on pole

    # P1 rolls BLUE, YELLOW, BLACK, RED, GREEN; keeps 1, 2, 4
    p.roll("BLUE", "YELLOW", "BLACK", "RED", "GREEN")
    ev = p.act(ChooseDice(dice=(1, 2, 4)))
    assert moved(ev, BLUE).end == (3, 2)  # auto, the only end
    assert p.legal() == dest((2, 1), (2, 2))  # D2: Yellow
    ev = p.act(ChooseDestination(end=(2, 2)))
    assert moved(ev, YELLOW).path == ((1, 1), (2, 2))
    assert p.legal() == dest((7, 0), (7, 1), (7, 2))  # D4: Red
    ev = p.act(ChooseDestination(end=(7, 0)))
    assert [e.die for e in of_type(p.events, DieResolved)] == [1, 2, 4]  # N-ORDER
    assert of_type(ev, TurnStarted) == [TurnStarted(seat=1, lap=1)]

    # P2 rolls BLACK, FLAG, RED, FLAG, GREEN; keeps 1, 2, 4
    p.roll("BLACK", "FLAG", "RED", "FLAG", "GREEN")
    ev = p.act(ChooseDice(dice=(1, 2, 4)))
    assert moved(ev, BLACK).end == (3, 0)  # auto
    assert of_type(ev, CardDrawn)[0].card in (7, 8)  # MOVE_2x3
    assert ChooseTargets(cars=(BLACK, YELLOW)) in p.legal()
    p.act(ChooseTargets(cars=(BLACK, YELLOW)))
    assert p.legal() == dest((6, 0), (6, 1), (6, 2))
    ev = p.act(ChooseDestination(end=(6, 1)))
    assert moved(ev, BLACK).path == ((4, 0), (5, 0), (6, 1))
    assert CarBlocked(car=YELLOW, reason="blocked") in ev  # boxed in by Green and Blue
    assert of_type(ev, CardResolved)
    spin = of_type(ev, CardDrawn)[0]
    assert spin.card in (20, 21, 22)  # SPIN_OUT, drawn with D4
    ev = p.act(ChooseTargets(cars=(RED,)))
    assert CarTurnedBackwards(car=RED, card=spin.card) in ev
    assert p.state.cars[RED].backwards
    assert of_type(ev, TurnStarted) == [TurnStarted(seat=2, lap=1)]

    # P3 rolls GREEN, BLACK, FLAG, BLACK, RED; keeps 1, 3, 5
    p.roll("GREEN", "BLACK", "FLAG", "BLACK", "RED")
    p.act(ChooseDice(dice=(1, 3, 5)))
    assert p.legal() == dest((4, 0), (4, 1), (4, 2))
    ev = p.act(ChooseDestination(end=(4, 1)))
    # Back Burner: the last car is Yellow (auto); P3 picks its end
    assert p.legal() == dest((9, 0), (9, 1), (9, 2))
    ev = p.act(ChooseDestination(end=(9, 1)))
    assert moved(ev, YELLOW).path == ((3, 1), (4, 0), (5, 0), (6, 0), (7, 1), (8, 1), (9, 1))
    assert of_type(ev, RedLineCrossed) == [RedLineCrossed(car=YELLOW)]
    assert of_type(ev, SponsorDealt) == [
        SponsorDealt(seat=2, colour=BLUE, reason="red_line"),
        SponsorDealt(seat=0, colour=GREEN, reason="red_line"),
        SponsorDealt(seat=1, colour=YELLOW, reason="red_line"),
    ]
    assert p.legal() == [TurnForward(), LeaveBackwards()]  # D5: Red is backwards
    ev = p.act(TurnForward())
    assert CarTurnedForward(car=RED) in ev

    assert [p.where(c) for c in (YELLOW, RED, BLACK, GREEN, BLUE)] == [
        (9, 1),
        (7, 0),
        (6, 1),
        (4, 1),
        (3, 2),
    ]
    assert not any(car.backwards for car in p.state.cars)
    assert p.state.active == 0
    assert p.state.phase == "roll"
    assert chance.remaining == 0


def test_example_2_blocked_die_as_a_shield():
    """N-BLOCKED, N-CHOOSE-3: choosing a blocked car's die moves nothing."""
    state, _ = started()
    state = position(
        state,
        {BLACK: (5, 1), RED: (6, 0), GREEN: (6, 1), BLUE: (6, 2), YELLOW: (4, 2)},
        active=1,
    )
    p = Player(state)
    p.roll("YELLOW", "BLACK", "BLACK", "RED", "GREEN")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert moved(ev, YELLOW).end == (5, 2)
    assert of_type(ev, CarBlocked) == [CarBlocked(car=BLACK, reason="blocked")] * 2
    assert p.where(BLACK) == (5, 1)
    assert p.where(RED) == (6, 0)
    assert p.where(GREEN) == (6, 1)
    assert p.state.active == 2


def example_3_state(config: ChampionsConfig | None = None):
    state, _ = started(config=config)
    return position(
        state,
        {
            RED: (10, 1, "back"),
            GREEN: (11, 0),
            BLACK: (11, 1),
            BLUE: (11, 2),
            YELLOW: (7, 0, "back"),
        },
        active=0,
        red_line=True,
        flag_top=("MOVE_2x3", "BACK_BURNER"),
    )


def test_example_3_backwards_boxed_in_shares():
    """N-BLOCKED, N-COLOUR-DIE, N-TURN-FORWARD, N-LAST-CAR: shares of a two-car card."""
    p = Player(example_3_state())
    p.roll("FLAG", "BLUE", "FLAG", "BLACK", "RED")
    p.act(ChooseDice(dice=(1, 3, 5)))
    p.act(ChooseTargets(cars=(RED, YELLOW)))
    assert p.legal() == [TurnForward(), LeaveBackwards()]  # Red, boxed in but backwards
    ev = p.act(TurnForward())
    assert CarTurnedForward(car=RED) in ev
    assert p.legal() == [TurnForward(), LeaveBackwards()]  # Yellow's share
    ev = p.act(LeaveBackwards())
    # D3: Back Burner, last car Yellow (auto), still backwards
    assert p.legal() == [TurnForward(), LeaveBackwards()]
    ev = p.act(LeaveBackwards())
    assert p.state.cars[YELLOW].backwards
    assert p.where(YELLOW) == (7, 0)
    assert CarBlocked(car=RED, reason="blocked") in ev  # D5: Red forward and boxed in
    assert p.where(RED) == (10, 1)
    assert not of_type(ev, CarMoved)
    assert p.state.active == 1


def test_example_3_with_automatic_turns():
    """N-TURN-FORWARD (turn_forward_optional = false), N-MOVE dead ends."""
    p = Player(example_3_state(ChampionsConfig(turn_forward_optional=False)))
    p.roll("FLAG", "BLUE", "FLAG", "BLACK", "RED")
    p.act(ChooseDice(dice=(1, 3, 5)))
    ev = p.act(ChooseTargets(cars=(RED, YELLOW)))
    assert of_type(ev, CarTurnedForward) == [
        CarTurnedForward(car=RED),
        CarTurnedForward(car=YELLOW),
    ]
    assert p.legal() == dest((10, 0), (10, 2))  # Back Burner moves Yellow into a dead end
    ev = p.act(ChooseDestination(end=(10, 2)))
    assert p.where(YELLOW) == (10, 2)
    assert CarBlocked(car=RED, reason="blocked") in ev


def test_example_4_red_line_inside_a_card():
    """N-RED-LINE, N-CARD-TARGETS: Sponsors are drawn before the second car moves."""
    state, _ = started()
    state = position(
        state,
        {YELLOW: (7, 1), BLACK: (6, 2), RED: (5, 0), GREEN: (4, 1), BLUE: (3, 0)},
        active=1,
        sponsor_top=(RED, GREEN, BLACK),
        flag_top=("MOVE_2x2",),
    )
    p = Player(state)
    p.roll("FLAG", "BLUE", "BLACK", "RED", "GREEN")
    p.act(ChooseDice(dice=(1, 2, 3)))
    p.act(ChooseTargets(cars=(YELLOW, BLACK)))
    assert p.legal() == dest((9, 0), (9, 1), (9, 2))
    ev = p.act(ChooseDestination(end=(9, 1)))
    assert of_type(ev, SponsorDealt) == [
        SponsorDealt(seat=1, colour=RED, reason="red_line"),
        SponsorDealt(seat=2, colour=GREEN, reason="red_line"),
        SponsorDealt(seat=0, colour=BLACK, reason="red_line"),
    ]
    assert p.legal() == dest((8, 0), (8, 1), (8, 2))  # only now does Black move
    ev = p.act(ChooseDestination(end=(8, 2)))
    assert moved(ev, BLUE).end == (5, 1)  # D2: Blue's only end (auto)
    assert p.legal() == dest((11, 0), (11, 1), (11, 2))  # D3: Black
    ev = p.act(ChooseDestination(end=(11, 2)))
    assert not of_type(ev, RedLineCrossed)
    assert not of_type(ev, SponsorDealt)
    assert p.where(BLACK) == (11, 2)


def test_example_5_lap_end_inside_a_card():
    """N-LAP-END, N-FINISH: the 4th finisher ends the lap at once; the rest is dropped."""
    state, _ = started()
    state = position(
        state,
        {BLACK: (22, 1), BLUE: (19, 0)},
        finished=(GREEN, RED, YELLOW),
        active=1,
        red_line=True,
        flag_top=("MOVE_2x2",),
    )
    p = Player(state)
    p.roll("FLAG", "BLUE", "BLACK", "FLAG", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 3, 4)))
    ev = p.act(ChooseTargets(cars=(BLACK, BLUE)), *([0] * 28))  # lap-2 shuffles
    assert moved(ev, BLACK).path == ((23, 1),)
    assert moved(ev, BLACK).end is None
    assert of_type(ev, CarFinished) == [
        CarFinished(car=BLACK, place=4),
        CarFinished(car=BLUE, place=5),
    ]
    assert of_type(ev, LapEnded) == [LapEnded(lap=1, places=(GREEN, RED, YELLOW, BLACK, BLUE))]
    # Blue's share, D3 and D4 are dropped: nothing moves after the lap ends
    after = ev[ev.index(of_type(ev, LapEnded)[0]) :]
    assert not [e for e in after if isinstance(e, (CarMoved, DieResolved, CarBlocked))]
    assert not of_type(ev, CardResolved)  # the card in play goes straight to the discards
    assert p.state.lap == 2


def test_example_6_scoring_and_lap_2():
    """N-LAP-SCORE, N-LAP2-SETUP, N-FIRST-PLAYER: prize plus sponsors, reversed grid."""
    state, _ = started()
    hands = (
        (HeldSponsor(source="base", colour=GREEN),),
        (HeldSponsor(source="base", colour=YELLOW), HeldSponsor(source="deck", colour=GREEN)),
        (HeldSponsor(source="base", colour=BLUE),),
    )
    state = position(
        state,
        {BLACK: (23, 1), BLUE: (10, 0)},
        finished=(GREEN, RED, YELLOW),
        active=1,
        red_line=True,
    )
    state = replace(state, sponsors=hands, shift_gears=(0, 0, 1))
    p = Player(state)
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    # lap 2 draws: Sponsor shuffle (4), Checkered Flag shuffle (24); no grid draw
    ev = p.act(ChooseDice(dice=(1, 2, 3)), *([0] * 28))
    awards = of_type(ev, MoneyAwarded)
    assert [(a.seat, a.prize + a.sponsor) for a in awards] == [
        (0, 110_000),
        (1, 70_000),
        (2, 100_000),
    ]
    assert p.state.money == (110_000, 70_000, 100_000)
    assert of_type(ev, GridPlaced)[-1] == GridPlaced(lap=2, order=(BLUE, BLACK, YELLOW, RED, GREEN))
    assert [p.where(c) for c in (BLUE, BLACK, YELLOW, RED, GREEN)] == [
        (3, 0),
        (3, 1),
        (2, 0),
        (2, 1),
        (0, 0),
    ]
    assert not any(c.backwards for c in p.state.cars)
    assert of_type(ev, TurnStarted)[-1] == TurnStarted(seat=1, lap=2)  # P2: Black on space 2
    assert not of_type(ev, SponsorDealt)  # 3 players: no bonus Sponsors
    assert p.state.sponsors == ((), (), ())
    assert p.state.shift_gears == (1, 1, 1)
    assert p.state.sponsor_count == 5
    assert p.state.flag_count == 25
    assert not p.state.red_line_crossed


def test_example_7a_dead_end_steering():
    """N-MOVE, N-BLOCKED, N-TURNS: a player whose car finished still plays; dead-end ends."""
    base, _ = started()
    cars = {YELLOW: (19, 0), RED: (21, 0), GREEN: (21, 1)}
    state = position(base, cars, finished=(BLACK, BLUE), active=1, red_line=True)
    p = Player(state)
    p.roll("BLACK", "YELLOW", "BLUE", "RED", "GREEN")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert CarBlocked(car=BLACK, reason="finished") in ev
    assert p.legal() == dest((20, 0), (21, 2))
    ev = p.act(ChooseDestination(end=(20, 0)))
    assert CarBlocked(car=BLUE, reason="finished") in ev
    assert p.where(YELLOW) == (20, 0)
    for config in (ChampionsConfig(partial_moves=False), ChampionsConfig(dead_end_steering=False)):
        p = Player(replace(state, config=config))
        p.roll("BLACK", "YELLOW", "BLUE", "RED", "GREEN")
        ev = p.act(ChooseDice(dice=(1, 2, 3)))
        assert moved(ev, YELLOW).path == ((20, 1), (21, 2))


def test_example_7b_steering_away_from_the_finish():
    """N-MOVE, N-FINISH, N-LAP-END: a dead end may be picked instead of finishing."""
    base, _ = started()
    cars = {GREEN: (21, 0), RED: (23, 0), YELLOW: (23, 1)}
    state = position(base, cars, finished=(BLACK, BLUE), active=0, red_line=True)
    p = Player(state)
    p.roll("BLACK", "BLUE", "GREEN", "FLAG", "RED")
    p.act(ChooseDice(dice=(1, 3, 5)))
    assert p.legal() == dest((22, 0), None)
    ev = p.act(ChooseDestination(end=(22, 0)))
    assert p.where(GREEN) == (22, 0)
    assert of_type(ev, CarFinished) == [CarFinished(car=RED, place=3)]
    assert p.state.lap == 1
    assert p.state.active == 1

    p = Player(replace(state, config=ChampionsConfig(partial_moves=False)))
    p.roll("BLACK", "BLUE", "GREEN", "FLAG", "RED")
    ev = p.act(ChooseDice(dice=(1, 3, 5)), *([0] * 28))
    assert moved(ev, GREEN).path == ((22, 1), (23, 2))
    assert moved(ev, GREEN).end is None
    assert of_type(ev, CarFinished) == [
        CarFinished(car=GREEN, place=3),
        CarFinished(car=RED, place=4),
        CarFinished(car=YELLOW, place=5),
    ]
    assert of_type(ev, LapEnded)
    assert not of_type(ev, GameEnded)
