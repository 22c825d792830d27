"""One or more tests per rule ID of the spec (§2–§6), with scripted chance."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from core.champions import GAME, rules
from core.champions.config import ChampionsConfig, check_config
from core.champions.data import COMPONENTS
from core.champions.fold import evolve
from core.champions.model import (
    CarBlocked,
    CardDrawn,
    CarFinished,
    CarMoved,
    CarOwned,
    CarTurnedBackwards,
    ChooseCar,
    ChooseCrashNeighbour,
    ChooseDestination,
    ChooseDice,
    ChooseLastCar,
    ChooseTargets,
    DeckShuffled,
    DiceRolled,
    GameEnded,
    GearsShifted,
    HeldSponsor,
    LeaveBackwards,
    MoneyAwarded,
    RedLineCrossed,
    Roll,
    ShiftGears,
    SponsorDealt,
    TurnForward,
    TurnStarted,
)
from core.game import BreaksRule, ConfigError, GameOver, NotYourTurn, Seat, Table
from core.rng import ScriptedChance
from tests.champions.helpers import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Feed,
    Player,
    faces,
    flag_order_draws,
    of_type,
    position,
    sponsor_order_draws,
    started,
)

# --------------------------------------------------------------------------- setup


def test_n_chance_setup_draw_order_with_random_cars():
    """N-CHANCE: drivers (4 draws), Sponsor (4), Checkered Flag (24), bonus, grid (4)."""
    config = ChampionsConfig(car_assignment="random")
    chance = ScriptedChance([0] * (4 + 4 + 24 + 4))
    events = rules.setup(config, 2, chance)
    assert chance.asked == [5, 4, 3, 2] * 2 + list(range(25, 1, -1)) + [5, 4, 3, 2]
    kinds = [type(e).__name__ for e in events]
    assert kinds[:3] == ["CarsSelected", "CarOwned", "CarOwned"]
    assert kinds[3:7] == ["DeckShuffled", "DeckShuffled", "SponsorDealt", "SponsorDealt"]
    assert kinds[7:] == ["GridPlaced", "TurnStarted"]
    # all-zero Fisher–Yates on 0..4 gives [1, 2, 3, 4, 0]: seat 1 drives Blue
    assert events[1] == CarOwned(seat=0, car=BLUE)


def test_n_chance_a_roll_is_five_draws_d1_first_and_a_shift_five_more():
    """N-CHANCE, N-ROLL: each die is below(6) = face index, D1 first."""
    state, _ = started()
    chance = ScriptedChance([1, 4, 0, 2, 3, 5, 5, 5, 5, 5])
    ev = rules.step(state, 0, Roll(), chance)
    assert ev == [DiceRolled(seat=0, faces=(1, 4, 0, 2, 3))]
    assert chance.asked == [6] * 5
    for e in ev:
        state = evolve(state, e)
    ev = rules.step(state, 0, ShiftGears(), chance)
    assert ev == [GearsShifted(seat=0), DiceRolled(seat=0, faces=(5, 5, 5, 5, 5))]
    assert chance.remaining == 0


def test_n_players_one_to_five_seats_and_solo_plays_every_turn():
    """N-PLAYERS: 1–5 seats; a solo player takes every turn and gets a bonus Sponsor."""
    with pytest.raises(ConfigError):
        check_config(ChampionsConfig(), 6)
    table = Table(
        GAME, ChampionsConfig(car_assignment="random"), [Seat(name="solo", bot="random")], 5
    )
    assert len(table.state.sponsors[0]) == 1  # N-TWO-PLAYER-SPONSOR applies to 1 player
    starts = []
    while table.result() is None and len(starts) < 6:
        step = table.submit(0, table.bot_action(0))
        starts += [e.seat for e in step.events if isinstance(e, TurnStarted)]
    assert starts
    assert set(starts) == {0}
    table.run_bots()
    result = table.result()
    assert result is not None
    assert result.ranking == [0]
    assert result.scores[0] == table.state.money[0] > 0


def test_n_five_cars_black_and_blue_choice():
    """N-FIVE-CARS: one black and one blue car race; the others are out of play."""
    config = ChampionsConfig(black_car=22, blue_car=88)
    state, _ = started(config=config)
    assert [c.number for c in state.cars] == [22, 88, 24, 18, 81]
    assert state.cars[BLACK].driver == "Ward Burton"
    with pytest.raises(ConfigError, match="black car"):
        check_config(ChampionsConfig(black_car=31), 3)
    with pytest.raises(ConfigError, match="blue car"):
        check_config(ChampionsConfig(blue_car=3), 3)


def test_n_car_choice_in_seat_order_different_cars_last_is_automatic():
    """N-CAR-CHOICE, N-DECISIONS: seats choose in order; a taken car is refused."""
    config = ChampionsConfig()
    state = rules.new_state(config, 5)
    for e in rules.setup(config, 5, Feed()):
        state = evolve(state, e)
    p = Player(state, Feed())
    assert rules.pending(p.state) == (0,)
    p.act(ChooseCar(car=GREEN))
    with pytest.raises(BreaksRule, match="no other player"):
        rules.step(p.state, 1, ChooseCar(car=GREEN), Feed())
    p.act(ChooseCar(car=RED))
    p.act(ChooseCar(car=BLUE))
    ev = p.act(ChooseCar(car=YELLOW), *([0] * (4 + 24 + 4)))
    assert ev[0] == CarOwned(seat=3, car=YELLOW)
    assert ev[1] == CarOwned(seat=4, car=BLACK)  # the only car left: automatic
    assert p.state.seat_car == (GREEN, RED, BLUE, YELLOW, BLACK)


def test_n_two_player_sponsor_at_setup_in_seat_order():
    """N-TWO-PLAYER-SPONSOR: with 2 players each draws one Sponsor now, seat 1 first."""
    state, _ = started(cars=(RED, BLACK), sponsor_top=(YELLOW, GREEN))
    assert state.sponsors == (
        (HeldSponsor(source="base", colour=YELLOW),),
        (HeldSponsor(source="base", colour=GREEN),),
    )
    assert state.sponsor_count == 3
    state3, _ = started()
    assert state3.sponsors == ((), (), ())
    off, _ = started(config=ChampionsConfig(two_player_sponsor=False), cars=(RED, BLACK))
    assert off.sponsors == ((), ())


def test_n_grid_driver_cards_place_cars_on_spaces_one_to_five():
    """N-GRID: item k-1 of the shuffled Driver cards starts on space k, all facing forward."""
    state, _ = started(grid=(YELLOW, BLUE, RED, GREEN, BLACK))
    grid = COMPONENTS.track.grid
    for space, colour in enumerate((YELLOW, BLUE, RED, GREEN, BLACK)):
        assert state.cars[colour].space == grid[space]
        assert not state.cars[colour].backwards


def test_n_first_player_skips_unowned_cars():
    """N-FIRST-PLAYER: nearest-pole owned car's player starts (unowned Blue, Yellow skipped)."""
    state, _ = started(grid=(BLUE, YELLOW, GREEN, RED, BLACK))
    assert state.active == 2
    assert state.phase == "roll"


