"""Pure reckoning over a Cthulhu 500 state: the circular pack, vehicle stats and card places.

Owns C-PACK (ahead/behind on the circle), the line arithmetic of C-LAP (PASS), C-DMOVE and
C-SEAM, passing-test totals (Speed, Drive, C-EQUIP-CAP), repair Fixit with C-FUNGI and Herbert
West, and "where is card X" look-ups. Everything here is a function of its arguments; the
engine (`engine.py`) calls it, bots call it on their view.

Must not: draw chance, emit events or change a state.
"""

from __future__ import annotations

from core.cthulhu500.data import card
from core.cthulhu500.model import State, Vehicle
from core.memo import memo

__all__ = [
    "ahead",
    "attack_equipment",
    "behind",
    "defend_equipment",
    "dmove_line",
    "drive",
    "fixit",
    "has_effect",
    "mod_with",
    "pass_line",
    "pile_label",
    "repair_bonus",
    "speed",
]


def ahead(pack: tuple[int, ...], seat: int) -> int:
    """The seat whose vehicle is directly ahead of ``seat``'s (the leader's is the rear)."""
    i = pack.index(seat)
    return pack[i - 1] if i > 0 else pack[-1]


def behind(pack: tuple[int, ...], seat: int) -> int:
    """The seat whose vehicle is directly behind ``seat``'s (the rear's is the leader)."""
    i = pack.index(seat)
    return pack[(i + 1) % len(pack)]


def pass_line(pack: tuple[int, ...], x: int) -> tuple[tuple[int, ...], bool]:
    """C-LAP: the line after PASS(x), and whether x earned a lap."""
    line = list(pack)
    i = line.index(x)
    if i > 0:
        line[i - 1], line[i] = line[i], line[i - 1]
        return tuple(line), False
    if len(line) > 2:
        line.pop(0)
        line.insert(len(line) - 1, x)
    return tuple(line), True


def dmove_line(
    pack: tuple[int, ...], v: int, w: int, seam: str, seam_swap: bool = False
) -> tuple[tuple[int, ...], str]:
    """C-DMOVE(v, w) with C-SEAM / C-SEAM-SWAP: the new line and what happened.

    Outcomes: ``swap``, ``not_adjacent``, ``seam_blocked``, ``seam_circle``, ``seam_swap``.
    """
    if v == w or behind(pack, w) != v:
        return pack, "not_adjacent"
    line = list(pack)
    if line[0] == v and line[-1] == w:
        if seam_swap:
            line[0], line[-1] = line[-1], line[0]
            return tuple(line), "seam_swap"
        if seam == "circle":
            line.remove(v)
            line.insert(line.index(w), v)
            return tuple(line), "seam_circle"
        return pack, "seam_blocked"
    i, j = line.index(v), line.index(w)
    line[i], line[j] = line[j], line[i]
    return tuple(line), "swap"


def speed(vehicle: Vehicle) -> int:
    """Current Speed (the damaged side when damaged)."""
    spec = card(vehicle.marker)
    return spec.speed_damaged if vehicle.damaged else spec.speed


def drive(vehicle: Vehicle) -> int:
    """The driver's Drive (C-NO-DRIVER: 0 without one)."""
    return 0 if vehicle.driver is None else card(vehicle.driver).drive


@memo
def _equipment(mods: tuple[int, ...], tires: int | None) -> tuple[int, int]:
    """Atk and Def of attached Mods and Tires, uncapped (cached: every passing test sums both
    sides twice)."""
    cards = [*mods, *([] if tires is None else [tires])]
    return sum(card(c).atk for c in cards), sum(card(c).def_ for c in cards)


def _capped(total: int, cap: int | None) -> int:
    return total if cap is None else min(total, cap)


def attack_equipment(vehicle: Vehicle, cap: int | None) -> int:
    """Atk of attached Mods and Tires, at most ``cap`` (C-EQUIP-CAP)."""
    return _capped(_equipment(vehicle.mods, vehicle.tires)[0], cap)


def defend_equipment(vehicle: Vehicle, cap: int | None) -> int:
    """Def of attached Mods and Tires, at most ``cap`` (C-EQUIP-CAP)."""
    return _capped(_equipment(vehicle.mods, vehicle.tires)[1], cap)


def fixit(vehicle: Vehicle) -> int:
    """Pit crew Fixit: cards' Fixit, +1 per Fungi with another Fungi (C-FUNGI), Herbert West +1
    per Zombie in the same pit crew."""
    fungi = sum(1 for c in vehicle.crew if "fungi" in card(c).tags)
    zombies = sum(1 for c in vehicle.crew if "zombie" in card(c).tags)
    total = 0
    for cid in vehicle.crew:
        spec = card(cid)
        total += spec.fixit
        if "fungi" in spec.tags and fungi >= 2:
            total += 1
        if spec.effect == "zombie_fixit":
            total += spec.param * zombies
    return total


def repair_bonus(vehicle: Vehicle) -> int:
    """Repair-test bonuses of attached Mods (Toolbox, Yuggoth Oil)."""
    return sum(card(c).param for c in vehicle.mods if card(c).effect == "repair_bonus")


def mod_with(vehicle: Vehicle, effect: str) -> int | None:
    """The lowest-id attached Mod with ``effect``, if any."""
    found = sorted(c for c in vehicle.mods if card(c).effect == effect)
    return found[0] if found else None


def has_effect(state: State, seat: int, effect: str) -> bool:
    """Whether ``seat``'s vehicle (its pair) or one of its Mods has ``effect``."""
    vehicle = state.vehicles[seat]
    return card(vehicle.marker).effect == effect or mod_with(vehicle, effect) is not None


def pile_label(state: State) -> str:
    """The draw pile's height as §7 lets players see it: rounded down to a multiple of 5
    ("about 20", "fewer than 5"), or exact with ``exact_pile_counts``.

    >>> from core.cthulhu500.config import Config
    >>> pile_label(State(config=Config(), n=2, vehicles=(), draw_size=23))
    'about 20'
    """
    size = state.draw_size
    if state.config.exact_pile_counts:
        return f"{size}"
    if size < 5:
        return "fewer than 5"
    return f"about {size - size % 5}"
