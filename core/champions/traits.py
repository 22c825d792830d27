"""NASCAR Champions' declared traits (`core.traits`): what a turn is, what a replay jumps to,
what the race chart plots.

Owns the answers only. Must not: change state or word anything (that is `describe`).
"""

from __future__ import annotations

from typing import Any

from core.champions.model import (
    CardDrawn,
    CarFinished,
    ChampionsState,
    GameEnded,
    LapCalled,
    LapEnded,
    LapStarted,
    RedLineCrossed,
    TurnStarted,
)
from core.champions.rules import track_order
from core.traits import Landmark, Measure, Progress

__all__ = ["landmark", "progress", "turn_started"]


def turn_started(event: Any) -> bool:
    return isinstance(event, TurnStarted)


def landmark(event: Any) -> Landmark | None:
    if isinstance(event, LapStarted | LapEnded | GameEnded):
        return "race"
    if isinstance(event, CardDrawn | CarFinished | LapCalled | RedLineCrossed):
        return "event"
    return None


def progress(state: ChampionsState) -> Progress:
    """Each player's money, and their car's track position (1 = ahead; finished cars first, by
    place; 0 = no car yet)."""
    finished = sorted((c for c in state.cars if c.place is not None), key=lambda c: c.place or 0)
    order = [c.colour for c in finished] + track_order(state)
    where = {colour: i + 1 for i, colour in enumerate(order)}
    positions = tuple(0 if car is None else where.get(car, 0) for car in state.seat_car)
    money = Measure(name="money", values=tuple(state.money))
    position = Measure(name="track position", values=positions, lower_is_better=True)
    return Progress(measures=(money, position))
