"""The Cthulhu 500 rules engine: setup, step and the resolution stack that runs between answers.

Owns the order in which things happen (spec §2–§4): a step applies one answer to the decision on
top of the stack, then runs tasks until a decision needs a person (two or more answers, or an
always-asked one, C-AUTO-DECISION) or the race ends. Tasks emit events, and every event is
folded at once, so the engine always reads the current state. The stack itself is recorded in a
final `Flow` event, so a fold reproduces it. Chance is drawn only here, in the order C-CHANCE
lists, and always recorded in an event. Passing tests and damage live in `passing.py`, card
effects and contagions in `effects.py`; this module runs the loop, the decisions, the turn and
the setup.

Must not: draw chance in `evolve`, read a clock, or decide anything `options.py` would refuse.
"""

from __future__ import annotations

from typing import Any

import msgspec

from core.cthulhu500.config import Config
from core.cthulhu500.data import CARDS, CHECKERED_FLAG, DECK_IDS, card
from core.cthulhu500.model import (
    DECISION_TYPES,
    ActionsEnded,
    ActionTaken,
    AddCrew,
    AttemptPass,
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    ChainResolved,
    CheckeredFlagDrawn,
    ChooseContagionTarget,
    ChooseVehicle,
    ContagionEnded,
    ContagionMarked,
    CrewAdded,
    DActions,
    DamagePrevented,
    DChain,
    DChooseVehicle,
    DContagion,
    DDiscard,
    DDrawCount,
    DeckReshuffled,
    DeckShuffled,
    DeclineFreeTest,
    DFreeTest,
    DieRerolled,
    Discard,
    DPitChoice,
    DrawCount,
    DReroll,
    DriverSet,
    DSetupDiscard,
    DSponsor,
    DWindow,
    EndActions,
    FlagPlaced,
    FlagUsed,
    Flow,
    FreeTestDeclined,
    InPlayDiscarded,
    KeepRoll,
    ModAttached,
    PackFormed,
    PackTieRolled,
    PassReaction,
    PitChoice,
    PitStop,
    PitStopped,
    PlayAction,
    PlayReaction,
    RaceEnded,
    Reroll,
    SetupDiscard,
    SetupDiscardChosen,
    SetupDiscardsRevealed,
    SponsorDiscard,
    State,
    TakeFreeTest,
    TAssignRandom,
    TContagionJump,
    TContagionTick,
    TDamage,
    TDeal,
    TDiscardInPlay,
    TDraw,
    TDrawPhase,
    TEffect,
    TEndTurn,
    TFormPack,
    TiresAttached,
    TNextTurn,
    TPassTest,
    TPassWin,
    TRepair,
    TStartTurn,
    TTie,
    TurnStarted,
    UseFlag,
    Vehicle,
    VehicleAssigned,
    VehiclesSetAside,
)
from core.cthulhu500.rules.board import behind
from core.cthulhu500.rules.ctx import Ctx
from core.cthulhu500.rules.effects import contagion_jump, contagion_tick, effect
from core.cthulhu500.rules.options import (
    MARKERS,
    always_asked,
    answers,
    asked,
    is_answer,
    sole_answer,
)
from core.cthulhu500.rules.passing import damage, pass_test, pass_win, repair, tie
from core.game import BreaksRule, GameOver, NotYourTurn
from core.rng import Chance, shuffled

__all__ = ["advance", "new_state", "pending", "ranking", "resolve", "setup", "step"]

replace = msgspec.structs.replace
HAND_SIZE = 5


_ALWAYS_TWO = frozenset({DActions, DWindow, DChain})
"""Decisions that offer two or more answers whenever they ask anyone (see `options.asked`)."""
_DECISIONS = frozenset(DECISION_TYPES)
"""Tasks and decisions are told apart by their exact type, as everywhere in the engine: an
`isinstance` that fails against a msgspec Struct class goes through its metaclass (~150 ns,
over a whole tuple for each task), and none of these classes has subclasses."""


# --------------------------------------------------------------------------- entry points


def new_state(config: Config, n: int) -> State:
    return State(
        config=config,
        n=n,
        vehicles=tuple(Vehicle() for _ in range(n)),
        hands=((),) * n,
        setup_done=(False,) * n,
        setup_choice=(None,) * n,
        flag_used=(False,) * n,
    )


