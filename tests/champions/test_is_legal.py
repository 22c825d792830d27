"""`rules.is_legal` agrees with membership in `rules.legal` (N-CHOOSE-3, N-SHIFT-GEARS, N-MOVE).

A step checks its action with `is_legal` (and the answers the step before listed, kept by
identity of the state) instead of copying the legal list; over many reachable states of seeded
games every legal action is accepted and every near miss (other dice, ends, cars, kinds) gets the
same verdict as the list, so a refusal keeps its sentence; the kept answers (and occupied
spaces) are those worked out afresh, whatever state was asked in between.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import registry
from core.champions import rules
from core.champions.model import (
    ChampionsState,
    ChooseCar,
    ChooseCrashNeighbour,
    ChooseDestination,
    ChooseDice,
    ChooseLastCar,
    ChooseTargets,
    LeaveBackwards,
    Roll,
    ShiftGears,
    TurnForward,
)
from core.game import BreaksRule, Seat, Table
from core.rng import Pcg32

GAME = registry.get("champions")


def near_misses(state: ChampionsState, rng: Pcg32) -> list[Any]:
    out: list[Any] = [Roll(), ShiftGears(), TurnForward(), LeaveBackwards(), None, 3]
    out += [ChooseDice(dice=(1, 2, 3)), ChooseDice(dice=(3, 2, 1)), ChooseDice(dice=(1, 2))]
    out += [ChooseDice(dice=(2, 4, 5)), ChooseDice(dice=(1, 2, 3, 4)), ChooseDice(dice=(1, 1, 2))]
    out += [ChooseDice(dice=[1, 2, 3]), ChooseDice(dice=([1], 2, 3))]  # not tuples of ints
    for c in range(-1, 6):
        out += [ChooseCar(car=c), ChooseLastCar(car=c), ChooseCrashNeighbour(car=c)]
        out.append(ChooseTargets(cars=(c, rng.below(5))))
        out.append(ChooseTargets(cars=(c,)))
    out.append(ChooseDestination(end=None))
    for car in state.cars:
        if car.row is not None and car.lane is not None:
            for dr in range(0, 5):
                out.append(ChooseDestination(end=(car.row + dr, car.lane + rng.below(3) - 1)))
    return out


def fresh_legal(state: ChampionsState, seat: int) -> list[Any]:
    """`rules.legal` with the answers of a decision worked out afresh."""
    if state.phase == "resolve" and state.queue and seat == state.active:
        answers = rules._answers(state, state.queue[0])
        return list(answers) if answers else []
    return rules.legal(state, seat)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(1, 5),
    assignment=st.sampled_from(["choose", "random"]),
    partial=st.booleans(),
    dead_end=st.booleans(),
    turn_forward=st.booleans(),
    gears=st.integers(0, 3),
)
def test_is_legal_agrees_with_the_legal_list(
    seed, n, assignment, partial, dead_end, turn_forward, gears
):
    config = msgspec.structs.replace(
        GAME.default_config(),
        car_assignment=assignment,
        partial_moves=partial,
        dead_end_steering=dead_end,
        turn_forward_optional=turn_forward,
        shift_gears_per_lap=gears,
    )
    bots = list(GAME.bots)
    seats = [Seat(name=f"P{i + 1}", bot=bots[i % len(bots)]) for i in range(n)]
    table = Table(GAME, config, seats, seed)
    rng = Pcg32(seed, 99)
    before: ChampionsState | None = None
    for _ in range(5000):
        pending = table.pending()
        if not pending:
            break
        state = table.state
        seat = pending[0]
        if state.phase == "resolve" and state.queue:
            head = state.queue[0]
            assert rules._options(state, head) == rules._answers(state, head)
        for car in (*range(5), 0, 0):  # the kept occupied spaces are the cars' own
            assert rules._occupied(state, car) == state.occupied(but=car)
        if before is not None:
            assert rules._occupied(before, 1) == before.occupied(but=1)
        if before is not None:  # another state asked in between: its answers are its own
            assert rules.legal(before, before.active) == fresh_legal(before, before.active)
        listed = rules.legal(state, seat)
        for action in [*listed, *near_misses(state, rng)]:
            assert rules.is_legal(state, seat, action) == (action in listed), action
        wrong = next(a for a in near_misses(state, rng) if a not in listed)
        with pytest.raises(BreaksRule) as refused:
            table.submit(seat, wrong)
        with pytest.raises(BreaksRule) as again:  # the sentence resolve gives
            GAME.resolve(state, seat, wrong, table.chance)
        assert str(again.value) == str(refused.value)
        before = state
        table.submit(seat, table.bot_action(seat))
    assert table.result() is not None
