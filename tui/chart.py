"""Race-chart data: what each game declares it plots (``game.progress``), after every turn.

Owns `progress_series`: re-fold a table's (or replay's) steps and sample the game's declared
`core.traits.Progress` at the start of every turn (``game.turn_started``) and at the last step,
one point per turn played; a new race (Cup Series) starts the series afresh. Also `cursor_turn`,
the point a replay step falls on. Must not import textual, draw chance or know any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.game import Game

__all__ = ["Series", "cursor_turn", "progress_series"]

History = Sequence[tuple[int, int | None, list[Any]]]


@dataclass
class Series:
    """One measure over the turns: x = turns played, one line of values per seat."""

    name: str
    goal: int | None = None
    lower_is_better: bool = False
    turns: list[int] = field(default_factory=list)
    state_ids: list[int] = field(default_factory=list)
    values: list[list[int]] = field(default_factory=list)


def progress_series(game: Game, config: Any, n_seats: int, history: History) -> list[Series]:
    """Every measure the game plots, sampled after each turn of the race on screen."""
    state = game.new_state(config, n_seats)
    out: list[Series] = []
    race: int | None = None
    started = 0  # turns begun in this race
    for index, (state_id, _seat, events) in enumerate(history):
        began = False
        for event in events:
            state = game.evolve(state, event)
            began = began or game.turn_started(event)
        progress = game.progress(state)
        if progress.race != race:
            race, started = progress.race, 0
            out = [
                Series(name=m.name, goal=m.goal, lower_is_better=m.lower_is_better)
                for m in progress.measures
            ]
        started += began
        last = index == len(history) - 1
        if not (began or last or index == 0):
            continue
        played = max(0, started - 1) if began else started
        for series, measure in zip(out, progress.measures, strict=False):
            if len(measure.values) != n_seats:
                continue
            if series.turns and series.turns[-1] == played:  # same turn: keep the later point
                series.turns.pop()
                series.state_ids.pop()
                for line in series.values:
                    line.pop()
            if not series.values:
                series.values = [[] for _ in range(n_seats)]
            series.goal = measure.goal
            series.turns.append(played)
            series.state_ids.append(state_id)
            for seat in range(n_seats):
                series.values[seat].append(int(measure.values[seat]))
    return out


def cursor_turn(series: Series, state_id: int) -> int | None:
    """The x (turns played) of the last point taken at or before ``state_id``."""
    at = [turn for turn, sid in zip(series.turns, series.state_ids, strict=True) if sid <= state_id]
    return at[-1] if at else (series.turns[0] if series.turns else None)