def setup(config: Config, n: int, rng: Chance) -> list[Any]:
    ctx = Ctx(new_state(config, n), rng)
    ctx.stack = [TFormPack(), DSetupDiscard(), TDeal()]
    if config.vehicle_assignment == "random":
        ctx.stack.append(TAssignRandom())
    else:
        ctx.stack.extend(DChooseVehicle(s) for s in range(n))
    _run(ctx)
    ctx.emit(Flow(stack=tuple(ctx.stack)))
    return ctx.events


def pending(state: State) -> tuple[int, ...]:
    if state.over or not state.stack:
        return ()
    return asked(state, state.stack[-1])


def legal(state: State, seat: int) -> list[Any]:
    if seat not in pending(state):
        return []
    return answers(state, state.stack[-1], seat)


_REFUSALS: dict[type, tuple[str, str]] = {
    DChooseVehicle: ("Choose one of the vehicles nobody has taken yet.", "C-VEHICLES"),
    DSetupDiscard: (
        "Choose cards from your own hand to discard for the pack order.",
        "C-PACK-ORDER",
    ),
    DActions: (
        "That is not something you can do now: play an Action card with a legal target, add a "
        "crew card, attempt a pass, make a pit stop or end your actions.",
        "C-ACTIONS",
    ),
    DDiscard: ("You can only discard cards that are in your hand.", "C-DISCARD"),
    DDrawCount: ("You cannot draw that many cards now.", "C-DRAW"),
    DSponsor: ("The Sponsor That Must Not Be Named wants one card from your hand.", "C-DRAW"),
    DWindow: (
        "That reaction does not answer what just happened; play a fitting one or pass.",
        "C-REACT-WINDOW",
    ),
    DChain: (
        "Only Ia! Ia! (or Elder Sign on a Spell) can go on this chain now; or pass.",
        "C-CHAIN",
    ),
    DReroll: ("Choose to re-roll the Car of Cthulhu's die or keep it.", "C-PASS-TEST"),
    DFreeTest: ("Take or decline the free passing test.", "C-FREE-PASS"),
    DPitChoice: ("That is not one of your pit-stop choices now.", "C-PIT-STOP"),
    DContagion: (
        "The contagion can only jump to a fitting card on the vehicle behind.",
        "C-CONTAGION",
    ),
}


def _refusal(state: State, top: Any, seat: int, action: Any) -> tuple[str, str]:
    """The sentence and rule for an answer the decision on top does not accept."""
    cid = getattr(action, "card", None)
    hand = state.hands[seat]
    holding = (PlayAction, AddCrew, PlayReaction, SponsorDiscard)
    if isinstance(action, holding) and cid not in hand:
        return f"You do not hold {_name(cid)}.", "C-PLAY-ACTION"
    discards = (Discard, SetupDiscard)
    if isinstance(action, discards) and any(c not in hand for c in action.cards):
        return "You can only discard cards that are in your hand.", "C-DISCARD"
    if isinstance(top, DActions) and isinstance(action, PlayAction):
        return (
            f"{_name(cid)} cannot be played like that now: it needs a legal target.",
            "C-PLAY-ACTION",
        )
    if isinstance(top, DActions) and state.actions_left == 0 and not isinstance(action, EndActions):
        return "You have no actions left this turn.", "C-ACTIONS"
    return _REFUSALS[type(top)]


def _name(cid: Any) -> str:
    return card(cid).name if isinstance(cid, int) and cid in CARDS else "that card"


def step(state: State, seat: int, action: Any, rng: Chance) -> list[Any]:
    return resolve(state, seat, action, rng)[0]


def resolve(state: State, seat: int, action: Any, rng: Chance) -> tuple[list[Any], State]:
    """`step`'s events and the state they fold to (each was folded as it was emitted)."""
    if state.over:
        raise GameOver()
    if seat not in pending(state):
        raise NotYourTurn(f"Seat {seat + 1} is not being asked anything now.")
    events, after, _ = advance(state, seat, action, rng)
    return events, after


