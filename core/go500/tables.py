"""Per-table lookup tables derived from the dice data and the options.

Owns turning `dice.json` plus ``circle_values`` into flat tuples the per-roll path can index
(miles per face, which face is the circle, the flat, the caution, the crash, the BIG X).
Must not: hold rules, or restate a face the data already gives.
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from core.go500.data import DICE, MAX_TURN, Die
from core.go500.model import FACES, TRACK_DICE

__all__ = ["Tables", "tables_for"]


class Tables(msgspec.Struct, frozen=True, kw_only=True):
    flag_kind: tuple[str, ...]
    die_miles: tuple[tuple[int, ...], ...]
    """Miles per face for the turn dice by `DIE_IDS` index (F has all zeros)."""
    circle: tuple[int, ...]
    """The circle face index per turn die (F: -1)."""
    flat: int
    pit_miles: tuple[int, ...]
    pit_caution: int
    crash_miles: tuple[int, ...]
    crash_crash: int
    crash_big_x: int
    max_turn: int


def _miles(die: Die, circle_value: int) -> tuple[int, ...]:
    out = []
    for face in die.faces:
        if face.kind == "circle":
            out.append(circle_value)
        else:
            out.append(face.miles or 0)
    return tuple(out)


def _index(die: Die, kind: str) -> int:
    for i, face in enumerate(die.faces):
        if face.kind == kind:
            return i
    return -1


@lru_cache(maxsize=16)
def tables_for(circle_values: tuple[int, int]) -> Tables:
    """The lookup tables for one ``circle_values`` option (cached)."""
    dice = DICE.by_id
    track, power = circle_values
    t_miles = _miles(dice["T"], track)
    p_miles = _miles(dice["P"], power)
    t_circle = _index(dice["T"], "circle")
    p_circle = _index(dice["P"], "circle")
    return Tables(
        flag_kind=tuple(face.kind for face in dice["F"].faces),
        die_miles=((0,) * FACES, *(t_miles,) * len(TRACK_DICE), p_miles),
        circle=(-1, *(t_circle,) * len(TRACK_DICE), p_circle),
        flat=_index(dice["P"], "flat"),
        pit_miles=_miles(dice["PIT"], 0),
        pit_caution=_index(dice["PIT"], "caution"),
        crash_miles=_miles(dice["CR"], 0),
        crash_crash=_index(dice["CR"], "crash"),
        crash_big_x=_index(dice["CR"], "big_x"),
        max_turn=MAX_TURN,
    )
