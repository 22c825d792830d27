"""`rules.is_legal` agrees with membership in `rules.legal` (G-SAVE, G-GREEN, G-TRADIN-PAINT).

A step checks its action with `is_legal` instead of listing every save; over many reachable
states of seeded games in every mode (chaos, Tradin' Paint) every legal action is accepted and
every near miss (other saves, dice named twice or out of order, unknown dice, other drivers,
other kinds) gets the same verdict as the list, so a refusal keeps its sentence.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.game import BreaksRule, Seat, Table
from core.go500 import GAME
from core.go500.model import DIE_IDS, ChoosePaintTarget, Go500State, Roll, SaveAndRoll, Stop
from core.go500.rules import _canonical, is_legal, legal
from core.rng import Pcg32


def near_misses(state: Go500State, rng: Pcg32) -> list[Any]:
    ids = [*DIE_IDS, "X"]
    out: list[Any] = [Roll(), Stop(), SaveAndRoll(), SaveAndRoll(dice=[])]
    out += [ChoosePaintTarget(driver=d) for d in range(-1, state.n + 1)]
    for _ in range(12):
        picks = [ids[rng.below(len(ids))] for _ in range(rng.below(7))]
        out.append(SaveAndRoll(dice=picks))
    out.append(SaveAndRoll(dice=("T1",)))  # type: ignore[arg-type]
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    mode=st.sampled_from(["oval", "cup", "multi_game", "time_trial"]),
    chaos=st.booleans(),
    paint=st.booleans(),
    n=st.integers(2, 6),
)
def test_is_legal_agrees_with_the_legal_list(seed, mode, chaos, paint, n):
    config = msgspec.structs.replace(
        GAME.default_config(), mode=mode, table_chaos=chaos, tradin_paint=paint
    )
    if mode == "cup":
        config = msgspec.structs.replace(config, schedule=config.schedule[:2])
    bots = list(GAME.bots)
    seats = [Seat(name=f"P{i + 1}", bot=bots[i % len(bots)]) for i in range(n)]
    table = Table(GAME, config, seats, seed)
    rng = Pcg32(seed, 99)
    for _ in range(5000):
        pending = table.pending()
        if not pending:
            break
        state = table.state
        for seat in pending:
            listed = legal(state, seat)
            for action in [*listed, *near_misses(state, rng)]:
                canonical = _canonical(action)
                assert is_legal(state, seat, canonical) == (canonical in listed), action
        seat = pending[0]
        wrong = next(a for a in near_misses(state, rng) if _canonical(a) not in legal(state, seat))
        with pytest.raises(BreaksRule) as refused:
            table.submit(seat, wrong)
        with pytest.raises(BreaksRule) as again:  # the sentence resolve gives
            GAME.resolve(state, seat, wrong, table.chance)
        assert str(again.value) == str(refused.value)
        table.submit(seat, table.bot_action(seat))
    assert table.result() is not None
