"""Go 500 components as data: the dice, the Cup points tables and the default season.

Owns decoding `dice.json`, `cup_points.json` and `schedule.json` (this package's `data/`) into frozen
msgspec structs and validating them at load, so a bad edit fails at import with one sentence.
Rule code reads these tables; it never restates a face or a points value.

Must not: know any rule beyond the shape of the components, do I/O other than reading the
package's own data files.

>>> DICE.by_id["F"].faces[3].label
'YELLOW'
>>> points_for_place(CUP_POINTS.by_name["winston_1975"], 43)
34
>>> points_for_place(CUP_POINTS.by_name["nascar_2017"], 40)
1
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, TypeVar

import msgspec

from core.game import DataError

__all__ = [
    "CUP_POINTS",
    "DEFAULT_SCHEDULE",
    "DICE",
    "MAX_TURN",
    "RACE_LENGTHS",
    "CupPoints",
    "DataError",
    "DiceSet",
    "Die",
    "Face",
    "PointsTable",
    "Schedule",
    "load_json",
    "points_for_place",
]

Tag = Literal["FACT", "PROPOSED", "RULING"]
FaceKind = Literal[
    "green", "yellow", "red", "black", "miles", "circle", "flat", "caution", "crash", "big_x"
]
RACE_LENGTHS = (400, 500, 600)
T = TypeVar("T")
_HERE = Path(__file__).resolve().parent / "data"


class Face(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    label: str
    kind: FaceKind
    tag: Tag
    miles: int | None = None


class Die(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    color: str
    count: int
    tag: Tag
    faces: tuple[Face, ...]
    fact: str = ""


class CircleValues(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    track: int
    power: int
    tag: Tag
    note: str = ""


class MaxTurn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    miles: int
    tag: Tag


class DiceSet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    dice: tuple[Die, ...]
    circle_values: CircleValues
    max_turn: MaxTurn

    @property
    def by_id(self) -> dict[str, Die]:
        return {die.id: die for die in self.dice}


class PointsTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    tag: Tag
    points: tuple[int, ...]
    step: int
    floor: int
    note: str = ""


class LeadBonus(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    led_one_round: int
    led_most_rounds: int
    tag: Tag
    note: str = ""


class CupPoints(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    tables: tuple[PointsTable, ...]
    lead_bonus: LeadBonus

    @property
    def by_name(self) -> dict[str, PointsTable]:
        return {table.name: table for table in self.tables}


class ScheduleRace(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    length: int


class Schedule(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    tag: Tag
    races: tuple[ScheduleRace, ...]


def load_json(name: str, kind: type[T]) -> T:
    """Decode one data file of this package into ``kind``; refuse it with one sentence."""
    raw = (_HERE / name).read_bytes()
    try:
        obj = msgspec.json.decode(raw)
        if isinstance(obj, dict):
            obj.pop("_comment", None)
        return msgspec.convert(obj, kind)
    except msgspec.DecodeError as err:
        raise DataError(f"Go 500 data file {name} is not valid: {err}.") from None


_EXPECTED_KINDS: dict[str, set[str]] = {
    "F": {"green", "yellow", "red", "black"},
    "T": {"miles", "circle"},
    "P": {"miles", "circle", "flat"},
    "PIT": {"miles", "caution"},
    "CR": {"miles", "crash", "big_x"},
}


def _check_dice(dice: DiceSet) -> DiceSet:
    ids = [die.id for die in dice.dice]
    if sorted(ids) != sorted(_EXPECTED_KINDS):
        raise DataError(f"Go 500 dice must be exactly {sorted(_EXPECTED_KINDS)}, not {ids}.")
    for die in dice.dice:
        if len(die.faces) != 6:
            raise DataError(f"The {die.name} must have 6 faces, not {len(die.faces)}.")
        for face in die.faces:
            if face.kind not in _EXPECTED_KINDS[die.id]:
                raise DataError(f"The {die.name} cannot have a {face.kind} face.")
            if (face.kind == "miles") != (face.miles is not None):
                raise DataError(f"The {die.name} face {face.label} must give miles iff a number.")
        if die.id in ("T", "P") and any(f.miles is not None and f.miles < 0 for f in die.faces):
            raise DataError(f"The {die.name} cannot show negative miles.")
        kinds: list[str] = [f.kind for f in die.faces]
        for must in {"T": ["circle"], "P": ["circle", "flat"], "CR": ["crash", "big_x"]}.get(
            die.id, []
        ):
            if kinds.count(must) != 1:
                raise DataError(f"The {die.name} needs exactly one {must} face.")
    if dice.by_id["T"].count != 5 or dice.by_id["P"].count != 1:
        raise DataError("Go 500 has five Track Dice and one Power Die.")
    if dice.max_turn.miles <= 0:
        raise DataError("The best turn must be a positive number of miles.")
    return dice


def _check_points(cup: CupPoints) -> CupPoints:
    names = [t.name for t in cup.tables]
    if len(set(names)) != len(names):
        raise DataError("Cup points tables must have distinct names.")
    for table in cup.tables:
        if not table.points or any(
            b > a for a, b in zip(table.points, table.points[1:], strict=False)
        ):
            raise DataError(f"Cup points table {table.name} must be non-empty and non-rising.")
        if table.step < 0 or table.floor < 0:
            raise DataError(f"Cup points table {table.name} needs a step and floor of 0 or more.")
    if cup.lead_bonus.led_one_round < 0 or cup.lead_bonus.led_most_rounds < 0:
        raise DataError("Lead bonuses cannot be negative.")
    return cup


def check_schedule(races: tuple[tuple[str, int], ...]) -> None:
    """Refuse an empty season or a race that is not 400, 500 or 600 miles long."""
    if not races:
        raise DataError("A Cup Series schedule needs at least one race.")
    for name, length in races:
        if length not in RACE_LENGTHS:
            raise DataError(f"Cup race {name!r} is {length} miles; races are 400, 500 or 600.")


def points_for_place(table: PointsTable, place: int) -> int:
    """Points for 1-based ``place`` in ``table``."""
    if place <= len(table.points):
        return table.points[place - 1]
    extra = place - len(table.points)
    return max(table.floor, table.points[-1] - extra * table.step)


DICE: DiceSet = _check_dice(load_json("dice.json", DiceSet))
CUP_POINTS: CupPoints = _check_points(load_json("cup_points.json", CupPoints))
_SCHEDULE: Schedule = load_json("schedule.json", Schedule)
DEFAULT_SCHEDULE: tuple[tuple[str, int], ...] = tuple((r.name, r.length) for r in _SCHEDULE.races)
check_schedule(DEFAULT_SCHEDULE)
MAX_TURN: int = DICE.max_turn.miles
