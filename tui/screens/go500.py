"""The Go 500 table screen: roll, save dice, stop, pick a Tradin' Paint target; Cup standings.

Owns the Go 500 keys (r roll / save-and-roll, 1-6 or a click to pick dice to save, s stop, digits
for a paint target, c race chart) and the dice the player has picked (UI state only). Every move
is sent through the hub; a refused move shows the rules' sentence. Go 500 has no hidden
information, so hot-seat players share one view (no cover).

Must not: change game state or decide what is legal (the engine and hub do).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from core.go500.describe import CUP_COLUMNS, PICK_LATER, Move, cup_title, mode_words, turn_prompt
from core.go500.model import (
    DIE_INDEX,
    RACING_DICE,
    ChoosePaintTarget,
    CupPointsAwarded,
    DiceRolled,
    Roll,
    SaveAndRoll,
    Stop,
    TurnEnded,
    TurnStarted,
)
from core.go500.rules import save_refusal, saveable, stage_of
from net.hub import StepUpdate
from tui.fold import TableFold
from tui.screens.table import TableScreen
from tui.widgets.board import Board, BoardData
from tui.widgets.go500 import ROW_DICE, DieClicked, Go500Board
from tui.widgets.keys import KeyFooter


def cup_interlude(names: list[str], events: list[Any]) -> CupStandings | None:
    """The replay viewer's pause after a Cup race: the standings (final after the season)."""
    from core.go500.model import SeasonEnded

    final = any(isinstance(e, SeasonEnded) for e in events)
    for event in events:
        if isinstance(event, CupPointsAwarded):
            return CupStandings(names, event, final)
    return None


class CupStandings(ModalScreen[None]):
    """The Cup Series table between races (and at the end of the season)."""

    BINDINGS: ClassVar = [Binding("enter,escape,space", "close", "Continue", priority=True)]

    def __init__(self, names: list[str], event: Any, final: bool) -> None:
        super().__init__()
        self.names = names
        self.event = event
        self.final = final

    def compose(self) -> ComposeResult:
        with Vertical(id="cup-box"):
            yield Static(cup_title(self.event.race, self.final), id="cup-title")
            yield DataTable(id="cup-table", cursor_type="none")
            yield Static("Enter: continue", classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        grid = self.query_one(DataTable)
        grid.can_focus = False
        grid.add_columns(*CUP_COLUMNS)
        for place, seat in enumerate(self.event.standings, start=1):
            grid.add_row(
                str(place),
                f"{seat + 1} {self.names[seat]}",
                str(self.event.points[seat]),
                str(self.event.bonus[seat]),
                str(self.event.season[seat]),
            )

    def action_close(self) -> None:
        self.dismiss(None)


KEY_HINTS: dict[Move, str] = {
    "roll": "r",
    "save": "1-6 or click dice",
    "stop": "s",
    "paint": "press the seat number",
}
"""How each move is made on this screen; core words the prompt around them (`turn_prompt`)."""


class Go500TableScreen(TableScreen):
    BINDINGS: ClassVar = [
        Binding("r", "roll", "Roll"),
        Binding("s", "stop", "Stop"),
        Binding("1", "digit(1)", "Save", key_display="1-6"),
        *[Binding(str(n), f"digit({n})", show=False) for n in range(2, 10)],
        Binding("c", "chart", "Chart"),
    ]

    def __init__(self, *, table_id: str, seat: int | None) -> None:
        super().__init__(table_id=table_id, seat=seat)
        self.picked: set[str] = set()

    def make_board(self) -> Board:
        return Go500Board(id="board")

    def selection(self) -> frozenset[str]:
        return frozenset(self.picked)

    def on_welcome(self, fold: TableFold) -> None:
        self.picked.clear()

    def on_step(self, update: StepUpdate) -> None:
        if self.fold is None:
            return
        for event in self.fold.last_events:
            if isinstance(event, DiceRolled | TurnStarted | TurnEnded):
                self.picked.clear()
            if isinstance(event, CupPointsAwarded):
                races = self.fold.game.race_count(self.fold.config) or 1
                final = event.race + 1 >= races
                # The next race's steps wait behind the standings (they are queued).
                self.hold_for(CupStandings(self.fold.names, event, final))

    def title_text(self) -> str:
        assert self.fold is not None
        title = f"{self.fold.game.title} — {mode_words(self.fold.config)}"
        return title + self.table_tag()

    def end_hint(self) -> str:
        return "  c: race chart"

    def your_move_text(self, seat: int) -> str:
        assert self.fold is not None
        return turn_prompt(
            self.fold.state, seat, self.fold.names, KEY_HINTS, self.picked, self.status_width()
        )

    def coach_text(self, seat: int) -> str | None:
        from core.go500.analysis import coach_words

        return None if self.fold is None else coach_words(self.fold.state, seat)

    # ---------------------------------------------------------------- keys

    def _my_stage(self) -> tuple[int | None, str]:
        seat = self.acting_seat()
        if self.fold is None or seat is None:
            return None, ""
        return seat, stage_of(self.fold.state, seat)

    def action_roll(self) -> None:
        seat, stage = self._my_stage()
        if seat is None:
            self.not_your_move()
        elif stage == "decide":
            picked = [d for d in ROW_DICE if d in self.picked]
            self.submit(SaveAndRoll(dice=picked))
        else:
            self.submit(Roll())

    def action_stop(self) -> None:
        seat, _ = self._my_stage()
        if seat is None:
            self.not_your_move()
            return
        self.submit(Stop())

    def action_digit(self, n: int) -> None:
        seat, stage = self._my_stage()
        if seat is None or self.fold is None:
            self.not_your_move()
            return
        if stage == "paint":
            self.submit(ChoosePaintTarget(driver=n - 1))
            return
        if 1 <= n <= len(RACING_DICE):  # keys 1-6: T1 … T5, then the Power Die
            self.toggle(ROW_DICE[RACING_DICE[n - 1]])

    def on_die_clicked(self, message: DieClicked) -> None:
        message.stop()
        self.toggle(message.die)

    def toggle(self, die: str) -> None:
        seat, stage = self._my_stage()
        if seat is None or self.fold is None:
            self.not_your_move()
            return
        if stage != "decide":
            self.status(PICK_LATER, error=True)
            return
        # G-SAVE is core's: a die the rules would not save is refused in core's words.
        turn = self.fold.state.turns[seat]
        assert turn is not None  # a driver deciding has a turn under way
        if DIE_INDEX[die] not in saveable(turn):
            self.status(str(save_refusal(turn, [die])), error=True)
            return
        self.picked ^= {die}
        self.redraw()

    def action_chart(self) -> None:
        if self.fold is None:
            return
        from tui.screens.chart import RaceChartScreen

        self.app.push_screen(RaceChartScreen(self.board_data_or_none()))

    def board_data_or_none(self) -> BoardData | None:
        return self.board_data()
