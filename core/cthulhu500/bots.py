"""Cthulhu 500 bots: `random` (the default) and `shrewd` (a heuristic player).

Owns bot policies. A bot sees only its seat's view and the legal actions, and draws its own
chance (never the game's). Must not: read hidden state or change anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.cthulhu500.model import State
from core.rng import Chance

__all__ = ["BOTS", "random_bot"]


def random_bot(view: State, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    """Any legal action, uniformly."""
    return legal[chance.below(len(legal))]


BOTS = {"random": random_bot}
