"""The in-process hub: every table of this process, who sits where, and the lobby.

Owns `LocalHub`, the implementation of `net.hub.Hub` used by local play and by the SSH server:
table creation and the server's policy for it, taking and leaving seats (one identity may hold
several: hot-seat), guests and away players, private invite codes, chat limits, the lobby
stream, abandoning a local game, restoring tables at start, and the one path of an accepted
action (DESIGN.md): ``Table.submit`` -> durable log append (fsync, `net.persist`) -> put on
every viewer's queue. The pieces it composes: `net.room` (one table: seat slots and status),
`net.viewer` (one viewer's bounded stream), `net.scheduler` (bots, timers, stand-ins) and
`net.persist` (the files).

Must not: import tui, know one game from another (games come from `core.registry` or the
``games=`` mapping), write files itself (that is `net.persist`), or touch a viewer's screen —
it only puts messages on each viewer's own bounded queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from core import registry
from core.game import (
    ConfigError,
    Game,
    GameOver,
    NotYourTurn,
    Seat,
    Step,
    Table,
    config_from_options,
    redacted,
)
from net.hub import (
    ChatLine,
    HubError,
    Identity,
    Notice,
    StepUpdate,
    TableChanged,
    TableInfo,
    TableSpec,
    Update,
    Welcome,
)
from net.lobby_feed import follow_lobby, wake
from net.not_copied import NotCopied
from net.persist import Restored, TableStore
from net.room import OPEN_NAME, Room, TableStatus
from net.sanitize import clean_chat, clean_nickname, clean_seat_name
from net.scheduler import Reason, Scheduler, Timing
from net.viewer import Viewer
from replays.format import commitment

__all__ = ["LocalHub", "build_table", "redacted"]

log = logging.getLogger("speedway.hub")

PAUSED = (
    "this server lost touch with the shared bus, so another server may take the table over; "
    "it waits until the bus answers again."
)
"""Why a table on a bus waits (`net.bus_hub` pauses it; a step whose copy failed withholds it)."""
WITHHELD = (
    "Your move is kept, but not shown yet: " + PAUSED + " If another server takes the table "
    "over first, the move is not made; make it again there."
)

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


class LocalHub:
    """All tables of this process. See the module docstring; `net.hub.Hub` is the contract.

    ``games`` maps game ids to games (tests inject the Dash game); by default games come from
    `core.registry`. ``bot_delay`` is the default pause before a bot acts (0 in tests),
    ``away_grace`` the default time before an away player's bot takes over. ``persist`` with a
    ``data_dir`` keeps durable logs under ``DATA/tables`` and finished replays under
    ``DATA/replays``; unfinished tables are restored from their logs at construction, and
    tables still waiting for players from their waiting records.

    ``away_bots`` (default on): after the grace period a bot plays an away player's seat. Local
    play turns it off: a local human's seat is never played by a bot, the table waits (paused)
    until they resume it or abandon it.

    ``network`` (the SSH server) guards a shared server against its users: a table's seed is
    always a fresh secret one (a chosen seed would tell its chooser every die), bot delays, turn
    timers and grace periods have floors, and one identity may have at most
    ``max_tables_per_identity`` unfinished tables. Finished tables leave the list
    ``finished_keep`` seconds after they end (their replays stay on disk), and at most
    ``max_finished`` stay listed: beyond that the oldest that nobody looks at leave at once.
    A finished table is its whole race in memory (~0.4 MiB for Cthulhu 500): on a busy server
    the ten minutes' worth grew the process by tens of MiB and cluttered the lobby.

    ``restore=False`` (several processes sharing one data dir, `net.bus_hub`): nothing is
    restored at construction; a table comes back only when `adopt` is asked for it (by the
    process that won its lease). ``mirror`` (a `net.log_mirror.LogMirror`): every durable
    write is also copied to Redis, for owners on other machines.
    """

    def __init__(
        self,
        data_dir: Path | None,
        *,
        bot_delay: float = 0.6,
        persist: bool = True,
        games: Mapping[str, Game] | None = None,
        away_grace: float = 60.0,
        turn_timer: float | None = None,
        chat_burst: int = 5,
        chat_window: float = 10.0,
        max_queue: int = 10_000,
        lobby_interval: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        network: bool = False,
        max_tables_per_identity: int = 5,
        finished_keep: float = 600.0,
        max_finished: int = 20,
        away_bots: bool = True,
        salt: Callable[[], bytes] | None = None,
        restore: bool = True,
        mirror: Any = None,
    ) -> None:
        self.data_dir = data_dir
        self.chat_burst = chat_burst
        self.chat_window = chat_window
        self.max_queue = max_queue
        self.lobby_interval = lobby_interval
        self.clock = clock
        self.wall = wall  # when a table was last played, for people (`TableInfo.played_at`)
        self.network = network
        self.max_tables_per_identity = max_tables_per_identity
        self.finished_keep = finished_keep
        self.max_finished = max_finished
        self.scheduler = Scheduler(
            Timing(
                bot_delay=bot_delay,
                away_grace=away_grace,
                turn_timer=turn_timer,
                away_bots=away_bots,
            ),
            clock,
            self._auto_play,
            self._stop,
        )
        # The salt of a commitment made without a durable log (tests pin it: snapshots show it).
        self._salt = salt if salt is not None else (lambda: secrets.token_bytes(16))
        self._games = dict(games) if games is not None else None
        self._rooms: dict[str, Room] = {}
        self._codes: dict[str, str] = {}
        self._lobby_waiters: list[asyncio.Event] = []
        self.lobby_listeners: list[Callable[[], None]] = []  # called on every lobby change
        self._closing = False
        self._store: TableStore | None = None
        self.trace: Any = None  # a `net.trace.Trace` when the load benchmark asks for one
        if persist and data_dir is not None:
            # Without restoring here, this dir is shared with other processes: lock files.
            self._store = TableStore(Path(data_dir), mirror=mirror, locks=not restore)
            if restore:
                for restored in self._store.restore_all(self._game, build_table):
                    self._adopt_restored(restored)

    # ------------------------------------------------------------------ lookups

    def find_game(self, game_id: str) -> Game:
        """The game called ``game_id`` (raises `HubError` config-refused)."""
        return self._game(game_id)

    def _game(self, game_id: str) -> Game:
        if self._games is not None:
            game = self._games.get(game_id)
            if game is None:
                known = ", ".join(sorted(self._games))
                raise HubError(
                    "config-refused",
                    f"There is no game called {game_id!r}; the games are: {known}.",
                )
            return game
        try:
            return registry.get(game_id)
        except registry.UnknownGame as err:
            raise HubError("config-refused", str(err)) from None

    def _room(self, table_id: str) -> Room:
        room = self._rooms.get(table_id)
        if room is None:
            raise _no_table(table_id)
        return room

    def _visible_room(self, table_id: str, who: Identity) -> Room:
        room = self._room(table_id)
        if not room.visible(who):
            raise _no_table(table_id)  # a private table one may not see is not there
        return room

    def table(self, table_id: str) -> Table:
        """The authoritative core table (for tests, the bench and the server's exec commands)."""
        return self._room(table_id).table

    def info(self, table_id: str) -> TableInfo:
        return self._room(table_id).info()

    def invite_code(self, table_id: str, who: Identity) -> str | None:
        """The invite code of a private table (only for someone sitting at it or invited)."""
        room = self._room(table_id)
        if who.id not in room.holders and who.id not in room.invited and who.id != room.creator:
            raise HubError("not-seated", "Only players at this table can see its invite code.")
        return room.invite_code

    # ------------------------------------------------------------------ lobby

    def tables(self, who: Identity) -> list[TableInfo]:
        return [r.info() for r in self._rooms.values() if r.visible(who)]

    async def watch_lobby(self, who: Identity) -> AsyncIterator[list[TableInfo]]:
        feed = follow_lobby(
            self._lobby_waiters, lambda: self.tables(who), lambda: self.lobby_interval
        )
        async with contextlib.aclosing(feed):  # the waiter goes when the session stops
            async for tables in feed:
                yield tables

    def _lobby_changed(self) -> None:
        wake(self._lobby_waiters)
        for listener in self.lobby_listeners:
            listener()

    def rooms(self) -> list[Room]:
        """Every table of this process (for the bus that publishes them)."""
        return list(self._rooms.values())

    def game_of(self, table_id: str) -> Game:
        return self._room(table_id).game

    def has(self, table_id: str) -> bool:
        return table_id in self._rooms

    def stored_tables(self) -> list[str]:
        """Ids of the tables in the data dir (logs and waiting records), ours or not."""
        return self._store.table_ids() if self._store is not None else []

    def adopt(self, table_id: str) -> bool:
        """Take over a table from the data dir (its owner died): restored, scheduled, listed."""
        if table_id in self._rooms or self._store is None or self._closing:
            return table_id in self._rooms
        restored = self._store.restore_one(table_id, self._game, build_table)
        if restored is None:
            return False
        self._adopt_restored(restored)
        room = self._rooms.get(table_id)
        if room is None:
            return False
        log.info("table adopted id=%s", table_id)
        self.scheduler.kick(room)
        self._lobby_changed()
        return True

    def let_go(self, table_id: str, message: str) -> None:
        """Another process owns this table now: stop playing it here and forget it (files stay:
        they are the new owner's)."""
        room = self._rooms.get(table_id)
        if room is None:
            return
        room.stopped = message
        self._notice(room, message)
        self._end_viewers(room)
        if room.task is not None:
            room.task.cancel()
        if self._store is not None:
            self._store.let_go(table_id)
        self._forget_room(room)

    # ------------------------------------------------------------------ tables

    async def create_table(self, spec: TableSpec, who: Identity) -> str:
        if self._closing:
            raise HubError("config-refused", "The server is shutting down; no new tables.")
        if self.network:
            spec = _network_spec(spec)
            mine = sum(
                1
                for r in self._rooms.values()
                if r.creator == who.id and r.status is not TableStatus.FINISHED
            )
            if mine >= self.max_tables_per_identity:
                raise HubError(
                    "config-refused",
                    f"You already have {mine} unfinished tables; finish or leave one first.",
                )
        game = self._game(spec.game)
        seats: list[Seat] = []
        for i, s in enumerate(spec.seats):
            if s.kind == "bot":
                bot = s.bot if s.bot is not None else game.default_bot
                if bot not in game.bots:
                    raise HubError("config-refused", f"{game.title} has no bot called {bot!r}.")
                seats.append(Seat(name=clean_seat_name(s.name or bot, f"bot{i + 1}"), bot=bot))
            elif s.kind == "human":
                ident = s.identity or who.id
                name = clean_seat_name(s.name or who.nickname, f"player{i + 1}")
                seats.append(Seat(name=name, identity=ident))
            else:
                seats.append(Seat(name=OPEN_NAME))
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
        table = build_table(game, spec, seats, seed)
        table_id = self._new_id()
        room = Room(table_id, game, table, spec)
        for slot, s in zip(room.slots, spec.seats, strict=True):
            slot.open = s.kind == "open"
            slot.guest = who.guest and slot.holder == who.id
        room.creator = who.id
        if spec.private:
            room.invite_code = self._new_code()
            room.invited.add(who.id)
        # Without a durable log the commitment uses an in-memory salt; with one, the log's, made
        # when the race starts (a waiting table shows none: one that changed would not verify).
        if self._store is None:
            room.commitment = commitment(seed, self._salt())
        if any(s.open for s in room.slots) and self._store is not None:
            try:  # durable before anyone sees it: a restart brings the waiting table back
                self._store.wait(room.record(), table.seed)
            except OSError as err:
                log.error("table %s: the waiting table could not be saved: %s", table_id, err)
                raise HubError(
                    "table-stopped",
                    f"The table could not be saved ({err.strerror or err}); try again.",
                ) from None
        if room.invite_code is not None:
            self._codes[room.invite_code] = table_id
        self._rooms[table_id] = room
        log.info("table created id=%s game=%s by=%s", table_id, game.id, who.id)
        if not any(s.open for s in room.slots):
            self._start(room)
        self._lobby_changed()
        return table_id

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self._rooms and (
                self._store is None or not self._store.exists(table_id)
            ):
                return table_id

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))
            if code not in self._codes:
                return code

    async def join_private(self, code: str, who: Identity) -> str:
        table_id = self._codes.get(code.strip().upper())
        if table_id is None or table_id not in self._rooms:
            raise HubError("no-such-table", "No table has that invite code.")
        room = self._rooms[table_id]
        if who.id not in room.invited:
            room.invited.add(who.id)
            self._save_record(room)  # the table stays in their lobby after a restart
        self._lobby_changed()
        return table_id

    async def take_seat(self, table_id: str, seat: int, who: Identity) -> None:
        room = self._visible_room(table_id, who)
        if not 0 <= seat < len(room.slots):
            raise HubError("seat-taken", f"There is no seat {seat + 1} at this table.")
        if room.holds(seat, who.id):
            self._back(room, who.id)
            return
        if not room.slots[seat].open:
            raise HubError("seat-taken", f"Seat {seat + 1} is taken.")
        if room.status is TableStatus.FINISHED:
            raise HubError("table-stopped", "This race is over.")
        room.sit(seat, who.id, clean_seat_name(who.nickname), guest=who.guest)
        self._back(room, who.id)
        if room.status is TableStatus.WAITING and not any(s.open for s in room.slots):
            self._start(room)
        else:
            self._save_record(room)  # who sits where survives a restart (waiting or running)
        self._table_changed(room)

    async def leave(self, table_id: str, who: Identity) -> None:
        room = self._room(table_id)
        seats = room.seat_of(who.id)
        if not seats:
            return
        if who.guest or who.id in room.guests or room.status is TableStatus.WAITING:
            for s in seats:
                room.vacate(s)
            room.away_since.pop(who.id, None)
            self._notice(room, f"{clean_seat_name(who.nickname)} left the table.")
            self._save_record(room)
        else:
            self._away(room, who.id, who.nickname)
        self._table_changed(room)
        self._drop_if_abandoned(room)

    def _start(self, room: Room) -> None:
        room.status = TableStatus.RUNNING
        room.step_time = self.clock()
        room.played_at = self.wall()
        if self._store is not None:
            try:
                room.commitment = self._store.start(room.record(), room.table)
            except OSError as err:
                self._break(room, err)
        self.scheduler.kick(room)

    # ------------------------------------------------------------------ viewers

    def watch(self, table_id: str, who: Identity, seat: int | None) -> Viewer:
        room = self._visible_room(table_id, who)
        if seat is not None and not room.holds(seat, who.id):
            raise HubError("not-seated", f"You do not hold seat {seat + 1} at this table.")
        viewer = Viewer(
            room.id,
            who,
            seat,
            max_queue=self.max_queue,
            forget=lambda v: self._forget(room, v),
        )
        events: list[Any] = []
        acked = room.table.history[: room.acked + 1]
        for step in acked:
            events += redacted(room.game, step.events, seat)
        viewer.put(
            Welcome(
                table=room.info(),
                seat=seat,
                config=room.table.config,
                events=events,
                state_id=acked[-1].state_id,
            )
        )
        room.viewers.append(viewer)
        if who.id in room.holders:
            self._back(room, who.id)
        if seat is None:
            self._table_changed(room)
        self.scheduler.kick(room)
        return viewer

    def _forget(self, room: Room, viewer: Viewer) -> None:
        if viewer in room.viewers:
            room.viewers.remove(viewer)
        ident = viewer.who.id
        if ident in room.holders and not any(v.who.id == ident for v in room.viewers):
            if viewer.who.guest and room.status is not TableStatus.FINISHED:
                # Guests keep no seat: it opens for anyone (its bot plays meanwhile).
                for s in room.seat_of(ident):
                    room.vacate(s)
                self._notice(room, f"{clean_seat_name(viewer.who.nickname)} left the table.")
                self._save_record(room)
            elif room.status is not TableStatus.FINISHED:
                self._away(room, ident, viewer.who.nickname)
        self._table_changed(room)
        self._drop_if_abandoned(room)
        if room.status is TableStatus.FINISHED and not room.viewers:
            self._trim_finished()

    def _away(self, room: Room, ident: str, nickname: str) -> None:
        if ident not in room.away_since:
            room.away_since[ident] = self.clock()
            self._notice(room, f"{clean_seat_name(nickname)} is away.")
            self.scheduler.kick(room)

    def _back(self, room: Room, ident: str) -> None:
        room.end_stand_ins(ident)
        if room.away_since.pop(ident, None) is not None:
            names = {room.table.seats[s].name for s in room.seat_of(ident)}
            self._notice(room, f"{', '.join(sorted(names))} is back.")
            self._table_changed(room)
            self.scheduler.kick(room)

    def _broadcast(self, room: Room, make: Callable[[int | None], Update | None]) -> None:
        cache: dict[int | None, Update | None] = {}
        for viewer in list(room.viewers):
            if viewer.seat not in cache:
                cache[viewer.seat] = make(viewer.seat)
            item = cache[viewer.seat]
            if item is not None:
                viewer.put(item)

    def _notice(self, room: Room, text: str) -> None:
        note = Notice(text=text)
        self._broadcast(room, lambda _seat: note)

    def _table_changed(self, room: Room) -> None:
        msg = TableChanged(table=room.info())
        self._broadcast(room, lambda _seat: msg)
        self._lobby_changed()

    def _end_viewers(self, room: Room) -> None:
        for viewer in list(room.viewers):
            viewer.end()
        room.viewers.clear()

    # ------------------------------------------------------------------ actions

    async def abandon(self, table_id: str, who: Identity) -> None:
        room = self._room(table_id)
        if self.network:
            raise HubError(
                "config-refused", "A table on a server cannot be abandoned; leave it instead."
            )
        if not room.seat_of(who.id):
            raise HubError("not-seated", "Only a player at this table can abandon it.")
        if room.status is TableStatus.FINISHED:
            raise HubError("table-stopped", "This race is over; there is nothing to abandon.")
        self._rooms.pop(table_id, None)
        if room.invite_code is not None:
            self._codes.pop(room.invite_code, None)
        if room.task is not None:
            room.task.cancel()
        self._notice(room, f"{clean_seat_name(who.nickname)} abandoned the game.")
        self._end_viewers(room)
        if self._store is not None:
            if room.io is not None:  # a write still landing: let it finish first
                await asyncio.gather(room.io, return_exceptions=True)
            try:
                self._store.abandon(table_id)
            except OSError as err:
                log.error("table %s: its files could not be removed: %s", table_id, err)
        log.info("table abandoned id=%s by=%s", table_id, who.id)
        self._lobby_changed()

    async def submit(
        self, table_id: str, who: Identity, seat: int, action: Any, state_id: int
    ) -> None:
        room = self._room(table_id)
        if not room.holds(seat, who.id):
            raise HubError("not-seated", f"You do not hold seat {seat + 1} at this table.")
        if room.status is TableStatus.WAITING:
            raise NotYourTurn("The race starts when every seat is taken.")
        self._back(room, who.id)
        await self._accept(room, seat, action, state_id)

    async def _io(self, room: Room, fn: Callable[..., Any], *args: Any) -> Any:
        """Run blocking disk work for ``room`` in a thread; `close` waits for it."""
        fut = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        room.io = fut
        return await asyncio.shield(fut)

    def _stopped_error(self, room: Room) -> HubError:
        return HubError("table-stopped", f"This table stopped: {room.stopped}")

    async def _accept(self, room: Room, seat: int, action: Any, state_id: int | None) -> Step:
        async with room.lock:
            if room.stopped is not None:
                raise self._stopped_error(room)
            if room.status is TableStatus.FINISHED:
                raise GameOver()
            if room.seats_dirty and self._store is not None:
                try:  # who plays which seat from this step on, before the step itself
                    await self._io(room, self._store.seats, room.id, room.seats_now())
                except OSError as err:
                    self._break(room, err)
                    raise self._stopped_error(room) from None
            room.seats_dirty = False
            step = room.table.submit(seat, action, state_id)
            # Durable first: a broadcast the log does not hold could be lost by a crash.
            if self._store is not None:
                try:
                    await self._io(room, self._store.append, room.id, step)
                except NotCopied:
                    self._withhold(room)
                    raise HubError("table-stopped", WITHHELD) from None
                except OSError as err:
                    self._break(room, err)
                    raise self._stopped_error(room) from None
            room.acked = len(room.table.history) - 1
            self._after_accept(room, step)
            if room.table.result() is not None:
                await self._finish(room)
        self.scheduler.kick(room)
        return step

    def _after_accept(self, room: Room, step: Step) -> None:
        room.step_time = self.clock()
        room.played_at = self.wall()
        room.turn += sum(1 for event in step.events if room.game.turn_started(event))
        pending = list(room.table.pending())
        if self.trace is not None:
            self.trace.step(room.id, step.state_id, len(room.viewers))
        self._broadcast(
            room,
            lambda s: StepUpdate(
                state_id=step.state_id,
                seat=step.seat,
                events=redacted(room.game, step.events, s),
                pending=pending,
            ),
        )

    async def _finish(self, room: Room) -> None:
        if self._store is not None:
            try:
                room.replay_id = await self._io(
                    room, self._store.finish, room.record(), room.game, room.table
                )
            except OSError as err:
                log.error("table %s: could not save the replay: %s", room.id, err)
        room.status = TableStatus.FINISHED  # after the replay exists, so it has its id
        room.finished_at = self.clock()
        room.away_since.clear()  # nobody is "away" from a race that is over
        result = room.table.result()
        if result is not None:
            self._notice(room, f"The race is over: {result.summary_for(room.table.names)}.")
        self._table_changed(room)
        with contextlib.suppress(RuntimeError):  # no running loop: kept until restart
            asyncio.get_running_loop().call_later(self.finished_keep, self._drop_room, room.id)
        self._trim_finished()

    def _trim_finished(self) -> None:
        """At most ``max_finished`` finished tables stay: the oldest nobody looks at go."""
        finished = [r for r in self._rooms.values() if r.status is TableStatus.FINISHED]
        excess = len(finished) - self.max_finished
        if excess <= 0:
            return
        unwatched = sorted((r for r in finished if not r.viewers), key=lambda r: r.finished_at)
        for room in unwatched[:excess]:
            self._forget_room(room)

    def _forget_room(self, room: Room) -> None:
        self._rooms.pop(room.id, None)
        if room.invite_code is not None:
            self._codes.pop(room.invite_code, None)
        self._lobby_changed()

    def _drop_if_abandoned(self, room: Room) -> None:
        """A table that never started and that nobody holds or watches any more goes away."""
        if room.abandoned():
            if self._store is not None:
                try:
                    self._store.drop(room.id)
                except OSError as err:
                    log.error("table %s: its waiting record could not be removed: %s", room.id, err)
            self._forget_room(room)

    def _drop_room(self, table_id: str) -> None:
        room = self._rooms.get(table_id)
        if room is None or room.status is not TableStatus.FINISHED:
            return
        if room.viewers:  # someone is still looking at the result: ask again later
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_later(self.finished_keep, self._drop_room, table_id)
            return
        self._forget_room(room)

    def _save_record(self, room: Room) -> None:
        if self._store is not None:
            try:
                self._store.update_meta(room.record())
            except OSError as err:
                self._break(room, err)

    def _withhold(self, room: Room) -> None:
        """The step just accepted is on disk but not in Redis, and another machine could take
        the table over from the copy there: the step is not broadcast (not acknowledged) and
        the table waits (`net.bus_hub` releases it once the bus answers; if another machine
        took the table meanwhile, the step goes with the table, never having been shown)."""
        log.warning("table %s: a step's copy could not reach Redis; withheld, paused", room.id)
        room.withheld = True
        if room.stopped is None:
            room.stopped = PAUSED
            self._notice(room, "This table is paused: " + PAUSED)

    async def release_withheld(self, room: Room) -> bool:
        """Copy the withheld steps to Redis and broadcast them (False: still cannot copy)."""
        async with room.lock:
            if not room.withheld:
                return True
            if self._store is not None:
                try:
                    await self._io(room, self._store.copy_steps, room.id)
                except OSError:
                    return False
            room.withheld = False
            start = room.acked + 1
            for index, step in enumerate(room.table.history[start:], start):
                room.acked = index
                self._after_accept(room, step)
            log.info("table %s: withheld steps copied and shown", room.id)
            if room.table.result() is not None:
                await self._finish(room)
        return True

    def _break(self, room: Room, err: OSError) -> None:
        # A failed fsync may have lost pages; never retry it (fsyncgate). Stop the table.
        log.error("table %s: durable log failed, table stopped: %s", room.id, err)
        self._stop(room, f"the table log could not be saved ({err.strerror or err}).")

    def _stop(self, room: Room, why: str) -> None:
        room.stopped = why
        self._notice(room, f"This table stopped: {why}")

    async def hint(self, table_id: str, who: Identity, seat: int, bot: str | None) -> Any:
        room = self._room(table_id)
        if not room.holds(seat, who.id):
            raise HubError("not-seated", f"You do not hold seat {seat + 1} at this table.")
        try:
            return room.table.suggest(seat, bot)
        except ConfigError as err:
            raise HubError("config-refused", str(err)) from None

    async def chat(self, table_id: str, who: Identity, text: str) -> None:
        room = self._visible_room(table_id, who)
        line = clean_chat(text)
        if not line:
            raise HubError("config-refused", "Say something with at least one visible character.")
        now = self.clock()
        times = room.chat_times.setdefault(who.id, deque())
        while times and now - times[0] > self.chat_window:
            times.popleft()
        if len(times) >= self.chat_burst:
            raise HubError("rate-limited", "You are sending messages too fast; wait a few seconds.")
        times.append(now)
        seats = room.seat_of(who.id)
        msg = ChatLine(
            nickname=clean_nickname(who.nickname), text=line, seat=seats[0] if seats else None
        )
        self._broadcast(room, lambda _seat: msg)

    # ------------------------------------------------------------------ automatic play

    async def _auto_play(self, room: Room, seat: int, reason: Reason) -> None:
        table = room.table
        if reason == "bot":
            action = table.suggest(seat, table.seats[seat].bot)
        else:
            action = table.suggest(seat, None)
            room.stand_in(seat, room.game.default_bot)
        name = table.seats[seat].name
        await self._accept(room, seat, action, table.state_id)
        if reason == "timer":
            self._notice(room, f"Time ran out: the bot played for {name}.")
        elif reason == "away":
            self._notice(room, f"{name} is away: the bot played for them.")

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Start the schedulers of restored tables (call once inside the running loop)."""
        for room in self._rooms.values():
            self.scheduler.kick(room)

    async def close(self, message: str = "The server is shutting down.") -> None:
        """Stop all tables: tell every viewer, end their streams, flush and close the logs."""
        self._closing = True
        self.scheduler.closing = True  # no new scheduler task from here on
        for room in self._rooms.values():
            self._notice(room, message)
            self._end_viewers(room)
        await self.scheduler.stop_all(list(self._rooms.values()))
        writes = [r.io for r in self._rooms.values() if r.io is not None]
        if writes:  # an append or a replay save still running in a thread: let it land
            await asyncio.gather(*writes, return_exceptions=True)
        if self._store is not None:
            self._store.close_all()
        self._lobby_changed()

    def _adopt_restored(self, restored: Restored) -> None:
        """Take a table back from its durable log or waiting record (`net.persist.Restored`).

        Guests: a guest identity dies with its connection (the next connection is a new guest),
        so after a restart a guest's seat opens for anyone, as when a guest disconnects live —
        at a running table its bot plays meanwhile, a waiting table waits for someone new. A
        waiting table left with no holder at all is abandoned (as when its last player leaves):
        it and its files go.
        """
        record = restored.record
        room = Room(record.table_id, restored.game, restored.table, record.spec)
        n = len(room.table.seats)
        opens = record.open if len(record.open) == n else [False] * n
        holders = record.holders if len(record.holders) == n else [None] * n
        for slot, holder, is_open in zip(room.slots, holders, opens, strict=True):
            slot.holder, slot.open = holder, is_open
        if len(record.seats) == n:  # names of players who took a seat mid-race
            for s, seat in enumerate(record.seats):
                if not room.table.seats[s].is_bot and not seat.is_bot:
                    room.table.seats[s] = seat
        guests = set(record.guests)
        for s, h in enumerate(holders):
            if h is not None and h in guests:
                room.vacate(s)
        room.creator = record.creator
        room.invite_code = record.invite_code
        room.invited = set(record.invited)
        if restored.waiting:
            room.commitment = ""  # committed when it starts, by its log (see `create_table`)
            room.status = TableStatus.WAITING
        else:
            room.commitment = restored.commitment
            room.status = TableStatus.RUNNING
        room.step_time = self.clock()
        room.played_at = restored.played_at
        # Nobody is watching after a restart: every human is away until they come back.
        now = self.clock()
        for h in room.holders:
            if h is not None:
                room.away_since[h] = now
        if room.invite_code:
            self._codes[room.invite_code] = room.id
        self._rooms[room.id] = room
        if room.table.result() is not None:
            room.status = TableStatus.FINISHED
        if any(h in guests for h in holders):
            self._save_record(room)
        self._drop_if_abandoned(room)


def _no_table(table_id: str) -> HubError:
    return HubError("no-such-table", f"There is no table {table_id!r}.")


_NETWORK_FLOORS = {"bot_delay": 0.2, "turn_timer": 10.0, "away_grace": 10.0}


def _network_spec(spec: TableSpec) -> TableSpec:
    """A table spec made safe for a shared server (see `LocalHub`'s ``network``)."""
    changes: dict[str, Any] = {"seed": None}
    for name, floor in _NETWORK_FLOORS.items():
        value = getattr(spec, name)
        if value is not None and value < floor:
            changes[name] = floor
    return msgspec.structs.replace(spec, **changes)


def build_table(game: Game, spec: TableSpec, seats: list[Seat], seed: int) -> Table:
    """The core table for ``spec`` (raises `HubError` with the game's one-sentence reason).

    A branch from a replay starts from the source game's past events (TableSpec docs).
    """
    try:
        config = config_from_options(game, spec.options)
    except ConfigError as err:
        raise HubError("config-refused", str(err)) from None
    past = (spec.branched_from or {}).get("events")
    if past is not None:
        past = [msgspec.convert(e, game.event_type) if isinstance(e, dict) else e for e in past]
    try:
        return Table(game, config, seats, seed, setup_events=past)
    except ConfigError as err:
        raise HubError("config-refused", str(err)) from None
