"""Go 500 data types: the state the screens draw, the actions players send, the events.

Owns the shapes only (frozen msgspec Structs, one tagged union for actions and one for
events) and the die ids. Must not: contain rules (see `rules.py`) or the fold (`fold.py`).

Die ids: ``F`` (Flag), ``T1``…``T5`` (Track), ``P`` (Power), ``PIT`` (Pit), ``CR`` (Crash).
A turn's dice are indexed 0…6 as ``DIE_IDS``; face values are indices 0…5 into the die's
faces in `dice.json` (``core.go500.data.DICE``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from core.go500.config import Go500Config

__all__ = [
    "DIE_IDS",
    "DIE_INDEX",
    "FACES",
    "FLAG_DIE",
    "POWER_DIE",
    "RACING_DICE",
    "TRACK_DICE",
    "Action",
    "AutoStop",
    "BigOneRolled",
    "BigOneStarted",
    "CautionCut",
    "ChaosStruck",
    "CheckeredFlag",
    "ChoosePaintTarget",
    "CrashDieRolled",
    "CupPointsAwarded",
    "DiceRolled",
    "DiceSaved",
    "DriverFinished",
    "EffectQueued",
    "Event",
    "FinalRoundStarted",
    "Go500State",
    "InTheGroove",
    "KnockedOut",
    "MilesRecorded",
    "PaintTargetNeeded",
    "PaintTraded",
    "PitDieRolled",
    "PoleWon",
    "PowerDieRemoved",
    "QualifyingRolled",
    "RaceEnded",
    "RaceStarted",
    "Roll",
    "RoundEnded",
    "RoundStarted",
    "SaveAndRoll",
    "SeasonEnded",
    "Stop",
    "TurnEnded",
    "TurnOver",
    "TurnStarted",
    "TurnState",
]

DIE_IDS: tuple[str, ...] = ("F", "T1", "T2", "T3", "T4", "T5", "P")
DIE_INDEX: dict[str, int] = {die: i for i, die in enumerate(DIE_IDS)}
FLAG_DIE = 0
"""The Flag Die's index: rolled every time, never saved."""
TRACK_DICE: tuple[int, ...] = (1, 2, 3, 4, 5)
"""The five Track Dice's indices."""
POWER_DIE = 6
"""The Power Die's index (it can go flat, G-FLAT)."""
RACING_DICE: tuple[int, ...] = (*TRACK_DICE, POWER_DIE)
"""The dice a driver saves and rolls again: the Track Dice and the Power Die."""
FACES = 6
"""Faces on every die; a face is an index 0 … FACES - 1 into the die's faces."""

Phase = Literal["qualifying", "turn", "over"]
Stage = Literal["roll", "decide", "paint", "done"]
EndKind = Literal["green_stop", "pit", "crash", "penalty", "groove", "behind_wall"]
AutoStop = Literal["line", "no_dice"]
Effect = Literal["caution", "big_one", "paint"]
ChaosKind = Literal["lost_wheel", "rubbin", "debris"]
RemovalReason = Literal["flat", "lost_wheel", "rubbin"]


# --------------------------------------------------------------------------- actions


class Roll(msgspec.Struct, frozen=True, tag="roll"):
    """Start a turn (or make a qualifying roll): roll every die in play."""


class SaveAndRoll(msgspec.Struct, frozen=True, tag="save_and_roll"):
    """On a green flag: save these dice (ids such as ``"T2"``, ``"P"``; maybe none), roll the rest."""

    dice: list[str] = []


class Stop(msgspec.Struct, frozen=True, tag="stop"):
    """On a green flag: end the turn and record the miles showing."""


class ChoosePaintTarget(msgspec.Struct, frozen=True, tag="choose_paint_target"):
    """Tradin' Paint: the driver (seat index) to crash into."""

    driver: int


Action = Roll | SaveAndRoll | Stop | ChoosePaintTarget


# --------------------------------------------------------------------------- events


class RaceStarted(msgspec.Struct, frozen=True, tag="race_started"):
    race: int
    name: str
    length: int


class QualifyingRolled(msgspec.Struct, frozen=True, tag="qualifying_rolled"):
    seat: int
    faces: tuple[int, ...]
    score: int
    reroll: bool