def advance(
    state: State, seat: int, action: Any, rng: Chance
) -> tuple[list[Any], State, tuple[int, ...]]:
    """`resolve` for a seat its caller found in `pending` (the race not over), with the seats
    `pending` asks after it: the loop stops at a decision it has just asked."""
    top = state.stack[-1]
    if not is_answer(state, top, seat, action):
        reason, rule = _refusal(state, top, seat, action)
        raise BreaksRule(reason, rule)
    ctx = Ctx(state, rng)
    _apply(ctx, top, seat, action)
    _sweep_contagions(ctx)
    asked_next = _run(ctx)
    ctx.emit(Flow(stack=tuple(ctx.stack)))
    return ctx.events, ctx.state, asked_next


def ranking(state: State) -> tuple[int, ...]:
    """C-RANK: most laps, then nearer the front."""
    order = {s: i for i, s in enumerate(state.pack)}
    return tuple(sorted(range(state.n), key=lambda s: (-state.vehicles[s].laps, order.get(s, s))))


# --------------------------------------------------------------------------- the loop


def _run(ctx: Ctx) -> tuple[int, ...]:
    """Run tasks until a decision asks someone (return who: `pending` once `Flow` records the
    stack, which is all it folds) or the race is over (nobody)."""
    while ctx.stack and not ctx.state.over:
        top = ctx.stack[-1]
        if type(top) in _DECISIONS:
            seats = asked(ctx.state, top)
            if not seats:
                _finish(ctx, top)
            else:
                auto = None
                if type(top) not in _ALWAYS_TWO and not always_asked(ctx.state, top):
                    for seat in seats:
                        only = sole_answer(ctx.state, top, seat)
                        if only is not None:
                            auto = (seat, only)
                            break
                if auto is None:
                    return seats
                _apply(ctx, top, auto[0], auto[1])
        else:
            _execute(ctx, top)
        if ctx.state.contagions:  # (most of the time there are none)
            _sweep_contagions(ctx)
    return ()


def _end_race(ctx: Ctx, reason: str) -> None:
    laps = tuple(v.laps for v in ctx.state.vehicles)
    ctx.emit(RaceEnded(ranking=ranking(ctx.state), laps=laps, reason=reason))
    ctx.stack.clear()


def _sweep_contagions(ctx: Ctx) -> None:
    """C-CONTAGION: a contagion ends at once when its marked card leaves the vehicle."""
    for mark in ctx.state.contagions:
        v = ctx.state.vehicles[mark.seat]
        if mark.target not in (*v.crew, *v.mods, *([] if v.driver is None else [v.driver])):
            ctx.emit(ContagionEnded(card=mark.card, reason="left"))


# --------------------------------------------------------------------------- decisions


def _finish(ctx: Ctx, task: Any) -> None:
    """A decision nobody (more) needs to answer."""
    ctx.stack.pop()
    t = type(task)
    if t is DSetupDiscard:
        cards = tuple(c if c is not None else () for c in ctx.state.setup_choice)
        ctx.emit(SetupDiscardsRevealed(cards=cards))
    elif t is DWindow:
        _deliver(ctx, task)
    elif t is DChain:
        _resolve_chain(ctx, task)