# --------------------------------------------------------------------------- the turn


def test_n_decisions_roll_is_always_asked_and_single_answers_are_automatic():
    """N-DECISIONS: roll is an explicit action; a one-answer decision leaves no prompt."""
    state, _ = started()
    assert rules.legal(state, 0) == [Roll()]
    p = Player(state)
    p.roll("BLUE", "GREEN", "GREEN", "RED", "RED")
    ev = p.act(ChooseDice(dice=(1, 4, 5)))
    # D1 Blue (2,1) has one end, (3,2): moved without asking; D4 Red has three ends: asked
    assert of_type(ev, CarMoved) == [
        CarMoved(car=BLUE, start=(2, 1), path=((3, 2),), end=(3, 2), steps=1)
    ]
    assert p.legal() == [ChooseDestination(end=(7, lane)) for lane in range(3)]


def test_n_shift_gears_once_per_turn_once_per_lap_and_must_use_new_roll():
    """N-SHIFT-GEARS: one use per lap (default), at most one per turn, only before choosing."""
    state, _ = started()
    p = Player(state)
    p.roll("FLAG", "FLAG", "FLAG", "FLAG", "FLAG")
    assert ShiftGears() in p.legal()
    p.act(ShiftGears(), *faces("RED", "RED", "RED", "RED", "RED"))
    assert p.state.dice == (RED,) * 5
    assert p.state.shift_gears[0] == 0
    assert ShiftGears() not in p.legal()
    with pytest.raises(BreaksRule, match="only once in a turn"):
        rules.step(p.state, 0, ShiftGears(), Feed())
    p.act(ChooseDice(dice=(1, 2, 3)))
    while p.state.active == 0:
        p.act(p.legal()[0])
    # next time seat 0 rolls, no Shift Gears is left this lap
    later = replace(p.state, active=0, phase="choose_dice", shifted=False)
    with pytest.raises(BreaksRule, match="no Shift Gears left"):
        rules.step(later, 0, ShiftGears(), Feed())
    two = replace(state, config=ChampionsConfig(shift_gears_per_lap=2), shift_gears=(2, 2, 2))
    p2 = Player(two)
    p2.roll("FLAG", "FLAG", "FLAG", "FLAG", "FLAG")
    p2.act(ShiftGears(), *faces("RED", "RED", "RED", "RED", "RED"))
    assert p2.state.shift_gears[0] == 1


