"""Movement properties over many seeded games (hypothesis, modest counts), and determinism."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.champions import GAME
from core.champions.config import ChampionsConfig
from core.champions.data import COMPONENTS
from core.champions.model import CarBlocked, CarMoved, ChampionsState
from core.champions.track import can_step
from core.game import Seat, Table

TRACK = COMPONENTS.track

configs = st.builds(
    ChampionsConfig,
    car_assignment=st.sampled_from(["choose", "random"]),
    partial_moves=st.booleans(),
    dead_end_steering=st.booleans(),
    turn_forward_optional=st.booleans(),
    crash_hits_neighbour=st.booleans(),
)


def check_move(before: ChampionsState, event: CarMoved) -> None:
    car = before.cars[event.car]
    assert car.place is None, "a finished car never moves"
    assert not car.backwards, "a backwards car never moves"
    assert car.space == event.start
    assert can_step(TRACK, event.start, before.occupied(but=event.car)), "blocked cars never move"
    others = before.occupied(but=event.car)
    row, lane = event.start
    for r, ln in event.path:
        assert r == row + 1, "no sideways or backwards step"
        assert abs(ln - lane) <= 1
        assert 0 <= ln < TRACK.lanes[r]
        assert (r, ln) not in others, "one car per space"
        row, lane = r, ln
    if event.end is None:
        assert row == TRACK.rows - 1
    else:
        assert event.end == (row, lane)
        assert 1 <= len(event.path) <= event.steps


def check_state(state: ChampionsState) -> None:
    spaces = [c.space for c in state.cars if c.on_track]
    assert len(spaces) == len(set(spaces)), "no two cars share a space"
    for car in state.cars:
        if car.place is not None:
            assert car.space is None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), n=st.integers(1, 5), config=configs)
def test_movement_properties_hold_in_seeded_games(seed, n, config):
    """N-STEP, N-BLOCKED, N-BACKWARDS, N-FINISHED-CAR over whole games."""
    seats = [Seat(name=f"P{i}", bot=("random", "promoter")[i % 2]) for i in range(n)]
    table = Table(GAME, config, seats, seed)
    table.run_bots()
    state = GAME.new_state(config, n)
    moves = 0
    for step in table.history:
        for event in step.events:
            if isinstance(event, CarMoved):
                check_move(state, event)
                moves += 1
            if isinstance(event, CarBlocked) and event.reason == "blocked":
                car = state.cars[event.car]
                assert car.space is not None
                assert not can_step(TRACK, car.space, state.occupied(but=event.car))
            before = state
            state = GAME.evolve(state, event)
            if isinstance(event, CarBlocked):
                assert state.cars == before.cars, "a blocked car never moves"
            check_state(state)
    assert moves > 20
    assert table.result() is not None


def _actions_and_bytes(seed: int) -> tuple[list[tuple[int, object]], bytes]:
    seats = [Seat(name=f"P{i}", bot="random") for i in range(3)]
    table = Table(GAME, GAME.default_config(), seats, seed)
    table.run_bots()
    actions = [(s.seat, s.action) for s in table.history[1:]]
    data = b"".join(msgspec.msgpack.encode(s.events) for s in table.history)
    return actions, data


def test_identical_bytes_for_identical_seed_and_actions():
    """Same seed + same actions => byte-identical events (replayed on a fresh table)."""
    actions, data = _actions_and_bytes(42)
    again = Table(GAME, GAME.default_config(), [Seat(name=f"P{i}") for i in range(3)], 42)
    for seat, action in actions:
        again.submit(seat, action)
    replayed = b"".join(msgspec.msgpack.encode(s.events) for s in again.history)
    assert replayed == data
    assert _actions_and_bytes(43)[1] != data
