"""The working context of one Cthulhu 500 step: the state as it evolves, the stack, the events.

Owns `Ctx`: every event a task emits is folded at once (so rules read the current state), and
the resolution stack is a plain list while a step runs. Must not: decide rules.
"""

from __future__ import annotations

from typing import Any

from core.cthulhu500.fold import HANDLERS
from core.cthulhu500.model import State
from core.resolution import Resolution
from core.rng import Chance

__all__ = ["Ctx"]


class Ctx(Resolution[State]):
    """One step's working copy (`core.resolution.Resolution`): the state as folded so far, the
    events, chance, and the resolution stack as a plain list."""

    __slots__ = ("stack",)

    def __init__(self, state: State, rng: Chance) -> None:
        super().__init__(state, rng, HANDLERS)
        self.stack: list[Any] = list(state.stack)

    def die(self) -> int:
        return self.rng.below(6) + 1

    def top_index(self, kind: type) -> int | None:
        for i in range(len(self.stack) - 1, -1, -1):
            if type(self.stack[i]) is kind:  # exact types (see engine._DECISIONS)
                return i
        return None
