"""What each Cthulhu 500 decision lets a seat answer: asked seats and legal choices.

Owns `asked` (who must answer the decision on top of the stack), `answers` (their legal actions,
one per *row*: copies of one card in one place count once, lowest id, C-AUTO-DECISION) and the
eligibility of reaction windows and chains (C-REACT-WINDOW, C-CHAIN) including card targets
(C-PLAY-ACTION). It reads the full state; the engine resolves the chosen answer.

`is_answer` tells whether one action is among `answers` without listing them all (the turn's
options are the longest list; a step checks its answer once), and must agree with that list
exactly (tests/cthulhu500/test_is_answer.py compares them over many reachable states).

Must not: change state, draw chance or emit events.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from typing import Any

from core.cthulhu500.data import card
from core.cthulhu500.model import (
    AddCrew,
    AttemptPass,
    ChooseContagionTarget,
    ChooseVehicle,
    DActions,
    DChain,
    DChooseVehicle,
    DContagion,
    DDiscard,
    DDrawCount,
    DeclineFreeTest,
    DFreeTest,
    Discard,
    DPitChoice,
    DrawCount,
    DReroll,
    DSetupDiscard,
    DSponsor,
    DWindow,
    EndActions,
    KeepRoll,
    PassReaction,
    PitChoice,
    PitStop,
    PlayAction,
    PlayReaction,
    Reroll,
    SetupDiscard,
    SponsorDiscard,
    State,
    TakeFreeTest,
    UseFlag,
)
from core.cthulhu500.rules.board import ahead, behind, has_effect
from core.memo import memo

__all__ = [
    "action_options",
    "always_asked",
    "answers",
    "asked",
    "can_pit",
    "chain_cards",
    "contagion_targets",
    "is_answer",
    "pit_options",
    "rows",
    "sole_answer",
    "subsets",
    "window_cards",
]

MARKERS = (1, 3, 5, 7, 9, 11, 13, 15)


def rows(cards: Iterable[int]) -> list[int]:
    """One card per name, the lowest id, in id order (C-AUTO-DECISION rows)."""
    return list(_rows(tuple(sorted(cards))))


@memo
def _rows(cards: tuple[int, ...]) -> tuple[int, ...]:
    seen: dict[str, int] = {}
    for cid in cards:
        seen.setdefault(card(cid).name, cid)
    return tuple(sorted(seen.values()))


def _of_type(hand: tuple[int, ...], kind: str) -> tuple[int, ...]:
    """``rows`` of the cards of type ``kind`` in a hand (cached per hand, every type at once)."""
    return _typed_rows(hand).get(kind, ())


@memo
def _typed_rows(hand: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    """Per card type, ``rows`` of a hand's cards of that type (read only: it is cached)."""
    kinds: dict[str, list[int]] = {}
    for c in hand:
        if c:
            kinds.setdefault(card(c).type, []).append(c)
    return {kind: _rows(tuple(sorted(ids))) for kind, ids in kinds.items()}