def test_n_choose_3_exactly_three_different_dice():
    """N-CHOOSE-3: any three dice; two, four or repeated dice are refused."""
    state, _ = started()
    p = Player(state)
    p.roll("BLACK", "BLACK", "BLACK", "BLACK", "BLACK")
    dice_options = [a for a in p.legal() if isinstance(a, ChooseDice)]
    assert len(dice_options) == 10
    for bad in ((1, 2), (1, 1, 2), (1, 2, 3, 4), (0, 1, 2), (4, 5, 6)):
        with pytest.raises(BreaksRule, match="exactly three") as err:
            rules.step(p.state, 0, ChooseDice(dice=bad), Feed())
        assert err.value.rule == "N-CHOOSE-3"


def test_n_order_dice_resolve_in_ascending_number():
    """N-ORDER: chosen dice resolve from the lowest number up."""
    state, _ = started()
    p = Player(state)
    p.roll("YELLOW", "BLACK", "GREEN", "BLUE", "BLUE")
    p.act(ChooseDice(dice=(1, 3, 4)))
    while p.state.active == 0:
        p.act(p.legal()[0])
    resolved = [e.die for e in p.events if type(e).__name__ == "DieResolved"]
    assert resolved == [1, 3, 4]


def test_n_turns_seat_order_and_finished_players_still_play():
    """N-TURNS: next seat in order; the turn passes even when the roller's car finished."""
    base, _ = started()
    state = position(
        base,
        {BLACK: (15, 0), BLUE: (15, 1), GREEN: (15, 2), YELLOW: (10, 0)},
        finished=(RED,),
        active=0,
        red_line=True,
    )
    p = Player(state)
    assert rules.legal(p.state, 0) == [Roll()]
    p.roll("RED", "RED", "RED", "RED", "RED")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert of_type(ev, CarBlocked) == [CarBlocked(car=RED, reason="finished")] * 3
    assert of_type(ev, TurnStarted) == [TurnStarted(seat=1, lap=1)]
    with pytest.raises(NotYourTurn):
        rules.step(p.state, 0, Roll(), Feed())


# --------------------------------------------------------------------------- movement


def test_n_colour_die_moves_that_car_that_many_spaces_and_is_mandatory():
    """N-COLOUR-DIE, N-STEP: die k moves the colour's car k rows on."""
    state, _ = started()
    p = Player(state)
    p.roll("GREEN", "GREEN", "GREEN", "RED", "RED")
    p.act(ChooseDice(dice=(3, 4, 5)))
    assert p.legal() == [
        ChooseDestination(end=(6, 0)),
        ChooseDestination(end=(6, 1)),
        ChooseDestination(end=(6, 2)),
    ]
    with pytest.raises(BreaksRule, match="cannot end its move") as err:
        rules.step(p.state, 0, ChooseDestination(end=(5, 1)), Feed())
    assert err.value.rule == "N-MOVE"


