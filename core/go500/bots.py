"""Go 500 bots by name: ``random``, ``cautious``, ``bold`` and ``optimal``.

Owns the simple policies (thresholds on the miles showing) and the registry of bots; the
``optimal`` policy lives in `optimal.py`. A bot sees only its seat's view and the legal
actions, and answers with one of them. Must not: draw from the game's chance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.game import BotFn
from core.go500.model import (
    DIE_IDS,
    RACING_DICE,
    ChoosePaintTarget,
    Go500State,
    SaveAndRoll,
    Stop,
    TurnState,
)
from core.go500.tables import tables_for
from core.rng import Chance

__all__ = ["BOTS", "paint_target", "save_by_threshold"]


def paint_target(view: Go500State, legal: Sequence[Any]) -> Any:
    """Trade paint with the driver furthest ahead (earliest in the list on a tie)."""
    best = max(legal, key=lambda a: view.totals[a.driver])
    return best


def _random(view: Go500State, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    """Any legal action; on a green flag, stop half the time."""
    if len(legal) > 1 and isinstance(legal[0], Stop):
        if chance.below(2) == 0:
            return legal[0]
        return legal[1 + chance.below(len(legal) - 1)]
    return legal[chance.below(len(legal))]


def save_by_threshold(view: Go500State, turn: TurnState, keep_at: int) -> SaveAndRoll:
    """Save every saveable die showing at least ``keep_at`` miles, keeping one die to roll."""
    tab = tables_for(view.config.circle_values)
    keep: list[int] = []
    rollable = 0
    for i in RACING_DICE:
        if turn.saved[i] or turn.removed[i]:
            continue
        rollable += 1
        face = turn.faces[i]
        if face is None or turn.lost[i]:
            continue
        if tab.die_miles[i][face] >= keep_at:
            keep.append(i)
    if len(keep) >= rollable:
        keep.sort(key=lambda i: tab.die_miles[i][turn.faces[i] or 0])
        keep = sorted(keep[1:])
    return SaveAndRoll(dice=[DIE_IDS[i] for i in keep])


def _threshold_bot(stop_at: int, keep_at: int) -> BotFn:
    def bot(view: Go500State, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
        first = legal[0]
        if isinstance(first, ChoosePaintTarget):
            return paint_target(view, legal)
        if not isinstance(first, Stop):
            return first
        turn = view.turns[seat]
        assert turn is not None
        if turn.showing >= stop_at or view.totals[seat] + turn.showing >= view.race_length > 0:
            return first
        return save_by_threshold(view, turn, keep_at)

    return bot


def _optimal(view: Go500State, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    from core.go500.optimal import choose

    return choose(view, seat, legal)


BOTS: dict[str, Callable[[Any, int, Sequence[Any], Chance], Any]] = {
    "random": _random,
    "cautious": _threshold_bot(stop_at=45, keep_at=15),
    "bold": _threshold_bot(stop_at=100, keep_at=20),
    "optimal": _optimal,
}
