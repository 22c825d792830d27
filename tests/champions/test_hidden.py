"""Hidden information (spec §7): Sponsor cards never leak to another seat or a spectator, deck
orders leak to nobody, and redacted folds equal views after every step."""

from __future__ import annotations

import msgspec
import pytest

from core.champions import GAME
from core.champions.config import ChampionsConfig
from core.champions.data import COMPONENTS
from core.champions.model import (
    CardDrawn,
    DeckShuffled,
    SponsorDealt,
    SponsorsRevealed,
)
from core.game import Seat, Table

COLOUR_WORDS = [name.capitalize() for name in COMPONENTS.colour_names]


def play(seed: int, n: int) -> Table:
    seats = [Seat(name=f"P{i + 1}", bot="promoter" if i % 2 else "random") for i in range(n)]
    table = Table(GAME, ChampionsConfig(car_assignment="random"), seats, seed)
    table.run_bots()
    return table


@pytest.mark.parametrize(("seed", "n"), [(1, 2), (2, 5), (3, 3), (4, 1)])
def test_sponsor_cards_never_leak_to_another_seat_or_a_spectator(seed, n):
    """N-SPONSOR-KEEP: every redacted event and every view hides others' Sponsor colours."""
    table = play(seed, n)
    events = [e for step in table.history for e in step.events]
    assert any(isinstance(e, SponsorDealt) for e in events)
    for viewer in [None, *range(n)]:
        revealed = False
        for event in events:
            seen = GAME.redact(event, viewer)
            if isinstance(event, SponsorsRevealed):
                revealed = True
            if isinstance(seen, SponsorDealt) and seen.seat != viewer:
                assert seen.colour is None
                text = GAME.describe(seen, table.names) or ""
                assert not any(word in text for word in COLOUR_WORDS), text
            if isinstance(seen, CardDrawn) and seen.sponsor and seen.seat != viewer:
                assert seen.card is None
                assert "Sponsor:" not in (GAME.describe(seen, table.names) or "")
            if isinstance(seen, DeckShuffled):
                assert seen.order is None
            if isinstance(event, SponsorDealt) and event.seat == viewer:
                assert seen.colour == event.colour  # the holder sees their own
        assert revealed


@pytest.mark.parametrize(("seed", "n"), [(5, 3), (6, 2)])
def test_redacted_fold_equals_view_after_every_step(seed, n):
    """Folding each step's redacted events gives that seat's view at every point."""
    table = play(seed, n)
    config = table.config
    full = GAME.new_state(config, n)
    folds = {viewer: GAME.new_state(config, n) for viewer in [None, *range(n)]}
    for step in table.history:
        for event in step.events:
            full = GAME.evolve(full, event)
            for viewer in folds:
                folds[viewer] = GAME.evolve(folds[viewer], GAME.redact(event, viewer))
        for viewer, state in folds.items():
            assert state == GAME.view(full, viewer)
            if not full.sponsors_revealed:
                for seat, hand in enumerate(state.sponsors):
                    if seat != viewer:
                        assert all(h.colour is None for h in hand)
            assert state.flag_deck is None
            assert state.sponsor_deck is None
    assert full == table.state


def test_view_bytes_never_contain_another_seats_hidden_sponsor():
    """A view serialised for the wire holds no other seat's Sponsor colour before scoring."""
    table = play(7, 4)
    state = GAME.new_state(table.config, 4)
    checked = 0
    for step in table.history:
        for event in step.events:
            state = GAME.evolve(state, event)
        if state.sponsors_revealed:
            continue
        for viewer in (None, 0, 1, 2, 3):
            data = msgspec.json.decode(msgspec.json.encode(GAME.view(state, viewer)))
            assert data["flag_deck"] is None
            assert data["sponsor_deck"] is None
            for seat, hand in enumerate(data["sponsors"]):
                if seat != viewer:
                    checked += len(hand)
                    assert all(h["colour"] is None for h in hand)
    assert checked > 0