class PoleWon(msgspec.Struct, frozen=True, tag="pole_won"):
    seat: int
    order: tuple[int, ...]


class RoundStarted(msgspec.Struct, frozen=True, tag="round_started"):
    """Multi-Game: a round opens; each of ``drivers`` has a turn to take in it."""

    round: int
    drivers: tuple[int, ...]


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    seat: int
    extra: bool = False
    final: bool = False


class DiceRolled(msgspec.Struct, frozen=True, tag="dice_rolled"):
    """One roll: ``dice`` in draw order and the face each shows (None: no face this roll)."""

    seat: int
    dice: tuple[str, ...]
    faces: tuple[int | None, ...]
    showing: int


class ChaosStruck(msgspec.Struct, frozen=True, tag="chaos_struck"):
    """G-CHAOS: chance ``x`` (below 10000) struck ``die`` after it showed ``face``."""

    seat: int
    die: str
    kind: ChaosKind
    face: int
    x: int
    redraw: int | None = None


class PowerDieRemoved(msgspec.Struct, frozen=True, tag="power_die_removed"):
    seat: int
    reason: RemovalReason


class DiceSaved(msgspec.Struct, frozen=True, tag="dice_saved"):
    seat: int
    dice: tuple[str, ...]


class InTheGroove(msgspec.Struct, frozen=True, tag="in_the_groove"):
    seat: int


class TurnEnded(msgspec.Struct, frozen=True, tag="turn_ended", omit_defaults=True):
    """A turn's end. ``auto`` says why a green stop was taken for the driver, not chosen:
    ``"line"`` (G-AUTO-STOP: the miles showing reach the finish) or ``"no_dice"``
    (G-AUTO-DECISION: nothing left to roll). Left out of the bytes when None."""

    seat: int
    kind: EndKind
    showing: int
    auto: AutoStop | None = None


class PitDieRolled(msgspec.Struct, frozen=True, tag="pit_die_rolled"):
    seat: int
    face: int


class CrashDieRolled(msgspec.Struct, frozen=True, tag="crash_die_rolled"):
    seat: int
    face: int


class MilesRecorded(msgspec.Struct, frozen=True, tag="miles_recorded"):
    """A turn's miles (after G-MAX-TURN) and the new total (after G-STALL)."""

    seat: int
    miles: int
    total: int
    capped: bool = False
    stalled: bool = False


class KnockedOut(msgspec.Struct, frozen=True, tag="knocked_out"):
    seat: int


class DriverFinished(msgspec.Struct, frozen=True, tag="driver_finished"):
    seat: int
    total: int


class CheckeredFlag(msgspec.Struct, frozen=True, tag="checkered_flag"):
    seat: int


class PaintTargetNeeded(msgspec.Struct, frozen=True, tag="paint_target_needed"):
    seat: int
    candidates: tuple[int, ...]


class EffectQueued(msgspec.Struct, frozen=True, tag="effect_queued"):
    """Multi-Game: a track event waits for the end of the round."""

    seat: int
    effect: Effect
    target: int | None = None


class CautionCut(msgspec.Struct, frozen=True, tag="caution_cut", omit_defaults=True):
    """G-CAUTION: ``cut`` (None: nobody) drops to ``total``. ``alone``: nobody is cut because
    fewer than two drivers are still racing (not a shared lead). Left out of the bytes when False."""

    trigger: int
    cut: int | None
    total: int
    alone: bool = False


class BigOneStarted(msgspec.Struct, frozen=True, tag="big_one_started"):
    seat: int


class PaintTraded(msgspec.Struct, frozen=True, tag="paint_traded"):
    seat: int
    target: int | None


class BigOneRolled(msgspec.Struct, frozen=True, tag="big_one_rolled"):
    """A Crash Die rolled in a Big One (or Tradin' Paint when ``paint``)."""

    seat: int
    face: int
    total: int
    stalled: bool = False
    paint: bool = False


class TurnOver(msgspec.Struct, frozen=True, tag="turn_over"):
    """Multi-Game: this driver's turns in the round are done."""

    seat: int


