"""Go 500 board: the dice tray, the driver scoreboard with mile bars, call-outs and the log.

Owns drawing a Go 500 `BoardData`: readable dice faces (a symbol *and* a word on every face, so
colour is never the only signal), saved dice set apart on a shelf, what stopping now would score,
every driver's miles toward the race length as a bar with the seat number, and the flags and
events of the latest step called out. Clicking a die posts `DieClicked`; the screen decides.

Must not: hold game state, change it, or talk to the hub.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.strip import Strip

from core.go500.config import Go500Config
from core.go500.describe import (
    DRIVERS_TITLE,
    LOST_MARK,
    OUT_MARK,
    SAVE_MARK,
    SAVED_MARK,
    SHELF_NOTE,
    callout,
    driver_tags,
    face_words,
    headline,
    miles_figure,
    race_header,
    tray_caption,
    turn_figures,
)
from core.go500.model import (
    DIE_IDS,
    CrashDieRolled,
    DiceRolled,
    Go500State,
    PitDieRolled,
    QualifyingRolled,
    RaceStarted,
    SaveAndRoll,
    TurnStarted,
)
from core.go500.rules import saveable
from tui.theme import DIE_STYLES, flag_styles, seat_colours
from tui.widgets.board import Board, BoardData
from tui.widgets.common import LineBox, RaceLog, pad_cells, render_text, short_names

ROW_DICE = DIE_IDS  # F, T1 … T5, P: the tray's order is the dice's
DIE_W = 8  # box width of a flag/track/power die
END_W = 9  # box width of the pit and crash dice
KEYS = {"T1": "1", "T2": "2", "T3": "3", "T4": "4", "T5": "5", "P": "6"}
DRIVER_COLOURS = 6
"""Go 500 cycles six seat colours (normal or colour-blind) over up to twelve drivers."""
SYMBOLS = {
    "green": "⚑",
    "yellow": "⚑",
    "red": "⚑",
    "black": "⚑",
    "circle": "◯",
    "flat": "⊘",
    "caution": "⚠",
    "crash": "✸",
    "big_x": "✖",
}


def car_colour(seat: int, colour_blind: bool) -> str:
    colours = seat_colours(colour_blind)[:DRIVER_COLOURS]
    return colours[seat % len(colours)]


def die_kind(die: str) -> str:
    return "T" if die.startswith("T") else die


def face_lines(die: str, face: int | None, config: Go500Config | None) -> tuple[str, str, str]:
    """(top line, word line, face kind) for one die face, in core's words
    (`describe.face_words`) with the face's symbol; face None = not rolled."""
    if face is None:
        return ("·", "", "none")
    value, word, kind = face_words(die, face, config)
    if kind == "miles":
        return (value, word, kind)
    symbol = SYMBOLS.get(kind, "?")
    return (f"{symbol} {value}" if value else symbol, word, kind)


@dataclass(frozen=True)
class DieView:
    die: str  # F, T1…T5, P, PIT, CR
    face: int | None
    saved: bool = False
    removed: bool = False
    lost: bool = False
    selected: bool = False
    empty: bool = False  # an empty slot (the die is on the other row)
    pickable: bool = False  # the viewer may pick it to save now: only then its key is shown


def _center(text: str, width: int) -> str:
    text = text[:width]
    left = (width - len(text)) // 2
    return " " * left + text + " " * (width - len(text) - left)


def draw_die(view: DieView, config: Go500Config | None, colour_blind: bool) -> list[Text]:
    """Four lines of one die box."""
    width = END_W if view.die in ("PIT", "CR") else DIE_W
    inner = width - 2
    if view.empty:
        return [Text(" " * width) for _ in range(4)]
    top, word, kind = face_lines(view.die, view.face, config)
    if view.removed and view.face is None:
        top, word = "✗", OUT_MARK
    elif view.lost:
        top, word = LOST_MARK  # Lost Wheel: no face this roll (in full at every width)
    body = DIE_STYLES[die_kind(view.die)]
    flags = flag_styles(colour_blind)
    if kind in flags:
        body = flags[kind]
    border = Style(bold=True) if view.selected or view.saved else Style(dim=view.removed)
    label = view.die
    top_border = "╭─" + label + "─" * (inner - 1 - len(label)) + "╮"
    if view.selected:
        mark = f"{SAVE_MARK} {KEYS.get(view.die, '')}".strip()
        bottom_border = "╰" + _center(mark, inner) + "╯"
    elif view.saved:
        bottom_border = "╰" + _center(SAVED_MARK, inner) + "╯"
    elif view.die in KEYS and view.pickable:
        key = f"[{KEYS[view.die]}]"
        bottom_border = "╰─" + key + "─" * (inner - 1 - len(key)) + "╯"
    else:
        bottom_border = "╰" + "─" * inner + "╯"
    face_style = body + Style(dim=view.removed, reverse=view.selected)
    lines = [Text(top_border, style=border)]
    for content in (top, word):
        line = Text("│", style=border)
        line.append(_center(content, inner), style=face_style)
        line.append("│", style=border)
        lines.append(line)
    lines.append(Text(bottom_border, style=border + Style(reverse=view.selected)))
    return lines


