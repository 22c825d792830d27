"""A tiny stand-in app for server tests that do not need the real TUI: it shows who you are and
the lobby, and plays Dash by keys ("c" create a table against a bot, "o" create a table with an
open seat, "j" take the first open seat (and follow it), "w" watch the first table, "r" roll, "s" stop,
"x" crash, "q" quit). On start it returns to a seat it already holds. It
talks to the hub only through `net.hub.Hub`, as the real app does."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from core.game import IllegalAction
from net.hub import ChatLine, Notice, SeatSpec, StepUpdate, TableSpec, Welcome
from tests.fakegame import Dealt, Roll, Stop


class MiniApp(App[None]):
    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        ("q", "quit", "Quit"),
        ("c", "create", "Create"),
        ("o", "create_open", "Create with an open seat"),
        ("j", "join", "Take an open seat"),
        ("w", "watch", "Watch"),
        ("r", "roll", "Roll"),
        ("s", "stop", "Stop"),
        ("x", "crash", "Crash"),
    ]

    def __init__(self, hub, identity, *, driver_class=None, data_dir=None) -> None:
        super().__init__(driver_class=driver_class)
        self.hub = hub
        self.identity = identity
        self.table_id: str | None = None
        self.seat = 0  # the seat this app plays ("r"/"s")
        self.state_id = 0
        self.cards: list[int | None] = []

    def compose(self) -> ComposeResult:
        yield Static(f"HELLO {self.identity.nickname} guest={self.identity.guest}", id="who")
        yield Static("LOBBY", id="lobby")
        yield Static("", id="table")
        yield Static("", id="notice")
        yield Static("", id="chat", markup=False)

    async def on_mount(self) -> None:
        self.run_worker(self._lobby(), exclusive=False)
        for info in self.hub.tables(self.identity):
            seats = [i for i, s in enumerate(info.seats) if s.identity == self.identity.id]
            if seats and info.status == "running":
                self.table_id = info.id
                self.seat = seats[0]
                self.run_worker(self._follow(seats[0]), exclusive=False)
                break

    async def _lobby(self) -> None:
        async for tables in self.hub.watch_lobby(self.identity):
            waiting = sum(1 for t in tables if t.status == "waiting")
            self.query_one("#lobby", Static).update(f"LOBBY tables={len(tables)} waiting={waiting}")

    async def action_create(self) -> None:
        spec = TableSpec(
            game="dash",
            seats=[SeatSpec(kind="human"), SeatSpec(kind="bot", bot="steady")],
            options={"goal": 1000},
        )
        self.table_id = await self.hub.create_table(spec, self.identity)
        self.run_worker(self._follow(0), exclusive=False)

    async def action_create_open(self) -> None:
        spec = TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")])
        self.table_id = await self.hub.create_table(spec, self.identity)
        self.run_worker(self._follow(0), exclusive=False)

    async def action_join(self) -> None:
        for info in self.hub.tables(self.identity):
            seats = [i for i, s in enumerate(info.seats) if s.open]
            if seats:
                await self.hub.take_seat(info.id, seats[0], self.identity)
                self.table_id, self.seat = info.id, seats[0]
                self.run_worker(self._follow(seats[0]), exclusive=False)
                return

    def action_watch(self) -> None:
        tables = self.hub.tables(self.identity)
        if tables:
            self.table_id = tables[0].id
            self.run_worker(self._follow(None), exclusive=False)

    async def _follow(self, seat: int | None) -> None:
        watch = self.hub.watch(self.table_id, self.identity, seat)
        async for item in watch:
            if isinstance(item, Welcome | StepUpdate):
                self.state_id = item.state_id
                for event in item.events:
                    if isinstance(event, Dealt):
                        while len(self.cards) <= event.seat:
                            self.cards.append(None)
                        self.cards[event.seat] = event.card
                over = isinstance(item, StepUpdate) and not item.pending  # nobody asked: the end
                self.query_one("#table", Static).update(
                    f"TABLE state={item.state_id} CARDS {self.cards}" + (" OVER" if over else "")
                )
            elif isinstance(item, Notice):
                self.query_one("#notice", Static).update(f"NOTICE {item.text}")
            elif isinstance(item, ChatLine):
                self.query_one("#chat", Static).update(f"CHAT {item.nickname}: {item.text}")

    async def action_roll(self) -> None:
        await self._submit(Roll())

    async def action_stop(self) -> None:
        await self._submit(Stop())

    async def _submit(self, action: object) -> None:
        # A key pressed before the bot's step arrived is refused (stale / not your turn), as a
        # real screen shows it; it must not end the session.
        try:
            await self.hub.submit(self.table_id, self.identity, self.seat, action, self.state_id)
        except (IllegalAction, ValueError) as err:  # as the real screens: rules or hub refusal
            self.query_one("#notice", Static).update(f"REFUSED {err}")

    def action_crash(self) -> None:
        raise RuntimeError("boom")


def make_app(*, hub, identity, driver_class, data_dir):
    return MiniApp(hub, identity, driver_class=driver_class, data_dir=data_dir)
