"""A live table: follow the hub's updates for one viewer, render them, send the player's moves.

Owns `TableScreen` (the shared part of every game's table screen) and `GenericTableScreen` (any
registered game: the view summary, the race log and the legal actions as a list). The screen
folds Welcome/StepUpdate into a `TableFold` and hands it to its widgets; a chosen action goes to
``hub.submit`` and the screen waits for the hub's step to show it. Hot-seat with hidden
information puts a "pass the keyboard" cover between seats and re-watches from the new seat.

Must not: change game state itself, draw chance, or call the core's step.
"""

from __future__ import annotations

import contextlib
import pprint
from collections.abc import Iterable
from typing import Any, ClassVar

import msgspec
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static

from core.game import IllegalAction
from net.hub import ChatLine, Notice, StepUpdate, TableChanged, Update, Welcome
from tui.fold import LogLine, TableFold, action_label
from tui.screens.base import SpeedwayScreen
from tui.widgets.common import ActionChosen, ActionList, RaceLog, StatusLine


class PassKeyboard(ModalScreen[bool]):
    """Covers the table between hot-seat players so nobody sees another's hidden cards."""

    BINDINGS: ClassVar = [Binding("enter", "ready", "I am NAME", show=True)]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass-box"):
            yield Static(f"Pass the keyboard to {self.player}.", id="pass-title")
            yield Static("Everyone else: look away. The table is hidden until they are ready.")
            yield Button(f"I am {self.player} — show my seat (Enter)", id="pass-ready")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(True)

    def action_ready(self) -> None:
        self.dismiss(True)


class TableScreen(SpeedwayScreen):
    """The shared machinery of every live table screen."""

    HIDDEN_INFORMATION: ClassVar[bool] = True
    BINDINGS: ClassVar = [
        Binding("escape", "leave", "Leave"),
        Binding("question_mark", "rules", "Rules"),
    ]

    def __init__(self, *, table_id: str, seat: int | None) -> None:
        super().__init__()
        self.table_id = table_id
        self.perspective = seat
        self.fold: TableFold | None = None
        self._busy = False
        self._covering = False

    # ---------------------------------------------------------------- following the hub

    def on_mount(self) -> None:
        self.follow(self.perspective)

    def follow(self, seat: int | None) -> None:
        self.perspective = seat
        self._follow(seat)

    @work(exclusive=True, group="watch")
    async def _follow(self, seat: int | None) -> None:
        app = self.speedway
        who = app.identity
        if self.fold is not None and seat is not None:
            local = app.who_for(self.fold.table.seats[seat].identity)
            who = local or who
        watch = app.hub.watch(self.table_id, who, seat)
        try:
            async for update in watch:
                self.handle_update(update)
        except (ValueError, IllegalAction) as err:
            self.status(str(err), error=True)
        finally:
            with contextlib.suppress(Exception):
                await watch.close()

    def handle_update(self, update: Update) -> None:
        if isinstance(update, Welcome):
            self.fold = TableFold.from_welcome(update)
            self._busy = False
            self.on_welcome(self.fold)
            self.render_fold(self.fold.log, full=True)
        elif isinstance(update, StepUpdate) and self.fold is not None:
            lines = self.fold.apply(update)
            self._busy = False
            self.render_fold(lines, full=False)
        elif isinstance(update, TableChanged) and self.fold is not None:
            self.fold.retable(update.table)
            self.render_fold([], full=False)
        elif isinstance(update, ChatLine):
            self.add_log(
                [
                    LogLine(
                        self.fold.state_id if self.fold else 0,
                        update.seat,
                        f"{update.nickname} says: {update.text}",
                    )
                ]
            )
        elif isinstance(update, Notice):
            self.notify(update.text)

    # ---------------------------------------------------------------- what this keyboard plays

    def local_seats(self) -> list[int]:
        if self.fold is None:
            return []
        app = self.speedway
        return [
            i
            for i, s in enumerate(self.fold.table.seats)
            if s.identity is not None and s.identity in app.local_identities
        ]

    def acting_seat(self) -> int | None:
        """The first seat being asked that this keyboard plays for."""
        if self.fold is None:
            return None
        mine = set(self.local_seats())
        for seat in self.fold.pending:
            if seat in mine:
                return seat
        return None

    def legal_now(self) -> list[Any]:
        seat = self.acting_seat()
        if seat is None or self.fold is None or self._busy or self._covering:
            return []
        if self.HIDDEN_INFORMATION and seat != self.perspective:
            return []
        return self.fold.legal(seat)

    def _check_cover(self) -> None:
        """Hot-seat with hidden information: cover the table and switch perspective."""
        seat = self.acting_seat()
        if (
            not self.HIDDEN_INFORMATION
            or seat is None
            or seat == self.perspective
            or self._covering
            or self.fold is None
        ):
            return
        self._covering = True
        name = self.fold.names[seat]

        def done(_: bool | None) -> None:
            self._covering = False
            self.fold = None
            self.follow(seat)

        self.app.push_screen(PassKeyboard(name), done)

    def on_action_chosen(self, message: ActionChosen) -> None:
        message.stop()
        self.submit(message.action)

    def submit(self, action: Any) -> None:
        seat = self.acting_seat()
        if self.fold is None or seat is None:
            self.status("It is not your turn.", error=True)
            return
        if self._busy:
            return
        self._busy = True
        self._submit(seat, action, self.fold.state_id)

    @work(group="submit")
    async def _submit(self, seat: int, action: Any, state_id: int) -> None:
        app = self.speedway
        assert self.fold is not None
        who = app.who_for(self.fold.table.seats[seat].identity) or app.identity
        try:
            await app.hub.submit(self.table_id, who, seat, action, state_id)
        except (IllegalAction, ValueError) as err:
            self._busy = False
            self.status(str(err), error=True)
            self.render_controls()

    # ---------------------------------------------------------------- rendering hooks

    def on_welcome(self, fold: TableFold) -> None:
        """A (re)start of the fold: subclasses reset their widgets here."""

    def render_fold(self, new_lines: list[LogLine], *, full: bool) -> None:
        if full:
            self.query_one(RaceLog).set_lines(new_lines)
        else:
            self.add_log(new_lines)
        self.render_board()
        self.render_controls()
        self.render_status()
        self._check_cover()

    def add_log(self, lines: list[LogLine]) -> None:
        with contextlib.suppress(Exception):
            self.query_one(RaceLog).add_lines(lines)

    def render_board(self) -> None:
        """Subclasses draw the game."""

    def render_controls(self) -> None:
        """Subclasses offer the legal actions."""

    def render_status(self) -> None:
        fold = self.fold
        if fold is None:
            self.status("Connecting to the table…")
            return
        result = fold.result()
        if result is not None:
            self.status(f"Race over: {result.summary}  (escape: back)")
            return
        seat = self.acting_seat()
        if seat is not None:
            self.status(f"{fold.names[seat]}, it is your move.")
        elif fold.pending:
            waiting = ", ".join(fold.names[s] for s in fold.pending)
            self.status(f"Waiting for {waiting}…")
        else:
            self.status(fold.table.status.capitalize())

    def status(self, text: str, *, error: bool = False) -> None:
        with contextlib.suppress(Exception):
            self.query_one(StatusLine).say(text, error=error)

    # ---------------------------------------------------------------- actions

    def action_leave(self) -> None:
        self.app.pop_screen()

    def action_rules(self) -> None:
        self.speedway.show_rules(self.fold.game.id if self.fold else None)


