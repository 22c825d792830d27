"""Helpers for Go 500 rule tests: readable dice, mid-race tables and scripted steps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from core.go500 import GAME
from core.go500.config import Go500Config
from core.go500.fold import evolve, new_state
from core.go500.model import (
    Go500State,
    PoleWon,
    RaceStarted,
    RoundStarted,
    TurnStarted,
)
from core.rng import ScriptedChance

FLAG = {"GREEN": 0, "YELLOW": 3, "RED": 4, "BLACK": 5}
TRACK = {0: 0, 5: 1, 10: 2, 15: 3, 20: 4, "C": 5}
POWER = {"FLAT": 0, 10: 1, 20: 2, 30: 3, 40: 4, "C": 5}
PIT = {"CAUTION": 0, -20: 1, -10: 2, 0: 3, 10: 4, 20: 5}
CRASH = {"CRASH": 0, "BIG_X": 1, -10: 2, -20: 3, -30: 4, -50: 5}


def roll(flag: str, track: Sequence[Any] = (), power: Any = None) -> list[int]:
    """Face draws of one roll: F, then the given Track Dice, then P (if given)."""
    draws = [FLAG[flag], *(TRACK[v] for v in track)]
    if power is not None:
        draws.append(POWER[power])
    return draws


def table(
    totals: Sequence[int],
    order: Sequence[int] | None = None,
    current: int | None = None,
    **options: Any,
) -> Go500State:
    """A race in progress: qualifying done, these totals, ``current`` about to roll."""
    config = Go500Config(**options)
    n = len(totals)
    state = new_state(config, n)
    length = config.schedule[0][1] if config.mode == "cup" else config.race_length
    state = evolve(state, RaceStarted(race=0, name="Test race", length=length))
    order = tuple(order if order is not None else range(n))
    state = evolve(state, PoleWon(seat=order[0], order=order))
    state = replace(state, totals=tuple(totals))
    if config.mode == "multi_game":
        return evolve(state, RoundStarted(round=1, drivers=order))
    return evolve(state, TurnStarted(seat=order[0] if current is None else current))


def act(
    state: Go500State, seat: int, action: Any, draws: Sequence[int] = ()
) -> tuple[Go500State, list[Any]]:
    """Step ``action`` with exactly ``draws`` of chance; return the folded state and events."""
    chance = ScriptedChance(draws)
    events = GAME.step(state, seat, action, chance)
    assert chance.remaining == 0, f"{chance.remaining} scripted draws left unused"
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def kinds(events: Sequence[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def of(events: Sequence[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
