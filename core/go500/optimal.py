"""The ``optimal`` Go 500 bot (placeholder until the exact policy lands)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.go500.bots import paint_target, save_by_threshold
from core.go500.model import ChoosePaintTarget, Go500State, Stop

__all__ = ["choose"]


def choose(view: Go500State, seat: int, legal: Sequence[Any]) -> Any:
    first = legal[0]
    if isinstance(first, ChoosePaintTarget):
        return paint_target(view, legal)
    if not isinstance(first, Stop):
        return first
    turn = view.turns[seat]
    assert turn is not None
    if turn.showing >= 70:
        return first
    return save_by_threshold(view, turn, 20)
