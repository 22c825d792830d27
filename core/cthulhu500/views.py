"""What each Cthulhu 500 seat may see (spec §7): ``view`` and ``redact``.

Owns hiding: other seats' hands (shown as `HIDDEN` placeholders, sizes public), the draw pile
order (nobody; `draw_size` is public, the TUI rounds it), shuffled orders, and setup discards
until the reveal. The invariant the conformance suite checks: folding `redact(e, seat)` over the
events gives exactly `view(state, seat)`.

Must not: change what happened, only what a seat is told of it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from core.cthulhu500.model import (
    HIDDEN,
    CardDealt,
    CardDrawn,
    CardTakenFromDiscard,
    DeckReshuffled,
    DeckShuffled,
    SetupDiscardChosen,
    State,
)

__all__ = ["redact", "view"]

replace = msgspec.structs.replace


def view(state: State, seat: int | None) -> State:
    """The state as ``seat`` (``None``: a spectator) may see it."""
    hands = tuple(
        hand if i == seat else (HIDDEN,) * len(hand) for i, hand in enumerate(state.hands)
    )
    choice = state.setup_choice
    if not all(state.setup_done):  # hidden until the common reveal
        choice = tuple(c if i == seat else None for i, c in enumerate(choice))
    return replace(state, hands=hands, draw=(), setup_choice=choice)


def redact(event: Any, seat: int | None) -> Any:
    """The event as ``seat`` may see it."""
    t = type(event)
    if t is DeckShuffled or t is DeckReshuffled:
        return replace(event, order=None)
    if (t is CardDealt or t is CardDrawn) and event.seat != seat:
        return replace(event, card=None)
    if t is CardTakenFromDiscard and event.seat != seat:
        return replace(event, hand_card=None)
    if t is SetupDiscardChosen and event.seat != seat:
        return replace(event, cards=None)
    return event
