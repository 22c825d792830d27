"""The hub interface: what a screen (local or over SSH) may ask of the tables it sees.

Owns the *interface* between front ends and the table service — the `Hub` protocol, the
messages it sends and `HubError`, its refusals with kinds — so the in-process hub
(`net.local_hub.LocalHub`) and the hub of a process on a Redis bus (`net.bus_hub.BusHub`) are
one thing to the TUI, which cannot tell them apart.

Message flow for one viewer of one table (DESIGN.md): `watch()` yields a `Welcome` (the game id,
config, seats and every past event *redacted for this viewer*), then one `StepUpdate` per accepted
action (again redacted), plus `TableChanged`, `ChatLine` and `Notice` as they happen. The viewer
folds the events itself with `game.new_state` + `game.evolve`: that fold equals
`game.view(state, seat)`, so the screen never sees what its seat may not.

Must not: import tui, do rules (that is core), or know one game from another.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Literal, Protocol

import msgspec

__all__ = [
    "ChatLine",
    "Hub",
    "HubError",
    "HubErrorKind",
    "Identity",
    "Notice",
    "SeatInfo",
    "SeatSpec",
    "StepUpdate",
    "TableChanged",
    "TableInfo",
    "TableSpec",
    "Update",
    "Watch",
    "Welcome",
]


HubErrorKind = Literal[
    "no-such-table",
    "seat-taken",
    "not-seated",
    "table-stopped",
    "rate-limited",
    "config-refused",
    "bus-down",
]


class HubError(ValueError):
    """A request the hub refuses, with its ``kind`` and one sentence a player can read.

    Kinds (in the manner of boardgame.io's error types): ``no-such-table`` (unknown id or code,
    or a private table one may not see), ``seat-taken``, ``not-seated`` (acting for a seat one
    does not hold, or before the race starts), ``table-stopped`` (its durable log failed or a
    bot crashed — not "game over"), ``rate-limited`` (chat, invite codes), ``config-refused``
    (a table the game or the server's policy does not allow, a shutting-down server) and
    ``bus-down`` (a request that needs the shared bus while it is unreachable).

    It is a `ValueError` so front ends that show "a sentence the hub refused with" keep one
    ``except``; a rules refusal stays a `core.game.IllegalAction`.
    """

    def __init__(self, kind: HubErrorKind, sentence: str) -> None:
        super().__init__(sentence)
        self.kind: HubErrorKind = kind


class Identity(msgspec.Struct, frozen=True, kw_only=True):
    """Who is asking: a key fingerprint (or "local:NAME" for local play) and a nickname."""

    id: str
    nickname: str
    guest: bool = False


class SeatSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A seat when creating a table: a human (by identity), a named bot, or open for anyone."""

    kind: Literal["human", "bot", "open"]
    name: str = ""
    bot: str | None = None
    identity: str | None = None


class TableSpec(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    seats: list[SeatSpec]
    options: dict[str, Any] = {}
    private: bool = False
    seed: int | None = None  # None: a fresh secret seed from `secrets`
    bot_delay: float | None = None  # seconds between bot actions; None = hub default
    turn_timer: float | None = None  # seconds a human may think; None = no timer
    away_grace: float | None = None  # seconds before an away player's bot takes over
    branched_from: dict[str, Any] | None = None  # replay branch: source, step, past events
    coaching: bool = False  # a network table's creator allows coaching: shown to every player


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    bot: str | None = None
    identity: str | None = None
    open: bool = False
    away: bool = False
    guest: bool = False


class TableInfo(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str
    title: str
    summary: str  # mode/options in words, e.g. "Oval 500 miles"
    seats: list[SeatInfo]
    status: Literal["waiting", "running", "finished"]
    spectators: int = 0
    private: bool = False
    state_id: int = 0
    commitment: str = ""  # SHA-256 commitment to the seed, shown when the table starts
    seed: int | None = None  # revealed once the game has ended
    replay_id: str | None = None  # finished tables: the id `ssh host replay ID` serves
    turn: int = 0  # turns of the game begun so far (`Game.turn_started`), for "Resume … turn N"
    coaching: bool = False  # the creator allowed coaching: every player sees it (TableSpec)
    played_at: float = 0.0  # wall-clock time of its last move (Home lists kept games newest first)


class Welcome(msgspec.Struct, frozen=True, kw_only=True, tag="welcome"):
    table: TableInfo
    seat: int | None  # the perspective these events are redacted for (None = spectator)
    config: Any  # the game's config struct
    events: list[Any]  # every past event, redacted for `seat`
    state_id: int


class StepUpdate(msgspec.Struct, frozen=True, kw_only=True, tag="step"):
    state_id: int
    seat: int | None
    events: list[Any]  # redacted for the watcher's seat
    pending: list[int]  # seats asked after this step


class TableChanged(msgspec.Struct, frozen=True, kw_only=True, tag="table"):
    table: TableInfo


class ChatLine(msgspec.Struct, frozen=True, kw_only=True, tag="chat"):
    nickname: str
    text: str  # already sanitised by the hub
    seat: int | None = None


class Notice(msgspec.Struct, frozen=True, kw_only=True, tag="notice"):
    text: str  # "Ann is away", "the server is shutting down", "bot played for Ann (timer)"


Update = Welcome | StepUpdate | TableChanged | ChatLine | Notice


class Watch(Protocol):
    """One viewer's stream of updates for one table. Iterate it; `close()` when done."""

    closed: bool  # the stream has ended (closed by the viewer, or by the hub)

    def __aiter__(self) -> AsyncIterator[Update]: ...

    async def close(self) -> None: ...


class Hub(Protocol):
    """Everything a front end may do. Errors are `core.game.IllegalAction` (the rules refuse:
    a sentence to show) or `HubError` (the hub refuses: a kind and a sentence)."""

    def tables(self, who: Identity) -> list[TableInfo]:
        """Tables ``who`` may see: public ones, plus private ones they sit at."""

    def watch_lobby(self, who: Identity) -> AsyncIterator[list[TableInfo]]:
        """The table list now, then again every time it changes."""

    async def create_table(self, spec: TableSpec, who: Identity) -> str:
        """Create a table; return its id. Bots start as soon as no open seat is left."""

    async def join_private(self, code: str, who: Identity) -> str:
        """The table id behind a private invite code."""

    async def take_seat(self, table_id: str, seat: int, who: Identity) -> None:
        """Sit at an open seat (or return to one's own reserved seat)."""

    async def leave(self, table_id: str, who: Identity) -> None:
        """Stand up: the seat is kept for reconnect (keyed players) or opened (guests)."""

    async def abandon(self, table_id: str, who: Identity) -> None:
        """Give up a local game ``who`` sits at: it ends here, unplayed, and no replay is kept
        (refused at network tables, where others play on)."""

    def watch(self, table_id: str, who: Identity, seat: int | None) -> Watch:
        """Follow a table from ``seat``'s perspective (None = spectator)."""

    async def submit(
        self, table_id: str, who: Identity, seat: int, action: Any, state_id: int
    ) -> None:
        """Play ``action`` for ``seat`` (which ``who`` must hold), built on ``state_id``."""

    async def hint(self, table_id: str, who: Identity, seat: int, bot: str | None) -> Any:
        """What a bot would play for ``seat`` now (for hints and auto-play)."""

    async def chat(self, table_id: str, who: Identity, text: str) -> None:
        """Say something at a table (sanitised and rate-limited by the hub)."""

    def invite_code(self, table_id: str, who: Identity) -> str | None:
        """The invite code of a private table (only for someone at it or invited), else None."""

    async def start(self) -> None:
        """Start what runs by itself (bots and timers of restored tables); once, in the loop."""

    async def close(self, message: str = "The server is shutting down.") -> None:
        """Stop every table: tell every viewer, end their streams, flush the logs."""