class FinalRoundStarted(msgspec.Struct, frozen=True, tag="final_round_started"):
    drivers: tuple[int, ...]


class RoundEnded(msgspec.Struct, frozen=True, tag="round_ended"):
    round: int
    leaders: tuple[int, ...]


class RaceEnded(msgspec.Struct, frozen=True, tag="race_ended"):
    race: int
    ranking: tuple[int, ...]
    totals: tuple[int, ...]


class CupPointsAwarded(msgspec.Struct, frozen=True, tag="cup_points_awarded"):
    race: int
    points: tuple[int, ...]
    bonus: tuple[int, ...]
    season: tuple[int, ...]
    standings: tuple[int, ...]


class SeasonEnded(msgspec.Struct, frozen=True, tag="season_ended"):
    standings: tuple[int, ...]
    points: tuple[int, ...]


Event = (
    RaceStarted
    | QualifyingRolled
    | PoleWon
    | RoundStarted
    | TurnStarted
    | DiceRolled
    | ChaosStruck
    | PowerDieRemoved
    | DiceSaved
    | InTheGroove
    | TurnEnded
    | PitDieRolled
    | CrashDieRolled
    | MilesRecorded
    | KnockedOut
    | DriverFinished
    | CheckeredFlag
    | PaintTargetNeeded
    | EffectQueued
    | CautionCut
    | BigOneStarted
    | PaintTraded
    | BigOneRolled
    | TurnOver
    | FinalRoundStarted
    | RoundEnded
    | RaceEnded
    | CupPointsAwarded
    | SeasonEnded
)


# --------------------------------------------------------------------------- state


class TurnState(msgspec.Struct, frozen=True, kw_only=True):
    """One driver's turn. Tuples of 7 are indexed by ``DIE_IDS`` (F, T1…T5, P)."""

    seat: int
    extra: bool = False
    final: bool = False
    stage: Stage = "roll"
    rolls: int = 0
    faces: tuple[int | None, ...] = (None,) * 7
    saved: tuple[bool, ...] = (False,) * 7
    removed: tuple[bool, ...] = (False,) * 7
    lost: tuple[bool, ...] = (False,) * 7
    showing: int = 0
    groove: bool = False
    end: EndKind | None = None
    pit: int | None = None
    crash: int | None = None
    miles: int | None = None
    paint_candidates: tuple[int, ...] = ()

    @property
    def flag(self) -> int | None:
        """The Flag Die's face index (None before the first roll)."""
        return self.faces[0]

    @property
    def stop_miles(self) -> int:
        """What stopping now would record."""
        return self.showing


class Queued(msgspec.Struct, frozen=True, array_like=True):
    seat: int
    effect: Effect
    target: int | None


class Go500State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything public about a Go 500 table; seats are 0…n-1."""

    config: Go500Config
    n: int
    phase: Phase = "qualifying"
    race: int = 0
    race_name: str = ""
    race_length: int = 500
    totals: tuple[int, ...] = ()
    finished: tuple[bool, ...] = ()
    out: tuple[bool, ...] = ()
    finish_order: tuple[int, ...] = ()
    out_order: tuple[int, ...] = ()
    qual_scores: tuple[int | None, ...] = ()
    qual_next: int | None = None
    pole: int | None = None
    order: tuple[int, ...] = ()
    current: int | None = None
    turns: tuple[TurnState | None, ...] = ()
    round: int = 1
    round_todo: tuple[bool, ...] = ()
    queued: tuple[Queued, ...] = ()
    checkered: int | None = None
    final_queue: tuple[int, ...] = ()
    in_final_round: bool = False
    led: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    # Cup Series
    results: tuple[tuple[int, ...], ...] = ()
    race_points: tuple[tuple[int, ...], ...] = ()
    points: tuple[int, ...] = ()
    standings: tuple[int, ...] = ()

    @property
    def turn(self) -> TurnState | None:
        """The turn being played (sequential modes), else None."""
        return None if self.current is None else self.turns[self.current]

    def racing(self, seat: int) -> bool:
        """Still racing: neither finished nor out."""
        return not (self.finished[seat] or self.out[seat])
