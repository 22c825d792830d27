"""The Cthulhu 500 rules engine: setup, step and the resolution stack that runs between answers.

Owns the order in which things happen (spec §2–§4): a step applies one answer to the decision on
top of the stack, then runs tasks until a decision needs a person (two or more answers, or an
always-asked one, C-AUTO-DECISION) or the race ends. Tasks emit events, and every event is
folded at once, so the engine always reads the current state. The stack itself is recorded in a
final `Flow` event, so a fold reproduces it. Chance is drawn only here, in the order C-CHANCE
lists, and always recorded in an event.

Must not: draw chance in `evolve`, read a clock, or decide anything `options.py` would refuse.
"""

from __future__ import annotations

from typing import Any

import msgspec

from core.cthulhu500 import actions as act
from core.cthulhu500 import events as ev
from core.cthulhu500.board import (
    ahead,
    attack_equipment,
    behind,
    defend_equipment,
    dmove_line,
    drive,
    fixit,
    has_effect,
    mod_with,
    pass_line,
    repair_bonus,
    speed,
)
from core.cthulhu500.cards import CARDS, CHECKERED_FLAG, DECK_IDS, card
from core.cthulhu500.fold import evolve
from core.cthulhu500.model import (
    DECISION_TYPES,
    Config,
    DActions,
    DChain,
    DChooseVehicle,
    DContagion,
    DDiscard,
    DDrawCount,
    DFreeTest,
    DPitChoice,
    DReroll,
    DSetupDiscard,
    DSponsor,
    DWindow,
    State,
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
    TNextTurn,
    TPassTest,
    TPassWin,
    TRepair,
    TStartTurn,
    TTie,
    Vehicle,
)
from core.cthulhu500.options import MARKERS, always_asked, answers, asked, contagion_targets
from core.game import BreaksRule, GameOver, NotYourTurn
from core.rng import Chance, shuffled

__all__ = ["new_state", "pending", "ranking", "setup", "step"]

replace = msgspec.structs.replace
HAND_SIZE = 5


_ALWAYS_TWO = (DActions, DWindow, DChain)
"""Decisions that offer two or more answers whenever they ask anyone (see `options.asked`)."""


class Ctx:
    """One step's working copy: the current state, the stack, the events so far, chance."""

    __slots__ = ("events", "rng", "stack", "state")

    def __init__(self, state: State, rng: Chance) -> None:
        self.state = state
        self.stack: list[Any] = list(state.stack)
        self.events: list[Any] = []
        self.rng = rng

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def die(self) -> int:
        return self.rng.below(6) + 1

    def top_index(self, kind: type) -> int | None:
        for i in range(len(self.stack) - 1, -1, -1):
            if isinstance(self.stack[i], kind):
                return i
        return None


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
    ctx.emit(ev.Flow(stack=tuple(ctx.stack)))
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
    holding = (act.PlayAction, act.AddCrew, act.PlayReaction, act.SponsorDiscard)
    if isinstance(action, holding) and cid not in hand:
        return f"You do not hold {_name(cid)}.", "C-PLAY-ACTION"
    discards = (act.Discard, act.SetupDiscard)
    if isinstance(action, discards) and any(c not in hand for c in action.cards):
        return "You can only discard cards that are in your hand.", "C-DISCARD"
    if isinstance(top, DActions) and isinstance(action, act.PlayAction):
        return (
            f"{_name(cid)} cannot be played like that now: it needs a legal target.",
            "C-PLAY-ACTION",
        )
    if (
        isinstance(top, DActions)
        and state.actions_left == 0
        and not isinstance(action, act.EndActions)
    ):
        return "You have no actions left this turn.", "C-ACTIONS"
    return _REFUSALS[type(top)]


def _name(cid: Any) -> str:
    return card(cid).name if isinstance(cid, int) and cid in CARDS else "that card"