def test_n_colour_die_checks_finished_then_backwards_then_blocked():
    """N-COLOUR-DIE, N-BACKWARDS: a backwards boxed-in car is offered a turn, not blocked."""
    base, _ = started()
    state = position(
        base,
        {RED: (5, 1, "back"), BLACK: (6, 0), GREEN: (6, 1), BLUE: (6, 2), YELLOW: (1, 0)},
        active=0,
    )
    p = Player(state)
    p.roll("RED", "BLACK", "BLACK", "BLACK", "BLACK")
    p.act(ChooseDice(dice=(1, 2, 3)))
    assert p.legal() == [TurnForward(), LeaveBackwards()]
    p.act(TurnForward())
    assert not p.state.cars[RED].backwards
    assert p.where(RED) == (5, 1)


def test_n_backwards_car_cannot_move_but_occupies_its_space():
    """N-BACKWARDS: a backwards car blocks others and is not moved by a die."""
    base, _ = started()
    state = position(
        base,
        {RED: (5, 1, "back"), BLACK: (4, 1), GREEN: (5, 0), BLUE: (5, 2), YELLOW: (1, 0)},
        active=0,
    )
    p = Player(state)
    p.roll("BLACK", "RED", "BLACK", "BLACK", "BLACK")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert CarBlocked(car=BLACK, reason="blocked") in ev
    assert p.legal() == [TurnForward(), LeaveBackwards()]
    p.act(LeaveBackwards())
    assert p.where(RED) == (5, 1)
    assert p.state.cars[RED].backwards


def test_n_turn_forward_automatic_when_not_optional():
    """N-TURN-FORWARD: with turn_forward_optional = false the die turns the car at once."""
    base, _ = started(config=ChampionsConfig(turn_forward_optional=False))
    state = position(
        base,
        {RED: (5, 1, "back"), BLACK: (4, 1), GREEN: (5, 0), BLUE: (5, 2), YELLOW: (1, 0)},
        active=0,
    )
    p = Player(state)
    p.roll("RED", "YELLOW", "YELLOW", "YELLOW", "YELLOW")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert any(type(e).__name__ == "CarTurnedForward" for e in ev)
    assert not p.state.cars[RED].backwards
    assert p.where(RED) == (5, 1)


def test_n_finished_car_cannot_be_targeted_by_a_card():
    """N-FINISHED-CAR, N-CARD-TARGETS: only cars on the track can be named."""
    base, _ = started()
    state = position(
        base,
        {BLACK: (15, 0), BLUE: (15, 1), GREEN: (15, 2), YELLOW: (10, 0)},
        finished=(RED,),
        active=0,
        red_line=True,
        flag_top=("MOVE_1x5",),
    )
    p = Player(state)
    p.roll("FLAG", "YELLOW", "YELLOW", "YELLOW", "YELLOW")
    p.act(ChooseDice(dice=(1, 2, 3)))
    named = {a.cars[0] for a in p.legal()}
    assert named == {BLACK, BLUE, GREEN, YELLOW}
    with pytest.raises(BreaksRule) as err:
        rules.step(p.state, 0, ChooseTargets(cars=(RED,)), Feed())
    assert err.value.rule == "N-CARD-TARGETS"