def _apply(ctx: Ctx, task: Any, seat: int, action: Any) -> None:
    s = ctx.state
    t = type(action)
    if t is ChooseVehicle:
        ctx.stack.pop()
        ctx.emit(VehicleAssigned(seat=seat, marker=action.marker))
    elif t is SetupDiscard:
        ctx.emit(SetupDiscardChosen(seat=seat, cards=action.cards))
    elif t is EndActions:
        ctx.stack.pop()
        ctx.emit(ActionsEnded(seat=seat))
    elif t is UseFlag:
        ctx.emit(FlagUsed(seat=seat))
    elif t is AttemptPass:
        ctx.emit(ActionTaken(seat=seat, kind="pass", left=s.actions_left - 1))
        ctx.stack.append(TPassTest(x=seat, kind="normal"))
    elif t is AddCrew:
        ctx.emit(ActionTaken(seat=seat, kind="crew", left=s.actions_left - 1))
        ctx.emit(CrewAdded(seat=seat, card=action.card, to_seat=action.seat))
    elif t is PitStop:
        ctx.emit(ActionTaken(seat=seat, kind="pit", left=s.actions_left - 1))
        ctx.emit(PitStopped(seat=seat))
        ctx.stack.append(DPitChoice(seat))
        ctx.stack.append(DFreeTest(seat=behind(s.pack, seat), kind="pit"))
    elif t is PlayAction:
        ctx.emit(ActionTaken(seat=seat, kind="play", left=s.actions_left - 1))
        ctx.emit(
            CardPlayed(
                seat=seat,
                card=action.card,
                target_seat=action.target_seat,
                target_card=action.target_card,
                to_seat=action.to_seat,
            )
        )
        effect = TEffect(
            card=action.card,
            seat=seat,
            target_seat=action.target_seat,
            target_card=action.target_card,
            to_seat=action.to_seat,
        )
        ctx.stack.append(
            DChain(cards=(action.card,), seats=(seat,), effect=effect, next_from=s.active)
        )
    elif t is Discard:
        ctx.stack.pop()
        if action.cards:
            ctx.emit(CardsDiscarded(seat=seat, cards=action.cards, reason="turn"))
    elif t is DrawCount:
        ctx.stack.pop()
        ctx.stack.append(TDraw(seat=seat, count=action.count))
    elif t is SponsorDiscard:
        ctx.stack.pop()
        ctx.emit(CardsDiscarded(seat=seat, cards=(action.card,), reason="sponsor"))
    elif t is PlayReaction:
        _play_reaction(ctx, task, seat, action.card)
    elif t is PassReaction:
        ctx.stack[-1] = replace(task, passed=(*task.passed, seat), next_from=(seat + 1) % s.n)
    elif t is Reroll or t is KeepRoll:
        ctx.stack.pop()
        if t is Reroll:
            test = ctx.stack[-1]
            assert isinstance(test, TPassTest)
            new = ctx.die()
            if test.x == seat:
                ctx.emit(DieRerolled(seat=seat, old=test.dx, new=new))
                ctx.stack[-1] = replace(test, dx=new)
            else:
                ctx.emit(DieRerolled(seat=seat, old=test.dy, new=new))
                ctx.stack[-1] = replace(test, dy=new)
    elif t is TakeFreeTest:
        ctx.stack.pop()
        ctx.stack.append(TPassTest(x=seat, kind=task.kind))
    elif t is DeclineFreeTest:
        ctx.stack.pop()
        ctx.emit(FreeTestDeclined(seat=seat))
    elif t is PitChoice:
        ctx.stack.pop()
        _pit_choice(ctx, seat, action)
    elif t is ChooseContagionTarget:
        ctx.stack.pop()
        ctx.emit(
            ContagionMarked(
                card=task.card,
                caster=task.caster,
                seat=task.vehicle,
                target=action.card,
                turn=s.turn,
            )
        )
    else:  # pragma: no cover - answers() only offers the kinds above
        raise AssertionError(f"unhandled action {action!r}")


def _pit_choice(ctx: Ctx, seat: int, choice: PitChoice) -> None:
    vehicle = ctx.state.vehicles[seat]
    assert choice.card is not None or choice.kind == "repair"
    if choice.kind == "mod":
        ctx.emit(ModAttached(seat=seat, card=choice.card or 0, replaced=choice.replace))
    elif choice.kind == "tires":
        ctx.emit(TiresAttached(seat=seat, card=choice.card or 0, replaced=vehicle.tires))
    elif choice.kind == "driver":
        ctx.emit(DriverSet(seat=seat, card=choice.card or 0, old=vehicle.driver))
    else:
        ctx.stack.append(TRepair(seat=seat, kind="pit"))


def _play_reaction(ctx: Ctx, task: Any, seat: int, cid: int) -> None:
    s = ctx.state
    if isinstance(task, DWindow):
        ctx.emit(CardPlayed(seat=seat, card=cid))
        ctx.stack[-1] = replace(task, passed=(), next_from=(seat + 1) % s.n)
        ctx.stack.append(DChain(cards=(cid,), seats=(seat,), next_from=s.active))
    else:
        assert isinstance(task, DChain)
        ctx.emit(CardPlayed(seat=seat, card=cid, on_card=task.cards[-1]))
        ctx.stack[-1] = replace(
            task,
            cards=(*task.cards, cid),
            seats=(*task.seats, seat),
            passed=(),
            next_from=(seat + 1) % s.n,
        )


