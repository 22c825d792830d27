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

from core.go500.describe import mode_words
from core.go500.model import (
    ChoosePaintTarget,
    CupPointsAwarded,
    DiceRolled,
    Go500State,
    Roll,
    SaveAndRoll,
    Stop,
    TurnEnded,
    TurnStarted,
)
from net.hub import StepUpdate
from tui.fold import TableFold
from tui.screens.table import TableScreen
from tui.widgets.board import Board, BoardData
from tui.widgets.go500 import ROW_DICE, DieClicked, Go500Board


def stage_of(state: Go500State, seat: int | None) -> str:
    """The stage of ``seat``'s turn (roll / decide / paint / done), or the phase."""
    if seat is None:
        return ""
    if state.phase == "qualifying":
        return "qualify"
    turn = state.turns[seat] if 0 <= seat < len(state.turns) else None
    return turn.stage if turn is not None else "roll"


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
        title = "Cup Series — final standings" if self.final else "Cup Series standings"
        with Vertical(id="cup-box"):
            yield Static(f"{title} after race {self.event.race + 1}", id="cup-title")
            yield DataTable(id="cup-table", cursor_type="none")
            yield Static("Enter: continue", classes="hint")

    def on_mount(self) -> None:
        grid = self.query_one(DataTable)
        grid.can_focus = False
        grid.add_columns("Place", "Driver", "This race", "Bonus", "Season")
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


def paint_prompt(name: str, choices: list[tuple[int, str]], width: int) -> str:
    """The Tradin' Paint prompt, every choice on the one status line: the words shorten, then
    the names, never the last choice."""
    for lead in ("press the seat number to hit:", "hit"):
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


class Go500TableScreen(TableScreen):
    BINDINGS: ClassVar = [
        Binding("r", "roll", "Roll"),
        Binding("s", "stop", "Stop"),
        Binding("1", "digit(1)", "Save 1-6", show=True),
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
                self.app.push_screen(CupStandings(self.fold.names, event, final))

    def title_text(self) -> str:
        assert self.fold is not None
        title = f"Go 500 — {mode_words(self.fold.config)}"
        return title + self.table_tag()

    def end_hint(self) -> str:
        return "  c: race chart"

    def your_move_text(self, seat: int) -> str:
        assert self.fold is not None
        name = self.fold.names[seat]
        stage = stage_of(self.fold.state, seat)
        if stage == "qualify":
            return f"{name}: r to roll your qualifying dice."
        if stage == "roll":
            return f"{name}: r to roll."
        if stage == "decide":
            picked = ", ".join(d for d in ROW_DICE if d in self.picked) or "none"
            return f"{name}: 1-6 or click dice to save (saving {picked}); r roll the rest, s stop."
        if stage == "paint":
            turn = self.fold.state.turns[seat]
            return paint_prompt(
                name,
                [(c + 1, self.fold.names[c]) for c in turn.paint_candidates],
                self.status_width(),
            )
        return f"{name}, it is your move."

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
        if 1 <= n <= 6:
            self.toggle(ROW_DICE[n])

    def on_die_clicked(self, message: DieClicked) -> None:
        message.stop()
        self.toggle(message.die)

    def toggle(self, die: str) -> None:
        seat, stage = self._my_stage()
        if seat is None or self.fold is None:
            self.not_your_move()
            return
        if stage != "decide":
            self.status("You can pick dice to save after a green-flag roll.", error=True)
            return
        # G-SAVE is core's: a die the rules would not save is refused in core's words.
        from core.go500.model import DIE_INDEX
        from core.go500.rules import save_refusal, saveable

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
