"""Passing tests, damage and repairs in Cthulhu 500 (C-PASS-TEST … C-DAMAGE, C-REPAIR).

Owns the staged tasks of a passing test (declare and the "tries to pass" window, dice and the
Car of Cthulhu re-roll, totals), C-PASS-WIN, the C-PASS-TIE table, C-DAMAGE with its Roll Cage,
Lucky Break and Tow Truck windows, and repair tests. Each function resolves the task on top of
the stack and may push windows that wait for answers.
Must not: draw chance other than the dice C-CHANCE lists, in that order.
"""

from __future__ import annotations

import msgspec

from core.cthulhu500.data import card
from core.cthulhu500.model import (
    DamageAbsorbed,
    Damaged,
    DamageMove,
    DamagePrevented,
    DFreeTest,
    DReroll,
    DWindow,
    PassCancelled,
    PassDeclared,
    PassDiceRolled,
    Passed,
    PassResolved,
    PassSide,
    RepairRolled,
    State,
    TDamage,
    TPassTest,
    TPassWin,
    TRepair,
    TTie,
)
from core.cthulhu500.rules.board import (
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
from core.cthulhu500.rules.ctx import Ctx

__all__ = [
    "damage",
    "dmove",
    "do_pass",
    "pass_sides",
    "pass_test",
    "pass_win",
    "repair",
    "side_total",
    "tie",
]

replace = msgspec.structs.replace


def pass_test(ctx: Ctx, t: TPassTest) -> None:
    s = ctx.state
    if t.stage == 0:
        y = ahead(s.pack, t.x)
        c = behind(s.pack, t.x)
        ctx.emit(PassDeclared(attacker=t.x, defender=y, kind=t.kind))
        ctx.stack[-1] = replace(t, y=y, c=-1 if c == y else c, stage=1)
        ctx.stack.append(DWindow(kind="try", x=t.x, y=y, pit=t.kind == "pit", next_from=s.active))
    elif t.stage == 1:
        if t.cancelled:
            ctx.stack.pop()
            ctx.emit(PassCancelled(attacker=t.x, defender=t.y, stage="test"))
            return
        dx, dy = ctx.die(), ctx.die()
        ctx.emit(PassDiceRolled(attacker=t.x, defender=t.y, attacker_die=dx, defender_die=dy))
        ctx.stack[-1] = replace(t, stage=2, dx=dx, dy=dy)
        for seat in (t.x, t.y):
            if card(s.vehicles[seat].marker).effect == "reroll_once":
                ctx.stack.append(DReroll(seat))
    else:
        ctx.stack.pop()
        att, dfd = pass_sides(s, t)
        ax, dy = side_total(att), side_total(dfd)
        outcome = "win" if ax > dy else "lose" if ax < dy else "tie"
        ctx.emit(
            PassResolved(
                attacker=t.x,
                defender=t.y,
                attacker_total=ax,
                defender_total=dy,
                outcome=outcome,
                nitrous=att.nitrous,
                attacker_side=att,
                defender_side=dfd,
                cap=s.config.equipment_cap,
            )
        )
        if outcome == "win":
            ctx.stack.append(TPassWin(x=t.x, y=t.y, draft=t.kind == "draft"))
        elif outcome == "tie":
            ctx.stack.append(TTie(x=t.x, y=t.y, c=t.c))


def pass_sides(s: State, t: TPassTest) -> tuple[PassSide, PassSide]:
    """Both sides of test ``t`` as they stand (dice as rolled or re-rolled so far), item by
    item: C-PASS-TEST step 4 with C-EQUIP-CAP, for the attacker and the defender."""
    cap = s.config.equipment_cap
    vx, vy = s.vehicles[t.x], s.vehicles[t.y]
    atk_cards = tuple(c for c in t.bonus_cards if card(c).effect == "atk_bonus")
    def_cards = tuple(c for c in t.bonus_cards if card(c).effect == "def_bonus")
    att = PassSide(
        die=t.dx,
        speed=speed(vx),
        drive=drive(vx),
        equipment=attack_equipment(vx, cap),
        equipment_sum=attack_equipment(vx, None),
        bonus=t.atk_bonus,
        cards=atk_cards,
        nitrous=s.nitrous if t.x == s.active else 0,
    )
    dfd = PassSide(
        die=t.dy,
        speed=speed(vy),
        drive=drive(vy),
        equipment=defend_equipment(vy, cap),
        equipment_sum=defend_equipment(vy, None),
        bonus=t.def_bonus,
        cards=def_cards,
    )
    return att, dfd


def side_total(side: PassSide) -> int:
    """A side's total: die + Speed + Drive + equipment (capped) + card bonuses + Nitrous."""
    return side.die + side.speed + side.drive + side.equipment + side.bonus + side.nitrous


def pass_win(ctx: Ctx, t: TPassWin) -> None:
    """C-PASS-WIN: Black Flag window, PASS(X), Spikey Bits, Nuclear Option."""
    s = ctx.state
    if t.stage == 0:
        ctx.stack[-1] = replace(t, stage=1)
        ctx.stack.append(DWindow(kind="win", x=t.x, y=t.y, next_from=s.active))
        return
    ctx.stack.pop()
    if t.cancelled:
        ctx.emit(PassCancelled(attacker=t.x, defender=t.y, stage="win"))
        return
    do_pass(ctx, t.x, t.y)
    if t.draft:
        fi = ctx.top_index(DFreeTest)
        if fi is not None:
            ctx.stack[fi] = replace(ctx.stack[fi], ready=True)
    if has_effect(ctx.state, t.x, "damage_passed"):
        ctx.stack.append(TDamage(v=t.y))
    if has_effect(ctx.state, t.y, "damage_passer"):
        ctx.stack.append(TDamage(v=t.x))


def do_pass(ctx: Ctx, x: int, y: int) -> None:
    pack, lap = pass_line(ctx.state.pack, x)
    ctx.emit(Passed(attacker=x, defender=y, lap=lap, pack=pack))


def dmove(ctx: Ctx, v: int, w: int, seam_swap: bool = False) -> None:
    pack, outcome = dmove_line(ctx.state.pack, v, w, ctx.state.config.seam_damage_moves, seam_swap)
    ctx.emit(DamageMove(mover=v, target=w, outcome=outcome, pack=pack))


def damage(ctx: Ctx, t: TDamage) -> None:
    """C-DAMAGE: Roll Cage, Lucky Break, flip (Tow Truck window) or C-DAMAGE-AGAIN."""
    s = ctx.state
    if t.stage == 0:
        cage = mod_with(s.vehicles[t.v], "absorb_damage")
        if cage is not None:
            ctx.stack.pop()
            ctx.emit(DamageAbsorbed(seat=t.v, card=cage))
            return
        ctx.stack[-1] = replace(t, stage=1)
        ctx.stack.append(DWindow(kind="damage", x=t.v, next_from=s.active))
        return
    ctx.stack.pop()
    if t.prevented:
        ctx.emit(DamagePrevented(seat=t.v))
    elif not s.vehicles[t.v].damaged:
        ctx.emit(Damaged(seat=t.v))
        ctx.stack.append(DWindow(kind="tow", x=t.v, next_from=s.active))
    else:
        dmove(ctx, behind(s.pack, t.v), t.v)


def tie(ctx: Ctx, t: TTie) -> None:
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
            ctx.emit(DamageAbsorbed(seat=v, card=cage))
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
            ctx.emit(Damaged(seat=v))
    elif xh == 2 and yh == 2:  # C-PASS-TIE-BOTH-DAMAGED (C-SEAM-SWAP at the seam)
        dmove(ctx, x, y, seam_swap=True)
    elif xh == 2 and yh == 1:  # C-PASS-TIE-ATTACKER-DAMAGED
        ctx.emit(Damaged(seat=y))
        flipped = [y]
        if c >= 0:
            dmove(ctx, c, x)
            dmove(ctx, c, y)
        else:
            dmove(ctx, behind(ctx.state.pack, x), x)
    elif xh == 1 and yh == 2:  # C-PASS-TIE-DEFENDER-DAMAGED
        ctx.emit(Damaged(seat=x))
        flipped = [x]
        do_pass(ctx, x, y)
        if c >= 0:
            dmove(ctx, c, y)
    elif xh == 2:  # C-PASS-TIE-ONE-HIT, attacker again
        dmove(ctx, behind(ctx.state.pack, x), x)
    else:  # C-PASS-TIE-ONE-HIT, defender again
        dmove(ctx, x, y)
    for v in reversed(flipped):
        ctx.stack.append(DWindow(kind="tow", x=v, next_from=s.active))


def repair(ctx: Ctx, t: TRepair) -> None:
    """C-REPAIR: d6 + pit crew Fixit + repair bonuses >= Complexity flips back."""
    vehicle = ctx.state.vehicles[t.seat]
    if not vehicle.damaged:
        return
    die = ctx.die()
    total = die + fixit(vehicle) + repair_bonus(vehicle)
    need = card(vehicle.marker).complexity
    ctx.emit(RepairRolled(seat=t.seat, die=die, total=total, need=need, success=total >= need))
    if t.kind == "tow" and total >= need:
        wi = ctx.top_index(DWindow)
        if wi is not None:
            ctx.stack[wi] = replace(ctx.stack[wi], settled=True)