def _joined(pieces: Sequence[tuple[list[Segment], int]]) -> Strip:
    """Drawn pieces (segments and their cells) side by side, as one strip."""
    segments: list[Segment] = []
    for part, _ in pieces:
        segments.extend(part)
    return Strip(segments, sum(cells for _, cells in pieces))


def die_segments(
    view: DieView, config: Go500Config | None, colour_blind: bool, console: Any
) -> list[list[Segment]]:
    """The four lines of `draw_die` as segments (`render_text`: no pass through Rich's span
    machinery; the tray keeps each look it drew, `DiceTray._die`)."""
    return [render_text(line, console) for line in draw_die(view, config, colour_blind)]


class DieClicked(Message):
    """A die of the tray was clicked (F, T1…T5, P)."""

    def __init__(self, die: str) -> None:
        super().__init__()
        self.die = die


# ------------------------------------------------------------------------------ reading state


_TURN_ROLLS = (DiceRolled, PitDieRolled, CrashDieRolled)
_ROLLS = (*_TURN_ROLLS, QualifyingRolled)


def focus_seat(data: BoardData[Go500State]) -> int | None:
    """Whose dice the tray shows: the local player mid-turn, else the latest roller."""
    state = data.state
    if data.acting is not None and state.phase == "turn":
        turn = _turn_of(state, data.acting)
        if turn is not None and turn.rolls > 0:
            return data.acting
    for event in reversed(data.last_events):
        if isinstance(event, _ROLLS):
            return event.seat
    for _, _, step_events in reversed(data.history[-12:]):
        for event in reversed(step_events):
            if isinstance(event, RaceStarted):
                break
            if isinstance(event, _TURN_ROLLS):
                turn = _turn_of(state, event.seat)
                if turn is not None and turn.rolls > 0:
                    return event.seat
    if data.acting is not None:
        return data.acting
    current = state.current
    return current if isinstance(current, int) else None


def _turn_of(state: Go500State, seat: int | None) -> Any:
    turns = state.turns
    if seat is None or not 0 <= seat < len(turns):
        return None
    return turns[seat]


def last_qualifying(data: BoardData[Go500State], seat: int | None) -> QualifyingRolled | None:
    """``seat``'s qualifying roll when it is the latest roll shown (never once the race has
    turns: a table joined or resumed later gets every past event at once)."""
    for event in reversed(data.last_events):
        if isinstance(event, _TURN_ROLLS):
            return None
        if isinstance(event, QualifyingRolled) and event.seat == seat:
            return event
    return None


def latest_events(data: BoardData[Go500State]) -> Sequence[Any]:
    """The events the call-out line speaks of: the latest step's; for a table joined or
    resumed mid-race (its whole past in one welcome), only those since the current turn began,
    not a flag from turns ago."""
    events = data.last_events
    welcome = len(data.history) == 1 and data.history[0][1] is None
    if welcome and data.state.phase == "turn":
        starts = [i for i, e in enumerate(events) if isinstance(e, TurnStarted)]
        if starts:
            return events[starts[-1] :]
    return events


def callouts(data: BoardData[Go500State]) -> list[tuple[str, str]]:
    """(text, kind) call-outs for the flags and track events of the latest step, in core's
    words (`core.go500.describe.callout`)."""
    out: list[tuple[str, str]] = []
    for event in data.last_events:
        said = callout(event, data.names, data.config)
        if said is not None:
            out.append(said)
    return out


# ------------------------------------------------------------------------------ widgets


