"""NASCAR Champions board: the three-wide oval, the dice, the scoreboard, the choices and the log.

Owns drawing a Champions `BoardData`: the 24-row oval as a loop (front stretch along the bottom,
turns 1-2 up the right, the backstretch along the top, turns 3-4 down the left) with the red line
and the start/finish line marked; every car as its number on its colour (never colour alone),
backwards cars marked ``«``; destinations the player may pick shown as ``[n]`` on the board; the
five dice with number, colour word and FLAG; the scoreboard (cars, money, Sponsor cards — own
colours, others only counts —, Shift Gears left, places); the choices in words; the race log.
Clicking a die posts `ChampionsDieClicked`; clicking a `[n]` space or a car to pick posts that
choice as `ActionChosen` (as does the list); the screen decides.

Must not: hold game state, change it, or talk to the hub.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from tui.fold import action_label
from tui.widgets.board import Board, BoardData
from tui.widgets.common import ActionChosen, ActionList, RaceLog

COLOUR_NAMES = ("black", "blue", "red", "green", "yellow")
COLOUR_LETTERS = ("K", "B", "R", "G", "Y")
SHORT = ("BLK", "BLU", "RED", "GRN", "YEL")
FLAG = 5
CAR_STYLE = (
    Style(color="white", bgcolor="#262626", bold=True),
    Style(color="white", bgcolor="#2f66c8", bold=True),
    Style(color="white", bgcolor="#c83232", bold=True),
    Style(color="black", bgcolor="#3fae5a", bold=True),
    Style(color="black", bgcolor="#e8c62a", bold=True),
)
FLAG_DIE = Style(color="black", bgcolor="#e8e8e8", bold=True)
PICK = Style(color="black", bgcolor="#ffd75f", bold=True)
DIM = Style(dim=True)
RED_LINE = Style(color="#ff4040", bold=True)
ROWS = 24
LANE_WORDS = ("inside", "middle", "outside")


def car_style(colour: int) -> Style:
    return CAR_STYLE[colour % len(CAR_STYLE)]


def car_words(state: Any, colour: int) -> str:
    """``Red #24``: colour word and number."""
    number = _number(state, colour)
    return f"{COLOUR_NAMES[colour].capitalize()} #{number}" if number else COLOUR_NAMES[colour]


def _number(state: Any, colour: int) -> int | None:
    cars = getattr(state, "cars", ())
    return int(cars[colour].number) if 0 <= colour < len(cars) else None


def car_chip(state: Any, colour: int, *, letter: bool = False) -> Text:
    """A car as its number on its colour, ``24R`` with ``letter`` (colour is never alone)."""
    number = _number(state, colour)
    label = f"{number}" if number is not None else "?"
    if letter:
        label += COLOUR_LETTERS[colour]
    return Text(label, style=car_style(colour))


def money_words(amount: int, *, short: bool = False) -> str:
    if short and amount >= 1000:
        return f"${amount // 1000}k"
    return f"${amount:,}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def die_words(face: int, *, short: bool) -> str:
    if face == FLAG:
        return "FLAG"
    return SHORT[face] if short else COLOUR_NAMES[face].upper()


def _card(card_id: int | None) -> Any:
    if card_id is None:
        return None
    from core.champions.data import COMPONENTS

    return COMPONENTS.cards[card_id]


def head_task(state: Any) -> Any:
    queue = getattr(state, "queue", ())
    return queue[0] if queue else None


def _tag(obj: Any) -> str:
    config = getattr(type(obj), "__struct_config__", None)
    tag = getattr(config, "tag", None) if config is not None else None
    return str(tag) if isinstance(tag, str) else type(obj).__name__


# ------------------------------------------------------------------------------ labels in words


