"""Race-chart data: what each game declares it plots (``game.progress``), after every turn.

Owns `progress_series`: re-fold a table's (or replay's) steps and sample the game's declared
`core.traits.Progress` at the start of every turn (``game.turn_started``) and at the last step,
one point per turn played, also for the turns a viewer's first step (its `Welcome`) holds; a
new race (Cup Series) starts the series afresh. Also `cursor_turn`,
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


def _by_turn(game: Game, history: History) -> list[tuple[int, list[Any]]]:
    """The steps as (state id, events), the first cut after each turn start it holds: a
    viewer who came in mid-race has every earlier event in that one step (its `Welcome`), and
    the chart still has a point for every turn played before it came (at the state id it came
    in at)."""
    if not history:
        return []
    state_id, _seat, events = history[0]
    first: list[tuple[int, list[Any]]] = []
    chunk: list[Any] = []
    for event in events:
        chunk.append(event)
        if game.turn_started(event):
            first.append((state_id, chunk))
            chunk = []
    if chunk or not first:
        first.append((state_id, chunk))
    return first + [(sid, evs) for sid, _seat, evs in history[1:]]


def progress_series(game: Game, config: Any, n_seats: int, history: History) -> list[Series]:
    """Every measure the game plots, sampled after each turn of the race on screen."""
    state = game.new_state(config, n_seats)
    out: list[Series] = []
    race: int | None = None
    started = 0  # turns begun in this race
    steps = _by_turn(game, history)
    for index, (state_id, events) in enumerate(steps):
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
        last = index == len(steps) - 1
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