class DiceTray(LineBox):
    """The dice in play on top, saved dice on the shelf below, Pit and Crash dice at the right."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._data: BoardData[Go500State] | None = None
        self._colour_blind = False
        self._tray_key: tuple[Any, Any] | None = None  # what the lines shown are drawn from

    def show(self, data: BoardData[Go500State], colour_blind: bool) -> None:
        self._data = data
        self._colour_blind = colour_blind
        lines = self.tray_lines()
        if lines is not self._lines:  # else nothing the tray shows has changed
            self.show_lines(lines)

    def on_resize(self) -> None:
        super().on_resize()
        self._tray_key = None
        self.show_lines(self.tray_lines())

    def views(self) -> tuple[list[DieView], list[DieView], list[DieView], str]:
        """(rolling row, saved shelf, pit/crash dice, caption)."""
        data = self._data
        blank = [DieView(d, None) for d in ROW_DICE]
        shelf = [DieView(d, None, empty=True) for d in ROW_DICE]
        if data is None:
            return blank, shelf, [], ""
        state = data.state
        seat = focus_seat(data)
        names = data.names
        phase = state.phase
        qual = last_qualifying(data, seat)
        if qual is not None:
            row = [DieView("F", None, empty=True)]
            row += [DieView(f"T{i + 1}", f) for i, f in enumerate(qual.faces)]
            row.append(DieView("P", None, empty=True))
            caption = tray_caption(names, qual.seat, qualifying=qual.score)
            return row, shelf, [], caption
        turn = _turn_of(state, seat)
        if turn is None or turn.rolls == 0:
            caption = tray_caption(names, seat) if phase != "over" else ""
            return blank, shelf, [], caption
        assert seat is not None  # a turn under way belongs to a seat
        row, shelf = [], []
        can_save = data.acting == seat and any(isinstance(a, SaveAndRoll) for a in data.legal)
        saveable_now = saveable(turn) if can_save else []  # G-SAVE is core's
        for i, die in enumerate(ROW_DICE):
            face = turn.faces[i]
            saved = bool(turn.saved[i])
            removed = bool(turn.removed[i])
            lost = bool(turn.lost[i])
            if saved:
                row.append(DieView(die, None, empty=True))
                shelf.append(DieView(die, face, saved=True, removed=removed))
            else:
                selected = die in data.selected and data.acting == seat
                pickable = i in saveable_now and face is not None
                row.append(
                    DieView(
                        die, face, removed=removed, lost=lost, selected=selected, pickable=pickable
                    )
                )
                shelf.append(DieView(die, None, empty=True))
        extra = []
        if turn.pit is not None:
            extra.append(DieView("PIT", turn.pit))
        if turn.crash is not None:
            extra.append(DieView("CR", turn.crash))
        caption = tray_caption(names, seat, rolled=True, extra=turn.extra, acting=data.acting)
        return row, shelf, extra, caption

    def _die(self, view: DieView, config: Any) -> list[tuple[list[Segment], int]]:
        """A die's four lines drawn in the tray's style, with their cells (the tray redraws
        the same dice often: each look is drawn once per style)."""
        style = self.base_style
        if config is not getattr(self, "_die_config", None) or style is not getattr(
            self, "_die_style", None
        ):
            self._die_config, self._die_style = config, style
            self._die_cache: dict[tuple[DieView, bool], list[tuple[list[Segment], int]]] = {}
            self._part_cache: dict[tuple[Any, ...], Strip] = {}  # drawn lines (`tray_lines`)
        key = (view, self._colour_blind)
        drawn = self._die_cache.get(key)
        if drawn is None:
            drawn = []
            for part in die_segments(view, config, self._colour_blind, self.app.console):
                segments = list(Segment.apply_style(part, style))
                drawn.append((segments, Segment.get_line_length(segments)))
            self._die_cache[key] = drawn
        return drawn

    def tray_lines(self) -> list[Text | list[Segment] | Strip]:
        row, shelf, extra, caption = self.views()
        config = self._data.config if self._data else None
        figures = self.figures()
        note = any(not view.empty for view in shelf) or bool(self._data and self._data.selected)
        key = (row, shelf, extra, caption, figures, note, config, self._colour_blind)
        kept = self._tray_key
        if kept is not None and kept[0] == key and kept[1] is self.base_style:
            return self._lines  # what the tray shows depends on nothing else
        style = self.base_style
        self._die(DieView("F", None), config)  # (resets the kept dice and lines on a new style)
        # One strip per line drawn, kept by the dice (their drawn looks) and figure on it: the
        # same line again is the same strip, whose drawn row is kept (`FastLines`).
        kept_lines = self._part_cache
        if len(kept_lines) >= 256:
            kept_lines.clear()
        row_parts = [self._die(view, config) for view in row]
        extra_parts = [self._die(view, config) for view in extra]
        shelf_parts = [self._die(view, config) for view in shelf]
        info = self.info_lines(figures)[:4]
        (gap,) = Segment.apply_style([Segment("  ")], style)
        lines: list[Text | list[Segment] | Strip] = []
        for n in range(4):
            line_key = ("row", n, *(id(p[n]) for p in row_parts), 0)
            line_key += tuple(id(p[n]) for p in extra_parts)
            strip = kept_lines.get(line_key)
            if strip is None:
                strip = kept_lines[line_key] = _joined(
                    [*(p[n] for p in row_parts), ([gap], 2), *(p[n] for p in extra_parts)]
                )
            lines.append(strip)
        console = self.app.console
        for n in range(4):
            figure = figures[n] if n < len(info) else None
            line_key = ("shelf", n, *(id(p[n]) for p in shelf_parts), figure)
            strip = kept_lines.get(line_key)
            if strip is None:
                pieces = [p[n] for p in shelf_parts]
                if n < len(info):
                    tail = list(Segment.apply_style(render_text(info[n], console), style))
                    pieces += [([gap], 2), (tail, Segment.get_line_length(tail))]
                strip = kept_lines[line_key] = _joined(pieces)
            lines.append(strip)
        out = Text(caption or " ", style=Style(bold=True))
        if note:
            out.append(f"   {SHELF_NOTE}", style=Style(dim=True))
        self._tray_key = (key, style)
        return [out, *lines]

    def figures(self) -> tuple[tuple[str, str], ...]:
        """The turn's figures in core's words (`describe.turn_figures`) as (label, figure)."""
        data = self._data
        if data is None:
            return ()
        seat = focus_seat(data)
        if seat is None:
            return ()
        return tuple(turn_figures(data.state, seat, over=data.result is not None))

    def info_lines(self, figures: Sequence[tuple[str, str]] | None = None) -> list[Text]:
        """The turn's figures (`figures`): labels dim, figures bold, notes dim."""
        rows = self.figures() if figures is None else figures
        return [
            Text.assemble((f"{label:<9}", "dim"), (figure, "bold"))
            if figure
            else Text(label, style="dim")
            for label, figure in rows
        ]

    def on_click(self, event: events.Click) -> None:
        if event.y < 1 or event.y > 8 or event.x < 0:
            return
        index = event.x // DIE_W
        if 0 <= index < len(ROW_DICE):
            self.post_message(DieClicked(ROW_DICE[index]))