def option_label(data: BoardData, action: Any, *, short: bool = False) -> str:
    """A Champions choice in words (destinations, targets, cars, turning)."""
    state = data.state
    tag = _tag(action)
    task = head_task(state)
    if tag == "choose_destination":
        car = car_words(state, task.car) if task is not None and hasattr(task, "car") else "car"
        if action.end is None:
            return "cross the finish line" if short else f"{car} crosses the finish line"
        row, lane = action.end
        where = f"row {row} {LANE_WORDS[lane] if lane < 3 else lane}"
        return where if short else f"{car} to {where} lane"
    if tag == "choose_card_targets":
        cars = ", then ".join(car_words(state, c) for c in action.cars)
        card = _card(getattr(task, "card", None))
        return cars if short or card is None else f"{card.name}: {cars}"
    if tag == "choose_last_car":
        return f"Back Burner: {car_words(state, action.car)}"
    if tag == "choose_crash_neighbour":
        return f"Crash also hits {car_words(state, action.car)}"
    if tag == "turn_forward":
        car = car_words(state, task.car) if task is not None and hasattr(task, "car") else "car"
        return f"Turn {car} forward (f)"
    if tag == "leave_backwards":
        car = car_words(state, task.car) if task is not None and hasattr(task, "car") else "car"
        return f"Leave {car} backwards (b)"
    if tag == "choose_car":
        return f"Drive {car_words(state, action.car)} — {state.cars[action.car].driver}"
    if tag == "roll":
        return "Roll the five dice (r)"
    if tag == "shift_gears":
        return "Shift Gears: roll all five again (g)"
    if tag == "choose_dice":
        return "Keep dice " + ", ".join(str(d) for d in action.dice)
    return action_label(data.game, action, data.names)


def destination_keys(data: BoardData) -> dict[Any, int]:
    """Where each legal destination is (a space, or None = finish) -> its option number."""
    out: dict[Any, int] = {}
    for i, action in enumerate(data.legal):
        if _tag(action) == "choose_destination":
            out[None if action.end is None else tuple(action.end)] = i + 1
    return out


def candidate_cars(data: BoardData) -> set[int]:
    """Cars the player is asked to pick among (card targets, last car, crash neighbour)."""
    cars: set[int] = set()
    for action in data.legal:
        tag = _tag(action)
        if tag == "choose_card_targets":
            cars.update(action.cars)
        elif tag in ("choose_last_car", "choose_crash_neighbour"):
            cars.add(action.car)
    return cars


def clicked_choice(data: BoardData, space: tuple[int, int]) -> Any:
    """The legal choice a click on ``space`` makes: a destination there, or the one-car choice
    of the car standing there (None when the click picks nothing)."""
    cars = getattr(data.state, "cars", ())
    here = [c.colour for c in cars if c.row is not None and (c.row, c.lane) == space]
    for action in data.legal:
        tag = _tag(action)
        if tag == "choose_destination" and action.end is not None and tuple(action.end) == space:
            return action
        if here and tag == "choose_card_targets" and tuple(action.cars) == (here[0],):
            return action
        if here and tag in ("choose_last_car", "choose_crash_neighbour") and action.car == here[0]:
            return action
    return None


def moving_car(data: BoardData) -> int | None:
    task = head_task(data.state)
    if task is not None and _tag(task) in ("move", "turn_back") and data.pending:
        return int(task.car)
    return None


# ------------------------------------------------------------------------------ the oval