def summarise(view: Any, names: list[str]) -> str:
    """A readable rendering of any game's view struct (for the generic table screen)."""
    try:
        data = msgspec.to_builtins(view)
    except (TypeError, msgspec.EncodeError):
        return repr(view)
    if not isinstance(data, dict):
        return pprint.pformat(data, width=60, compact=True)
    lines = []
    for key, value in data.items():
        label = key.replace("_", " ")
        if isinstance(value, list) and len(value) == len(names) and names:
            lines.append(f"{label}:")
            lines += [f"  {names[i]}: {_short(v)}" for i, v in enumerate(value)]
        else:
            lines.append(f"{label}: {_short(value)}")
    return "\n".join(lines)


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else pprint.pformat(value, width=70, compact=True)
    return text if len(text) <= 300 else text[:297] + "…"


class GenericTableScreen(TableScreen):
    """Any registered game: the view summary, the race log and the legal actions."""

    def body(self) -> Iterable[Widget]:
        yield Static("", id="table-title", classes="screen-title")
        with Horizontal(id="generic-main"):
            yield Static("", id="generic-view", classes="panel")
            with Vertical(id="generic-side"):
                yield ActionList(id="actions")
                yield RaceLog(id="race-log")
        yield StatusLine("", id="status")
        yield Footer()

    def render_board(self) -> None:
        fold = self.fold
        if fold is None:
            return
        self.query_one("#table-title", Static).update(
            f"{fold.table.title} — {fold.table.summary}  (table {fold.table.id})"
        )
        seats = "  ".join(f"[{i + 1}] {n}" for i, n in enumerate(fold.names))
        self.query_one("#generic-view", Static).update(
            f"Seats: {seats}\n\n" + summarise(fold.state, fold.names)
        )

    def render_controls(self) -> None:
        fold = self.fold
        actions = self.query_one(ActionList)
        legal = self.legal_now()
        if fold is None or not legal:
            actions.set_actions([])
            actions.border_title = "Waiting"
            return
        actions.border_title = "Your move (Enter to play)"
        actions.set_actions([(action_label(fold.game, a, fold.names), a) for a in legal])
        actions.focus()