def subsets(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """See `_subsets` (cached; hands are sorted tuples)."""
    return list(_subsets(tuple(sorted(hand))))


@memo
def _subsets(hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct choice of hand cards (copies of a card are interchangeable), most first.

    Orders of legal lists put the choice that moves the race on first, so that always taking
    the first answer still ends a race (the conformance suite's simplest line of play).
    """
    groups: dict[str, list[int]] = {}
    for cid in sorted(hand):
        groups.setdefault(card(cid).name, []).append(cid)
    ordered = sorted(groups.values(), key=lambda ids: ids[0])
    out = []
    for counts in product(*(range(len(ids) + 1) for ids in ordered)):
        chosen = [cid for ids, k in zip(ordered, counts, strict=True) for cid in ids[:k]]
        out.append(tuple(sorted(chosen)))
    out.sort(key=lambda c: (-len(c), c))
    return tuple(out)


@memo
def _hand_choices(kind: type[Any], hand: tuple[int, ...]) -> tuple[Any, ...]:
    """``kind(cards)`` for every choice of `subsets` of a sorted hand (cached like `_subsets`:
    the answers of a discard are asked for when it opens and again to check the answer)."""
    return tuple(kind(cards) for cards in _subsets(hand))


# Answers without fields, made once (they are frozen; equal to any other instance).
_ATTEMPT_PASS, _PIT_STOP, _USE_FLAG, _END_ACTIONS = (
    AttemptPass(),
    PitStop(),
    UseFlag(),
    EndActions(),
)
_PASS, _REROLL, _KEEP = PassReaction(), Reroll(), KeepRoll()
_TAKE_TEST, _DECLINE_TEST = TakeFreeTest(), DeclineFreeTest()


def _hand_with(state: State, seat: int, effects: set[str]) -> list[int]:
    return [c for c in state.hands[seat] if c and card(c).effect in effects]


def _holds(state: State, seat: int, effects: set[str]) -> bool:
    """Whether ``seat`` holds a card with one of ``effects`` (`_hand_with` is not empty)."""
    return not _hand_effects(state.hands[seat]).isdisjoint(effects)


@memo
def _hand_effects(hand: tuple[int, ...]) -> frozenset[str | None]:
    """The effects of the cards in a hand (None: a card without one; cached, as the windows and
    chains ask every holder)."""
    return frozenset(card(c).effect for c in hand if c)


def _window_effects(state: State, w: DWindow, seat: int) -> set[str]:
    """The reaction effects ``seat`` may play in window ``w`` now."""
    effects: set[str] = set()
    if w.kind == "try":
        if seat == w.x:
            effects.add("atk_bonus")
        if seat == w.y:
            effects.add("def_bonus")
            if w.pit:
                effects.add("cancel_pit_test")
    elif w.kind == "damage" and seat == w.x:
        effects.add("prevent_damage")
    elif w.kind == "win" and seat == w.y:
        effects.add("cancel_pass")
    elif w.kind == "tow" and seat == w.x and state.vehicles[seat].damaged:
        effects.add("repair_on_damage")
    return effects


def window_cards(state: State, w: DWindow, seat: int) -> list[int]:
    """Reaction cards ``seat`` may play in window ``w`` now."""
    effects = _window_effects(state, w, seat)
    return rows(_hand_with(state, seat, effects)) if effects else []


def _chain_effects(ch: DChain) -> set[str]:
    """The effects that may go on top of chain ``ch`` now (none on an Elder Sign)."""
    top = card(ch.cards[-1])
    if top.effect == "cancel_spell":
        return set()
    return {"cancel_card", "cancel_spell"} if top.spell else {"cancel_card"}


def chain_cards(state: State, ch: DChain, seat: int) -> list[int]:
    """Ia! Ia! / Elder Sign cards ``seat`` may add on top of chain ``ch`` now."""
    effects = _chain_effects(ch)
    return rows(_hand_with(state, seat, effects)) if effects else []


def _next_asked(state: State, task: DWindow | DChain) -> int | None:
    everyone = state.config.reaction_prompt == "everyone"
    if type(task) is DWindow:
        if task.settled:
            return None
        # Only the seats a window names may react in it (`_window_effects`): the first of them
        # round the table from ``next_from`` that has not passed (and, for holders, can react).
        n = state.n
        kind = task.kind
        named = (task.x, task.y) if kind == "try" else (task.y,) if kind == "win" else (task.x,)
        found, first = None, n
        for seat in named:
            if not 0 <= seat < n or seat in task.passed:
                continue
            place = (seat - task.next_from) % n
            if place < first and (everyone or _can_react(state, task, seat)):
                found, first = seat, place
        return found
    assert type(task) is DChain
    chain = set() if everyone else _chain_effects(task)  # the same for every seat
    for seat in _in_asking_order(state, task):
        if everyone or (bool(chain) and _holds(state, seat, chain)):
            return seat
    return None


def _in_asking_order(state: State, task: DWindow | DChain) -> list[int]:
    """The seats from ``task.next_from`` on, round the table, without those who passed."""
    order = [(task.next_from + k) % state.n for k in range(state.n)]
    return [seat for seat in order if seat not in task.passed]


def _can_react(state: State, w: DWindow, seat: int) -> bool:
    """Whether `window_cards` offers ``seat`` anything in ``w`` (without listing it)."""
    effects = _window_effects(state, w, seat)
    return bool(effects) and _holds(state, seat, effects)


def contagion_targets(state: State, contagion: int, seat: int) -> list[int]:
    """Cards on ``seat``'s vehicle that contagion card ``contagion`` may choose (C-CONTAGION,
    C-ZOMBIE), one per name and place."""
    vehicle = state.vehicles[seat]
    if card(contagion).target == "crew":
        crew = rows(c for c in vehicle.crew if "zombie" not in card(c).tags)
        driver = vehicle.driver
        if driver is not None and "zombie" not in card(driver).tags:
            crew.append(driver)
        return crew
    return rows(vehicle.mods)


def pit_options(state: State, seat: int) -> list[PitChoice]:
    """C-PIT-MOD / C-PIT-TIRES / C-PIT-DRIVER / C-REPAIR choices open to ``seat`` now."""
    vehicle = state.vehicles[seat]
    hand = state.hands[seat]
    out: list[PitChoice] = []
    for cid in _of_type(hand, "mod"):
        if len(vehicle.mods) < 2:
            out.append(PitChoice(kind="mod", card=cid))
        else:
            out.extend(PitChoice(kind="mod", card=cid, replace=m) for m in rows(vehicle.mods))
    out.extend(PitChoice(kind="tires", card=cid) for cid in _of_type(hand, "tires"))
    drivers = [*_of_type(hand, "crew"), *rows(vehicle.crew)]
    out.extend(PitChoice(kind="driver", card=cid) for cid in drivers)
    if vehicle.damaged:
        out.append(PitChoice(kind="repair"))
    return out


def can_pit(state: State, seat: int) -> bool:
    """C-PIT-STOP: whether any pit-stop choice is possible (same test as `pit_options`)."""
    vehicle = state.vehicles[seat]
    if vehicle.damaged or vehicle.crew:
        return True
    kinds = _typed_rows(state.hands[seat])
    return "mod" in kinds or "tires" in kinds or "crew" in kinds


def action_options(state: State, seat: int, cid: int) -> list[PlayAction]:
    """Every way to play Action card ``cid`` now (a card with no legal target: none)."""
    spec = card(cid)
    effect = spec.effect
    seats = range(state.n)
    vehicles = state.vehicles
    if effect in ("auto_pass_ahead", "draft", "nitrous", "grant_actions"):
        return [PlayAction(card=cid)]
    if effect == "contagion":
        return [
            PlayAction(card=cid, target_seat=s, target_card=t)
            for s in seats
            for t in contagion_targets(state, cid, s)
        ]
    if effect == "discard_equipment":
        out: list[PlayAction] = []
        for s in seats:
            v = vehicles[s]
            equipment = rows([*v.mods, *([] if v.tires is None else [v.tires])])
            out.extend(PlayAction(card=cid, target_seat=s, target_card=t) for t in equipment)
        return out
    if effect == "poach_crew":
        return [
            PlayAction(card=cid, target_seat=s, target_card=t)
            for s in seats
            if s != seat
            for t in rows(vehicles[s].crew)
        ]
    if effect == "repair_now":
        return [PlayAction(card=cid)] if vehicles[seat].damaged else []
    if effect == "scavenge":
        found = rows(c for c in state.discard if card(c).type in ("mod", "tires"))
        return [PlayAction(card=cid, target_card=t) for t in found]
    if effect == "damage_any":
        return [PlayAction(card=cid, target_seat=s) for s in seats]
    if effect == "damage_ahead_behind":
        return [
            PlayAction(
                card=cid, target_seat=ahead(state.pack, seat), to_seat=behind(state.pack, seat)
            )
        ]
    if effect == "swap_two_ahead":
        i = state.pack.index(seat)
        return [PlayAction(card=cid, target_seat=state.pack[i - 2])] if i >= 2 else []
    if effect == "move_driver":
        return [
            PlayAction(card=cid, target_seat=a, to_seat=b)
            for a in seats
            if vehicles[a].driver is not None
            for b in seats
            if b != a
        ]
    raise AssertionError(f"unknown action effect {effect!r}")  # pragma: no cover


def _turn_options(state: State, seat: int) -> list[Any]:
    out: list[Any] = []
    flag = state.config.promo_flag and not state.flag_used[seat]
    if state.actions_left > 0:
        out.append(_ATTEMPT_PASS)
        if can_pit(state, seat):
            out.append(_PIT_STOP)
        hand = state.hands[seat]
        crew = _of_type(hand, "crew")
        out.extend(AddCrew(c, s) for c in crew for s in range(state.n))
        for cid in _of_type(hand, "action"):
            out.extend(action_options(state, seat, cid))
    if flag:
        out.append(_USE_FLAG)
    out.append(_END_ACTIONS)
    return out


def asked(state: State, task: Any) -> tuple[int, ...]:
    """The seats the decision ``task`` asks now (empty: it is settled or skipped)."""
    t = type(task)
    if t is DSetupDiscard:
        return tuple(s for s in range(state.n) if not state.setup_done[s])
    if t is DWindow or t is DChain:
        seat = _next_asked(state, task)
        return () if seat is None else (seat,)
    if t is DActions:
        flag = state.config.promo_flag and not state.flag_used[task.seat]
        return (task.seat,) if state.actions_left > 0 or flag else ()
    if t is DSponsor:
        if not state.hands[task.seat] or not has_effect(state, task.seat, "sponsor_discard"):
            return ()
        return (task.seat,)
    if t is DFreeTest:
        return (task.seat,) if task.ready else ()
    if t is DPitChoice:
        return (task.seat,) if can_pit(state, task.seat) else ()
    return (task.seat,)


def always_asked(state: State, task: Any) -> bool:
    """C-AUTO-DECISION exceptions: the Car of Cthulhu re-roll; every prompt with
    ``reaction_prompt = everyone``."""
    t = type(task)
    if t is DReroll:
        return True
    return (t is DWindow or t is DChain) and state.config.reaction_prompt == "everyone"


def answers(state: State, task: Any, seat: int) -> list[Any]:
    """The legal actions of ``seat`` for decision ``task``."""
    t = type(task)
    if t is DChooseVehicle:
        taken = {v.marker for v in state.vehicles}
        return [ChooseVehicle(m) for m in MARKERS if m not in taken]
    if t is DSetupDiscard:
        if state.setup_done[seat]:
            return []
        return list(_hand_choices(SetupDiscard, tuple(sorted(state.hands[seat]))))
    if t is DActions:
        return _turn_options(state, seat)
    if t is DDiscard:
        return list(_hand_choices(Discard, tuple(sorted(state.hands[seat]))))
    if t is DDrawCount:
        return [DrawCount(k) for k in range(task.most + 1)]
    if t is DSponsor:
        return [SponsorDiscard(c) for c in rows(state.hands[seat])]
    if t is DWindow:
        playable = window_cards(state, task, seat)
        return [*(PlayReaction(c) for c in playable), _PASS]
    if t is DChain:
        playable = chain_cards(state, task, seat)
        return [*(PlayReaction(c) for c in playable), _PASS]
    if t is DReroll:
        return [_REROLL, _KEEP]
    if t is DFreeTest:
        if task.kind == "pit" and not state.config.free_test_may_decline:
            return [_TAKE_TEST]
        return [_TAKE_TEST, _DECLINE_TEST]
    if t is DPitChoice:
        return list(pit_options(state, seat))
    if t is DContagion:
        return [ChooseContagionTarget(c) for c in contagion_targets(state, task.card, task.vehicle)]
    return []


def sole_answer(state: State, task: Any, seat: int) -> Any | None:
    """The only legal action of ``seat`` for ``task`` if there is exactly one, else None
    (C-AUTO-DECISION: such a decision answers itself). A discard is not listed to find out: a
    hand of n cards has up to 2^n choices, and any card in it makes at least two (discard it
    or keep it), so only an empty hand leaves one (discard nothing)."""
    t = type(task)
    if t is DDiscard or t is DSetupDiscard:
        if (t is DSetupDiscard and state.setup_done[seat]) or state.hands[seat]:
            return None
        return (Discard if t is DDiscard else SetupDiscard)(())
    options = answers(state, task, seat)
    return options[0] if len(options) == 1 else None


def is_answer(state: State, task: Any, seat: int, action: Any) -> bool:
    """``action in answers(state, task, seat)``, without listing every answer for the
    decisions a race asks most (the others are listed and searched)."""
    t = type(task)
    a = type(action)
    if t is DActions:
        if a is EndActions:
            return True
        if a is UseFlag:
            return state.config.promo_flag and not state.flag_used[seat]
        if state.actions_left <= 0:
            return False
        if a is AttemptPass:
            return True
        if a is PitStop:
            return can_pit(state, seat)
        if a is AddCrew:
            hand = state.hands[seat]
            crew = _of_type(hand, "crew")
            return action.card in crew and action.seat in range(state.n)
        if a is PlayAction:
            hand = state.hands[seat]
            for cid in _of_type(hand, "action"):
                if cid == action.card:
                    return action in action_options(state, seat, cid)
        return False
    if t is DWindow or t is DChain:
        if a is PassReaction:
            return True
        if a is not PlayReaction:
            return False
        playable = (
            window_cards(state, task, seat) if t is DWindow else chain_cards(state, task, seat)
        )
        return action.card in playable
    if t is DDiscard:
        return a is Discard and action.cards in _subsets(tuple(sorted(state.hands[seat])))
    if t is DReroll:
        return a is Reroll or a is KeepRoll
    if t is DFreeTest:
        if a is TakeFreeTest:
            return True
        return a is DeclineFreeTest and (task.kind != "pit" or state.config.free_test_may_decline)
    return action in answers(state, task, seat)
