"""N-LAP-LIMIT: a lap that reaches its turn limit is called; the cars still racing finish in
track order and the lap is scored as usual. Scripted chance, plus a whole table of stalling
players (the griefer the ruling exists for)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from core.champions import GAME, rules
from core.champions.config import ChampionsConfig
from core.champions.data import COMPONENTS
from core.champions.model import (
    CarBlocked,
    CarFinished,
    ChampionsState,
    ChooseDestination,
    ChooseDice,
    ChooseTargets,
    DeckShuffled,
    Event,
    GameEnded,
    GridPlaced,
    HeldSponsor,
    LapCalled,
    LapEnded,
    LeaveBackwards,
    MoneyAwarded,
    Roll,
    TurnStarted,
)
from core.game import ConfigError, Seat, Table, config_from_options
from tests.champions.helpers import (
    BLACK,
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Player,
    flag_order_draws,
    of_type,
    position,
    sponsor_order_draws,
    started,
)

LAP2_DRAWS = (*sponsor_order_draws(), *flag_order_draws())


def _stalled(limit: int, turn: int, lap: int = 1) -> ChampionsState:
    """P1 Red, P2 Black, P3 Green; Green has finished 1st; the rest are still racing.

    Blue (15, 2) faces backwards; Black (12, 0) and Red (12, 1) are side by side; Yellow (8, 1).
    P1 holds a base Sponsor: Blue, P2 a deck Sponsor: Black. ``turn`` turns have started.
    """
    base, _ = started(config=ChampionsConfig(lap_turn_limit=limit))
    state = position(
        base,
        {BLUE: (15, 2, "back"), BLACK: (12, 0), RED: (12, 1), YELLOW: (8, 1)},
        finished=(GREEN,),
        active=0,
        red_line=True,
    )
    state = replace(
        state,
        turn=turn,
        sponsors=(
            (HeldSponsor(source="base", colour=BLUE),),
            (HeldSponsor(source="deck", colour=BLACK),),
            (),
        ),
    )
    if lap == 2:
        state = replace(
            state, lap=2, lap_places=((BLUE, BLACK, YELLOW, RED, GREEN),), money=(1, 2, 3)
        )
    return state


def _green_three_times(p: Player, *, lap_ends: bool = True) -> list[Any]:
    """A turn that moves nothing: three dice for the finished Green car (then, if the lap ends,
    lap 2's shuffles)."""
    p.roll("GREEN", "GREEN", "GREEN", "BLACK", "RED")
    return p.act(ChooseDice(dice=(1, 2, 3)), *(LAP2_DRAWS if lap_ends else ()))


def test_n_lap_limit_lap_is_called_after_the_last_turn_in_track_order():
    """N-LAP-LIMIT: the limit's last turn is played out; then the lap is called, the cars still
    racing take the next places in track order (higher row first; side by side: the inside lane
    first; a backwards car too), and N-LAP-SCORE pays as usual."""
    p = Player(_stalled(limit=5, turn=5))
    ev = _green_three_times(p)
    assert [e.reason for e in of_type(ev, CarBlocked)] == ["finished"] * 3
    assert of_type(ev, LapCalled) == [LapCalled(lap=1, turns=5)]
    called = ev.index(LapCalled(lap=1, turns=5))
    assert ev[called + 1 : called + 5] == [
        CarFinished(car=BLUE, place=2),
        CarFinished(car=BLACK, place=3),
        CarFinished(car=RED, place=4),
        CarFinished(car=YELLOW, place=5),
    ]
    assert ev[called + 5] == LapEnded(lap=1, places=(GREEN, BLUE, BLACK, RED, YELLOW))
    # N-LAP-SCORE: P1 Red 4th + base Blue 2nd; P2 Black 3rd + deck Black 3rd; P3 Green 1st
    assert [(a.seat, a.prize, a.sponsor) for a in of_type(ev, MoneyAwarded)] == [
        (0, 25_000, 30_000),
        (1, 40_000, 10_000),
        (2, 100_000, 0),
    ]
    assert p.state.money == (55_000, 50_000, 100_000)
    assert GAME.describe(ev[called], ["A", "B", "C"]) == (
        "Lap 1 is called after 5 turns: the cars still racing finish in track order."
    )


def test_n_lap_limit_lap_two_sets_up_normally_after_a_called_lap():
    """N-LAP-LIMIT then N-LAP2-SETUP: the grid comes from the called places, the turn count
    starts again, and N-FIRST-PLAYER picks who goes first."""
    p = Player(_stalled(limit=5, turn=5))
    ev = _green_three_times(p)
    assert [e.deck for e in of_type(ev, DeckShuffled)] == ["sponsor", "flag"]
    assert of_type(ev, GridPlaced) == [GridPlaced(lap=2, order=(YELLOW, RED, BLACK, BLUE, GREEN))]
    # Yellow on space 1 is unowned; Red (P1) on space 2 goes first
    assert ev[-1] == TurnStarted(seat=0, lap=2)
    state = p.state
    assert (state.lap, state.turn, state.places, state.phase) == (2, 1, (), "roll")
    assert not state.red_line_crossed
    assert state.lap_places == ((GREEN, BLUE, BLACK, RED, YELLOW),)
    for space, colour in zip(COMPONENTS.track.grid, (YELLOW, RED, BLACK, BLUE, GREEN), strict=True):
        car = state.cars[colour]
        assert (car.space, car.backwards, car.place) == (space, False, None)
    # the new lap counts its own turns: it is not called again at once
    p.roll("GREEN", "GREEN", "GREEN", "BLACK", "RED")
    assert p.legal()  # P1 still chooses dice in lap 2's first turn


def test_n_lap_limit_not_before_the_limit_and_counted_in_turns_of_any_seat():
    """N-LAP-LIMIT: turn 4 of 5 ends as usual; the next seat's turn is the 5th and the last."""
    p = Player(_stalled(limit=5, turn=4))
    ev = _green_three_times(p, lap_ends=False)
    assert not of_type(ev, LapCalled)
    assert ev[-1] == TurnStarted(seat=1, lap=1)
    assert p.state.turn == 5
    ev = _green_three_times(p)
    assert of_type(ev, LapCalled) == [LapCalled(lap=1, turns=5)]
    assert p.state.lap_places == ((GREEN, BLUE, BLACK, RED, YELLOW),)


def test_n_lap_limit_zero_means_no_limit():
    """N-LAP-LIMIT: with ``lap_turn_limit = 0`` a lap is never called, however long it runs."""
    p = Player(_stalled(limit=0, turn=10_000))
    ev = _green_three_times(p, lap_ends=False)
    assert not of_type(ev, LapCalled)
    assert not of_type(ev, LapEnded)
    assert ev[-1] == TurnStarted(seat=1, lap=1)
    assert p.state.places == (GREEN,)


def test_n_lap_limit_a_lap_that_ends_in_its_last_turn_is_not_called():
    """N-LAP-LIMIT yields to N-LAP-END: cars that finish in the last turn finish as usual."""
    base, _ = started(config=ChampionsConfig(lap_turn_limit=7))
    state = position(
        base,
        {BLACK: (23, 1), BLUE: (10, 0)},
        finished=(GREEN, RED, YELLOW),
        active=1,
        red_line=True,
    )
    p = Player(replace(state, turn=7))
    p.roll("BLACK", "BLUE", "BLUE", "BLUE", "BLUE")
    ev = p.act(ChooseDice(dice=(1, 2, 3)), *LAP2_DRAWS)
    assert not of_type(ev, LapCalled)
    assert of_type(ev, CarFinished) == [
        CarFinished(car=BLACK, place=4),
        CarFinished(car=BLUE, place=5),
    ]
    assert p.state.lap_places == ((GREEN, RED, YELLOW, BLACK, BLUE),)


def test_n_lap_limit_in_lap_two_ends_the_game():
    """N-LAP-LIMIT in lap 2: the called lap is scored, then N-GAME-END."""
    p = Player(_stalled(limit=3, turn=3, lap=2))
    p.roll("GREEN", "GREEN", "GREEN", "BLACK", "RED")
    ev = p.act(ChooseDice(dice=(1, 2, 3)))
    assert of_type(ev, LapCalled) == [LapCalled(lap=2, turns=3)]
    (end,) = of_type(ev, GameEnded)
    assert end.money == (1 + 55_000, 2 + 50_000, 3 + 100_000)
    assert p.state.phase == "over"
    result = GAME.result(p.state)
    assert result is not None
    assert result.ranking == [2, 0, 1]


def test_n_lap_limit_track_order_is_the_engines_one_order():
    """N-LAP-LIMIT and N-LAST-CAR read one order: the last car is the tail of the track order."""
    state = _stalled(limit=5, turn=1)
    assert rules.track_order(state) == [BLUE, BLACK, RED, YELLOW]
    assert rules.last_cars(state) == [YELLOW]
    level = position(state, {BLACK: (8, 2), RED: (8, 0)})
    assert rules.track_order(level) == [BLUE, RED, YELLOW, BLACK]
    assert rules.last_cars(level) == [BLACK, RED, YELLOW]  # a tie: the drawer picks


def test_n_lap_limit_option_validation():
    """N-LAP-LIMIT: the limit is an int >= 0 (default 100); a negative one is refused."""
    assert ChampionsConfig().lap_turn_limit == 100
    GAME.check_config(ChampionsConfig(lap_turn_limit=0), 3)
    GAME.check_config(ChampionsConfig(lap_turn_limit=1), 3)
    with pytest.raises(ConfigError, match=r"^The lap turn limit cannot be negative \(0 means no"):
        GAME.check_config(ChampionsConfig(lap_turn_limit=-1), 3)
    config = config_from_options(GAME, {"lap_turn_limit": "-5"})
    with pytest.raises(ConfigError, match="cannot be negative"):
        GAME.check_config(config, 2)
    assert config_from_options(GAME, {"lap_turn_limit": "40"}).lap_turn_limit == 40
    with pytest.raises(ConfigError):
        config_from_options(GAME, {"lap_turn_limit": "soon"})


# --------------------------------------------------------------------------- a stalling table


def _griefer(view: ChampionsState, seat: int, legal: Sequence[Any]) -> Any:
    """A player who never wants a car to reach the line: the least progress at every choice."""
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, ChooseDice):
        finished = {c.colour for c in view.cars if not c.on_track}

        def moved(action: Any) -> tuple[int, int]:
            live = [d for d in action.dice if view.dice[d - 1] not in finished]
            return (len(live), sum(live))

        return min((a for a in legal if isinstance(a, ChooseDice)), key=moved)
    if isinstance(first, ChooseDestination):
        return min(legal, key=lambda a: 99 if a.end is None else a.end[0])
    if any(isinstance(a, LeaveBackwards) for a in legal):
        return LeaveBackwards()
    if isinstance(first, ChooseTargets):
        return min(legal, key=lambda a: sum(view.cars[c].row or 0 for c in a.cars))
    return first


