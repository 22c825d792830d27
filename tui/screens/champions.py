"""The NASCAR Champions table screen: roll, keep three dice, Shift Gears, steer, play cards.

Owns the Champions keys (r roll; 1-5 or a click to pick the three dice to keep and Enter to keep
them; g Shift Gears; 1-9 or the list to pick a destination, a card's cars or a car to drive; f / b
to turn a backwards car forward or leave it; c the race chart) and the dice the player has picked
(UI state only). When a lap's money is paid, `LapSummary` waits for Enter (the final results after
lap 2, naming the tie-break when it decided places).
Keys find their action by its class in the game's model, never by a tag. Every move goes through
the hub; a refused move shows the rules' sentence. Sponsor cards are
hidden, so hot-seat players get the framework's pass-the-keyboard cover.

Must not: change game state or decide what is legal (the engine and hub do).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding

from core.champions.config import ChampionsConfig
from core.champions.model import (
    ChampionsState,
    DiceChosen,
    DiceRolled,
    GameEnded,
    LastCarTask,
    LeaveBackwards,
    MoneyAwarded,
    MoveTask,
    NeighbourTask,
    Roll,
    ShiftGears,
    TargetTask,
    TurnForward,
    TurnStarted,
)
from net.hub import StepUpdate
from tui.fold import TableFold
from tui.screens.champions_modals import SPECTATOR_LAP_SECONDS, LapSummary, lap_summary_lines
from tui.screens.table import TableScreen
from tui.widgets.board import Board
from tui.widgets.champions import (
    ChampionsBoard,
    ChampionsDieClicked,
    DieToggle,
    TargetFirst,
    car_words,
    head_task,
    money_words,
    option_label,
)
from tui.widgets.common import ActionChosen, ActionList


class ChampionsTableScreen(TableScreen):
    BINDINGS: ClassVar = [
        Binding("r", "roll", "Roll"),
        Binding("1", "digit(1)", "Pick", key_display="1-9"),
        *[Binding(str(n), f"digit({n})", show=False) for n in range(2, 10)],
        Binding("enter", "confirm", "OK", priority=True),
        Binding("g", "shift_gears", "Gears"),
        Binding("f", "turn_forward", "Forward"),
        Binding("b", "leave_backwards", "Stay back"),
        Binding("c", "chart", "Chart"),
    ]

    def __init__(self, *, table_id: str, seat: int | None) -> None:
        super().__init__(table_id=table_id, seat=seat)
        self.picked: set[int] = set()
        self.first_target: int | None = None
        self._said: tuple[str, bool] | None = None

    def make_board(self) -> Board:
        return ChampionsBoard(id="board")

    def selection(self) -> frozenset[str]:
        first = set() if self.first_target is None else {f"t{self.first_target}"}
        return frozenset({f"d{d}" for d in self.picked} | first)

    def on_welcome(self, fold: TableFold) -> None:
        self.picked.clear()
        self.first_target = None

    def on_step(self, update: StepUpdate) -> None:
        if self.fold is None:
            return
        for event in self.fold.last_events:
            if isinstance(event, DiceRolled | TurnStarted | DiceChosen):
                self.picked.clear()
        self.first_target = None
        if any(isinstance(e, MoneyAwarded) for e in self.fold.last_events):
            title, lines = lap_summary_lines(self.fold.history, self.fold.state, self.fold.names)
            ended = any(isinstance(e, GameEnded) for e in self.fold.last_events)
            # A spectator's lap summary goes away by itself (the race does not wait for it); a
            # player's, and the final results, wait for Enter.
            spectating = self.perspective is None and not ended
            timeout = SPECTATOR_LAP_SECONDS if spectating else None
            self.hold_for(LapSummary(title, lines, continue_after=timeout))

    # (Textual also runs the base screens' on_mount / on_resize: no super() calls here.)
    def on_resize(self, event: Any) -> None:
        wide = event.size.width >= 110 and event.size.height >= 34
        self.set_class(wide, "-wide")

    def on_mount(self) -> None:
        size = self.app.size
        self.set_class(size.width >= 110 and size.height >= 34, "-wide")

    def status(self, text: str, *, error: bool = False) -> None:
        """Skip repeating the same line: every repaint of it re-lays out the whole screen."""
        if (text, error) == self._said:
            return
        self._said = (text, error)
        super().status(text, error=error)

    def render_status(self) -> None:
        """As every table, but the final money is written the one way (``$175,000``)."""
        fold = self.fold
        result = fold.result() if fold is not None else None
        if fold is None or result is None:
            super().render_status()
            return
        places = ", ".join(
            f"{i + 1}. {fold.names[seat]} {money_words(result.scores[seat])}"
            for i, seat in enumerate(result.ranking)
        )
        text = f"Race over — {places}."
        hint = self.end_hint()
        self.status(text + hint if len(text + hint) <= self.status_width() else text)

    def end_hint(self) -> str:
        return "  c: race chart"

    def title_text(self) -> str:
        assert self.fold is not None
        state: ChampionsState = self.fold.state
        config: ChampionsConfig = self.fold.config
        title = f"{self.fold.game.title} — lap {state.lap} of {self.fold.game.lap_count(config)}"
        turn, limit = state.turn, config.lap_turn_limit
        if turn > 0:
            # N-LAP-LIMIT: a lap still running after this many turns is called
            title += f" · turn {turn}" + (f" of {limit}" if limit else "")
        return title + self.table_tag()

    def your_move_text(self, seat: int) -> str:
        assert self.fold is not None
        state: ChampionsState = self.fold.state
        name = self.fold.names[seat]
        phase = state.phase
        if phase == "choose_car":
            return f"{name}: choose your car (1-5 or the list, Enter)."
        if phase == "roll":
            return f"{name}: r to roll the five dice."
        if phase == "choose_dice":
            picked = ", ".join(str(d) for d in sorted(self.picked)) or "none"
            gears = state.shift_gears[seat] if seat < len(state.shift_gears) else 0
            extra = f"; g Shift Gears ({gears} left)" if gears and not state.shifted else ""
            return f"{name}: keep 3 dice, 1-5 (picked {picked}), Enter{extra}."
        task = head_task(state)
        if isinstance(task, MoveTask) and state.cars[task.car].backwards:
            car = car_words(state, task.car)
            return f"{name}: {car} faces backwards — f turn it forward, b leave it."
        if isinstance(task, MoveTask):
            car = car_words(state, task.car)
            return f"{name}: where does {car} go? Press the number shown on the board."
        if isinstance(task, TargetTask) and self.first_target is not None:
            car = car_words(state, self.first_target)
            return f"{name}: {car} first — now the second car (1-9, Enter or click it)."
        if isinstance(task, TargetTask):
            return f"{name}: name the car(s) for the card (1-9, Enter or click a car)."
        if isinstance(task, LastCarTask):
            return f"{name}: Back Burner — which last car moves 7? (1-9 or the list)"
        if isinstance(task, NeighbourTask):
            return f"{name}: Crash — which car next to it is hit? (1-9 or the list)"
        return f"{name}, it is your move."

    # ---------------------------------------------------------------- keys

    def _phase(self) -> tuple[int | None, str]:
        seat = self.acting_seat()
        if self.fold is None or seat is None or not self.legal_now():
            return None, ""
        return seat, str(self.fold.state.phase)

    def _not_yet(self) -> None:
        self.status("It is not your move yet.", error=True)

    def _submit_first(self, kind: type, refusal: str) -> None:
        """Submit the legal action of class ``kind`` (there is at most one), else say why not."""
        seat, _ = self._phase()
        if seat is None:
            self._not_yet()
            return
        for action in self.legal_now():
            if isinstance(action, kind):
                self.submit(action)
                return
        self.status(refusal, error=True)

    def action_roll(self) -> None:
        self._submit_first(Roll, "You roll at the start of your turn only.")

    def action_shift_gears(self) -> None:
        seat, phase = self._phase()
        if seat is None or self.fold is None:
            self._not_yet()
            return
        if phase != "choose_dice":
            self.status("Shift Gears re-rolls the dice right after a roll.", error=True)
            return
        state: ChampionsState = self.fold.state
        if state.shifted:
            self.status("You may shift gears only once in a turn.", error=True)
            return
        self._submit_first(ShiftGears, "You have no Shift Gears left this lap.")

    def action_turn_forward(self) -> None:
        self._submit_first(TurnForward, "No backwards car of yours is waiting to move.")

    def action_leave_backwards(self) -> None:
        self._submit_first(LeaveBackwards, "No backwards car of yours is waiting to move.")

    def action_digit(self, n: int) -> None:
        seat, phase = self._phase()
        if seat is None:
            self._not_yet()
            return
        if phase == "choose_dice":
            if 1 <= n <= 5:
                self.toggle(n)
            else:
                self.status("There are five dice, 1 to 5.", error=True)
            return
        rows = self.query_one(ActionList)
        if phase == "roll":
            self.action_roll()
        elif 1 <= n <= rows.option_count:
            rows.choose(n - 1)  # the list's rows: the legal moves (or a two-step car pick)
        else:
            self.status(f"There is no choice {n}; pick 1 to {rows.option_count}.", error=True)

    def action_confirm(self) -> None:
        """Enter: the highlighted choice (after three dice are picked, that is Keep)."""
        seat, _ = self._phase()
        if seat is None:
            self._not_yet()
            return
        actions = self.query_one(ActionList)
        index = actions.highlighted
        if index is not None:
            actions.choose(index)

    def on_action_chosen(self, message: ActionChosen) -> None:
        message.stop()
        message.prevent_default()  # the base screen would send the toggle row to the hub
        if isinstance(message.action, DieToggle):
            self.toggle(message.action.die)
        elif isinstance(message.action, TargetFirst):
            self.first_target = message.action.car
            self.redraw()
        else:
            self.submit(message.action)

    def on_champions_die_clicked(self, message: ChampionsDieClicked) -> None:
        message.stop()
        seat, phase = self._phase()
        if seat is None:
            self._not_yet()
            return
        if phase != "choose_dice":
            self.status("Pick dice to keep right after a roll.", error=True)
            return
        self.toggle(message.die)

    def toggle(self, die: int) -> None:
        if die in self.picked:
            self.picked.discard(die)
        elif len(self.picked) >= 3:
            self.status("You keep exactly three dice; un-pick one first.", error=True)
            return
        else:
            self.picked.add(die)
        self.redraw()

    def describe_choice(self, action: Any) -> str:
        data = self.board_data()
        return option_label(data, action) if data is not None else str(action)