class Scoreboard(LineBox):
    """Every driver's miles toward the race length as a bar, with seat number and state."""

    _board_key: tuple[Any, ...] | None = None  # what the lines shown are drawn from

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._data: BoardData[Go500State] | None = None
        self._colour_blind = False
        self._row_texts: dict[tuple[Any, ...], Text] = {}  # drivers' rows by what they show
        self.border_title = DRIVERS_TITLE

    def show(self, data: BoardData[Go500State], colour_blind: bool) -> None:
        self._data = data
        self._colour_blind = colour_blind
        lines = self.board_lines()
        if lines is not self._lines:  # else nothing the board shows has changed
            self.show_lines(lines)

    def on_resize(self) -> None:
        super().on_resize()
        self._board_key = None
        self.show_lines(self.board_lines())

    def board_lines(self) -> list[Text]:
        data = self._data
        if data is None:
            return []
        state = data.state
        names = data.names
        totals = list(state.totals or [0] * len(names))
        mode = state.config.mode
        length = int(state.race_length or 500)
        goal = max([length, *totals]) if mode != "time_trial" else max([1, *totals])
        order = list(state.order or range(len(names)))
        ranking = list(state.ranking or (data.result.ranking if data.result else []))
        current = state.current
        width = max(20, self.size.width - 2)
        longest = max(cell_len(n) for n in names)
        name_w = max(4, min(16 if width >= 60 else 12, longest))
        shown = short_names(names, name_w)
        bar_w = max(6, width - (2 + 2 + name_w + 1 + 9 + 9))
        lines = [Text(race_header(state), style=Style(bold=True))]
        placed = data.result is not None or state.phase == "over"
        rows = [(seat, driver_tags(state, seat, ranking, placed)) for seat in order]
        tag_w = max((len(t) for _, t in rows), default=0)
        suffix_w = 9 if mode != "time_trial" else 8
        bar_w = max(4, width - (2 + 1 + 1 + name_w + 1 + suffix_w + (tag_w + 1 if tag_w else 0)))
        specs = []
        for seat, tag_words in rows:
            colour = car_colour(seat, self._colour_blind)
            total = totals[seat] if seat < len(totals) else 0
            marker = "▶" if seat == current or seat in data.pending else " "
            filled = min(bar_w, round(bar_w * max(0, total) / goal)) if goal else 0
            figure = miles_figure(total, state)
            specs.append((seat, colour, marker, filled, figure, tag_words))
        # Everything the lines are drawn from (a step that neither passes the turn nor moves
        # a driver changes none of it).
        key = (lines[0].plain, tuple(shown), name_w, bar_w, tuple(specs))
        if key == self._board_key and self._lines:
            return self._lines  # type: ignore[return-value]
        self._board_key = key
        kept = self._row_texts
        if len(kept) >= 64:
            kept.clear()
        for spec in specs:
            row_key = (spec, shown[spec[0]], name_w, bar_w)
            line = kept.get(row_key)
            if line is None:
                line = kept[row_key] = self._row_text(spec, shown[spec[0]], name_w, bar_w)
            lines.append(line)  # a row drawn again is the same text (shared: never changed)
        return lines

    def _row_text(self, spec: tuple[Any, ...], name: str, name_w: int, bar_w: int) -> Text:
        """One driver's row: marker, seat chip, name, bar, miles, tags."""
        seat, colour, marker, filled, figure, tag_words = spec
        line = Text()
        line.append(f"{marker} ", style=Style(bold=True))
        line.append(f"{seat + 1}", style=Style(color="black", bgcolor=colour, bold=True))
        line.append(f" {pad_cells(name, name_w)} ")
        line.append("█" * filled, style=Style(color=colour))
        line.append("░" * (bar_w - filled), style=Style(dim=True))
        line.append(" " + figure)
        if tag_words:
            line.append(" " + tag_words, style=Style(bold=True))
        return line


