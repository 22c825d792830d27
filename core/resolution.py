"""The two small pieces every game's rules and fold are built from.

Owns `Resolution` — the working copy of one `step` (or `setup`): each event it emits is
appended and folded at once, so the next rule reads the state the replayed fold will reach and
the stepped state and the fold cannot disagree — and `fold_by_type`, the one dispatch style of
every game's `evolve` (a table from event class to handler; an event of no game is refused).
A resolution folds by the very table the game's `evolve` is built from, looking each handler up
itself (one Python call less for every event a step emits).

Where rules code dispatches on every step (the resolution loop, the chains over tasks and
answers) it tells them apart by exact class (``type(x) is C``, a set of classes, or this table)
rather than by ``isinstance``: a failing ``isinstance`` against a msgspec Struct class goes
through its metaclass (~150 ns, several times an identity test), and no such class has
subclasses.

Must not: know any game, draw chance itself or decide a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from core.rng import Chance

__all__ = ["Resolution", "fold_by_type"]

S = TypeVar("S")
Handler = Callable[[S, Any], S]


class Resolution(Generic[S]):
    """One resolution: ``state`` as it evolves, the ``events`` so far and the ``rng`` to draw
    from. Games subclass it for their own working fields (Cthulhu's resolution stack)."""

    __slots__ = ("_handlers", "events", "rng", "state")

    def __init__(self, state: S, rng: Chance, handlers: Mapping[type, Handler[S]]) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Any] = []
        self._handlers = handlers

    def emit(self, *events: Any) -> None:
        """Record each event and fold it onto ``state`` at once, by the game's fold table (the
        ``handlers`` its `evolve` is made of with `fold_by_type`)."""
        for event in events:
            handler = self._handlers.get(type(event))
            if handler is None:
                raise TypeError(f"not an event of this game: {event!r}")
            self.events.append(event)
            self.state = handler(self.state, event)


def fold_by_type(title: str, handlers: Mapping[type, Handler[S]]) -> Callable[[S, Any], S]:
    """An ``evolve(state, event)`` that folds each event by its handler in ``handlers``.

    Every event class of the game has a handler (one that returns the state unchanged for an
    announcement); anything else is refused with a ``TypeError`` naming the game.

    >>> evolve = fold_by_type("Counter", {int: lambda state, event: state + event})
    >>> evolve(1, 2)
    3
    >>> evolve(1, "two")
    Traceback (most recent call last):
    ...
    TypeError: not a Counter event: 'two'
    """
    table = dict(handlers)

    def evolve(state: S, event: Any) -> S:
        handler = table.get(type(event))
        if handler is None:
            raise TypeError(f"not a {title} event: {event!r}")
        return handler(state, event)

    evolve.__doc__ = f"Fold one {title} event onto the state (pure; never draws chance)."
    return evolve
