"""Cthulhu 500 analysis: exact passing chances, the tie row, luck that sums to the identity."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.analysis import Settings, analyse, check_identity
from core.cthulhu500 import GAME
from core.cthulhu500.analysis import (
    PASS,
    STANDING,
    guess_table,
    pass_chances,
    tie_row,
    value_options,
)
from core.cthulhu500.model import HIDDEN, DActions, PassResolved
from core.cthulhu500.views import view
from core.game import Seat, Table
from core.rng import Pcg32
from replays.analysis import analyse_replay, to_json
from tests.analysis.helpers import bot_table, saved_replay


@pytest.mark.parametrize(("a", "d"), [(0, 0), (3, 1), (1, 4), (7, 0), (0, 6), (2, 2)])
def test_pass_chances_equal_the_distribution_of_two_dice(a, d):
    # the difference of two d6 is k with chance (6 - |k|) / 36
    need = d - a  # attacker die - defender die must beat this
    win = sum(6 - abs(k) for k in range(-5, 6) if k > need) / 36
    tie = (6 - abs(need)) / 36 if abs(need) <= 5 else 0.0
    got = pass_chances(a, d)
    assert got == pytest.approx((win, tie, 1 - win - tie))
    assert sum(got) == pytest.approx(1)


def test_tie_rows_follow_the_damage_table():
    assert "FRESH" in tie_row(False, False)
    assert "BOTH-DAMAGED" in tie_row(True, True)
    assert "ATTACKER-DAMAGED" in tie_row(True, False)
    assert "DEFENDER-DAMAGED" in tie_row(False, True)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_pass_test_is_found_and_luck_sums_to_the_identity(seed):
    t = bot_table("cthulhu500", ["shrewd", "random", "shrewd"], seed)
    a = analyse(
        "cthulhu500", GAME.new_state(t.config, 3), t.history, t.names, Settings(rollouts=1), 0
    )
    resolved = [e for s in t.history for e in s.events if isinstance(e, PassResolved)]
    assert len(a.chances) == len(resolved) > 0
    for node, event in zip(a.chances, resolved, strict=True):
        assert sum(o.value for o in node.outcomes) == pytest.approx(100, abs=1e-4)
        assert node.outcomes[node.happened].value > 0  # what happened was possible
        assert ["win", "tie", "lose"][node.happened] == event.outcome
    assert check_identity(a) == []
    # each test's luck is zero-sum between its two sides; a test is chance, never skill
    passes = [next(u for u in p.by_unit if u.unit == PASS) for p in a.players]
    assert sum(u.luck for u in passes) == pytest.approx(0, abs=1e-4)
    assert all(u.skill_loss == 0 for u in passes)
    assert a.unit == STANDING
    assert any(d.kind == "action" for d in a.decisions)


def test_cthulhu_replay_analysis_repeats_byte_for_byte(tmp_path):
    one = saved_replay(tmp_path / "a", "cthulhu500", ["shrewd", "random"], 3)
    two = saved_replay(tmp_path / "b", "cthulhu500", ["shrewd", "random"], 3)
    s = Settings(rollouts=1)
    assert to_json(analyse_replay(one, s)) == to_json(analyse_replay(two, s))


def _swap_hidden(state, seat):
    """The table with one card of another seat's hand swapped with the top of the draw pile."""
    for other, hand in enumerate(state.hands):
        if other != seat and hand and state.draw:
            hands = list(state.hands)
            top = state.draw[0]
            hands[other] = tuple(sorted((*hand[1:], top)))
            draw = (hand[0], *state.draw[1:])
            return msgspec.structs.replace(state, hands=tuple(hands), draw=draw)
    return None


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), k=st.integers(5, 120), sample=st.integers(0, 2**32))
def test_the_guessed_table_never_holds_another_seats_hidden_cards(seed, k, sample):
    t = Table(GAME, GAME.default_config(), [Seat(name="s", bot="shrewd")] * 3, seed)
    for _ in range(k):
        if not t.pending():
            break
        s = t.pending()[0]
        t.submit(s, t.bot_action(s))
    state = t.state
    for seat in range(3):
        guess = guess_table(view(state, seat), seat, Pcg32(sample))
        if guess is None:
            assert not all(state.setup_done)
            continue
        # the seat's own hand, every public fact and every pile size are kept
        assert guess.hands[seat] == state.hands[seat]
        assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
        assert len(guess.draw) == state.draw_size
        assert HIDDEN not in (c for h in guess.hands for c in h)
        hidden_truth = sorted(c for o, h in enumerate(state.hands) if o != seat for c in h)
        hidden_guess = sorted(c for o, h in enumerate(guess.hands) if o != seat for c in h)
        assert sorted(hidden_truth + list(state.draw)) == sorted(hidden_guess + list(guess.draw))
        # and it depends on the view alone: a table hiding other cards gives the same guess
        alt = _swap_hidden(state, seat)
        if alt is not None:
            assert view(alt, seat) == view(state, seat)
            assert guess_table(view(alt, seat), seat, Pcg32(sample)) == guess
            top = state.stack[-1] if state.stack else None
            if isinstance(top, DActions) and top.seat == seat:
                legal = GAME.legal(state, seat)
                a = value_options(state, seat, legal, 1, sample, k)
                assert a == value_options(alt, seat, legal, 1, sample, k)


def test_action_values_ignore_what_the_chooser_could_not_see():
    t = Table(GAME, GAME.default_config(), [Seat(name="s", bot="shrewd")] * 3, 11)
    checked = 0
    while t.pending() and checked < 2:
        seat = t.pending()[0]
        top = t.state.stack[-1] if t.state.stack else None
        alt = _swap_hidden(t.state, seat)
        if isinstance(top, DActions) and top.seat == seat and alt is not None:
            legal = GAME.legal(t.state, seat)
            if len(legal) >= 2:
                a = value_options(t.state, seat, legal, 2, 5, t.state_id)
                assert a is not None
                assert a == value_options(alt, seat, legal, 2, 5, t.state_id)
                checked += 1
        t.submit(seat, t.bot_action(seat))
    assert checked == 2


def test_coach_words_give_the_chance_to_pass_from_public_stats():
    from core.cthulhu500.analysis import coach_words

    t = Table(GAME, GAME.default_config(), [Seat(name="s", bot="shrewd")] * 2, 4)
    while t.pending():
        seat = t.pending()[0]
        top = t.state.stack[-1] if t.state.stack else None
        if isinstance(top, DActions) and top.seat == seat:
            break
        assert coach_words(view(t.state, seat), seat) is None
        t.submit(seat, t.bot_action(seat))
    words = coach_words(view(t.state, seat), seat)
    assert words is not None
    assert words.startswith("Coach: a pass now wins")
    # the same for every seat's view: only public stats are used
    assert coach_words(t.state, seat) == words


def test_a_horizon_of_0_is_one_round_for_cthulhu_and_the_summary_says_so():
    from core.analysis import resolve
    from replays.analysis import summary_text

    assert resolve("cthulhu500", Settings(horizon=0)).horizon == 1  # no lap to play out
    assert resolve("champions", Settings(horizon=0)).horizon == 0  # to the lap's scoring
    t = bot_table("cthulhu500", ["shrewd", "random"], seed=5)
    a = analyse(
        "cthulhu500",
        GAME.new_state(t.config, 2),
        t.history,
        t.names,
        Settings(rollouts=1, horizon=0),
        0,
    )
    assert a.settings.horizon == 1
    text = summary_text(a)
    assert "1 round(s) ahead" in text
    assert "end of the lap" not in text