def _resolve_chain(ctx: Ctx, chain: DChain) -> None:
    """C-CHAIN: top down, a card not cancelled takes effect; Ia! Ia! cancels the card beneath."""
    cards = chain.cards
    cancelled = [False] * len(cards)
    for i in range(len(cards) - 1, 0, -1):
        if not cancelled[i] and card(cards[i]).effect in ("cancel_card", "cancel_spell"):
            cancelled[i - 1] = True
    ctx.emit(ChainResolved(cards=cards, cancelled=tuple(cancelled)))
    ctx.stack.append(TDiscardInPlay(cards=cards))
    if cancelled[0]:
        return
    bottom = card(cards[0])
    if bottom.type == "action":
        assert chain.effect is not None
        ctx.stack.append(chain.effect)
        return
    # A reaction played in a window takes effect on that window (C-CONTRADICT settles it).
    wi = ctx.top_index(DWindow)
    assert wi is not None
    w = ctx.stack[wi]
    effect = bottom.effect
    if effect == "atk_bonus":
        ctx.stack[wi] = replace(w, atk=w.atk + bottom.param, cards=(*w.cards, cards[0]))
    elif effect == "def_bonus":
        ctx.stack[wi] = replace(w, def_=w.def_ + bottom.param, cards=(*w.cards, cards[0]))
    elif effect in ("cancel_pit_test", "prevent_damage", "cancel_pass"):
        ctx.stack[wi] = replace(w, settled=True)
    elif effect == "repair_on_damage":
        ctx.stack.append(TRepair(seat=w.x, kind="tow"))


def _deliver(ctx: Ctx, w: DWindow) -> None:
    """A closed window hands its outcome to the task that opened it."""
    if w.kind == "tow":
        return
    parent = ctx.stack[-1]
    if w.kind == "try":
        assert isinstance(parent, TPassTest)
        ctx.stack[-1] = replace(
            parent,
            atk_bonus=parent.atk_bonus + w.atk,
            def_bonus=parent.def_bonus + w.def_,
            bonus_cards=parent.bonus_cards + w.cards,
            cancelled=w.settled,
        )
    elif w.kind == "win":
        assert isinstance(parent, TPassWin)
        ctx.stack[-1] = replace(parent, cancelled=w.settled)
    elif isinstance(parent, TDamage):
        ctx.stack[-1] = replace(parent, prevented=w.settled)
    else:
        assert isinstance(parent, TTie)
        if w.settled:
            ctx.emit(DamagePrevented(seat=w.x))
            hit = 0
        else:
            hit = 2 if ctx.state.vehicles[w.x].damaged else 1
        if parent.stage == 1:
            ctx.stack[-1] = replace(parent, x_hit=hit)
        else:
            ctx.stack[-1] = replace(parent, y_hit=hit)


# --------------------------------------------------------------------------- tasks


