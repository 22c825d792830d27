"""The NASCAR Champions oval widget: the track with its cars, and the dice and card in the infield.

Owns `OvalTrack`: drawing a Champions `BoardData` on the 24-row oval with the red line and the
start/finish line marked; every car as its number on its colour (never colour alone), backwards
cars marked ``«``; destinations the player may pick shown as ``[n]``; the finished cars and the
decks in the corners; the five dice with number, colour word and FLAG, and the card in play.
Clicking a die posts `ChampionsDieClicked`; clicking a ``[n]`` space or a car to pick posts that
choice as `ActionChosen`. Must not: hold game state, change it, or talk to the hub.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from core.champions.model import ChampionsState, DieTask
from tui.theme import PICK, RED_LINE, colour_blind
from tui.widgets.board import BoardData
from tui.widgets.champions.canvas import Canvas
from tui.widgets.champions.choices import (
    candidate_cars,
    clicked_choice,
    destination_keys,
    moving_car,
)
from tui.widgets.champions.dice import ChampionsDieClicked, dice_view
from tui.widgets.champions.geometry import ROWS, OvalGeometry
from tui.widgets.champions.words import (
    COLOUR_LETTERS,
    DIM,
    FLAG,
    FLAG_DIE,
    car_chip,
    car_style,
    card_of,
    die_words,
)
from tui.widgets.common import ActionChosen
from tui.widgets.fastlines import FastLines


class OvalTrack(FastLines, Widget):
    """The oval, with the dice and the card in play in the infield."""

    DEFAULT_CSS = """
    OvalTrack { height: 12; width: 56; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._data: BoardData[ChampionsState] | None = None
        self._cache: tuple[tuple[int, int], list[Strip]] | None = None
        self._rows: list[list[tuple[str, Style | None]]] = []
        self._cb = False

    def show(self, data: BoardData[ChampionsState]) -> None:
        """Draw ``data``; only the lines that differ from the shown ones are repainted (rows of
        the canvas are compared cell by cell; only a changed row becomes a new strip)."""
        self._data = data
        old = self._cache
        if old is None or not self.is_mounted or self.size.width <= 0:
            self._cache = None
            self.refresh()
            return
        key = (self.size.width, self.size.height)
        canvas = self.canvas()
        old_rows = self._rows
        self._rows = canvas.cells
        if old[0] != key or len(old_rows) != len(canvas.cells):
            self._cache = (key, canvas.strips())
            self.refresh()
            return
        strips = list(old[1])
        changed = []
        for y, (was, now) in enumerate(zip(old_rows, canvas.cells, strict=True)):
            if was != now:
                strips[y] = canvas.row_strip(y)
                changed.append(Region(0, y, key[0], 1))
        self._cache = (key, strips)
        if changed:
            self.refresh(*changed)

    @property
    def geometry(self) -> OvalGeometry:
        return OvalGeometry(cw=6 if self.size.width >= 84 else 4)

    def canvas(self) -> Canvas:
        geo = self.geometry
        canvas = Canvas(max(geo.width, self.size.width), geo.height)
        data = self._data
        wide = geo.cw >= 6
        self._cb = colour_blind(self)  # the player's palette setting, read at every draw
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
            canvas = self.canvas()
            self._rows = canvas.cells
            self._cache = (key, canvas.strips())
        lines = self._cache[1]
        return lines[y] if 0 <= y < len(lines) else Strip.blank(self.size.width)

    # -------------------------------------------------------------- track and cars

    def _draw_track(
        self, canvas: Canvas, geo: OvalGeometry, data: BoardData[ChampionsState] | None, wide: bool
    ) -> None:
        """The track: every space (a car, a ``[n]`` to pick, else a dot), then the red line,
        the start/finish line, the labels and the corners' legend over them. What does not
        change with the race is drawn once per size (`_static_track`); the cars and keys go
        under it where it covers their cells, as if drawn first."""
        cw = geo.cw
        state: ChampionsState | None = data.state if data is not None else None
        cars = state.cars if state is not None else ()
        by_space = {(c.row, c.lane): c for c in cars if c.row is not None and c.place is None}
        keys = destination_keys(data) if data is not None else {}
        targets = candidate_cars(data) if data is not None else set()
        mover = moving_car(data) if data is not None else None
        inner = cw - 1
        rows, over_all, over_legend = self._static_track(geo, canvas.width, wide)
        canvas.cells = [list(row) for row in rows]
        # (No space's cells, nor the mover's arrow beside it, touch another space's: the
        # order they are drawn in does not matter.)
        for space, car in by_space.items():
            if space not in _SPACES:
                continue  # (never drawn: off the track's spaces)
            row, lane = space
            x, y = geo.cell(row, lane)
            label = ("«" if car.backwards else "") + str(car.number)
            if wide:
                label += COLOUR_LETTERS[car.colour]
            style = car_style(car.colour, self._cb)
            if car.backwards:
                style += Style(italic=True)
            if car.colour in targets or car.colour == mover:
                style += Style(underline=True, blink=False)
            canvas.put_under(x, y, label.center(inner)[:inner], style, over_all)
            if car.colour == mover:
                canvas.put_under(x + inner, y, _heading(row), PICK, over_all)
        for space, key in keys.items():
            if space not in _SPACES or space in by_space:
                continue
            x, y = geo.cell(*space)
            canvas.put_under(x, y, f"[{key}]".center(inner)[:inner], PICK, over_all)
        x23, _ = geo.cell(23, 0)
        finish = keys.get(None)
        sf = f"▲ S/F [{finish}] finish" if finish is not None else "▲ start/finish"
        canvas.put_under(
            x23 + cw - 1, 11, sf, PICK if finish is not None else Style(bold=True), over_legend
        )
        if state is not None:
            self._draw_finished(canvas, geo, state, wide)
            self._draw_decks(canvas, geo, state, wide)

    def _static_track(self, geo: OvalGeometry, width: int, wide: bool) -> _StaticTrack:
        """The track with no car on it and what is drawn over the spaces, kept per size: its
        rows, and per row the cells drawn over the spaces (all overlays; the legend alone)."""
        key = (geo.cw, width, geo.height, wide)
        kept: _StaticTrack | None = _STATIC_TRACKS.get(key)
        if kept is not None:
            return kept
        cw = geo.cw
        canvas = Canvas(width, geo.height)
        inner = cw - 1
        for row in range(ROWS):
            for lane in range(3):
                x, y = geo.cell(row, lane)
                canvas.put(x, y, "·".center(inner), DIM)
        over_all: list[set[int]] = [set() for _ in range(geo.height)]
        over_legend: list[set[int]] = [set() for _ in range(geo.height)]

        def over(x: int, y: int, text: str, style: Style | None, legend: bool = False) -> None:
            canvas.put(x, y, text, style)
            for mask in (over_all, over_legend) if legend else (over_all,):
                if 0 <= y < len(mask):
                    mask[y].update(range(max(0, x), min(width, x + len(text))))

        # the red line: between row 8 and row 9 (entering row 9 crosses it)
        x9, _ = geo.cell(9, 0)
        for lane in range(3):
            over(x9 + cw - 1, 1 + lane, "┃", RED_LINE)
        # the start/finish line: after row 23
        x23, _ = geo.cell(23, 0)
        for lane in range(3):
            over(x23 + cw - 1, 8 + lane, "▚", Style(bold=True))
        # labels
        over(x9 + cw - 1, 0, "▼ red line" if wide else "▼red", RED_LINE)
        over(geo.left, 0, "backstretch ◂" if wide else "backstr ◂", DIM)
        over(0, 0, "turns 3-4 ▾" if wide else "T3-4 ▾", DIM)
        over(geo.left + 8 * cw + (cw if wide else 1), 0, "turns 1-2" if wide else "T1-2", DIM)
        over(geo.left + 8 * cw, 11, "▴ turns 1-2" if wide else "▴", DIM)
        over(geo.left, 11, "front stretch ▸" if wide else "front ▸", DIM)
        # (the start/finish label comes here: it names the finish key)
        # the corners: a legend, the finished cars, the decks
        legend = (
            ("«24 backwards", "[n] pick it", "▚ finish line")
            if wide
            else ("«24 backward", "[n] pick", "▚ finish")
        )
        for n, words in enumerate(legend):
            over(0, 1 + n, words, DIM, legend=True)
        kept = (tuple(tuple(row) for row in canvas.cells), over_all, over_legend)
        _STATIC_TRACKS[key] = kept
        return kept

    def _draw_finished(
        self, canvas: Canvas, geo: OvalGeometry, state: ChampionsState, wide: bool
    ) -> None:
        places = tuple(state.places or ())
        if not places:
            return
        canvas.put(0, 11, "finished ▴", Style(bold=True))
        per_line = 3 if wide else 2
        for n, colour in enumerate(places):
            entry = Text(f"{n + 1}·")
            entry.append_text(car_chip(state, colour, letter=wide, colour_blind=self._cb))
            canvas.put((n % per_line) * (6 if wide else 5), 8 + n // per_line, entry)

    def _draw_decks(
        self, canvas: Canvas, geo: OvalGeometry, state: ChampionsState, wide: bool
    ) -> None:
        x = geo.left + 8 * geo.cw + 1
        if state.phase in ("setup", "choose_car"):
            return
        flag = int(state.flag_count)
        discard = len(state.flag_discard or ())
        sponsor = int(state.sponsor_count)
        lines = (
            (f"Flag deck {flag}", f"discards {discard}", f"Sponsor deck {sponsor}")
            if wide
            else (f"Flag {flag}", f"Used {discard}", f"Spons {sponsor}")
        )
        for n, words in enumerate(lines):
            canvas.put(x, 8 + n, words, DIM)

    # -------------------------------------------------------------- infield: dice, card, prompt

    def _draw_infield(
        self, canvas: Canvas, geo: OvalGeometry, data: BoardData[ChampionsState], wide: bool
    ) -> None:
        x0, y0, width, _ = geo.infield()
        x0 += 1
        width -= 2
        state: ChampionsState = data.state
        phase = state.phase
        lap = state.lap
        active = state.active
        names = data.names
        who = names[active] if 0 <= active < len(names) else "?"
        if data.result is not None:
            winner = names[data.result.ranking[0]] if data.result.ranking else "?"
            words = Text(f"Race over — {winner} is the Champion", style=Style(bold=True))
            for n, piece in enumerate(list(words.wrap(self.app.console, width))[:4]):
                canvas.put(x0, y0 + n, piece)  # whole, on as many lines as it needs
            return
        elif phase == "choose_car":
            top = Text(f"{who} chooses a car"[:width], style=Style(bold=True))
        else:
            laps = data.game.lap_count(data.config)
            top = Text(f"Lap {lap}/{laps} · {who}'s turn"[:width], style=Style(bold=True))
        canvas.put(x0, y0, top)
        card = card_of(state.card_in_play)
        if card is not None:
            # The card in play takes the lines under the title, wrapped (whole in the log too).
            words = Text.assemble(("Card: ", "bold"), (f"{card.name} — {card.text}", ""))
            pieces = list(words.wrap(self.app.console, width))
            if len(pieces) > 3:
                pieces = pieces[:3]
                pieces[2].truncate(width - 1)
                pieces[2].append("…")
            for n, piece in enumerate(pieces):
                canvas.put(x0, y0 + 1 + n, piece)
            return
        faces, kept, done, caption = dice_view(data)
        picked = {int(p[1:]) for p in data.selected if p.startswith("d") and p[1:].isdigit()}
        slot = 9 if wide else 6
        if faces:
            chips = Text()
            marks = Text()
            for i, face in enumerate(faces):
                die = i + 1
                word = f"{die}{' ' if wide else ''}{die_words(face, short=not wide)}"
                style = FLAG_DIE if face == FLAG else car_style(face, self._cb)
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
        line4: Text
        if caption:
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


_SPACES = frozenset((row, lane) for row in range(ROWS) for lane in range(3))
_StaticTrack = tuple[
    tuple[tuple[tuple[str, Style | None], ...], ...], list[set[int]], list[set[int]]
]
_STATIC_TRACKS: dict[tuple[int, int, int, bool], _StaticTrack] = {}
"""`OvalTrack._static_track` by (cell width, canvas width and height, wide): a few sizes."""


def _heading(row: int) -> str:
    """The arrow of the way cars travel at ``row`` on screen."""
    if 4 <= row <= 7:
        return "▴"
    if 8 <= row <= 15:
        return "◂"
    if 16 <= row <= 19:
        return "▾"
    return "▸"


def _next_die(state: ChampionsState) -> int | None:
    for task in state.queue:
        if isinstance(task, DieTask):
            return task.die
    return None
