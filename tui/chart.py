"""Race-chart data: every driver's miles after each turn, from a history of events.

Owns `miles_series`: re-fold a table's (or replay's) steps and take each driver's total after
every step that recorded miles; a Cup Series shows the race in progress (the series restarts at
each new race). Must not import textual or draw chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.game import Game

__all__ = ["miles_series"]

_TURN_END = {"MilesRecorded", "KnockedOut"}


def miles_series(
    game: Game, config: Any, n_seats: int, history: Sequence[tuple[int, int | None, list[Any]]]
) -> tuple[list[int], list[list[int]]]:
    """(state ids, per-seat totals) after each turn that changed the standings."""
    state = game.new_state(config, n_seats)
    ids: list[int] = [0]
    series: list[list[int]] = [[0] for _ in range(n_seats)]
    for state_id, _seat, events in history:
        turn_ended = False
        for event in events:
            name = type(event).__name__
            if name == "RaceStarted":
                ids = [state_id]
                series = [[0] for _ in range(n_seats)]
            state = game.evolve(state, event)
            turn_ended = turn_ended or name in _TURN_END
        if turn_ended:
            totals = tuple(getattr(state, "totals", ()) or ())
            if len(totals) == n_seats:
                ids.append(state_id)
                for seat in range(n_seats):
                    series[seat].append(int(totals[seat]))
    return ids, series