def test_n_blocked_with_partial_moves_off_a_short_route_does_not_move():
    """N-BLOCKED: with partial_moves = false a car with no full route stays put."""
    cars = {RED: (5, 1), BLACK: (8, 0), GREEN: (8, 1), BLUE: (8, 2), YELLOW: (1, 0)}
    base, _ = started(config=ChampionsConfig(partial_moves=False))
    p = Player(position(base, cars, active=0))
    p.roll("RED", "RED", "RED", "RED", "RED")
    ev = p.act(ChooseDice(dice=(3, 4, 5)))
    assert of_type(ev, CarBlocked) == [CarBlocked(car=RED, reason="no_end")] * 3
    assert p.where(RED) == (5, 1)
    # with partial moves (default) the same die reaches the dead ends of row 7
    base, _ = started()
    q = Player(position(base, cars, active=0))
    q.roll("RED", "RED", "RED", "RED", "RED")
    q.act(ChooseDice(dice=(3, 4, 5)))
    assert q.legal() == [ChooseDestination(end=(7, lane)) for lane in range(3)]


# --------------------------------------------------------------------------- cards


def test_n_cards_discard_face_up_and_sponsor_is_kept():
    """N-CARDS, N-SPONSOR-KEEP: a card is discarded after use; a Sponsor card is kept secret."""
    state, _ = started(flag_top=("SPONSOR_GREEN", "MOVE_1x2"))
    p = Player(state)
    p.roll("FLAG", "FLAG", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert of_type(ev, CardDrawn)[0] == CardDrawn(seat=0, card=3, sponsor=True)
    assert p.state.sponsors[0] == (HeldSponsor(source="deck", colour=GREEN),)
    assert GAME.view(p.state, 1).sponsors[0] == (HeldSponsor(source="deck", colour=None),)
    while p.state.active == 0:
        ev = p.act(p.legal()[0])
    assert p.state.flag_discard == (12,)  # MOVE_1x2, face up
    assert p.state.flag_count == 23
    assert p.state.card_in_play is None


def test_n_card_targets_two_different_cars_in_order():
    """N-CARD-TARGETS: a two-car card names two different cars, moved in that order."""
    state, _ = started(flag_top=("MOVE_2x2",))
    p = Player(state)
    p.roll("FLAG", "BLUE", "BLUE", "BLUE", "BLUE")
    p.act(ChooseDice(dice=(1, 2, 3)))
    assert len(p.legal()) == 20
    assert all(len(set(a.cars)) == 2 for a in p.legal())
    with pytest.raises(BreaksRule, match="two different cars"):
        rules.step(p.state, 0, ChooseTargets(cars=(RED, RED)), Feed())
    p.act(ChooseTargets(cars=(YELLOW, RED)))
    while p.state.active == 0:
        p.act(p.legal()[-1])
    order = [e.car for e in p.events if isinstance(e, CarMoved)]
    assert order[:2] == [YELLOW, RED]


def test_n_last_car_ties_are_the_drawers_choice_and_never_pass_on():
    """N-LAST-CAR: the lowest-row cars; ties chosen by the drawer (backwards ones too)."""
    base, _ = started()
    state = position(
        base,
        {RED: (4, 0, "back"), YELLOW: (4, 2), BLACK: (8, 0), GREEN: (8, 1), BLUE: (8, 2)},
        active=0,
        flag_top=("BACK_BURNER",),
    )
    p = Player(state)
    p.roll("FLAG", "BLACK", "BLACK", "BLACK", "BLACK")
    p.act(ChooseDice(dice=(1, 2, 3)))
    assert p.legal() == [ChooseLastCar(car=RED), ChooseLastCar(car=YELLOW)]
    p.act(ChooseLastCar(car=RED))
    assert p.legal() == [TurnForward(), LeaveBackwards()]
    ev = p.act(LeaveBackwards())
    assert p.where(YELLOW) == (4, 2)  # it does not pass to Yellow
    assert not [e for e in ev if isinstance(e, CarMoved) and e.car == YELLOW]
    with pytest.raises(BreaksRule):
        rules.step(
            replace(state, phase="resolve", queue=p.state.queue),
            0,
            ChooseLastCar(car=BLACK),
            Feed(),
        )


def test_n_spin_out_turns_any_car_backwards():
    """N-SPIN-OUT: the chosen car faces backwards (no change if it already does)."""
    state, _ = started(flag_top=("SPIN_OUT",))
    p = Player(state)
    p.roll("FLAG", "BLUE", "BLUE", "BLUE", "BLUE")
    p.act(ChooseDice(dice=(1, 2, 3)))
    assert {a.cars for a in p.legal()} == {(c,) for c in range(5)}
    ev = p.act(ChooseTargets(cars=(GREEN,)))
    assert CarTurnedBackwards(car=GREEN, card=20) in ev
    assert p.state.cars[GREEN].backwards
    assert p.where(GREEN) == (3, 1)


def test_n_crash_turns_a_car_and_one_neighbour():
    """N-CRASH: the chosen car faces backwards, then the drawer picks a neighbour."""
    state, _ = started(flag_top=("CRASH",))
    p = Player(state)
    p.roll("FLAG", "YELLOW", "YELLOW", "YELLOW", "YELLOW")
    p.act(ChooseDice(dice=(1, 2, 3)))
    p.act(ChooseTargets(cars=(RED,)))  # Red (3,0): neighbours Green (3,1), Black (2,0), Blue (2,1)
    assert p.legal() == [ChooseCrashNeighbour(car=c) for c in (BLACK, BLUE, GREEN)]
    ev = p.act(ChooseCrashNeighbour(car=GREEN))
    assert of_type(ev, CarTurnedBackwards) == [CarTurnedBackwards(car=GREEN, card=23)]
    assert p.state.cars[RED].backwards
    assert p.state.cars[GREEN].backwards
    assert not p.state.cars[BLACK].backwards
    off, _ = started(config=ChampionsConfig(crash_hits_neighbour=False), flag_top=("CRASH",))
    q = Player(off)
    q.roll("FLAG", "YELLOW", "YELLOW", "YELLOW", "YELLOW")
    q.act(ChooseDice(dice=(1, 2, 3)))
    ev = q.act(ChooseTargets(cars=(RED,)))
    assert of_type(ev, CarTurnedBackwards) == [CarTurnedBackwards(car=RED, card=23)]


def test_n_crash_without_a_neighbour_turns_only_one_car():
    """N-CRASH: no other car around: nothing more."""
    base, _ = started()
    state = position(
        base,
        {RED: (10, 1), BLACK: (5, 0), GREEN: (5, 2), BLUE: (3, 0), YELLOW: (1, 0)},
        active=0,
        red_line=True,
        flag_top=("CRASH",),
    )
    p = Player(state)
    p.roll("FLAG", "YELLOW", "YELLOW", "YELLOW", "YELLOW")
    p.act(ChooseDice(dice=(1, 2, 3)))
    ev = p.act(ChooseTargets(cars=(RED,)))
    assert of_type(ev, CarTurnedBackwards) == [CarTurnedBackwards(car=RED, card=23)]


def test_n_deck_empty_reshuffles_the_discards_in_canonical_order():
    """N-DECK-EMPTY: an empty deck takes its discards, sorted by id, through Fisher–Yates."""
    state, _ = started()
    state = replace(state, flag_deck=(), flag_count=0, flag_discard=(19, 12, 7))
    p = Player(state)
    p.roll("FLAG", "BLUE", "BLUE", "BLUE", "BLUE")
    # canonical (7, 12, 19); draws: i=2 -> 0, i=1 -> 0 gives [12, 19, 7]
    ev = p.act(ChooseDice(dice=(1, 2, 3)), 0, 0)
    assert of_type(ev, DeckShuffled) == [DeckShuffled(deck="flag", size=3, order=(12, 19, 7))]
    assert of_type(ev, CardDrawn) == [CardDrawn(seat=0, card=12, sponsor=False)]
    assert p.state.flag_discard == ()


# --------------------------------------------------------------------------- sponsors


def _red_line_position(config: ChampionsConfig | None = None):
    base, _ = started(config=config)
    return position(
        base,
        {BLACK: (8, 0), RED: (5, 0), GREEN: (5, 1), BLUE: (5, 2), YELLOW: (1, 0)},
        active=0,
        sponsor_top=(RED, GREEN, BLACK),
    )


def test_n_red_line_owner_draws_first_then_seat_order_once_per_lap():
    """N-RED-LINE: P2's Black crosses in P1's turn: P2, P3, P1 draw; later crossings nothing."""
    p = Player(_red_line_position())
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    p.act(ChooseDice(dice=(1, 2, 3)))
    ev = p.act(ChooseDestination(end=(9, 0)))
    assert of_type(ev, RedLineCrossed) == [RedLineCrossed(car=BLACK)]
    assert [(e.seat, e.colour) for e in of_type(ev, SponsorDealt)] == [
        (1, RED),
        (2, GREEN),
        (0, BLACK),
    ]
    while p.state.active == 0:
        ev = p.act(p.legal()[0])
    later = [e for e in p.events if isinstance(e, RedLineCrossed)]
    assert len(later) == 1


def test_n_red_line_active_player_first_option_and_empty_deck():
    """N-RED-LINE: first_sponsor_drawer = active_player; an empty Sponsor deck gives nothing."""
    p = Player(_red_line_position(ChampionsConfig(first_sponsor_drawer="active_player")))
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    p.act(ChooseDice(dice=(1, 2, 3)))
    ev = p.act(ChooseDestination(end=(9, 0)))
    assert [e.seat for e in of_type(ev, SponsorDealt)] == [0, 1, 2]
    empty = replace(_red_line_position(), sponsor_deck=(4,), sponsor_count=1)
    q = Player(empty)
    q.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    q.act(ChooseDice(dice=(1, 2, 3)))
    ev = q.act(ChooseDestination(end=(9, 0)))
    assert [(e.seat, e.colour) for e in of_type(ev, SponsorDealt)] == [(1, YELLOW)]
    assert q.state.sponsor_count == 0


def test_n_sponsor_keep_secret_and_several_held():
    """N-SPONSOR-KEEP: others see how many and from which deck, never the colour."""
    state = replace(
        started()[0],
        sponsors=(
            (HeldSponsor(source="base", colour=RED), HeldSponsor(source="deck", colour=RED)),
            (),
            (),
        ),
    )
    assert GAME.view(state, 0).sponsors[0][1].colour == RED
    for seat in (1, 2, None):
        seen = GAME.view(state, seat).sponsors[0]
        assert seen == (
            HeldSponsor(source="base", colour=None),
            HeldSponsor(source="deck", colour=None),
        )


# --------------------------------------------------------------------------- laps and scoring


def _near_lap_end(lap: int = 1):
    base, _ = started()
    state = position(
        base,
        {BLACK: (23, 1), BLUE: (10, 0)},
        finished=(GREEN, RED, YELLOW),
        active=1,
        red_line=True,
    )
    if lap == 2:
        state = replace(
            state, lap=2, lap_places=((BLUE, BLACK, YELLOW, RED, GREEN),), money=(1, 2, 3)
        )
    return state


def test_n_finish_takes_the_next_free_place():
    """N-FINISH: finishing cars take places in order."""
    base, _ = started()
    state = position(
        base,
        {RED: (22, 0), BLACK: (23, 1), GREEN: (10, 0), BLUE: (10, 2), YELLOW: (9, 1)},
        active=0,
        red_line=True,
    )
    p = Player(state)
    p.roll("BLACK", "RED", "GREEN", "GREEN", "GREEN")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert of_type(ev, CarFinished)[:2] == [
        CarFinished(car=BLACK, place=1),
        CarFinished(car=RED, place=2),
    ]
    assert p.state.cars[BLACK].place == 1
    assert p.state.cars[BLACK].space is None


def test_n_lap_end_fifth_car_placed_at_once():
    """N-LAP-END: after the 4th car finishes, the 5th takes 5th and the lap ends."""
    p = Player(_near_lap_end())
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)), *([0] * 28))
    assert of_type(ev, CarFinished) == [
        CarFinished(car=BLACK, place=4),
        CarFinished(car=BLUE, place=5),
    ]
    assert not [e for e in ev if isinstance(e, CarMoved) and e.car == BLUE]
    assert p.state.lap_places == ((GREEN, RED, YELLOW, BLACK, BLUE),)


