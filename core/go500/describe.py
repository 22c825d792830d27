"""Every word Go 500 says: events in plain English, one sentence each (the race log and
`replay --print`), the flag call-outs, and the table screen's prompts, labels and captions.

Owns the wording; the screens show it and add key hints only (`turn_prompt` words the status
line around the keys a screen passes). Must not: change state or know more than the state, the
event and the seat names. Face names come from the dice data, so a data change reads right
here too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

from core.go500.config import Go500Config
from core.go500.data import DICE
from core.go500.model import (
    DIE_IDS,
    BigOneRolled,
    BigOneStarted,
    CautionCut,
    ChaosStruck,
    CheckeredFlag,
    ChoosePaintTarget,
    CrashDieRolled,
    CupPointsAwarded,
    DiceRolled,
    DiceSaved,
    DriverFinished,
    EffectQueued,
    FinalRoundStarted,
    Go500State,
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
    Roll,
    RoundEnded,
    RoundStarted,
    SaveAndRoll,
    SeasonEnded,
    Stop,
    TurnEnded,
    TurnOver,
    TurnStarted,
)
from core.go500.rules import stage_of
from core.go500.tables import tables_for

__all__ = [
    "CUP_COLUMNS",
    "DRIVERS_TITLE",
    "LOST_MARK",
    "OPTION_LABELS",
    "OUT_MARK",
    "PICK_LATER",
    "SAVED_MARK",
    "SAVE_MARK",
    "SHELF_NOTE",
    "Move",
    "Tone",
    "action_text",
    "callout",
    "cup_title",
    "describe",
    "driver_tags",
    "face_label",
    "face_words",
    "headline",
    "miles_figure",
    "option_label",
    "option_text",
    "ordinal",
    "paint_prompt",
    "race_header",
    "tray_caption",
    "turn_figures",
    "turn_prompt",
]

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


# ------------------------------------------------------------------ the table screen's words
# Every word the Go 500 board and table screen show; the screen adds key hints only.

Move = Literal["roll", "save", "stop", "paint"]
"""A Go 500 move as a screen offers it: roll (or qualify), pick dice to save, stop, hit a driver."""


def action_text(action: Any, names: Sequence[str], view: Go500State | None = None) -> str:
    """A legal action in words (a menu label; ``view``: the state it is offered in).

    >>> action_text(SaveAndRoll(dice=["T1", "P"]), ["Ann"])
    'Save T1, P and roll the rest'
    >>> action_text(ChoosePaintTarget(driver=1), ["Ann", "Bea"])
    'Trade paint with Bea'
    """
    if isinstance(action, Roll):
        qualifying = view is not None and view.phase == "qualifying"
        return "Roll your qualifying dice" if qualifying else "Roll"
    if isinstance(action, SaveAndRoll):
        return f"Save {', '.join(action.dice)} and roll the rest" if action.dice else "Roll again"
    if isinstance(action, Stop):
        return "Stop"
    if isinstance(action, ChoosePaintTarget):
        return f"Trade paint with {names[action.driver]}"
    return type(action).__name__


def option_text(action: Any, showing: int) -> str:
    """An option as the analysis lists it, in a few words (``showing``: the miles showing).

    >>> option_text(Stop(), 60)
    'stop at 60'
    >>> option_text(SaveAndRoll(dice=["T1", "T3"]), 60)
    'save T1 T3, roll on'
    """
    if isinstance(action, Stop):
        return f"stop at {showing}"
    if isinstance(action, SaveAndRoll):
        if not action.dice:
            return "roll all again"
        return f"save {' '.join(action.dice)}, roll on"
    if isinstance(action, ChoosePaintTarget):
        return f"trade paint with seat {action.driver + 1}"
    return type(action).__name__


def turn_prompt(
    view: Go500State,
    seat: int,
    names: Sequence[str],
    keys: Mapping[Move, str],
    picked: Collection[str] = (),
    width: int = 78,
) -> str:
    """The status line asking ``seat`` for a move, worded around the screen's key hints
    (``keys``: how to make each move, "r", "1-6 or click dice", "press the seat number");
    ``picked``: the dice chosen to save so far. A Tradin' Paint list fits ``width``.

    >>> from core.go500.fold import new_state
    >>> turn_prompt(new_state(Go500Config(), 2), 0, ["Ann", "Bea"], {"roll": "r"})
    'Ann: r to roll your qualifying dice.'
    """
    name = names[seat]
    stage = stage_of(view, seat)
    if stage == "qualify":
        return f"{name}: {keys['roll']} to roll your qualifying dice."
    if stage == "roll":
        return f"{name}: {keys['roll']} to roll."
    if stage == "decide":
        saving = ", ".join(d for d in DIE_IDS if d in picked) or "none"
        return (
            f"{name}: {keys['save']} to save (saving {saving}); "
            f"{keys['roll']} roll the rest, {keys['stop']} stop."
        )
    if stage == "paint":
        turn = view.turns[seat]
        assert turn is not None  # a driver picking a target has a turn under way
        choices = [(c + 1, names[c]) for c in turn.paint_candidates]
        return paint_prompt(name, choices, width, keys["paint"])
    return f"{name}, it is your move."


def paint_prompt(
    name: str, choices: Sequence[tuple[int, str]], width: int, key: str = "press the seat number"
) -> str:
    """The Tradin' Paint prompt, every choice on one status line of ``width``: the words
    shorten, then the names, never the last choice (``key``: how a choice is made)."""
    for lead in (f"{key} to hit:", "hit"):
        text = f"{name}: Tradin' Paint — {lead} " + ", ".join(f"{n} {who}" for n, who in choices)
        if len(text) <= width:
            return text + ("." if len(text) < width else "")
    for cut in range(12, 0, -1):
        text = f"{name[:cut]}: Tradin' Paint — hit " + ", ".join(
            f"{n} {who[:cut]}" for n, who in choices
        )
        if len(text) <= width:
            return text
    return "Tradin' Paint — hit " + " ".join(str(n) for n, _ in choices)


PICK_LATER = "You can pick dice to save after a green-flag roll."
"""Why a die cannot be picked before the green flag asks what to save."""


def face_words(die: str, face: int | None, config: Go500Config | None) -> tuple[str, str, str]:
    """(value, word, kind) of one die face for the tray: "20"/"miles", "25"/"CIRCLE" (the
    circle's value under ``config``), ""/"GREEN"; ``face`` None (not rolled): kind "none".

    >>> face_words("PIT", 4, None)
    ('+10', 'miles', 'miles')
    >>> face_words("P", 5, Go500Config())
    ('50', 'CIRCLE', 'circle')
    """
    if face is None:
        return ("", "", "none")
    spec = _BY_ID[_KIND.get(die, "T")].faces[face]
    kind = spec.kind
    if kind == "miles":
        miles = spec.miles or 0
        return (f"{miles:+d}" if die in ("PIT", "CR") else str(miles), "miles", kind)
    if kind == "circle":
        track, power = (config or Go500Config()).circle_values
        return (str(power if die == "P" else track), "CIRCLE", kind)
    return ("", spec.label.upper(), kind)


LOST_MARK = ("LOST", "WHEEL")
"""A die struck by Lost Wheel: no face this roll (two words, in full at every width)."""
OUT_MARK = "OUT"
"""A die out of play for the rest of the turn."""
SAVE_MARK = "SAVE"
"""A die picked to save (the screen adds its key)."""
SAVED_MARK = "SAVED"
"""A die on the shelf."""

SHELF_NOTE = "(saved dice sit on the shelf below)"


def tray_caption(
    names: Sequence[str],
    seat: int | None,
    *,
    qualifying: int | None = None,
    rolled: bool = False,
    extra: bool = False,
    acting: int | None = None,
) -> str:
    """The dice tray's title: whose dice it shows and who rolls next.

    ``qualifying``: the seat's qualifying score (the tray shows that roll); ``rolled``: the
    seat's turn is under way; ``acting``: the seat this keyboard plays now, if another."""
    if seat is None:
        return ""
    name = names[seat]
    if qualifying is not None:
        return f"{name} qualifies: {qualifying} miles"
    if not rolled:
        return f"{name} to roll"
    if acting is not None and acting != seat:
        return f"{name}'s last roll — {names[acting]} to roll"
    return f"{name}'s dice" + (" (extra turn)" if extra else "")


def turn_figures(state: Go500State, seat: int, *, over: bool = False) -> list[tuple[str, str]]:
    """The tray's figures for ``seat``'s turn under way, as (label, figure) rows: what shows,
    what stopping records now (or the turn's miles and how it ended), what the race still needs;
    a row with no figure is a note. ``over``: the race has a result (no "Need")."""
    turn = state.turns[seat] if 0 <= seat < len(state.turns) else None
    if turn is None or turn.rolls == 0:
        return []
    total = state.totals[seat] if seat < len(state.totals) else 0
    rows = [("Showing", f"{int(turn.showing)} mi")]
    if turn.end is None and turn.miles is None:
        stop = int(turn.stop_miles)  # what stopping records, as the rules count it
        rows.append(("Stop now", f"+{stop} → {total + stop}"))
    else:
        miles = turn.miles if turn.miles is not None else 0
        rows.append(("Turn", f"{miles:+d} mi"))
        rows.append((f"({str(turn.end).replace('_', ' ')})", ""))
    if state.config.mode != "time_trial" and state.phase != "over" and not over:
        rows.append((f"Need {max(0, state.race_length - total)} to finish", ""))
    return rows[:4]


DRIVERS_TITLE = "Drivers"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def driver_tags(state: Go500State, seat: int, ranking: Sequence[int], placed: bool) -> str:
    """A scoreboard row's marks: OUT or FIN, the place (``placed``: the race has a ranking)
    or the qualifying score, and the pole."""
    tags: list[str] = []
    if seat < len(state.out) and state.out[seat]:
        tags.append("OUT")
    elif seat < len(state.finished) and state.finished[seat]:
        tags.append("FIN")
    qual = state.qual_scores
    if seat in ranking and placed:
        tags.append(ordinal(list(ranking).index(seat) + 1))
    elif state.phase == "qualifying" and seat < len(qual) and qual[seat] is not None:
        tags.append(f"Q{qual[seat]}")
    if seat == state.pole:
        tags.append("pole")
    return " ".join(tags)


def miles_figure(total: int, state: Go500State) -> str:
    """A driver's miles on the scoreboard: out of the race length, or bare in Time Trials.

    >>> from core.go500.fold import new_state
    >>> miles_figure(65, new_state(Go500Config(), 2))
    ' 65/500'
    """
    if state.config.mode == "time_trial":
        return f"{total:>3} mi"
    return f"{total:>3}/{int(state.race_length or 500)}"


def race_header(state: Go500State) -> str:
    """The scoreboard's title line: the race (a Cup's place in its schedule), its length and
    the round (after the race, the last round the log ended)."""
    mode = state.config.mode
    rnd = state.round - (state.phase == "over")
    if mode == "time_trial":
        hours = state.config.hours
        return f"Time Trial · hour {min(rnd, hours)} of {hours}"
    name = state.race_name or "Race"
    if mode == "cup":
        name = f"{name} ({state.race + 1} of {len(state.config.schedule)})"
    if mode == "multi_game":
        name = "Multi-Game"
    return f"{name} · {int(state.race_length or 500)} miles · round {rnd}"


def cup_title(race: int, final: bool) -> str:
    """The Cup standings' title after race number ``race`` (0-based)."""
    title = "Cup Series — final standings" if final else "Cup Series standings"
    return f"{title} after race {race + 1}"


CUP_COLUMNS = ("Place", "Driver", "This race", "Bonus", "Season")


_HEADLINE_ORDER: tuple[type, ...] = (
    SeasonEnded,
    RaceEnded,
    CheckeredFlag,
    KnockedOut,
    BigOneStarted,
    PaintTraded,
    CautionCut,
    InTheGroove,
)
"""Which call-out a step with several shows: the season's end first, In the Groove last;
any other call-out only when none of these is there (the step's last)."""


def headline(
    events: Sequence[Any], names: Sequence[str], config: Go500Config
) -> tuple[str, Tone] | None:
    """The one call-out a board shows for a step's events (`callout`), the most important
    first (`_HEADLINE_ORDER`), saying how many more the log has; None when nothing calls out.

    >>> headline([PoleWon(seat=0, order=(0, 1)), CheckeredFlag(seat=1)], ["Ann", "Bea"],
    ...          Go500Config())
    ('🏁 CHECKERED FLAG — Bea wins!   (+1 more in the log)', 'good')
    """
    calls = [(e, said) for e in events if (said := callout(e, names, config)) is not None]
    if not calls:
        return None
    text, tone = calls[-1][1]
    for kind in _HEADLINE_ORDER:
        first = next((said for e, said in calls if isinstance(e, kind)), None)
        if first is not None:
            text, tone = first
            break
    if len(calls) > 1:
        text += f"   (+{len(calls) - 1} more in the log)"
    return text, tone
