"""NASCAR Champions hidden information (spec §7): ``view`` and ``redact``.

Owns what a seat or spectator may see: deck orders are hidden from everyone (views keep only the
counts; shuffle events lose their order), and a Sponsor card's colour is seen only by its holder
until lap scoring reveals every hand. Folding the events redacted for a seat gives exactly
``view(state, seat)``.

Must not: change anything but hidden fields, or know any other rule.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from core.champions.model import (
    CardDrawn,
    ChampionsState,
    DeckShuffled,
    HeldSponsor,
    SponsorDealt,
)

__all__ = ["redact", "view"]


def _hide(hand: tuple[HeldSponsor, ...]) -> tuple[HeldSponsor, ...]:
    return tuple(HeldSponsor(source=h.source, colour=None) for h in hand)


def view(state: ChampionsState, seat: int | None) -> ChampionsState:
    """The state as ``seat`` may see it (``None`` = a spectator)."""
    sponsors = state.sponsors
    if not state.sponsors_revealed:
        sponsors = tuple(h if s == seat else _hide(h) for s, h in enumerate(sponsors))
    return replace(state, sponsor_deck=None, flag_deck=None, sponsors=sponsors)


def redact(event: Any, seat: int | None) -> Any:
    """The event as ``seat`` may see it (``None`` = a spectator)."""
    if isinstance(event, DeckShuffled):
        return replace(event, order=None) if event.order is not None else event
    if isinstance(event, SponsorDealt) and event.seat != seat and event.colour is not None:
        return replace(event, colour=None)
    if isinstance(event, CardDrawn) and event.sponsor and event.seat != seat:
        return replace(event, card=None)
    return event