def test_n_lap_score_prize_plus_sponsor_cards():
    """N-LAP-SCORE: race prize for the car's place plus each held Sponsor placed 1st–3rd."""
    state = replace(
        _near_lap_end(),
        sponsors=(
            (HeldSponsor(source="deck", colour=YELLOW), HeldSponsor(source="base", colour=BLUE)),
            (HeldSponsor(source="base", colour=RED),),
            (),
        ),
    )
    p = Player(state)
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)), *([0] * 28))
    assert [(a.prize, a.sponsor) for a in of_type(ev, MoneyAwarded)] == [
        (60_000, 10_000),
        (25_000, 30_000),
        (100_000, 0),
    ]


def test_n_lap_score_uses_the_money_option():
    """N-LAP-SCORE: the money table is an option (data)."""
    from core.champions.data import Money

    money = Money(race_prize=((5, 4, 3, 2, 1), (5, 4, 3, 2, 1)), base_sponsor=(9,), deck_sponsor=())
    state = replace(_near_lap_end(), config=ChampionsConfig(money=money))
    p = Player(state)
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)), *([0] * 28))
    assert [a.prize for a in of_type(ev, MoneyAwarded)] == [4, 2, 5]


def test_n_lap2_setup_bonus_sponsor_again_for_two_players():
    """N-LAP2-SETUP: decks rebuilt and reshuffled (Sponsor first); 2-player bonus again."""
    base, _ = started(cars=(RED, BLACK))
    state = position(
        base,
        {BLACK: (23, 1), BLUE: (10, 0)},
        finished=(GREEN, RED, YELLOW),
        active=1,
        red_line=True,
    )
    chance = sponsor_order_draws(BLUE, YELLOW) + flag_order_draws()
    p = Player(state)
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)), *chance)
    decks = [e.deck for e in of_type(ev, DeckShuffled)]
    assert decks == ["sponsor", "flag"]
    assert [(e.seat, e.colour) for e in of_type(ev, SponsorDealt)] == [(0, BLUE), (1, YELLOW)]
    off = replace(state, config=ChampionsConfig(bonus_sponsor_again_lap2=False))
    q = Player(off)
    q.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = q.act(ChooseDice(dice=(1, 2, 3)), *chance)
    assert not of_type(ev, SponsorDealt)


