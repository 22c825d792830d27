"""The NASCAR Champions players panel: `ChampionsScoreboard`.

Owns showing, per seat, the player, their car, money, Sponsor cards (own colours, others only
counts), Shift Gears left and place: two lines a player, or in a narrow box (80 columns) three
when the box has the rows for them ("Sponsors: RY" on a line of its own, then "Gears: 1" and the
place), else two in short words ("Sp:RY SG:1"). Must not: hold game state, change it, post
actions, or talk to the hub.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from core.champions.model import ChampionsState
from tui.theme import colour_blind
from tui.widgets.board import BoardData
from tui.widgets.champions.words import (
    COLOUR_LETTERS,
    DIM,
    car_chip,
    car_style,
    money_words,
    ordinal,
)
from tui.widgets.common import LineBox, pad_cells, short_names


class ChampionsScoreboard(LineBox):
    """Players, their cars, money, Sponsor cards, Shift Gears left and places."""

    DEFAULT_CSS = """
    ChampionsScoreboard { height: 12; width: 1fr; border: round $panel-lighten-2; padding: 0 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._data: BoardData[ChampionsState] | None = None
        self._drawn_key: tuple[object, ...] | None = None  # what the lines shown are drawn from
        self.border_title = "Players"

    def show(self, data: BoardData[ChampionsState]) -> None:
        self._data = data
        key = self.drawn_from()
        if key == self._drawn_key:
            return  # what the panel shows is drawn from these alone: nothing changed
        self._drawn_key = key
        self.show_lines(list(self.board_text().split("\n")))

    def on_resize(self) -> None:
        super().on_resize()
        self._drawn_key = self.drawn_from()
        self.show_lines(list(self.board_text().split("\n")))

    def drawn_from(self) -> tuple[object, ...] | None:
        """Everything `board_text` reads, as one value (most steps change none of it)."""
        data = self._data
        if data is None:
            return None
        state: ChampionsState = data.state
        return (
            self.size.width,
            self.size.height,
            colour_blind(self),
            tuple(data.names),
            tuple(state.seat_car or ()),
            tuple(state.money or ()),
            tuple(state.shift_gears or ()),
            tuple(tuple(h.colour for h in hand) for hand in state.sponsors or ()),
            tuple(state.places or ()),
            tuple(tuple(lap) for lap in state.lap_places or ()),
            state.active,
            tuple(data.result.ranking) if data.result is not None else None,
            tuple(data.pending),
            data.perspective,
            tuple(car.number for car in state.cars),  # `car_chip`
        )

    def board_text(self) -> Text:
        data = self._data
        if data is None:
            return Text("")
        state: ChampionsState = data.state
        wide = self.size.width >= 30
        # A narrow box says it in words on three lines a player when it has the rows for them.
        tall = not wide and self.size.height >= 3 * len(data.names)
        cb = colour_blind(self)  # the player's palette setting
        out = Text()
        names = data.names
        seat_car = tuple(state.seat_car or ())
        money = tuple(state.money or ())
        gears = tuple(state.shift_gears or ())
        sponsors = tuple(state.sponsors or ())
        places = tuple(state.places or ())
        lap_places = tuple(state.lap_places or ())
        active = state.active
        ranking = list(data.result.ranking) if data.result is not None else []
        name_w = 12 if wide else 8
        short = short_names(names, name_w)
        for seat in range(len(names)):
            if seat:
                out.append("\n")
            marker = "▶" if seat in data.pending or (seat == active and not ranking) else " "
            if ranking:
                marker = str(ranking.index(seat) + 1)
            you = seat == data.perspective
            out.append(marker, style=Style(bold=True))
            out.append(pad_cells(short[seat], name_w), style=Style(bold=you))
            colour = seat_car[seat] if seat < len(seat_car) else None
            if colour is not None:
                out.append(" ")
                out.append_text(car_chip(state, colour, letter=True, colour_blind=cb))
            else:
                out.append(" —")
            out.append(" " + money_words(money[seat] if seat < len(money) else 0))
            # line 2: sponsors, Shift Gears, place
            out.append("\n ")
            hand = sponsors[seat] if seat < len(sponsors) else ()
            shown = [h.colour for h in hand if h.colour is not None]
            out.append("Sponsors: " if wide or tall else "Sp:", style=DIM)
            if len(shown) == len(hand) and hand:
                for colour_id in shown:
                    out.append(COLOUR_LETTERS[colour_id], style=car_style(colour_id, cb))
            else:
                out.append(f"{len(hand)}{'?' if hand else ''}")
            # line 3 in a tall narrow box: Shift Gears and place
            out.append("\n Gears: " if tall else "  Gears: " if wide else " SG:", style=DIM)
            out.append(str(gears[seat] if seat < len(gears) else 0))
            if colour is not None and colour in places:
                out.append(f" {ordinal(places.index(colour) + 1)}", style=Style(bold=True))
            elif colour is not None and lap_places and colour in lap_places[-1] and not places:
                out.append(f" L{len(lap_places)}:{ordinal(lap_places[-1].index(colour) + 1)}")
        return out
