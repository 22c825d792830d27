"""`options.is_answer` agrees with membership in `options.answers` (C-AUTO-DECISION, C-ACTIONS),
and `options.sole_answer` with a list of exactly one.

A step checks its answer with `is_answer` instead of listing every answer; over many reachable
states of seeded games (several options, random and shrewd bots) every legal answer is
accepted, and every near miss (other cards, copies, seats, answers of other decisions) gets the
same verdict as the list, so a refusal keeps its sentence.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import registry
from core.cthulhu500.model import (
    DECISION_TYPES,
    AddCrew,
    AttemptPass,
    ChooseContagionTarget,
    DeclineFreeTest,
    Discard,
    DrawCount,
    EndActions,
    KeepRoll,
    PassReaction,
    PitChoice,
    PitStop,
    PlayAction,
    PlayReaction,
    Reroll,
    SponsorDiscard,
    State,
    TakeFreeTest,
    UseFlag,
)
from core.cthulhu500.rules.options import answers, is_answer, sole_answer
from core.game import BreaksRule, Seat, Table
from core.rng import Pcg32

GAME = registry.get("cthulhu500")
_PLAIN = (
    AttemptPass(),
    PitStop(),
    UseFlag(),
    EndActions(),
    PassReaction(),
    Reroll(),
    KeepRoll(),
    TakeFreeTest(),
    DeclineFreeTest(),
    PitChoice(kind="repair"),
    DrawCount(0),
    7,
    None,
)


def near_misses(state: State, seat: int, legal: list[Any], rng: Pcg32) -> list[Any]:
    """Answers that may or may not be legal: every legal one bent a little, and others."""
    n = state.n
    hand = state.hands[seat]
    cards = sorted({*hand, *(c for h in state.hands for c in h), 1, 17, 60, 110})
    out: list[Any] = list(_PLAIN)
    for c in cards:
        out += [AddCrew(c, rng.below(n + 2) - 1), PlayReaction(c), SponsorDiscard(c)]
        out.append(ChooseContagionTarget(c))
        out.append(PitChoice(kind=("mod", "tires", "driver")[rng.below(3)], card=c))
    for action in legal:
        if isinstance(action, PlayAction):
            out.append(msgspec.structs.replace(action, card=cards[rng.below(len(cards))]))
            out.append(msgspec.structs.replace(action, target_seat=rng.below(n + 2) - 1))
            out.append(msgspec.structs.replace(action, to_seat=rng.below(n + 2) - 1))
            out.append(msgspec.structs.replace(action, target_card=cards[rng.below(len(cards))]))
    for other in range(n):
        out += [PlayAction(card=c) for c in state.hands[other]]
    if hand:
        picks = [cards[rng.below(len(cards))] for _ in range(rng.below(len(hand) + 2))]
        out += [Discard(tuple(picks)), Discard(tuple(sorted(picks))), Discard(tuple(hand))]
        out.append(Discard(tuple(sorted(hand))[1:]))
    out.append(Discard(()))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 8),
    prompt=st.sampled_from(["holders", "everyone"]),
    assignment=st.sampled_from(["random", "choose"]),
    decline=st.booleans(),
    flag=st.booleans(),
    fewer=st.booleans(),
    bots=st.sampled_from([("random",), ("shrewd", "random")]),
)
def test_is_answer_agrees_with_the_legal_list(
    seed, n, prompt, assignment, decline, flag, fewer, bots
):
    config = msgspec.structs.replace(
        GAME.default_config(),
        reaction_prompt=prompt,
        vehicle_assignment=assignment,
        free_test_may_decline=decline,
        promo_flag=flag,
        may_draw_fewer=fewer,
    )
    seats = [Seat(name=f"P{i + 1}", bot=bots[i % len(bots)]) for i in range(n)]
    table = Table(GAME, config, seats, seed)
    rng = Pcg32(seed, 99)
    for _ in range(3000):
        pending = table.pending()
        if not pending:
            break
        state = table.state
        top = state.stack[-1]
        for seat in pending:
            legal = answers(state, top, seat)
            for action in [*legal, *near_misses(state, seat, legal, rng)]:
                assert is_answer(state, top, seat, action) == (action in legal), (top, action)
        seat = pending[0]
        wrong = next(a for a in near_misses(state, seat, [], rng) if a not in table.legal(seat))
        with pytest.raises(BreaksRule) as refused:
            table.submit(seat, wrong)
        with pytest.raises(BreaksRule) as again:  # the sentence resolve gives
            GAME.resolve(state, seat, wrong, table.chance)
        assert str(again.value) == str(refused.value)
        table.submit(seat, table.bot_action(seat))
    assert table.result() is not None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 8),
    prompt=st.sampled_from(["holders", "everyone"]),
    assignment=st.sampled_from(["random", "choose"]),
)
def test_sole_answer_is_the_only_legal_answer_or_none(seed, n, prompt, assignment):
    # C-AUTO-DECISION: the engine answers a decision by itself when it has one answer; every
    # decision on the stack of reachable states, for every seat, with the hand as it is and
    # emptied (a discard from an empty hand has one answer: nothing).
    config = msgspec.structs.replace(
        GAME.default_config(), reaction_prompt=prompt, vehicle_assignment=assignment
    )
    seats = [Seat(name=f"P{i + 1}", bot="random") for i in range(n)]
    table = Table(GAME, config, seats, seed)
    singles = 0
    for _ in range(3000):
        pending = table.pending()
        if not pending:
            break
        state = table.state
        emptied = msgspec.structs.replace(state, hands=tuple(() for _ in state.hands))
        for each in (state, emptied):
            for task in {t for t in each.stack if type(t) in DECISION_TYPES}:
                for seat in range(n):
                    legal = answers(each, task, seat)
                    expected = legal[0] if len(legal) == 1 else None
                    assert sole_answer(each, task, seat) == expected, (task, seat, legal)
                    singles += expected is not None
        table.submit(pending[0], table.bot_action(pending[0]))
    assert singles > 0, "some decisions had a single answer"
