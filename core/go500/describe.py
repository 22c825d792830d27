"""Go 500 events in plain English, one sentence each (the race log and `replay --print`).

Owns the wording. Must not: change state or know more than the event and the seat names.
Face names come from the dice data, so a data change reads right here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from core.go500.config import Go500Config
from core.go500.data import DICE
from core.go500.model import (
    BigOneRolled,
    BigOneStarted,
    CautionCut,
    ChaosStruck,
    CheckeredFlag,
    CrashDieRolled,
    CupPointsAwarded,
    DiceRolled,
    DiceSaved,
    DriverFinished,
    EffectQueued,
    FinalRoundStarted,
    InTheGroove,
    KnockedOut,
    MilesRecorded,
    PaintTargetNeeded,
    PaintTraded,
    PitDieRolled,
    PoleWon,
    PowerDieRemoved,
    QualifyingRolled,
    RaceEnded,
    RaceStarted,
    RoundEnded,
    RoundStarted,
    SeasonEnded,
    TurnEnded,
    TurnOver,
    TurnStarted,
)
from core.go500.tables import tables_for

__all__ = ["OPTION_LABELS", "Tone", "callout", "describe", "face_label", "option_label"]

_BY_ID = DICE.by_id
_KIND = {"F": "F", "P": "P", "PIT": "PIT", "CR": "CR"}


def face_label(die: str, face: int | None) -> str:
    """The label of ``face`` on die ``die`` ("T3" reads the Track Die)."""
    if face is None:
        return "-"
    return _BY_ID[_KIND.get(die, "T")].faces[face].label


def _list(names: Sequence[str], seats: Sequence[int]) -> str:
    words = [names[s] for s in seats]
    if not words:
        return "nobody"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


_ENDINGS = {
    "green_stop": "stops under the green flag with {showing} miles showing",
    "pit": "takes the yellow flag into the pits with {showing} miles showing",
    "crash": "sees the red flag and crashes with {showing} miles showing",
    "penalty": "is black-flagged: all miles this turn are lost",
    "groove": "ends the turn In the Groove",
    "behind_wall": "is behind the wall",
}

# A green stop the rules took for the driver (G-AUTO-STOP, G-AUTO-DECISION), not a chosen one.
_AUTO_STOPS = {
    "line": "has {showing} miles showing, enough to reach the finish: stopped automatically",
    "no_dice": "has no dice left to roll: stopped automatically with {showing} miles showing",
}

_CHAOS = {
    "lost_wheel": "Lost Wheel",
    "rubbin": "Rubbin'",
    "debris": "Debris",
}

_EFFECTS = {"caution": "a caution", "big_one": "The Big One", "paint": "Tradin' Paint"}


def describe(event: Any, names: Sequence[str]) -> str | None:
    """One English sentence for ``event`` (seat names from ``names``)."""
    e = event
    if isinstance(e, DiceRolled):
        parts = ", ".join(f"{d} {face_label(d, f)}" for d, f in zip(e.dice, e.faces, strict=True))
        return f"{names[e.seat]} rolls {parts}: {e.showing} miles showing."
    if isinstance(e, DiceSaved):
        return f"{names[e.seat]} saves {', '.join(e.dice)}."
    if isinstance(e, TurnStarted):
        what = "an extra turn (In the Groove)" if e.extra else "a turn"
        if e.final:
            what += " in the final round"
        return f"{names[e.seat]} takes {what}."
    if isinstance(e, TurnEnded):
        if e.auto is not None:
            return f"{names[e.seat]} {_AUTO_STOPS[e.auto].format(showing=e.showing)}."
        return f"{names[e.seat]} {_ENDINGS[e.kind].format(showing=e.showing)}."
    if isinstance(e, MilesRecorded):
        extra = " (capped at the best turn)" if e.capped else ""
        stall = ", stalling at 0" if e.stalled else ""
        return f"{names[e.seat]} records {e.miles} miles{extra}{stall}: total {e.total}."
    if isinstance(e, PitDieRolled):
        return f"{names[e.seat]} rolls the Pit Die: {face_label('PIT', e.face)}."
    if isinstance(e, CrashDieRolled):
        return f"{names[e.seat]} rolls the Crash Die: {face_label('CR', e.face)}."
    if isinstance(e, PowerDieRemoved):
        why = {"flat": "a flat tire", "lost_wheel": "a Lost Wheel", "rubbin": "Rubbin'"}[e.reason]
        return f"{names[e.seat]} loses the Power Die for this turn ({why})."
    if isinstance(e, InTheGroove):
        return f"{names[e.seat]} is In the Groove: every die shows a circle!"
    if isinstance(e, ChaosStruck):
        what = _CHAOS[e.kind]
        shown = face_label(e.die, e.face)
        tail = f", re-rolled to {face_label(e.die, e.redraw)}" if e.redraw is not None else ""
        return f"{what} on {names[e.seat]}'s {e.die} (it showed {shown}){tail}."
    if isinstance(e, KnockedOut):
        return f"BIG X! {names[e.seat]} is behind the wall and out of the race."
    if isinstance(e, DriverFinished):
        return f"{names[e.seat]} crosses the finish line with {e.total} miles."
    if isinstance(e, CheckeredFlag):
        return f"Checkered flag: {names[e.seat]} wins the race!"
    if isinstance(e, CautionCut):
        if e.cut is None and e.alone:
            return f"Caution ({names[e.trigger]}): nobody else is still racing, so nobody is cut."
        if e.cut is None:
            return f"Caution ({names[e.trigger]}): no sole leader, nobody is cut."
        return f"Caution ({names[e.trigger]}): leader {names[e.cut]} is cut to {e.total} miles."
    if isinstance(e, BigOneStarted):
        return (
            f"The Big One! {names[e.seat]} sets off a pile-up: everyone racing rolls the Crash Die."
        )
    if isinstance(e, BigOneRolled):
        face = face_label("CR", e.face)
        what = "Tradin' Paint" if e.paint else "Big One"
        stall = ", stalling at 0" if e.stalled else ""
        return f"{what}: {names[e.seat]} rolls {face}{stall}, total {e.total}."
    if isinstance(e, PaintTraded):
        if e.target is None:
            return f"Tradin' Paint: {names[e.seat]} has nobody to crash into."
        return f"Tradin' Paint: {names[e.seat]} crashes into {names[e.target]}."
    if isinstance(e, PaintTargetNeeded):
        return f"{names[e.seat]} picks a driver to trade paint with."
    if isinstance(e, EffectQueued):
        target = f" with {names[e.target]}" if e.target is not None else ""
        return f"{_EFFECTS[e.effect].capitalize()}{target} ({names[e.seat]}) waits for the round's end."
    if isinstance(e, QualifyingRolled):
        faces = ", ".join(face_label("T", f) for f in e.faces)
        again = " again" if e.reroll else ""
        return f"{names[e.seat]} qualifies{again}: {faces} = {e.score} miles."
    if isinstance(e, PoleWon):
        return f"{names[e.seat]} takes the pole; turn order {_list(names, e.order)}."
    if isinstance(e, RaceStarted):
        if e.length:
            return f"{e.name}: {e.length} miles. Start your engines!"
        return f"{e.name}. Start your engines!"
    if isinstance(e, RoundStarted):
        return f"Round {e.round}: {_list(names, e.drivers)} to race."
    if isinstance(e, TurnOver):
        return f"{names[e.seat]} is done for this round."
    if isinstance(e, FinalRoundStarted):
        verb = "takes" if len(e.drivers) <= 1 else "take"
        return f"Final round: {_list(names, e.drivers)} {verb} one more turn."
    if isinstance(e, RoundEnded):
        if not e.leaders:
            return f"End of round {e.round}."
        return f"End of round {e.round}; leading: {_list(names, e.leaders)}."
    if isinstance(e, RaceEnded):
        order = ", ".join(f"{i}. {names[s]} ({e.totals[s]})" for i, s in enumerate(e.ranking, 1))
        return f"The race is over: {order}."
    if isinstance(e, CupPointsAwarded):
        got = ", ".join(
            f"{names[s]} {p + b}" for s, (p, b) in enumerate(zip(e.points, e.bonus, strict=True))
        )
        return f"Cup points: {got}; standings led by {names[e.standings[0]]}."
    if isinstance(e, SeasonEnded):
        order = ", ".join(f"{i}. {names[s]} ({e.points[s]})" for i, s in enumerate(e.standings, 1))
        return f"The season is over; Cup Champion {names[e.standings[0]]}! {order}."
    return None


# The options in words, for forms (spec §5 names); the rest read as their field names.
OPTION_LABELS = {
    "race_length": "Race length (miles)",
    "hours": "Hours (Time Trials)",
    "auto_stop": "Automatic stop at the line",
    "big_x_in_big_one": "Big X in the Big One",
    "tradin_paint": "Tradin' Paint",
    "lost_wheel_bp": "Lost Wheel chance (basis points)",
    "rubbin_bp": "Rubbin' chance (basis points)",
    "debris_bp": "Debris chance (basis points)",
    "cup_points": "Cup points table",
    "lead_bonus": "Bonus for leading a round",
    "most_led_bonus": "Bonus for leading the most rounds",
    "circle_values": "Circle values",
}


def option_label(name: str) -> str:
    """Option ``name`` in words: "Big X in the Big One", "Tradin' Paint", "Table chaos"."""
    return OPTION_LABELS.get(name, name.replace("_", " ").capitalize())


MODES = {
    "oval": "Oval",
    "time_trial": "Time Trials",
    "multi_game": "Multi-Game",
    "cup": "Cup Series",
}
_IN_MODE_WORDS = ("mode", "race_length", "hours", "schedule")


def mode_words(config: Go500Config) -> str:
    """The mode and its length: "Oval, 500 miles", "Time Trials, 6 hours", "Cup Series, 4 races"."""
    words = MODES.get(config.mode, config.mode)
    if config.mode == "time_trial":
        return f"{words}, {config.hours} hours"
    if config.mode == "cup":
        return f"{words}, {len(config.schedule)} races"
    return f"{words}, {config.race_length} miles"


def config_words(config: Go500Config) -> str:
    """Mode words, then every other option that differs from the default, for the lobby."""
    default = Go500Config()
    parts = [mode_words(config)]
    for name in config.__struct_fields__:
        value = getattr(config, name)
        if name in _IN_MODE_WORDS or value == getattr(default, name):
            continue
        if isinstance(value, bool):
            shown = "on" if value else "off"
        else:
            shown = str(value).replace("_", " ")
        parts.append(f"{name.replace('_', ' ')} {shown}")
    return " · ".join(parts)


Tone = Literal["yellow", "red", "black", "good"]
"""How a call-out should look: a flag's colour, or good news."""

