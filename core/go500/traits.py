"""Go 500's declared traits (`core.traits`): what a turn is, what a replay jumps to, what the
race chart plots.

Owns the answers only. Must not: change state or word anything (that is `describe`).
"""

from __future__ import annotations

from typing import Any

from core.go500.model import (
    BigOneStarted,
    CautionCut,
    ChaosStruck,
    CheckeredFlag,
    FinalRoundStarted,
    Go500State,
    InTheGroove,
    KnockedOut,
    PaintTraded,
    RaceEnded,
    RaceStarted,
    RoundStarted,
    SeasonEnded,
    TurnEnded,
    TurnStarted,
)
from core.traits import Landmark, Measure, Progress

__all__ = ["landmark", "progress", "turn_started"]

_RACE = (RaceStarted, RaceEnded, SeasonEnded)
_HAPPENINGS = (
    BigOneStarted,
    CautionCut,
    ChaosStruck,
    CheckeredFlag,
    FinalRoundStarted,
    InTheGroove,
    KnockedOut,
    PaintTraded,
)
_FLAG_ENDS = ("pit", "crash", "penalty")  # a yellow, red or black flag ended the turn


def turn_started(event: Any) -> bool:
    """A driver's turn (extra and final-round turns too); in Multi-Game, a round (everyone's
    turn at once). Qualifying is not a turn."""
    return isinstance(event, TurnStarted | RoundStarted)


def landmark(event: Any) -> Landmark | None:
    if isinstance(event, _RACE):
        return "race"
    if isinstance(event, _HAPPENINGS):
        return "event"
    if isinstance(event, TurnEnded) and event.kind in _FLAG_ENDS:
        return "event"
    return None


def progress(state: Go500State) -> Progress:
    """Every driver's miles; the race length is the goal (Time Trials have none)."""
    goal = None if state.config.mode == "time_trial" else state.race_length
    miles = Measure(name="miles", values=tuple(state.totals), goal=goal)
    return Progress(measures=(miles,), race=state.race)
