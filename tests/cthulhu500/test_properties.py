"""Properties of whole Cthulhu 500 games: card conservation, hidden information, determinism."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import registry
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
from core.cthulhu500.views import redact
from core.game import Seat, Table

GAME = registry.get("cthulhu500")


def places(state: State) -> list[int]:
    """Every card's place, flattened: each of the 110 ids must occur exactly once."""
    out: list[int] = []
    for v in state.vehicles:
        if v.marker:
            out += [v.marker, v.marker + 1]
        out += [*v.crew, *v.mods]
        out += [c for c in (v.driver, v.tires) if c is not None]
    for m in state.set_aside:
        out += [m, m + 1]
    if any(v.marker == 0 for v in state.vehicles):  # choose mode, before the choices:
        taken = {v.marker for v in state.vehicles}  # pairs on offer, the deck still boxed
        out += [c for m in range(1, 16, 2) if m not in taken for c in (m, m + 1)]
        out += list(range(17, 111))
    for hand in state.hands:
        out += hand
    out += [*state.draw, *state.discard, *state.in_play]
    out += [m.card for m in state.contagions]
    return out


def table(seed: int, n: int, bots: tuple[str, ...] = ("random",), **options: Any) -> Table:
    seats = [Seat(name=f"P{i + 1}", bot=bots[i % len(bots)]) for i in range(n)]
    config = msgspec.structs.replace(GAME.default_config(), **options)
    return Table(GAME, config, seats, seed)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 8),
    prompt=st.sampled_from(["holders", "everyone"]),
    assignment=st.sampled_from(["random", "choose"]),
    bots=st.sampled_from([("random",), ("shrewd", "random")]),
)
def test_every_card_is_always_in_exactly_one_place(seed, n, prompt, assignment, bots):
    t = table(seed, n, bots, reaction_prompt=prompt, vehicle_assignment=assignment)
    assert sorted(places(t.state)) == list(range(1, 111))
    for _ in range(3000):
        pending = t.pending()
        if not pending:
            break
        t.submit(pending[0], t.bot_action(pending[0]))
        assert sorted(places(t.state)) == list(range(1, 111))
    assert t.result() is not None


def _ints(value: Any, keys: frozenset[str], inside: bool = False) -> set[int]:
    found: set[int] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found |= _ints(v, keys, inside or k in keys)
    elif isinstance(value, list):
        for v in value:
            found |= _ints(v, keys, inside)
    elif isinstance(value, int) and inside and not isinstance(value, bool):
        found.add(value)
    return found


CARD_KEYS = frozenset({"card", "cards", "order", "hand_card", "target_card"})


def test_redacted_streams_never_show_hands_or_the_deck_order():
    for seed in range(6):
        n = 3 + seed % 4
        t = table(seed, n)
        t.run_bots()
        setup_events = t.history[0].events
        order = next(e.order for e in setup_events if isinstance(e, DeckShuffled))
        for viewer in [None, *range(n)]:
            seen = [redact(e, viewer) for step in t.history for e in step.events]
            blob = msgspec.json.encode(seen)
            # the deck order never appears, not even as a run of three cards
            for i in range(len(order) - 2):
                assert msgspec.json.encode(list(order[i : i + 3]))[1:-1] not in blob
            for e in seen:
                if isinstance(e, (DeckShuffled, DeckReshuffled)):
                    assert e.order is None
                if isinstance(e, (CardDealt, CardDrawn)) and e.seat != viewer:
                    assert e.card is None
                if isinstance(e, SetupDiscardChosen) and e.seat != viewer:
                    assert e.cards is None
                if isinstance(e, CardTakenFromDiscard) and e.seat != viewer:
                    assert e.hand_card is None
            # no id of another seat's dealt hand appears anywhere in the setup as this viewer sees it
            setup_seen = msgspec.to_builtins([redact(e, viewer) for e in setup_events])
            shown = _ints(setup_seen, CARD_KEYS)
            for seat in range(n):
                if seat != viewer:
                    dealt = {
                        e.card
                        for e in setup_events
                        if isinstance(e, CardDealt) and e.seat == seat
                    }
                    assert not dealt & shown, (seat, viewer)
            final = GAME.view(t.state, viewer)
            assert final.draw == ()
            for seat in range(n):
                if seat != viewer:
                    assert set(final.hands[seat]) <= {HIDDEN}


def test_same_seed_and_same_actions_give_identical_bytes():
    first = table(11, 4, ("shrewd", "random"))
    first.run_bots()
    again = table(11, 4, ("shrewd", "random"))
    for step in first.history[1:]:
        assert step.seat is not None
        again.submit(step.seat, step.action, again.state_id)
    a = b"".join(msgspec.msgpack.encode(s.events) for s in first.history)
    b = b"".join(msgspec.msgpack.encode(s.events) for s in again.history)
    assert a == b
    assert first.result() == again.result()


def test_describe_never_names_a_hidden_card():
    t = table(5, 3)
    t.run_bots()
    names = t.names
    for step in t.history:
        for e in step.events:
            if isinstance(e, (CardDealt, CardDrawn)):
                hidden = GAME.describe(redact(e, (e.seat + 1) % 3), names)
                assert (
                    hidden
                    == f"{names[e.seat]} {'is dealt' if isinstance(e, CardDealt) else 'draws'} a card."
                )
                assert GAME.describe(e, names) != hidden
    lines = [GAME.describe(e, names) for s in t.history for e in s.events]
    assert any(line and "passes" in line for line in lines)


OPTION_SETS = [
    {"reaction_prompt": "everyone"},
    {"vehicle_assignment": "choose"},
    {"may_draw_fewer": True, "promo_flag": True},
    {"seam_damage_moves": "circle", "equipment_cap": None, "free_test_may_decline": False},
    {"round_limit": 3},
    {"hand_limit": 7, "draw_per_turn": 3, "actions_per_turn": 3},
]


def test_views_are_redacted_folds_under_every_option_set():
    for i, options in enumerate(OPTION_SETS):
        n = 2 + (i * 3) % 7
        t = table(100 + i, n, ("shrewd", "random"), **options)
        t.run_bots()
        assert t.result() is not None
        config = t.config
        events = [e for step in t.history for e in step.events]
        for viewer in [None, *range(n)]:
            state = GAME.new_state(config, n)
            for e in events:
                r = redact(e, viewer)
                if r is not None:
                    state = GAME.evolve(state, r)
            assert state == GAME.view(t.state, viewer), (options, viewer)


def test_every_legal_action_and_decision_has_words():
    from core.cthulhu500.describe import action_text, decision_text, prompt_text

    t = table(21, 4, ("shrewd", "random"), reaction_prompt="everyone", promo_flag=True)
    labels: set[str] = set()
    while t.pending():
        seat = t.pending()[0]
        view = GAME.view(t.state, seat)
        assert decision_text(view, seat, t.names)
        assert decision_text(GAME.view(t.state, None), None, t.names)
        assert prompt_text(view, t.names) != "Your move"
        for action in t.legal(seat):
            label = action_text(action, t.names, view)
            assert label
            assert "Struct" not in label
            labels.add(label.split()[0])
        t.submit(seat, t.bot_action(seat))
    assert {"Try", "No", "Discard", "End"} <= labels  # a pass, no reaction, discards, end
    assert decision_text(GAME.view(t.state, 0), 0, t.names) == "The race is over."
