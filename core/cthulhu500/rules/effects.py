"""Action-card effects and contagions in Cthulhu 500 (C-PLAY-ACTION, C-CONTAGION).

Owns what each effect primitive named in `cards.json` does once its chain resolved uncancelled,
and the contagion jumps (Black Plague, Gremlins). A target that vanished makes the card fizzle.
Must not: dispatch on card names; only on the data's effect primitives.
"""

from __future__ import annotations

from core.cthulhu500.data import card
from core.cthulhu500.model import (
    ActionsGranted,
    CardTakenFromDiscard,
    ContagionEnded,
    ContagionStruck,
    CrewMoved,
    DContagion,
    DFreeTest,
    DriverMoved,
    EffectFizzled,
    NitrousAdded,
    TContagionJump,
    TContagionTick,
    TDamage,
    TEffect,
    TPassTest,
    TPassWin,
    TRepair,
    VehicleCardDiscarded,
    VehiclesSwapped,
)
from core.cthulhu500.rules.board import ahead, behind
from core.cthulhu500.rules.ctx import Ctx
from core.cthulhu500.rules.options import contagion_targets
from core.cthulhu500.rules.passing import repair

__all__ = ["contagion_jump", "contagion_tick", "effect"]


def effect(ctx: Ctx, e: TEffect) -> None:
    """An Action card that was not cancelled takes effect (its primitive from the card data)."""
    s = ctx.state
    spec = card(e.card)
    kind = spec.effect
    seat = e.seat

    def fizzle() -> None:
        ctx.emit(EffectFizzled(card=e.card, seat=seat))

    if kind == "auto_pass_ahead":
        ctx.stack.append(TPassWin(x=seat, y=ahead(s.pack, seat), auto=True))
    elif kind == "draft":
        ctx.stack.append(DFreeTest(seat=seat, kind="follow", ready=False))
        ctx.stack.append(TPassTest(x=seat, kind="draft"))
    elif kind == "nitrous":
        ctx.emit(NitrousAdded(seat=seat, bonus=spec.param))
    elif kind == "grant_actions":
        ctx.emit(ActionsGranted(seat=seat, count=spec.param))
    elif kind == "contagion":
        assert e.target_seat is not None
        assert e.target_card is not None
        if e.target_card not in contagion_targets(s, e.card, e.target_seat):
            fizzle()
            return
        ctx.emit(VehicleCardDiscarded(seat=e.target_seat, card=e.target_card, reason=spec.name))
        contagion_jump(ctx, e.card, seat, e.target_seat)
    elif kind == "discard_equipment":
        assert e.target_seat is not None
        assert e.target_card is not None
        v = s.vehicles[e.target_seat]
        if e.target_card not in v.mods and e.target_card != v.tires:
            fizzle()
            return
        ctx.emit(VehicleCardDiscarded(seat=e.target_seat, card=e.target_card, reason=spec.name))
    elif kind == "poach_crew":
        assert e.target_seat is not None
        assert e.target_card is not None
        if e.target_card not in s.vehicles[e.target_seat].crew:
            fizzle()
            return
        ctx.emit(CrewMoved(from_seat=e.target_seat, to_seat=seat, card=e.target_card))
    elif kind == "repair_now":
        if not s.vehicles[seat].damaged:
            fizzle()
            return
        repair(ctx, TRepair(seat=seat, kind="rush"))
    elif kind == "scavenge":
        assert e.target_card is not None
        if e.target_card not in s.discard:
            fizzle()
            return
        ctx.emit(CardTakenFromDiscard(seat=seat, card=e.target_card, hand_card=e.target_card))
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
        ctx.emit(VehiclesSwapped(a=seat, b=line[i], pack=tuple(line)))
    elif kind == "move_driver":
        assert e.target_seat is not None
        assert e.to_seat is not None
        driver = s.vehicles[e.target_seat].driver
        if driver is None:
            fizzle()
            return
        replaced = s.vehicles[e.to_seat].driver
        ctx.emit(
            DriverMoved(from_seat=e.target_seat, to_seat=e.to_seat, card=driver, replaced=replaced)
        )
    else:  # pragma: no cover
        raise AssertionError(f"unknown effect {kind!r}")


# --------------------------------------------------------------------------- contagion


def contagion_jump(ctx: Ctx, cid: int, caster: int, origin: int) -> None:
    """C-CONTAGION: the victim's owner picks a card of the same type on the vehicle behind."""
    s = ctx.state
    nxt = behind(s.pack, origin)
    if nxt == caster:
        ctx.emit(ContagionEnded(card=cid, reason="caster"))
    elif not contagion_targets(s, cid, nxt):
        ctx.emit(ContagionEnded(card=cid, reason="no_target"))
    else:
        ctx.stack.append(DContagion(seat=origin, card=cid, caster=caster, vehicle=nxt))


def contagion_tick(ctx: Ctx, t: TContagionTick) -> None:
    s = ctx.state
    due = [m for m in s.contagions if m.seat == t.seat and m.turn < s.turn]
    if not due:
        ctx.stack.pop()
        return
    mark = due[0]
    ctx.emit(ContagionStruck(card=mark.card, seat=t.seat, target=mark.target))
    ctx.stack.append(TContagionJump(card=mark.card, caster=mark.caster, origin=t.seat))