@dataclass(frozen=True)
class OvalGeometry:
    """Where every (row, lane) is drawn: a loop of 8 + 4 + 8 + 4 rows, ``cw`` columns a cell."""

    cw: int

    @property
    def left(self) -> int:
        return 3 * self.cw

    @property
    def width(self) -> int:
        return 14 * self.cw

    height = 12  # label line, 3 lanes, 4 side rows, 3 lanes, label line

    def cell(self, row: int, lane: int) -> tuple[int, int]:
        """(x, y) of the cell's first column."""
        cw, left = self.cw, self.left
        if 8 <= row <= 15:  # top band, right to left: row 8 at the right
            return left + (15 - row) * cw, 1 + (2 - lane)
        if 4 <= row <= 7:  # right side, bottom to top, inside lane nearest the infield
            return left + 8 * cw + lane * cw, 11 - row
        if 16 <= row <= 19:  # left side, top to bottom
            return (2 - lane) * cw, row - 12
        col = row - 20 if row >= 20 else row + 4  # bottom band, left to right
        return left + col * cw, 8 + lane

    def space_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The (row, lane) drawn at screen cell (x, y), if any."""
        for row in range(ROWS):
            for lane in range(3):
                cx, cy = self.cell(row, lane)
                if cy == y and cx <= x < cx + self.cw:
                    return (row, lane)
        return None

    def infield(self) -> tuple[int, int, int, int]:
        """(x, y, width, height) of the space inside the loop."""
        return self.left, 4, 8 * self.cw, 4


class Canvas:
    """A grid of styled characters, joined into one `Text`."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.cells: list[list[tuple[str, Style | None]]] = [
            [(" ", None)] * width for _ in range(height)
        ]

    def put(self, x: int, y: int, text: str | Text, style: Style | None = None) -> None:
        if not 0 <= y < len(self.cells):
            return
        if isinstance(text, Text):
            for offset, (ch, ch_style) in enumerate(_styled_chars(text)):
                self._set(x + offset, y, ch, ch_style)
            return
        for offset, ch in enumerate(text):
            self._set(x + offset, y, ch, style)

    def _set(self, x: int, y: int, ch: str, style: Style | None) -> None:
        if 0 <= x < self.width:
            self.cells[y][x] = (ch, style)

    def strips(self) -> list[Strip]:
        """One `Strip` per line (runs of one style joined into one segment)."""
        out: list[Strip] = []
        for row in self.cells:
            segments: list[Segment] = []
            run, run_style = "", None
            for ch, style in row:
                if style != run_style and run:
                    segments.append(Segment(run, run_style))
                    run = ""
                run_style = style
                run += ch
            if run:
                segments.append(Segment(run, run_style))
            out.append(Strip(segments, len(row)))
        return out

    def text(self) -> Text:
        out = Text()
        for n, row in enumerate(self.cells):
            if n:
                out.append("\n")
            run, run_style = "", None
            for ch, style in row:
                if style != run_style and run:
                    out.append(run, style=run_style)
                    run = ""
                run_style = style
                run += ch
            if run:
                out.append(run, style=run_style)
        return out


def _styled_chars(text: Text) -> list[tuple[str, Style | None]]:
    """Each character of ``text`` with its combined style."""
    base = text.style if isinstance(text.style, Style) else Style.parse(str(text.style or ""))
    styles = [base] * len(text.plain)
    for span in text.spans:
        extra = span.style if isinstance(span.style, Style) else Style.parse(str(span.style))
        for i in range(span.start, min(span.end, len(styles))):
            styles[i] = styles[i] + extra
    return list(zip(text.plain, styles, strict=True))


@dataclass(frozen=True)
class DieToggle:
    """A row of the choice list that picks or un-picks a die (UI only, never sent to the hub)."""

    die: int


class ChampionsDieClicked(Message):
    """A die (1-5) was clicked."""

    def __init__(self, die: int) -> None:
        super().__init__()
        self.die = die


def dice_view(data: BoardData) -> tuple[tuple[int, ...], tuple[int, ...], set[int], str]:
    """(faces, kept dice, dice already resolved, caption): this turn's roll, else the last one."""
    state = data.state
    faces = tuple(getattr(state, "dice", ()) or ())
    if faces:
        chosen = tuple(getattr(state, "chosen", ()) or ())
        waiting = {t.die for t in getattr(state, "queue", ()) if _tag(t) == "die"}
        done = {d for d in chosen if d not in waiting}
        return faces, chosen, done, ""
    last_faces: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    who = None
    for _, _, step_events in reversed(data.history[-40:]):
        for event in reversed(step_events):
            name = type(event).__name__
            if name == "DiceChosen" and not kept and who is None:
                kept = tuple(event.dice)
            elif name == "DiceRolled":
                last_faces, who = tuple(event.faces), int(event.seat)
                break
            elif name in ("LapStarted", "GameEnded"):
                return (), (), set(), ""
        if who is not None:
            break
    if who is None:
        return (), (), set(), ""
    name = data.names[who] if 0 <= who < len(data.names) else "?"
    return last_faces, kept, set(kept), f"{name}'s last roll"