def step(state: State, seat: int, action: Any, rng: Chance) -> list[Any]:
    if state.over:
        raise GameOver("The race is over; no more moves can be made.")
    if seat not in pending(state):
        raise NotYourTurn(f"Seat {seat + 1} is not being asked anything now.")
    top = state.stack[-1]
    if action not in answers(state, top, seat):
        reason, rule = _refusal(state, top, seat, action)
        raise BreaksRule(reason, rule)
    ctx = Ctx(state, rng)
    _apply(ctx, top, seat, action)
    _sweep_contagions(ctx)
    _run(ctx)
    ctx.emit(ev.Flow(stack=tuple(ctx.stack)))
    return ctx.events


def ranking(state: State) -> tuple[int, ...]:
    """C-RANK: most laps, then nearer the front."""
    order = {s: i for i, s in enumerate(state.pack)}
    return tuple(sorted(range(state.n), key=lambda s: (-state.vehicles[s].laps, order.get(s, s))))


# --------------------------------------------------------------------------- the loop


def _run(ctx: Ctx) -> None:
    while ctx.stack and not ctx.state.over:
        top = ctx.stack[-1]
        if isinstance(top, DECISION_TYPES):
            seats = asked(ctx.state, top)
            if not seats:
                _finish(ctx, top)
            else:
                auto = None
                if not isinstance(top, _ALWAYS_TWO) and not always_asked(ctx.state, top):
                    for seat in seats:
                        options = answers(ctx.state, top, seat)
                        if len(options) == 1:
                            auto = (seat, options[0])
                            break
                if auto is None:
                    return
                _apply(ctx, top, auto[0], auto[1])
        else:
            _execute(ctx, top)
        _sweep_contagions(ctx)


def _end_race(ctx: Ctx, reason: str) -> None:
    laps = tuple(v.laps for v in ctx.state.vehicles)
    ctx.emit(ev.RaceEnded(ranking=ranking(ctx.state), laps=laps, reason=reason))
    ctx.stack.clear()


def _sweep_contagions(ctx: Ctx) -> None:
    """C-CONTAGION: a contagion ends at once when its marked card leaves the vehicle."""
    for mark in ctx.state.contagions:
        v = ctx.state.vehicles[mark.seat]
        if mark.target not in (*v.crew, *v.mods, *([] if v.driver is None else [v.driver])):
            ctx.emit(ev.ContagionEnded(card=mark.card, reason="left"))


# --------------------------------------------------------------------------- decisions


def _finish(ctx: Ctx, task: Any) -> None:
    """A decision nobody (more) needs to answer."""
    ctx.stack.pop()
    if isinstance(task, DSetupDiscard):
        cards = tuple(c if c is not None else () for c in ctx.state.setup_choice)
        ctx.emit(ev.SetupDiscardsRevealed(cards=cards))
    elif isinstance(task, DWindow):
        _deliver(ctx, task)
    elif isinstance(task, DChain):
        _resolve_chain(ctx, task)