def _execute(ctx: Ctx, task: Any) -> None:
    t = type(task)
    s = ctx.state
    if t is TPassTest:
        pass_test(ctx, task)
    elif t is TPassWin:
        pass_win(ctx, task)
    elif t is TDamage:
        damage(ctx, task)
    elif t is TTie:
        tie(ctx, task)
    elif t is TRepair:
        ctx.stack.pop()
        repair(ctx, task)
    elif t is TEffect:
        ctx.stack.pop()
        effect(ctx, task)
    elif t is TDiscardInPlay:
        ctx.stack.pop()
        still = tuple(c for c in task.cards if c in s.in_play)
        if still:
            ctx.emit(InPlayDiscarded(cards=still))
    elif t is TStartTurn:
        ctx.stack.pop()
        ctx.emit(TurnStarted(seat=task.seat, turn=s.turn + 1, actions=s.config.actions_per_turn))
        seat = task.seat
        ctx.stack.extend([TEndTurn(seat), TDrawPhase(seat), DDiscard(seat), DActions(seat)])
    elif t is TDrawPhase:
        ctx.stack.pop()
        seat = task.seat
        extra = sum(card(c).param for c in s.vehicles[seat].mods if card(c).effect == "extra_draw")
        bigger = sum(card(c).param for c in s.vehicles[seat].mods if card(c).effect == "hand_limit")
        limit = s.config.hand_limit + bigger
        count = max(0, min(s.config.draw_per_turn + extra, limit - len(s.hands[seat])))
        if s.config.may_draw_fewer and count > 0:
            ctx.stack.append(DDrawCount(seat, count))
        else:
            ctx.stack.append(TDraw(seat=seat, count=count))
    elif t is TDraw:
        _draw(ctx, task)
    elif t is TEndTurn:
        ctx.stack.pop()
        ctx.stack.extend([TNextTurn(task.seat), TContagionTick(task.seat), DSponsor(task.seat)])
    elif t is TContagionTick:
        contagion_tick(ctx, task)
    elif t is TContagionJump:
        ctx.stack.pop()
        contagion_jump(ctx, task.card, task.caster, task.origin)
    elif t is TNextTurn:
        ctx.stack.pop()
        rounds = s.config.round_limit
        if rounds is not None and s.turn >= rounds * s.n:
            _end_race(ctx, "round_limit")
        else:
            ctx.stack.append(TStartTurn((task.seat + 1) % s.n))
    elif t is TAssignRandom:
        ctx.stack.pop()
        order = shuffled(ctx.rng, list(MARKERS))
        for seat in range(s.n):
            ctx.emit(VehicleAssigned(seat=seat, marker=order[seat]))
    elif t is TDeal:
        ctx.stack.pop()
        _deal(ctx)
    elif t is TFormPack:
        ctx.stack.pop()
        _form_pack(ctx)
    else:  # pragma: no cover
        raise AssertionError(f"unknown task {task!r}")


def _deal(ctx: Ctx) -> None:
    taken = {v.marker for v in ctx.state.vehicles}
    unused = tuple(m for m in MARKERS if m not in taken)
    if unused:
        ctx.emit(VehiclesSetAside(markers=unused))
    ctx.emit(FlagPlaced(card=CHECKERED_FLAG))
    order = tuple(shuffled(ctx.rng, list(DECK_IDS)))
    ctx.emit(DeckShuffled(count=len(order), order=order))
    for _ in range(HAND_SIZE):
        for seat in range(ctx.state.n):
            ctx.emit(CardDealt(seat=seat, card=ctx.state.draw[0]))


def _form_pack(ctx: Ctx) -> None:
    """C-PACK-ORDER: most discarded nearer the front; ties by d6, still tied re-roll at once."""
    counts = [len(c or ()) for c in ctx.state.setup_choice]
    line: list[int] = []
    for count in sorted(set(counts), reverse=True):
        line.extend(_order_group(ctx, [s for s in range(ctx.state.n) if counts[s] == count]))
    ctx.emit(PackFormed(pack=tuple(line)))
    ctx.stack.append(TStartTurn(line[-1]))


def _order_group(ctx: Ctx, seats: list[int]) -> list[int]:
    if len(seats) == 1:
        return seats
    rolls: dict[int, int] = {}
    for seat in seats:
        rolls[seat] = ctx.die()
        ctx.emit(PackTieRolled(seat=seat, value=rolls[seat]))
    out: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        out.extend(_order_group(ctx, [s for s in seats if rolls[s] == value]))
    return out


def _draw(ctx: Ctx, task: TDraw) -> None:
    """C-DRAW one card at a time; C-RESHUFFLE; C-CHECKERED-FLAG. Every card of the task is drawn
    in one go: between two draws nothing can ask, end the race or change a vehicle (what a
    contagion's end depends on), so the loop would only come back to the same task."""
    ctx.stack.pop()
    for _ in range(task.count):
        s = ctx.state
        if s.draw_size == 0:
            if not s.discard:  # pragma: no cover - the invariant C-RESHUFFLE states
                raise AssertionError("both piles are empty while the race runs")
            order = tuple(shuffled(ctx.rng, sorted(s.discard)))
            ctx.emit(DeckReshuffled(count=len(order), order=order))
        top = ctx.state.draw[0]
        if top == CHECKERED_FLAG:
            ctx.emit(CheckeredFlagDrawn(seat=task.seat))
            _end_race(ctx, "flag")
            return
        ctx.emit(CardDrawn(seat=task.seat, card=top))