def test_n_game_end_after_lap_two_and_no_more_moves():
    """N-GAME-END: lap 2 scored, the game ends; further actions are refused."""
    p = Player(_near_lap_end(lap=2))
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert of_type(ev, GameEnded)
    assert p.state.phase == "over"
    assert rules.pending(p.state) == ()
    assert GAME.result(p.state) is not None
    with pytest.raises(GameOver):
        rules.step(p.state, 0, Roll(), Feed())


def test_n_tiebreak_lap_two_place_decides_equal_money():
    """N-TIEBREAK: equal money -> nearer first in lap 2 ranks higher."""
    state = replace(
        _near_lap_end(lap=2),
        money=(100_000, 40_000, 0),
        sponsors=((), (), ()),
    )
    # lap 2 will place Green 1st (P3 +100k), Red 2nd (P1 +60k), Black 4th (P2 +25k)
    p = Player(state)
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    (end,) = of_type(ev, GameEnded)
    assert end.money == (160_000, 65_000, 100_000)
    tied = replace(p.state, money=(100_000, 100_000, 100_000))
    assert rules.ranking(tied) == [2, 0, 1]  # Green 1st, Red 2nd, Black 4th in lap 2
    result = GAME.result(tied)
    assert result is not None
    assert result.ranking == [2, 0, 1]


def test_conformance_style_table_with_seeded_bots_plays_to_the_end():
    """N-GAME-END via Table: seeded bot games always end with money for every seat."""
    for n in (1, 2, 5):
        table = Table(
            GAME,
            ChampionsConfig(car_assignment="random"),
            [Seat(name=f"b{i}", bot="random") for i in range(n)],
            11,
        )
        table.run_bots()
        assert table.result() is not None
        assert table.state.lap == 2
        assert len(table.state.lap_places) == 2