def test_n_lap_limit_a_table_of_stallers_still_ends_and_every_seat_folds_its_view():
    """N-LAP-LIMIT at a real table: players who never bring a car home cannot hold the game;
    each lap lasts at most the limit, events round-trip the Event union, redacted folds equal
    views (the call reveals nothing hidden)."""
    limit, n = 12, 3
    table = Table(
        GAME,
        ChampionsConfig(lap_turn_limit=limit, car_assignment="random"),
        [Seat(name=f"P{i + 1}") for i in range(n)],
        7,
    )
    for _ in range(5_000):  # far more actions than 2 laps of 12 turns take
        if table.result() is not None:
            break
        (seat,) = table.pending()
        table.submit(seat, _griefer(table.view(seat), seat, table.legal(seat)))
    assert table.result() is not None
    events = [e for step in table.history for e in step.events]
    assert of_type(events, LapCalled) == [
        LapCalled(lap=1, turns=limit),
        LapCalled(lap=2, turns=limit),
    ]
    assert len(of_type(events, TurnStarted)) == 2 * limit
    assert len(table.state.lap_places) == 2
    encoder, decoder = msgspec.msgpack.Encoder(), msgspec.msgpack.Decoder(Event)
    for event in events:
        assert decoder.decode(encoder.encode(event)) == event
    folds = {viewer: GAME.new_state(table.config, n) for viewer in [None, *range(n)]}
    for event in events:
        for viewer in folds:
            folds[viewer] = GAME.evolve(folds[viewer], GAME.redact(event, viewer))
    for viewer, state in folds.items():
        assert state == GAME.view(table.state, viewer)
    assert sum(1 for s in table.history if isinstance(s.action, Roll)) == 2 * limit
