"""Cthulhu 500's declared traits (`core.traits`): what a turn is, what a replay jumps to, what
the race chart plots.

Owns the answers only. Must not: change state or word anything (that is `describe`).
"""

from __future__ import annotations

from typing import Any

from core.cthulhu500.model import (
    CheckeredFlagDrawn,
    Damaged,
    DeckReshuffled,
    PackFormed,
    Passed,
    PitStopped,
    RaceEnded,
    State,
    TurnStarted,
    VehiclesSwapped,
)
from core.traits import Landmark, Measure, Progress

__all__ = ["landmark", "progress", "turn_started"]

_HAPPENINGS = (
    Passed,
    Damaged,
    VehiclesSwapped,
    PitStopped,
    CheckeredFlagDrawn,
    DeckReshuffled,
)


def turn_started(event: Any) -> bool:
    """A player's turn ("Turn 12: Ann has 2 actions")."""
    return isinstance(event, TurnStarted)


def landmark(event: Any) -> Landmark | None:
    if isinstance(event, PackFormed | RaceEnded):
        return "race"
    if isinstance(event, _HAPPENINGS):
        return "event"
    return None


def progress(state: State) -> Progress:
    """Laps per seat, and each seat's place in the pack (1 = leader)."""
    laps = Measure(name="laps", values=tuple(v.laps for v in state.vehicles))
    where = {seat: i + 1 for i, seat in enumerate(state.pack)}
    place = Measure(
        name="pack place",
        values=tuple(where.get(seat, 0) for seat in range(state.n)),
        lower_is_better=True,
    )
    return Progress(measures=(laps, place))