class OvalTrack(Widget):
    """The oval, with the dice and the card in play in the infield."""

    DEFAULT_CSS = """
    OvalTrack { height: 12; width: 56; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._data: BoardData | None = None
        self._cache: tuple[tuple[int, int], list[Strip]] | None = None

    def show(self, data: BoardData) -> None:
        self._data = data
        self._cache = None
        self.refresh()

    @property
    def geometry(self) -> OvalGeometry:
        return OvalGeometry(cw=6 if self.size.width >= 84 else 4)

    def canvas(self) -> Canvas:
        geo = self.geometry
        canvas = Canvas(max(geo.width, self.size.width), geo.height)
        data = self._data
        wide = geo.cw >= 6
        self._draw_track(canvas, geo, data, wide)
        if data is not None:
            self._draw_infield(canvas, geo, data, wide)
        return canvas

    def render(self) -> Text:
        """The whole oval as text (for tests and screenshots; the screen draws `render_line`)."""
        return self.canvas().text()

    def render_line(self, y: int) -> Strip:
        key = (self.size.width, self.size.height)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, self.canvas().strips())
        lines = self._cache[1]
        return lines[y] if 0 <= y < len(lines) else Strip.blank(self.size.width)

    # -------------------------------------------------------------- track and cars

    def _draw_track(
        self, canvas: Canvas, geo: OvalGeometry, data: BoardData | None, wide: bool
    ) -> None:
        cw = geo.cw
        state = data.state if data is not None else None
        cars = getattr(state, "cars", ()) if state is not None else ()
        by_space = {(c.row, c.lane): c for c in cars if c.row is not None and c.place is None}
        keys = destination_keys(data) if data is not None else {}
        targets = candidate_cars(data) if data is not None else set()
        mover = moving_car(data) if data is not None else None
        inner = cw - 1
        for row in range(ROWS):
            for lane in range(3):
                x, y = geo.cell(row, lane)
                car = by_space.get((row, lane))
                if car is not None:
                    label = ("«" if car.backwards else "") + str(car.number)
                    if wide:
                        label += COLOUR_LETTERS[car.colour]
                    style = car_style(car.colour)
                    if car.backwards:
                        style += Style(italic=True)
                    if car.colour in targets or car.colour == mover:
                        style += Style(underline=True, blink=False)
                    canvas.put(x, y, label.center(inner)[:inner], style)
                    if car.colour == mover:
                        canvas.put(x + inner, y, _heading(row), PICK)
                elif (row, lane) in keys:
                    canvas.put(x, y, f"[{keys[(row, lane)]}]".center(inner)[:inner], PICK)
                else:
                    canvas.put(x, y, "·".center(inner), DIM)
        # the red line: between row 8 and row 9 (entering row 9 crosses it)
        x9, _ = geo.cell(9, 0)
        for lane in range(3):
            canvas.put(x9 + cw - 1, 1 + lane, "┃", RED_LINE)
        # the start/finish line: after row 23
        x23, _ = geo.cell(23, 0)
        for lane in range(3):
            canvas.put(x23 + cw - 1, 8 + lane, "▚", Style(bold=True))
        # labels
        canvas.put(x9 + cw - 1, 0, "▼ red line" if wide else "▼red", RED_LINE)
        canvas.put(geo.left, 0, "backstretch ◂" if wide else "backstr ◂", DIM)
        canvas.put(0, 0, "turns 3-4 ▾" if wide else "T3-4 ▾", DIM)
        canvas.put(geo.left + 8 * cw + (cw if wide else 1), 0, "turns 1-2" if wide else "T1-2", DIM)
        canvas.put(geo.left + 8 * cw, 11, "▴ turns 1-2" if wide else "▴", DIM)
        canvas.put(geo.left, 11, "front stretch ▸" if wide else "front ▸", DIM)
        finish = keys.get(None)
        sf = f"▲ S/F [{finish}] finish" if finish is not None else "▲ start/finish"
        canvas.put(x23 + cw - 1, 11, sf, PICK if finish is not None else Style(bold=True))
        # the corners: a legend, the finished cars, the decks
        legend = (
            ("«24 backwards", "[n] pick it", "▚ finish line")
            if wide
            else ("«24 backward", "[n] pick", "▚ finish")
        )
        for n, words in enumerate(legend):
            canvas.put(0, 1 + n, words, DIM)
        if state is not None:
            self._draw_finished(canvas, geo, state, wide)
            self._draw_decks(canvas, geo, state, wide)

    def _draw_finished(self, canvas: Canvas, geo: OvalGeometry, state: Any, wide: bool) -> None:
        places = tuple(getattr(state, "places", ()) or ())
        if not places:
            return
        canvas.put(0, 11, "finished ▴", Style(bold=True))
        per_line = 3 if wide else 2
        for n, colour in enumerate(places):
            entry = Text(f"{n + 1}·")
            entry.append_text(car_chip(state, colour, letter=wide))
            canvas.put((n % per_line) * (6 if wide else 5), 8 + n // per_line, entry)

    def _draw_decks(self, canvas: Canvas, geo: OvalGeometry, state: Any, wide: bool) -> None:
        x = geo.left + 8 * geo.cw + 1
        if getattr(state, "phase", "") in ("setup", "choose_car"):
            return
        flag = int(getattr(state, "flag_count", 0))
        discard = len(getattr(state, "flag_discard", ()) or ())
        sponsor = int(getattr(state, "sponsor_count", 0))
        lines = (
            (f"Flag deck {flag}", f"discards {discard}", f"Sponsor deck {sponsor}")
            if wide
            else (f"Flag {flag}", f"Used {discard}", f"Spons {sponsor}")
        )
        for n, words in enumerate(lines):
            canvas.put(x, 8 + n, words, DIM)

    # -------------------------------------------------------------- infield: dice, card, prompt

    def _draw_infield(self, canvas: Canvas, geo: OvalGeometry, data: BoardData, wide: bool) -> None:
        x0, y0, width, _ = geo.infield()
        x0 += 1
        width -= 2
        state = data.state
        phase = getattr(state, "phase", "")
        lap = getattr(state, "lap", 1)
        active = getattr(state, "active", 0)
        names = data.names
        who = names[active] if 0 <= active < len(names) else "?"
        if data.result is not None:
            winner = names[data.result.ranking[0]] if data.result.ranking else "?"
            top = Text(f"Race over — {winner} is the Champion"[:width], style=Style(bold=True))
        elif phase == "choose_car":
            top = Text(f"{who} chooses a car"[:width], style=Style(bold=True))
        else:
            top = Text(f"Lap {lap}/2 · {who}'s turn"[:width], style=Style(bold=True))
        canvas.put(x0, y0, top)
        faces, kept, done, caption = dice_view(data)
        picked = {int(p[1:]) for p in data.selected if p.startswith("d") and p[1:].isdigit()}
        slot = 9 if wide else 6
        if faces:
            chips = Text()
            marks = Text()
            for i, face in enumerate(faces):
                die = i + 1
                word = f"{die}{' ' if wide else ''}{die_words(face, short=not wide)}"
                style = FLAG_DIE if face == FLAG else car_style(face)
                if die in done:
                    style += Style(dim=True)
                if die in picked:
                    style += Style(reverse=True)
                chips.append(word, style=style)
                chips.append(" " * (slot - len(word)))
                if die in picked:
                    mark = "▲pick"
                elif die in kept and die not in done:
                    mark = "▲next" if _next_die(state) == die else "▲kept"
                elif die in kept:
                    mark = "✓done"
                else:
                    mark = ""
                marks.append(mark.ljust(slot)[:slot], style=PICK if die in picked else DIM)
            canvas.put(x0, y0 + 1, chips)
            canvas.put(x0, y0 + 2, marks)
        card = _card(getattr(state, "card_in_play", None))
        line4: Text
        if card is not None:
            line4 = Text.assemble(("Card: ", "bold"), (f"{card.name} — {card.text}", ""))
        elif caption:
            line4 = Text(caption, style=DIM)
        elif phase == "roll":
            line4 = Text(f"{who} to roll the dice", style=DIM)
        else:
            line4 = Text("")
        line4.truncate(width, overflow="ellipsis")
        canvas.put(x0, y0 + 3, line4)

    def on_click(self, event: events.Click) -> None:
        geo = self.geometry
        x0, y0, _, _ = geo.infield()
        slot = 9 if geo.cw >= 6 else 6
        if event.y == y0 + 1 and event.x > x0 and geo.left < event.x < geo.left + 8 * geo.cw:
            die = (event.x - x0 - 1) // slot + 1
            if 1 <= die <= 5:
                self.post_message(ChampionsDieClicked(die))
            return
        space = geo.space_at(event.x, event.y)
        if space is not None and self._data is not None:
            action = clicked_choice(self._data, space)
            if action is not None:
                self.post_message(ActionChosen(action))


def _heading(row: int) -> str:
    """The arrow of the way cars travel at ``row`` on screen."""
    if 4 <= row <= 7:
        return "▴"
    if 8 <= row <= 15:
        return "◂"
    if 16 <= row <= 19:
        return "▾"
    return "▸"


def _next_die(state: Any) -> int | None:
    for task in getattr(state, "queue", ()):
        if _tag(task) == "die":
            return int(task.die)
    return None


# ------------------------------------------------------------------------------ scoreboard


class ChampionsScoreboard(Widget):
    """Players, their cars, money, Sponsor cards, Shift Gears left and places."""

    DEFAULT_CSS = """
    ChampionsScoreboard { height: 12; width: 1fr; border: round $panel-lighten-2; padding: 0 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._data: BoardData | None = None
        self.border_title = "Players"

    def show(self, data: BoardData) -> None:
        self._data = data
        self.refresh()

    def render(self) -> Text:
        data = self._data
        if data is None:
            return Text("")
        state = data.state
        wide = self.size.width >= 30
        out = Text()
        names = data.names
        seat_car = tuple(getattr(state, "seat_car", ()) or ())
        money = tuple(getattr(state, "money", ()) or ())
        gears = tuple(getattr(state, "shift_gears", ()) or ())
        sponsors = tuple(getattr(state, "sponsors", ()) or ())
        places = tuple(getattr(state, "places", ()) or ())
        lap_places = tuple(getattr(state, "lap_places", ()) or ())
        active = getattr(state, "active", None)
        ranking = list(data.result.ranking) if data.result is not None else []
        name_w = 12 if wide else 8
        for seat, name in enumerate(names):
            if seat:
                out.append("\n")
            marker = "▶" if seat in data.pending or (seat == active and not ranking) else " "
            if ranking:
                marker = str(ranking.index(seat) + 1)
            you = seat == data.perspective
            out.append(marker, style=Style(bold=True))
            out.append(f"{name[:name_w]:<{name_w}}", style=Style(bold=you))
            colour = seat_car[seat] if seat < len(seat_car) else None
            if colour is not None:
                out.append(" ")
                out.append_text(car_chip(state, colour, letter=True))
            else:
                out.append(" —")
            out.append(" " + money_words(money[seat] if seat < len(money) else 0, short=True))
            # line 2: sponsors, Shift Gears, place
            out.append("\n ")
            hand = sponsors[seat] if seat < len(sponsors) else ()
            shown = [h.colour for h in hand if h.colour is not None]
            out.append("Sp:" if not wide else "Sponsors: ", style=DIM)
            if len(shown) == len(hand) and hand:
                for colour_id in shown:
                    out.append(COLOUR_LETTERS[colour_id], style=car_style(colour_id))
            else:
                out.append(f"{len(hand)}{'?' if hand else ''}")
            out.append(" SG:" if not wide else "  Gears: ", style=DIM)
            out.append(str(gears[seat] if seat < len(gears) else 0))
            if colour is not None and colour in places:
                out.append(f" {ordinal(places.index(colour) + 1)}", style=Style(bold=True))
            elif colour is not None and lap_places and colour in lap_places[-1] and not places:
                out.append(f" L{len(lap_places)}:{ordinal(lap_places[-1].index(colour) + 1)}")
        return out


# ------------------------------------------------------------------------------ the board


class ChampionsBoard(Board):
    """The Champions table: oval (with dice) and scoreboard on top, choices and log below."""

    DEFAULT_CSS = """
    ChampionsBoard #champ-top { height: 12; }
    ChampionsBoard #champ-bottom { height: 1fr; }
    ChampionsBoard ActionList { width: 1fr; }
    ChampionsBoard RaceLog { width: 1fr; }
    """

    _rows_key: Any = None

    def _set_rows(self, actions: ActionList, rows: list[tuple[str, Any]]) -> None:
        """Refill the list only when its rows change (keeps the highlight while others play)."""
        key = [(label, repr(action)) for label, action in rows]
        if key == self._rows_key:
            return
        self._rows_key = key
        actions.set_actions(rows)

    def compose(self) -> ComposeResult:
        with Horizontal(id="champ-top"):
            yield OvalTrack(id="oval")
            yield ChampionsScoreboard(id="scoreboard")
        with Horizontal(id="champ-bottom"):
            yield ActionList(id="actions")
            yield RaceLog(id="race-log")

    def show(self, data: BoardData) -> None:
        self.query_one(OvalTrack).show(data)
        self.query_one(ChampionsScoreboard).show(data)
        actions = self.query_one(ActionList)
        phase = getattr(data.state, "phase", "")
        if not data.legal:
            self._set_rows(actions, [])
            if data.result is not None:
                actions.border_title = "Race over"
            elif data.pending:
                who = ", ".join(data.names[s] for s in data.pending)
                actions.border_title = f"Waiting for {who}"
            else:
                actions.border_title = "—"
            return
        if phase == "choose_dice":
            actions.border_title = "Keep 3 dice: 1-5, then Enter"
            before = actions.highlighted
            rows = dice_rows(data)
            self._set_rows(actions, rows)
            keep = [i for i, (_, a) in enumerate(rows) if _tag(a) == "choose_dice"]
            if keep:
                actions.highlighted = keep[0]
            elif before is not None and before < len(rows):
                actions.highlighted = before
            if data.live:
                actions.focus()
            return
        task = head_task(data.state)
        card = _card(getattr(task, "card", None))
        if card is not None and _tag(task) == "targets":
            actions.border_title = f"Cars for {card.name}"
        else:
            actions.border_title = "Your choice: 1-9 or Enter"
        self._set_rows(actions, [(option_label(data, a, short=True), a) for a in data.legal])
        if data.live:
            actions.focus()


def dice_rows(data: BoardData) -> list[tuple[str, Any]]:
    """The choice list after a roll: one row per die (toggles), Shift Gears, and Keep."""
    picked = sorted(int(p[1:]) for p in data.selected if p.startswith("d") and p[1:].isdigit())
    faces = tuple(getattr(data.state, "dice", ()) or ())
    rows: list[tuple[str, Any]] = []
    for i, face in enumerate(faces):
        mark = "  ◀ keep" if i + 1 in picked else ""
        rows.append((f"Die {i + 1}: {die_words(face, short=False)}{mark}", DieToggle(i + 1)))
    for action in data.legal:
        tag = _tag(action)
        if tag == "choose_dice" and list(action.dice) == picked:
            rows.append((option_label(data, action) + " (Enter)", action))
        elif tag == "shift_gears":
            rows.append((option_label(data, action), action))
    return rows


def labelled(data: BoardData, actions: Sequence[Any]) -> list[str]:
    return [option_label(data, a) for a in actions]