class Callouts(LineBox):
    """One line calling out the flags and track events of the latest step."""

    # Colours by component class, not by toggling CSS classes on the widget: a class change
    # restyles the widget (and costs a style pass) on every step with a flag.
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "callouts--yellow",
        "callouts--red",
        "callouts--black",
        "callouts--good",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._fills: dict[str, Any] = {}  # kind -> fill; "" -> what they were worked out for

    def show(self, data: BoardData[Go500State]) -> None:
        said = headline(latest_events(data), data.names, data.config)
        text, kind = said if said is not None else ("", "")
        if (text, kind) == getattr(self, "_shown", None):
            return  # a class change restyles the widget; an equal line needs nothing
        self._shown = (text, kind)
        fill = self._fill_of(kind) if kind else None
        self.show_lines([Text(text)], fill=fill)

    def _fill_of(self, kind: str) -> Any:
        """The component style of ``kind``, kept until a restyle or a change of theme (as
        `base_style`: Textual works it out afresh, up the DOM, at every call)."""
        app = self.app
        key = (app.theme, app.classes)
        fills = self._fills
        if fills.get("") != key:
            fills.clear()
            fills[""] = key
        if kind not in fills:
            fills[kind] = self.get_component_rich_style(f"callouts--{kind}")
        return fills[kind]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if getattr(self, "_fills", None):
            self._fills.clear()


class Go500Board(Board[Go500State]):
    """The Go 500 table: call-outs, dice tray, scoreboard and race log."""

    def compose(self) -> ComposeResult:
        yield Callouts(id="callouts")
        yield DiceTray(id="tray")
        with Horizontal(id="go500-lower"):
            yield Scoreboard(id="scoreboard")
            yield RaceLog(id="race-log")

    def show(self, data: BoardData[Go500State]) -> None:
        cb = "-colour-blind" in self.app.classes
        self.query_one(Callouts).show(data)
        self.query_one(DiceTray).show(data, cb)
        self.query_one(Scoreboard).show(data, cb)
