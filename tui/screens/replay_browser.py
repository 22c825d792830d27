"""Open a replay: the replays folder newest first (game, date, players, winner), or a path.

Owns the file browser over `replays.list_replays`; choosing a file opens the replay viewer.
Must not read game state itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from replays import ReplayInfo
from tui.screens.base import SpeedwayScreen
from tui.widgets.keys import KeyFooter


class AskPath(ModalScreen[str | None]):
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-box"):
            yield Static("Path of a replay file:")
            yield Input(placeholder="/path/to/game.replay", id="replay-path")
        yield KeyFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayBrowser(SpeedwayScreen):
    BINDINGS: ClassVar = [
        Binding("enter", "open", "Open", priority=True),  # shown: the table would hide it
        Binding("p", "path", "Open a path"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.files: list[ReplayInfo] = []

    def body(self) -> Iterable[Widget]:
        folder = self.speedway.replays_dir
        shown = folder and not self.speedway.network  # a server's paths are its own business
        yield Static(f"Replays in {folder}" if shown else "Replays", classes="screen-title")
        yield DataTable(id="browser-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="browser-empty")
        yield KeyFooter()

    def on_mount(self) -> None:
        grid = self.query_one(DataTable)
        grid.add_columns("Date (UTC)", "Game", "Players", "Winner", "Steps")
        try:
            self.files = self.speedway.visible_replays()
        except OSError as err:
            self.files = []
            self.notify(f"Could not read the replays folder: {err.strerror}.", severity="error")
        for info in self.files:
            grid.add_row(
                info.date[:16].replace("T", " "),
                info.title,
                ", ".join(info.players),
                info.winner or ("—" if info.finished else "(unfinished)"),
                str(info.steps),
            )
        hint = "" if self.speedway.network else " p opens a path."
        self.query_one("#browser-empty", Static).update(
            "" if self.files else f"No replays yet: finished games are saved here.{hint}"
        )
        grid.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        grid = self.query_one(DataTable)
        if self.files and 0 <= grid.cursor_row < len(self.files):
            self.speedway.open_replay(Path(self.files[grid.cursor_row].path))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "path":
            return not self.speedway.network  # a network player may not open server paths
        return super().check_action(action, parameters)

    def action_path(self) -> None:
        def got(path: str | None) -> None:
            if path:
                self.speedway.open_replay(Path(path).expanduser())

        self.app.push_screen(AskPath(), got)

    def action_back(self) -> None:
        self.app.pop_screen()