def _apply(ctx: Ctx, task: Any, seat: int, action: Any) -> None:
    s = ctx.state
    t = type(action)
    if t is act.ChooseVehicle:
        ctx.stack.pop()
        ctx.emit(ev.VehicleAssigned(seat=seat, marker=action.marker))
    elif t is act.SetupDiscard:
        ctx.emit(ev.SetupDiscardChosen(seat=seat, cards=action.cards))
    elif t is act.EndActions:
        ctx.stack.pop()
        ctx.emit(ev.ActionsEnded(seat=seat))
    elif t is act.UseFlag:
        ctx.emit(ev.FlagUsed(seat=seat))
    elif t is act.AttemptPass:
        ctx.emit(ev.ActionTaken(seat=seat, kind="pass", left=s.actions_left - 1))
        ctx.stack.append(TPassTest(x=seat, kind="normal"))
    elif t is act.AddCrew:
        ctx.emit(ev.ActionTaken(seat=seat, kind="crew", left=s.actions_left - 1))
        ctx.emit(ev.CrewAdded(seat=seat, card=action.card, to_seat=action.seat))
    elif t is act.PitStop:
        ctx.emit(ev.ActionTaken(seat=seat, kind="pit", left=s.actions_left - 1))
        ctx.emit(ev.PitStopped(seat=seat))
        ctx.stack.append(DPitChoice(seat))
        ctx.stack.append(DFreeTest(seat=behind(s.pack, seat), kind="pit"))
    elif t is act.PlayAction:
        ctx.emit(ev.ActionTaken(seat=seat, kind="play", left=s.actions_left - 1))
        ctx.emit(
            ev.CardPlayed(
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
    elif t is act.Discard:
        ctx.stack.pop()
        if action.cards:
            ctx.emit(ev.CardsDiscarded(seat=seat, cards=action.cards, reason="turn"))
    elif t is act.DrawCount:
        ctx.stack.pop()
        ctx.stack.append(TDraw(seat=seat, count=action.count))
    elif t is act.SponsorDiscard:
        ctx.stack.pop()
        ctx.emit(ev.CardsDiscarded(seat=seat, cards=(action.card,), reason="sponsor"))
    elif t is act.PlayReaction:
        _play_reaction(ctx, task, seat, action.card)
    elif t is act.PassReaction:
        ctx.stack[-1] = replace(task, passed=(*task.passed, seat), next_from=(seat + 1) % s.n)
    elif t is act.Reroll or t is act.KeepRoll:
        ctx.stack.pop()
        if t is act.Reroll:
            test = ctx.stack[-1]
            assert isinstance(test, TPassTest)
            new = ctx.die()
            if test.x == seat:
                ctx.emit(ev.DieRerolled(seat=seat, old=test.dx, new=new))
                ctx.stack[-1] = replace(test, dx=new)
            else:
                ctx.emit(ev.DieRerolled(seat=seat, old=test.dy, new=new))
                ctx.stack[-1] = replace(test, dy=new)
    elif t is act.TakeFreeTest:
        ctx.stack.pop()
        ctx.stack.append(TPassTest(x=seat, kind=task.kind))
    elif t is act.DeclineFreeTest:
        ctx.stack.pop()
        ctx.emit(ev.FreeTestDeclined(seat=seat))
    elif t is act.PitChoice:
        ctx.stack.pop()
        _pit_choice(ctx, seat, action)
    elif t is act.ChooseContagionTarget:
        ctx.stack.pop()
        ctx.emit(
            ev.ContagionMarked(
                card=task.card,
                caster=task.caster,
                seat=task.vehicle,
                target=action.card,
                turn=s.turn,
            )
        )
    else:  # pragma: no cover - answers() only offers the kinds above
        raise AssertionError(f"unhandled action {action!r}")


def _pit_choice(ctx: Ctx, seat: int, choice: act.PitChoice) -> None:
    vehicle = ctx.state.vehicles[seat]
    assert choice.card is not None or choice.kind == "repair"
    if choice.kind == "mod":
        ctx.emit(ev.ModAttached(seat=seat, card=choice.card or 0, replaced=choice.replace))
    elif choice.kind == "tires":
        ctx.emit(ev.TiresAttached(seat=seat, card=choice.card or 0, replaced=vehicle.tires))
    elif choice.kind == "driver":
        ctx.emit(ev.DriverSet(seat=seat, card=choice.card or 0, old=vehicle.driver))
    else:
        ctx.stack.append(TRepair(seat=seat, kind="pit"))


def _play_reaction(ctx: Ctx, task: Any, seat: int, cid: int) -> None:
    s = ctx.state
    if isinstance(task, DWindow):
        ctx.emit(ev.CardPlayed(seat=seat, card=cid))
        ctx.stack[-1] = replace(task, passed=(), next_from=(seat + 1) % s.n)
        ctx.stack.append(DChain(cards=(cid,), seats=(seat,), next_from=s.active))
    else:
        assert isinstance(task, DChain)
        ctx.emit(ev.CardPlayed(seat=seat, card=cid, on_card=task.cards[-1]))
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
    ctx.emit(ev.ChainResolved(cards=cards, cancelled=tuple(cancelled)))
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
        ctx.stack[wi] = replace(w, atk=w.atk + bottom.param)
    elif effect == "def_bonus":
        ctx.stack[wi] = replace(w, def_=w.def_ + bottom.param)
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
            ctx.emit(ev.DamagePrevented(seat=w.x))
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
        _pass_test(ctx, task)
    elif t is TPassWin:
        _pass_win(ctx, task)
    elif t is TDamage:
        _damage(ctx, task)
    elif t is TTie:
        _tie(ctx, task)
    elif t is TRepair:
        ctx.stack.pop()
        _repair(ctx, task)
    elif t is TEffect:
        ctx.stack.pop()
        _effect(ctx, task)
    elif t is TDiscardInPlay:
        ctx.stack.pop()
        still = tuple(c for c in task.cards if c in s.in_play)
        if still:
            ctx.emit(ev.InPlayDiscarded(cards=still))
    elif t is TStartTurn:
        ctx.stack.pop()
        ctx.emit(ev.TurnStarted(seat=task.seat, turn=s.turn + 1, actions=s.config.actions_per_turn))
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
        _contagion_tick(ctx, task)
    elif t is TContagionJump:
        ctx.stack.pop()
        _contagion_jump(ctx, task.card, task.caster, task.origin)
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
            ctx.emit(ev.VehicleAssigned(seat=seat, marker=order[seat]))
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
        ctx.emit(ev.VehiclesSetAside(markers=unused))
    ctx.emit(ev.FlagPlaced(card=CHECKERED_FLAG))
    order = tuple(shuffled(ctx.rng, list(DECK_IDS)))
    ctx.emit(ev.DeckShuffled(count=len(order), order=order))
    for _ in range(HAND_SIZE):
        for seat in range(ctx.state.n):
            ctx.emit(ev.CardDealt(seat=seat, card=ctx.state.draw[0]))


def _form_pack(ctx: Ctx) -> None:
    """C-PACK-ORDER: most discarded nearer the front; ties by d6, still tied re-roll at once."""
    counts = [len(c or ()) for c in ctx.state.setup_choice]
    line: list[int] = []
    for count in sorted(set(counts), reverse=True):
        line.extend(_order_group(ctx, [s for s in range(ctx.state.n) if counts[s] == count]))
    ctx.emit(ev.PackFormed(pack=tuple(line)))
    ctx.stack.append(TStartTurn(line[-1]))


def _order_group(ctx: Ctx, seats: list[int]) -> list[int]:
    if len(seats) == 1:
        return seats
    rolls: dict[int, int] = {}
    for seat in seats:
        rolls[seat] = ctx.die()
        ctx.emit(ev.PackTieRolled(seat=seat, value=rolls[seat]))
    out: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        out.extend(_order_group(ctx, [s for s in seats if rolls[s] == value]))
    return out


def _draw(ctx: Ctx, task: TDraw) -> None:
    """C-DRAW one card at a time; C-RESHUFFLE; C-CHECKERED-FLAG."""
    if task.count <= 0:
        ctx.stack.pop()
        return
    s = ctx.state
    if s.draw_size == 0:
        if not s.discard:  # pragma: no cover - the invariant C-RESHUFFLE states
            raise AssertionError("both piles are empty while the race runs")
        order = tuple(shuffled(ctx.rng, sorted(s.discard)))
        ctx.emit(ev.DeckReshuffled(count=len(order), order=order))
    top = ctx.state.draw[0]
    if top == CHECKERED_FLAG:
        ctx.emit(ev.CheckeredFlagDrawn(seat=task.seat))
        _end_race(ctx, "flag")
        return
    ctx.emit(ev.CardDrawn(seat=task.seat, card=top))
    ctx.stack[-1] = TDraw(seat=task.seat, count=task.count - 1)


# --------------------------------------------------------------------------- passing


def _pass_test(ctx: Ctx, t: TPassTest) -> None:
    s = ctx.state
    if t.stage == 0:
        y = ahead(s.pack, t.x)
        c = behind(s.pack, t.x)
        ctx.emit(ev.PassDeclared(attacker=t.x, defender=y, kind=t.kind))
        ctx.stack[-1] = replace(t, y=y, c=-1 if c == y else c, stage=1)
        ctx.stack.append(DWindow(kind="try", x=t.x, y=y, pit=t.kind == "pit", next_from=s.active))
    elif t.stage == 1:
        if t.cancelled:
            ctx.stack.pop()
            ctx.emit(ev.PassCancelled(attacker=t.x, defender=t.y, stage="test"))
            return
        dx, dy = ctx.die(), ctx.die()
        ctx.emit(ev.PassDiceRolled(attacker=t.x, defender=t.y, attacker_die=dx, defender_die=dy))
        ctx.stack[-1] = replace(t, stage=2, dx=dx, dy=dy)
        for seat in (t.x, t.y):
            if card(s.vehicles[seat].marker).effect == "reroll_once":
                ctx.stack.append(DReroll(seat))
    else:
        ctx.stack.pop()
        cap = s.config.equipment_cap
        vx, vy = s.vehicles[t.x], s.vehicles[t.y]
        nitrous = s.nitrous if t.x == s.active else 0
        ax = t.dx + speed(vx) + drive(vx) + attack_equipment(vx, cap) + t.atk_bonus + nitrous
        dy = t.dy + speed(vy) + drive(vy) + defend_equipment(vy, cap) + t.def_bonus
        outcome = "win" if ax > dy else "lose" if ax < dy else "tie"
        ctx.emit(
            ev.PassResolved(
                attacker=t.x,
                defender=t.y,
                attacker_total=ax,
                defender_total=dy,
                outcome=outcome,
                nitrous=nitrous,
            )
        )
        if outcome == "win":
            ctx.stack.append(TPassWin(x=t.x, y=t.y, draft=t.kind == "draft"))
        elif outcome == "tie":
            ctx.stack.append(TTie(x=t.x, y=t.y, c=t.c))


def _pass_win(ctx: Ctx, t: TPassWin) -> None:
    """C-PASS-WIN: Black Flag window, PASS(X), Spikey Bits, Nuclear Option."""
    s = ctx.state
    if t.stage == 0:
        ctx.stack[-1] = replace(t, stage=1)
        ctx.stack.append(DWindow(kind="win", x=t.x, y=t.y, next_from=s.active))
        return
    ctx.stack.pop()
    if t.cancelled:
        ctx.emit(ev.PassCancelled(attacker=t.x, defender=t.y, stage="win"))
        return
    _do_pass(ctx, t.x, t.y)
    if t.draft:
        fi = ctx.top_index(DFreeTest)
        if fi is not None:
            ctx.stack[fi] = replace(ctx.stack[fi], ready=True)
    if has_effect(ctx.state, t.x, "damage_passed"):
        ctx.stack.append(TDamage(v=t.y))
    if has_effect(ctx.state, t.y, "damage_passer"):
        ctx.stack.append(TDamage(v=t.x))


def _do_pass(ctx: Ctx, x: int, y: int) -> None:
    pack, lap = pass_line(ctx.state.pack, x)
    ctx.emit(ev.Passed(attacker=x, defender=y, lap=lap, pack=pack))


def _dmove(ctx: Ctx, v: int, w: int, seam_swap: bool = False) -> None:
    pack, outcome = dmove_line(ctx.state.pack, v, w, ctx.state.config.seam_damage_moves, seam_swap)
    ctx.emit(ev.DamageMove(mover=v, target=w, outcome=outcome, pack=pack))


def _damage(ctx: Ctx, t: TDamage) -> None:
    """C-DAMAGE: Roll Cage, Lucky Break, flip (Tow Truck window) or C-DAMAGE-AGAIN."""
    s = ctx.state
    if t.stage == 0:
        cage = mod_with(s.vehicles[t.v], "absorb_damage")
        if cage is not None:
            ctx.stack.pop()
            ctx.emit(ev.DamageAbsorbed(seat=t.v, card=cage))
            return
        ctx.stack[-1] = replace(t, stage=1)
        ctx.stack.append(DWindow(kind="damage", x=t.v, next_from=s.active))
        return
    ctx.stack.pop()
    if t.prevented:
        ctx.emit(ev.DamagePrevented(seat=t.v))
    elif not s.vehicles[t.v].damaged:
        ctx.emit(ev.Damaged(seat=t.v))
        ctx.stack.append(DWindow(kind="tow", x=t.v, next_from=s.active))
    else:
        _dmove(ctx, behind(s.pack, t.v), t.v)


def _tie(ctx: Ctx, t: TTie) -> None:
    """C-PASS-TIE: decide X's hit, then Y's, then apply the first matching row."""
    s = ctx.state
    if t.stage in (0, 1):
        v = t.x if t.stage == 0 else t.y
        nxt = t.stage + 1
        field = "x_hit" if t.stage == 0 else "y_hit"
        if card(s.vehicles[v].marker).effect == "tie_immune":
            ctx.stack[-1] = replace(t, stage=nxt, **{field: 0})
            return
        cage = mod_with(s.vehicles[v], "absorb_damage")
        if cage is not None:
            ctx.emit(ev.DamageAbsorbed(seat=v, card=cage))
            ctx.stack[-1] = replace(t, stage=nxt, **{field: 0})
            return
        ctx.stack[-1] = replace(t, stage=nxt)
        ctx.stack.append(DWindow(kind="damage", x=v, next_from=s.active))
        return
    ctx.stack.pop()
    x, y, c = t.x, t.y, t.c
    xh, yh = t.x_hit, t.y_hit
    flipped: list[int] = []
    if xh != 2 and yh != 2:  # C-PASS-TIE-FRESH
        flipped = [v for v, h in ((x, xh), (y, yh)) if h == 1]
        for v in flipped:
            ctx.emit(ev.Damaged(seat=v))
    elif xh == 2 and yh == 2:  # C-PASS-TIE-BOTH-DAMAGED (C-SEAM-SWAP at the seam)
        _dmove(ctx, x, y, seam_swap=True)
    elif xh == 2 and yh == 1:  # C-PASS-TIE-ATTACKER-DAMAGED
        ctx.emit(ev.Damaged(seat=y))
        flipped = [y]
        if c >= 0:
            _dmove(ctx, c, x)
            _dmove(ctx, c, y)
        else:
            _dmove(ctx, behind(ctx.state.pack, x), x)
    elif xh == 1 and yh == 2:  # C-PASS-TIE-DEFENDER-DAMAGED
        ctx.emit(ev.Damaged(seat=x))
        flipped = [x]
        _do_pass(ctx, x, y)
        if c >= 0:
            _dmove(ctx, c, y)
    elif xh == 2:  # C-PASS-TIE-ONE-HIT, attacker again
        _dmove(ctx, behind(ctx.state.pack, x), x)
    else:  # C-PASS-TIE-ONE-HIT, defender again
        _dmove(ctx, x, y)
    for v in reversed(flipped):
        ctx.stack.append(DWindow(kind="tow", x=v, next_from=s.active))


def _repair(ctx: Ctx, t: TRepair) -> None:
    """C-REPAIR: d6 + pit crew Fixit + repair bonuses >= Complexity flips back."""
    vehicle = ctx.state.vehicles[t.seat]
    if not vehicle.damaged:
        return
    die = ctx.die()
    total = die + fixit(vehicle) + repair_bonus(vehicle)
    need = card(vehicle.marker).complexity
    ctx.emit(ev.RepairRolled(seat=t.seat, die=die, total=total, need=need, success=total >= need))
    if t.kind == "tow" and total >= need:
        wi = ctx.top_index(DWindow)
        if wi is not None:
            ctx.stack[wi] = replace(ctx.stack[wi], settled=True)


# --------------------------------------------------------------------------- action cards


def _effect(ctx: Ctx, e: TEffect) -> None:
    """An Action card that was not cancelled takes effect (its primitive from the card data)."""
    s = ctx.state
    spec = card(e.card)
    kind = spec.effect
    seat = e.seat

    def fizzle() -> None:
        ctx.emit(ev.EffectFizzled(card=e.card, seat=seat))

    if kind == "auto_pass_ahead":
        ctx.stack.append(TPassWin(x=seat, y=ahead(s.pack, seat), auto=True))
    elif kind == "draft":
        ctx.stack.append(DFreeTest(seat=seat, kind="follow", ready=False))
        ctx.stack.append(TPassTest(x=seat, kind="draft"))
    elif kind == "nitrous":
        ctx.emit(ev.NitrousAdded(seat=seat, bonus=spec.param))
    elif kind == "grant_actions":
        ctx.emit(ev.ActionsGranted(seat=seat, count=spec.param))
    elif kind == "contagion":
        assert e.target_seat is not None
        assert e.target_card is not None
        if e.target_card not in contagion_targets(s, e.card, e.target_seat):
            fizzle()
            return
        ctx.emit(ev.VehicleCardDiscarded(seat=e.target_seat, card=e.target_card, reason=spec.name))
        _contagion_jump(ctx, e.card, seat, e.target_seat)
    elif kind == "discard_equipment":
        assert e.target_seat is not None
        assert e.target_card is not None
        v = s.vehicles[e.target_seat]
        if e.target_card not in v.mods and e.target_card != v.tires:
            fizzle()
            return
        ctx.emit(ev.VehicleCardDiscarded(seat=e.target_seat, card=e.target_card, reason=spec.name))
    elif kind == "poach_crew":
        assert e.target_seat is not None
        assert e.target_card is not None
        if e.target_card not in s.vehicles[e.target_seat].crew:
            fizzle()
            return
        ctx.emit(ev.CrewMoved(from_seat=e.target_seat, to_seat=seat, card=e.target_card))
    elif kind == "repair_now":
        if not s.vehicles[seat].damaged:
            fizzle()
            return
        _repair(ctx, TRepair(seat=seat, kind="rush"))
    elif kind == "scavenge":
        assert e.target_card is not None
        if e.target_card not in s.discard:
            fizzle()
            return
        ctx.emit(ev.CardTakenFromDiscard(seat=seat, card=e.target_card, hand_card=e.target_card))
    elif kind == "damage_any":
        assert e.target_seat is not None
        ctx.stack.append(TDamage(v=e.target_seat))
    elif kind == "damage_ahead_behind":
        assert e.target_seat is not None
        assert e.to_seat is not None
        if e.to_seat != e.target_seat:
            ctx.stack.append(TDamage(v=e.to_seat))
        ctx.stack.append(TDamage(v=e.target_seat))
    elif kind == "swap_two_ahead":
        i = s.pack.index(seat)
        if i < 2:
            fizzle()
            return
        line = list(s.pack)
        line[i], line[i - 2] = line[i - 2], line[i]
        ctx.emit(ev.VehiclesSwapped(a=seat, b=line[i], pack=tuple(line)))
    elif kind == "move_driver":
        assert e.target_seat is not None
        assert e.to_seat is not None
        driver = s.vehicles[e.target_seat].driver
        if driver is None:
            fizzle()
            return
        replaced = s.vehicles[e.to_seat].driver
        ctx.emit(
            ev.DriverMoved(
                from_seat=e.target_seat, to_seat=e.to_seat, card=driver, replaced=replaced
            )
        )
    else:  # pragma: no cover
        raise AssertionError(f"unknown effect {kind!r}")


# --------------------------------------------------------------------------- contagion


def _contagion_jump(ctx: Ctx, cid: int, caster: int, origin: int) -> None:
    """C-CONTAGION: the victim's owner picks a card of the same type on the vehicle behind."""
    s = ctx.state
    nxt = behind(s.pack, origin)
    if nxt == caster:
        ctx.emit(ev.ContagionEnded(card=cid, reason="caster"))
    elif not contagion_targets(s, cid, nxt):
        ctx.emit(ev.ContagionEnded(card=cid, reason="no_target"))
    else:
        ctx.stack.append(DContagion(seat=origin, card=cid, caster=caster, vehicle=nxt))


def _contagion_tick(ctx: Ctx, t: TContagionTick) -> None:
    s = ctx.state
    due = [m for m in s.contagions if m.seat == t.seat and m.turn < s.turn]
    if not due:
        ctx.stack.pop()
        return
    mark = due[0]
    ctx.emit(ev.ContagionStruck(card=mark.card, seat=t.seat, target=mark.target))
    ctx.stack.append(TContagionJump(card=mark.card, caster=mark.caster, origin=t.seat))