_FLAG_TONES: tuple[Tone, ...] = ("yellow", "red", "black")
_FLAG_CALLOUTS = {
    "yellow": "YELLOW FLAG — pit stop",
    "red": "RED FLAG — crash!",
    "black": "BLACK FLAG — penalty, no miles",
}


def callout(event: Any, names: Sequence[str], config: Go500Config) -> tuple[str, Tone] | None:
    """The headline for a flag or a track event, and its tone (None: the event is not one).

    >>> callout(CheckeredFlag(seat=0), ["Ann"], Go500Config())
    ('🏁 CHECKERED FLAG — Ann wins!', 'good')
    """
    if isinstance(event, DiceRolled) and event.dice and event.dice[0] == "F":
        face = event.faces[0]
        kind = tables_for(config.circle_values).flag_kind[face] if face is not None else ""
        for tone in _FLAG_TONES:
            if kind == tone:
                return f"⚑ {_FLAG_CALLOUTS[tone]} ({names[event.seat]})", tone
        return None
    if isinstance(event, InTheGroove):
        best = tables_for(config.circle_values).max_turn
        return f"★ IN THE GROOVE! {names[event.seat]}: {best} miles and an extra turn", "good"
    if isinstance(event, CautionCut):
        if event.cut is not None:
            return f"⚠ CAUTION — {names[event.cut]} cut to {event.total} miles", "yellow"
        return "⚠ CAUTION — the lead is shared, nobody is cut", "yellow"
    if isinstance(event, BigOneStarted):
        crashed = names[event.seat]
        return f"✸ THE BIG ONE! ({crashed} crashed) everyone rolls the Crash Die", "red"
    if isinstance(event, ChaosStruck):
        words = describe(event, names) or "Table chaos"
        return f"✸ TABLE CHAOS — {words.upper()}", "yellow"
    if isinstance(event, PaintTraded):
        target = "nobody" if event.target is None else names[event.target]
        return f"✸ TRADIN' PAINT — {names[event.seat]} hits {target}", "red"
    if isinstance(event, KnockedOut):
        return f"✖ BIG X — {names[event.seat]} is behind the wall (out)", "red"
    if isinstance(event, PowerDieRemoved) and event.reason == "flat":
        return f"⊘ FLAT TIRE — {names[event.seat]} loses the Power Die", "yellow"
    if isinstance(event, CheckeredFlag):
        return f"🏁 CHECKERED FLAG — {names[event.seat]} wins!", "good"
    if isinstance(event, DriverFinished):
        return f"{names[event.seat]} crosses the line with {event.total} miles", "good"
    if isinstance(event, FinalRoundStarted):
        return "FINAL ROUND — everyone still racing gets one more turn", "yellow"
    if isinstance(event, PoleWon):
        return f"{names[event.seat]} takes the pole", "good"
    if isinstance(event, RaceEnded) and event.ranking:
        return f"🏁 RACE OVER — {names[event.ranking[0]]} wins", "good"
    if isinstance(event, SeasonEnded):
        return f"🏆 CUP CHAMPION: {names[event.standings[0]]}", "good"
    return None
