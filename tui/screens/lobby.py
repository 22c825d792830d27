"""The lobby: every table this player may see, live; create, join, watch or use an invite code.

Owns the table list (fed by ``hub.watch_lobby``) and the join/watch/invite actions, all through
the hub. The SSH server lands players here. Must not hold game state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from core.game import IllegalAction
from net.hub import TableInfo
from tui.screens.base import SpeedwayScreen
from tui.widgets.keys import KeyFooter
from tui.widgets.rowlist import RowList


def seats_text(info: TableInfo) -> str:
    parts = []
    for i, seat in enumerate(info.seats):
        if seat.open:
            parts.append(f"{i + 1}:(open)")
        else:
            tag = "bot" if seat.bot else ("away" if seat.away else "")
            parts.append(f"{i + 1}:{seat.name}" + (f" ({tag})" if tag else ""))
    return ", ".join(parts)


class InviteCode(ModalScreen[str | None]):
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-box"):
            yield Static("Enter a private table's invite code:")
            yield Input(placeholder="code", id="invite-code", max_length=40)
        yield KeyFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LobbyScreen(SpeedwayScreen):
    BINDINGS: ClassVar = [
        Binding("enter", "join", "Join/return", show=False),
        Binding("j", "join", "Join seat"),
        Binding("w", "watch", "Watch"),
        Binding("c", "create", "Create table"),
        Binding("i", "invite", "Invite code"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[TableInfo] = []

    def body(self) -> Iterable[Widget]:
        yield Static("Tables", classes="screen-title")
        # Status and Watching before the long columns: at 80 columns they always fit.
        yield RowList(("Table", "Game", "Status", "Watching", "Seats", "Mode"), id="lobby-table")
        yield Static("", id="lobby-empty")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(RowList).focus()  # the list is followed from on_screen_resume (every showing, the first too)

    def on_screen_suspend(self) -> None:
        # Under a table screen nobody sees the list: stop following it, so one table's change
        # does not repaint the lobbies of every player seated anywhere on the server.
        self.workers.cancel_group(self, "lobby")

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.follow_lobby()

    @work(exclusive=True, group="lobby")
    async def follow_lobby(self) -> None:
        app = self.speedway
        stream = app.hub.watch_lobby(app.identity)
        try:
            async for tables in stream:
                self.show_tables(tables)
        finally:
            with contextlib.suppress(Exception):
                await stream.aclose()  # type: ignore[attr-defined]

    def show_tables(self, tables: list[TableInfo]) -> None:
        self.tables = list(tables)
        self.query_one(RowList).set_rows(
            [
                (
                    info.id + (" (private)" if info.private else ""),
                    self._game_title(info),
                    info.status,
                    str(info.spectators),
                    seats_text(info),
                    info.summary,
                )
                for info in self.tables
            ]
        )
        self.query_one("#lobby-empty", Static).update(
            "" if self.tables else "No tables yet. Press c to create one."
        )

    def _game_title(self, info: TableInfo) -> str:
        """The game's name (the table id has its own column)."""
        try:
            return self.speedway.game(info.game).title
        except (KeyError, ValueError, LookupError):
            return info.title

    def selected(self) -> TableInfo | None:
        grid = self.query_one(RowList)
        if not self.tables or grid.cursor_row < 0:
            return None
        return self.tables[min(grid.cursor_row, len(self.tables) - 1)]

    def action_join(self) -> None:
        info = self.selected()
        if info is not None:
            self.join(info)

    @work(group="lobby-action")
    async def join(self, info: TableInfo) -> None:
        app = self.speedway
        mine = [i for i, s in enumerate(info.seats) if s.identity == app.identity.id]
        seat = mine[0] if mine else next((i for i, s in enumerate(info.seats) if s.open), None)
        if seat is None:
            app.notify("No open seat at that table; press w to watch instead.")
            return
        try:
            await app.hub.take_seat(info.id, seat, app.identity)
        except (ValueError, IllegalAction) as err:
            app.notify(str(err), severity="error")
            return
        app.open_table(info.id, seat)

    def action_watch(self) -> None:
        info = self.selected()
        if info is not None:
            self.speedway.open_table(info.id, None)

    def action_create(self) -> None:
        from tui.screens.newgame import NewGameScreen

        self.app.push_screen(NewGameScreen())

    def action_invite(self) -> None:
        def got(code: str | None) -> None:
            if code:
                self.use_code(code)

        self.app.push_screen(InviteCode(), got)

    @work(group="lobby-action")
    async def use_code(self, code: str) -> None:
        app = self.speedway
        try:
            table_id = await app.hub.join_private(code, app.identity)
        except (ValueError, IllegalAction) as err:
            app.notify(str(err), severity="error")
            return
        infos = {t.id: t for t in app.hub.tables(app.identity)}
        info = infos.get(table_id)
        if info is not None and any(s.open for s in info.seats):
            self.join(info)
        else:
            app.open_table(table_id, None)

    def action_back(self) -> None:
        self.app.pop_screen()
