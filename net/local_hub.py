"""The in-process hub: every table of this process, its seats, viewers, bots and timers.

Owns `LocalHub`, the implementation of `net.hub.Hub` used by local play and by the SSH server:
tables by id (each an authoritative `core.game.Table`), who holds which seat (one identity may
hold several: hot-seat), spectator and player streams redacted per viewer, bots acting after a
delay, turn timers, the away grace period (and the seats records of the stretches a bot plays
for an absent player), private invite codes, chat, the lobby stream, and abandoning a local
game.
The order of one accepted action is fixed (DESIGN.md): ``Table.submit`` -> durable log append
(fsync, `net.persist`) -> broadcast to every viewer of that table.

Must not: import tui, know one game from another (games come from `core.registry` or the
``games=`` mapping), write files itself (that is `net.persist`), or touch a viewer's screen —
it only puts messages on each viewer's own bounded queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
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
    IllegalAction,
    NotYourTurn,
    Seat,
    Step,
    Table,
    config_from_options,
)
from net.hub import (
    ChatLine,
    Identity,
    Notice,
    SeatInfo,
    StepUpdate,
    TableChanged,
    TableInfo,
    TableSpec,
    Update,
    Welcome,
)
from net.sanitize import clean_chat, clean_nickname
from replays.format import commitment

__all__ = ["LocalHub"]

log = logging.getLogger("speedway.hub")

OPEN_NAME = "(open seat)"
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


class _Closed:
    """Sentinel ending a viewer's stream."""


_CLOSE = _Closed()


class _Watch:
    """One viewer's stream of updates for one table (implements `net.hub.Watch`)."""

    def __init__(self, hub: LocalHub, room: _Room, who: Identity, seat: int | None) -> None:
        self.hub = hub
        self.room = room
        self.who = who
        self.seat = seat
        self._items: deque[Update | _Closed] = deque()
        self._ready = asyncio.Event()
        self.closed = False

    def put(self, item: Update | _Closed) -> None:
        if self.closed:
            return
        if len(self._items) >= self.hub.max_queue and not isinstance(item, _Closed):
            # A viewer this far behind cannot catch up by folding; end its stream (it may
            # reopen and get a fresh Welcome) instead of buffering without bound.
            self._items.clear()
            self._items.append(Notice(text="You fell too far behind; reopen the table."))
            self._items.append(_CLOSE)
            self.closed = True
            self.hub._forget(self)
        else:
            self._items.append(item)
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[Update]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Update]:
        while True:
            while not self._items:
                self._ready.clear()
                await self._ready.wait()
            item = self._items.popleft()
            if isinstance(item, _Closed):
                return
            yield item

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._items.append(_CLOSE)
            self._ready.set()
            self.hub._forget(self)


class _Room:
    """One table as the hub keeps it."""

    def __init__(self, table_id: str, game: Game, table: Table, spec: TableSpec) -> None:
        self.id = table_id
        self.game = game
        self.table = table
        self.spec = spec
        self.summary = _summary(game, spec.options)  # the options never change: word them once
        self.holders: list[str | None] = [s.identity for s in table.seats]
        self.guests: set[str] = set()
        self.open: list[bool] = [False] * len(table.seats)
        self.status = "waiting"
        self.watchers: list[_Watch] = []
        self.away_since: dict[str, float] = {}
        self.invited: set[str] = set()
        self.invite_code: str | None = None
        self.creator: str = ""
        self.step_time = 0.0
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.chat_times: dict[str, deque[float]] = {}
        self.replay_id: str | None = None
        self.broken: str | None = None  # why the durable log stopped (fsync failure)
        # One action at a time per table; the disk work runs in a thread (so one table's fsync
        # never stalls every session) and `acked` is the last history index broadcast (a
        # Welcome never shows a step whose StepUpdate is still to come).
        self.lock = asyncio.Lock()
        self.acked = len(table.history) - 1
        self.io: asyncio.Future[Any] | None = None
        self.commitment = ""
        # Seats a bot plays for an absent (or timed-out) human: seat -> bot; `seats_dirty` until
        # the change is in the log (written just before the next step, under the lock).
        self.stand_in: dict[int, str] = {}
        self.seats_dirty = False
        self.turn = sum(
            1 for step in table.history for event in step.events if game.turn_started(event)
        )

    def seat_of(self, identity: str) -> list[int]:
        return [i for i, h in enumerate(self.holders) if h == identity]


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
    ``finished_keep`` seconds after they end (their replays stay on disk).
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
        network: bool = False,
        max_tables_per_identity: int = 5,
        finished_keep: float = 600.0,
        away_bots: bool = True,
        salt: Callable[[], bytes] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.away_grace = away_grace
        self.turn_timer = turn_timer
        self.chat_burst = chat_burst
        self.chat_window = chat_window
        self.max_queue = max_queue
        self.lobby_interval = lobby_interval
        self.clock = clock
        self.network = network
        self.max_tables_per_identity = max_tables_per_identity
        self.finished_keep = finished_keep
        self.away_bots = away_bots
        # The salt of a commitment made without a durable log (tests pin it: snapshots show it).
        self._salt = salt if salt is not None else (lambda: secrets.token_bytes(16))
        self._games = dict(games) if games is not None else None
        self._rooms: dict[str, _Room] = {}
        self._codes: dict[str, str] = {}
        self._lobby_waiters: list[asyncio.Event] = []
        self._closing = False
        self._store: Any = None
        self.trace: Any = None  # a `net.trace.Trace` when the load benchmark asks for one
        if persist and data_dir is not None:
            from net.persist import TableStore

            self._store = TableStore(Path(data_dir))
            for restored in self._store.restore_all(self._game, _build_table):
                self._adopt_restored(restored)

    # ------------------------------------------------------------------ lookups

    def _game(self, game_id: str) -> Game:
        if self._games is not None:
            game = self._games.get(game_id)
            if game is None:
                known = ", ".join(sorted(self._games))
                raise ValueError(f"There is no game called {game_id!r}; the games are: {known}.")
            return game
        try:
            return registry.get(game_id)
        except registry.UnknownGame as err:
            raise ValueError(str(err)) from None

    def _room(self, table_id: str) -> _Room:
        room = self._rooms.get(table_id)
        if room is None:
            raise ValueError(f"There is no table {table_id!r}.")
        return room

    def table(self, table_id: str) -> Table:
        """The authoritative core table (for tests, the bench and the server's exec commands)."""
        return self._room(table_id).table

    def info(self, table_id: str) -> TableInfo:
        return self._info(self._room(table_id))

    def _info(self, room: _Room) -> TableInfo:
        finished = room.status == "finished"
        seats = []
        for i, seat in enumerate(room.table.seats):
            holder = room.holders[i]
            seats.append(
                SeatInfo(
                    name=seat.name,
                    bot=seat.bot,
                    identity=holder,
                    open=room.open[i],
                    away=holder is not None and holder in room.away_since and not finished,
                    guest=holder is not None and holder in room.guests,
                )
            )
        spectators = sum(1 for w in room.watchers if w.seat is None)
        return TableInfo(
            id=room.id,
            game=room.game.id,
            title=f"{room.game.title} #{room.id}",
            summary=room.summary,
            seats=seats,
            status=room.status,  # type: ignore[arg-type]
            spectators=spectators,
            private=room.spec.private,
            state_id=room.table.history[room.acked].state_id,
            commitment=room.commitment,
            seed=room.table.seed if finished else None,
            replay_id=room.replay_id,
            turn=room.turn,
        )

    def invite_code(self, table_id: str, who: Identity) -> str | None:
        """The invite code of a private table (only for someone sitting at it or invited)."""
        room = self._room(table_id)
        if who.id not in room.holders and who.id not in room.invited and who.id != room.creator:
            raise ValueError("Only players at this table can see its invite code.")
        return room.invite_code

    # ------------------------------------------------------------------ lobby

    def _visible(self, room: _Room, who: Identity) -> bool:
        return (
            not room.spec.private
            or who.id in room.holders
            or who.id in room.invited
            or who.id == room.creator
        )

    def tables(self, who: Identity) -> list[TableInfo]:
        return [self._info(r) for r in self._rooms.values() if self._visible(r, who)]

    async def watch_lobby(self, who: Identity) -> AsyncIterator[list[TableInfo]]:
        changed = asyncio.Event()
        self._lobby_waiters.append(changed)
        try:
            while True:
                changed.clear()
                yield self.tables(who)
                await changed.wait()
                if self.lobby_interval > 0:
                    await asyncio.sleep(self.lobby_interval)  # coalesce bursts of changes
        finally:
            self._lobby_waiters.remove(changed)

    def _lobby_changed(self) -> None:
        for ev in self._lobby_waiters:
            ev.set()

    # ------------------------------------------------------------------ tables

    async def create_table(self, spec: TableSpec, who: Identity) -> str:
        if self._closing:
            raise ValueError("The server is shutting down; no new tables.")
        if self.network:
            spec = _network_spec(spec)
            mine = sum(
                1 for r in self._rooms.values() if r.creator == who.id and r.status != "finished"
            )
            if mine >= self.max_tables_per_identity:
                raise ValueError(
                    f"You already have {mine} unfinished tables; finish or leave one first."
                )
        game = self._game(spec.game)
        seats: list[Seat] = []
        open_flags: list[bool] = []
        for i, s in enumerate(spec.seats):
            if s.kind == "bot":
                bot = s.bot if s.bot is not None else next(iter(game.bots))
                if bot not in game.bots:
                    raise ValueError(f"{game.title} has no bot called {bot!r}.")
                seats.append(Seat(name=clean_nickname(s.name or bot, f"bot{i + 1}"), bot=bot))
                open_flags.append(False)
            elif s.kind == "human":
                ident = s.identity or who.id
                name = clean_nickname(s.name or who.nickname, f"player{i + 1}")
                seats.append(Seat(name=name, identity=ident))
                open_flags.append(False)
            else:
                seats.append(Seat(name=OPEN_NAME))
                open_flags.append(True)
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
        table = _build_table(game, spec, seats, seed)
        table_id = self._new_id()
        room = _Room(table_id, game, table, spec)
        room.open = open_flags
        room.creator = who.id
        if who.guest:
            room.guests.update(h for h in room.holders if h == who.id)
        if spec.private:
            room.invite_code = self._new_code()
            room.invited.add(who.id)
        # Without a durable log the commitment uses an in-memory salt; with one, the log's.
        room.commitment = commitment(seed, self._salt())
        if any(room.open) and self._store is not None:
            try:  # durable before anyone sees it: a restart brings the waiting table back
                self._store.wait(room)
            except OSError as err:
                log.error("table %s: the waiting table could not be saved: %s", table_id, err)
                raise ValueError(
                    f"The table could not be saved ({err.strerror or err}); try again."
                ) from None
        if room.invite_code is not None:
            self._codes[room.invite_code] = table_id
        self._rooms[table_id] = room
        log.info("table created id=%s game=%s by=%s", table_id, game.id, who.id)
        if not any(room.open):
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
            raise ValueError("No table has that invite code.")
        room = self._rooms[table_id]
        if who.id not in room.invited:
            room.invited.add(who.id)
            self._save_meta(room)  # the table stays in their lobby after a restart
        self._lobby_changed()
        return table_id

    async def take_seat(self, table_id: str, seat: int, who: Identity) -> None:
        room = self._room(table_id)
        if not self._visible(room, who):
            raise ValueError(f"There is no table {table_id!r}.")
        if not 0 <= seat < len(room.holders):
            raise ValueError(f"There is no seat {seat + 1} at this table.")
        if room.holders[seat] == who.id:
            self._back(room, who.id)
            return
        if not room.open[seat]:
            raise ValueError(f"Seat {seat + 1} is taken.")
        if room.status == "finished":
            raise ValueError("This race is over.")
        room.holders[seat] = who.id
        room.open[seat] = False
        room.table.seats[seat] = Seat(name=clean_nickname(who.nickname), identity=who.id)
        if who.guest:
            room.guests.add(who.id)
        self._back(room, who.id)
        if room.status == "waiting" and not any(room.open):
            self._start(room)
        else:
            self._save_meta(room)  # who sits where survives a restart (waiting or running)
        self._table_changed(room)

    async def leave(self, table_id: str, who: Identity) -> None:
        room = self._room(table_id)
        seats = room.seat_of(who.id)
        if not seats:
            return
        if who.guest or who.id in room.guests or room.status == "waiting":
            for s in seats:
                room.holders[s] = None
                room.open[s] = True
                room.table.seats[s] = Seat(name=OPEN_NAME)
            room.away_since.pop(who.id, None)
            self._notice(room, f"{who.nickname} left the table.")
            self._save_meta(room)
        else:
            self._away(room, who.id, who.nickname)
        self._table_changed(room)
        self._drop_if_abandoned(room)

    def _start(self, room: _Room) -> None:
        room.status = "running"
        room.step_time = self.clock()
        if self._store is not None:
            try:
                room.commitment = self._store.start(room)
            except OSError as err:
                self._break(room, err)
        self._kick(room)

    # ------------------------------------------------------------------ viewers

    def watch(self, table_id: str, who: Identity, seat: int | None) -> _Watch:
        room = self._room(table_id)
        if not self._visible(room, who):
            raise ValueError(f"There is no table {table_id!r}.")
        if seat is not None and (not 0 <= seat < len(room.holders) or room.holders[seat] != who.id):
            raise ValueError(f"You do not hold seat {seat + 1} at this table.")
        w = _Watch(self, room, who, seat)
        events: list[Any] = []
        acked = room.table.history[: room.acked + 1]
        for step in acked:
            events += _redacted(room.game, step.events, seat)
        w.put(
            Welcome(
                table=self._info(room),
                seat=seat,
                config=room.table.config,
                events=events,
                state_id=acked[-1].state_id,
            )
        )
        room.watchers.append(w)
        if who.id in room.holders:
            self._back(room, who.id)
        if seat is None:
            self._table_changed(room)
        self._kick(room)
        return w

    def _forget(self, w: _Watch) -> None:
        room = w.room
        if w in room.watchers:
            room.watchers.remove(w)
        ident = w.who.id
        if ident in room.holders and not any(x.who.id == ident for x in room.watchers):
            if w.who.guest and room.status != "finished":
                # Guests keep no seat: it opens for anyone (its bot plays meanwhile).
                for s in room.seat_of(ident):
                    room.holders[s] = None
                    room.open[s] = True
                    room.table.seats[s] = Seat(name=OPEN_NAME)
                self._notice(room, f"{w.who.nickname} left the table.")
                self._save_meta(room)
            elif room.status != "finished":
                self._away(room, ident, w.who.nickname)
        self._table_changed(room)
        self._drop_if_abandoned(room)

    def _away(self, room: _Room, ident: str, nickname: str) -> None:
        if ident not in room.away_since:
            room.away_since[ident] = self.clock()
            self._notice(room, f"{clean_nickname(nickname)} is away.")
            self._kick(room)

    def _back(self, room: _Room, ident: str) -> None:
        self._own_seats_again(room, ident)
        if room.away_since.pop(ident, None) is not None:
            names = {room.table.seats[s].name for s in room.seat_of(ident)}
            self._notice(room, f"{', '.join(sorted(names))} is back.")
            self._table_changed(room)
            self._kick(room)

    def _own_seats_again(self, room: _Room, ident: str) -> None:
        """A player is back (or acts): the bot standing in for them stops (a seats record)."""
        for s in room.seat_of(ident):
            if room.stand_in.pop(s, None) is not None:
                room.seats_dirty = True

    def _seats_now(self, room: _Room) -> list[Seat]:
        """Who plays each seat now: a stand-in bot shows as that bot, for the player's identity."""
        out = []
        for s, seat in enumerate(room.table.seats):
            bot = room.stand_in.get(s)
            out.append(
                seat if bot is None else Seat(name=seat.name, bot=bot, identity=seat.identity)
            )
        return out

    def _broadcast(self, room: _Room, make: Callable[[int | None], Update | None]) -> None:
        cache: dict[int | None, Update | None] = {}
        for w in list(room.watchers):
            if w.seat not in cache:
                cache[w.seat] = make(w.seat)
            item = cache[w.seat]
            if item is not None:
                w.put(item)

    def _notice(self, room: _Room, text: str) -> None:
        note = Notice(text=text)
        self._broadcast(room, lambda _seat: note)

    def _table_changed(self, room: _Room) -> None:
        msg = TableChanged(table=self._info(room))
        self._broadcast(room, lambda _seat: msg)
        self._lobby_changed()

    # ------------------------------------------------------------------ actions

    async def abandon(self, table_id: str, who: Identity) -> None:
        room = self._room(table_id)
        if self.network:
            raise ValueError("A table on a server cannot be abandoned; leave it instead.")
        if not room.seat_of(who.id):
            raise ValueError("Only a player at this table can abandon it.")
        if room.status == "finished":
            raise ValueError("This race is over; there is nothing to abandon.")
        self._rooms.pop(table_id, None)
        if room.invite_code is not None:
            self._codes.pop(room.invite_code, None)
        if room.task is not None:
            room.task.cancel()
        self._notice(room, f"{clean_nickname(who.nickname)} abandoned the game.")
        for w in list(room.watchers):
            w.put(_CLOSE)
            w.closed = True
        room.watchers.clear()
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
        if not 0 <= seat < len(room.holders) or room.holders[seat] != who.id:
            raise NotYourTurn(f"You do not hold seat {seat + 1} at this table.")
        if room.status == "waiting":
            raise NotYourTurn("The race starts when every seat is taken.")
        self._back(room, who.id)
        await self._accept(room, seat, action, state_id)

    async def _io(self, room: _Room, fn: Callable[..., Any], *args: Any) -> Any:
        """Run blocking disk work for ``room`` in a thread; `close` waits for it."""
        fut = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        room.io = fut
        return await asyncio.shield(fut)

    async def _accept(self, room: _Room, seat: int, action: Any, state_id: int | None) -> Step:
        async with room.lock:
            if room.broken is not None:
                raise GameOver(f"This table stopped: {room.broken}")
            if room.status == "finished":
                raise GameOver("The race is over; no more moves can be made.")
            if room.seats_dirty and self._store is not None:
                try:  # who plays which seat from this step on, before the step itself
                    await self._io(room, self._store.seats, room, self._seats_now(room))
                except OSError as err:
                    self._break(room, err)
                    raise GameOver(f"This table stopped: {room.broken}") from None
            room.seats_dirty = False
            step = room.table.submit(seat, action, state_id)
            # Durable first: a broadcast the log does not hold could be lost by a crash.
            if self._store is not None:
                try:
                    await self._io(room, self._store.append, room, step)
                except OSError as err:
                    self._break(room, err)
                    raise GameOver(f"This table stopped: {room.broken}") from None
            room.acked = len(room.table.history) - 1
            self._after_accept(room, step)
            if room.table.result() is not None:
                await self._finish(room)
        self._kick(room)
        return step

    def _after_accept(self, room: _Room, step: Step) -> None:
        room.step_time = self.clock()
        room.turn += sum(1 for event in step.events if room.game.turn_started(event))
        pending = list(room.table.pending())
        if self.trace is not None:
            self.trace.step(room.id, step.state_id, len(room.watchers))
        self._broadcast(
            room,
            lambda s: StepUpdate(
                state_id=step.state_id,
                seat=step.seat,
                events=_redacted(room.game, step.events, s),
                pending=pending,
            ),
        )

    async def _finish(self, room: _Room) -> None:
        if self._store is not None:
            try:
                room.replay_id = await self._io(room, self._store.finish, room)
            except OSError as err:
                log.error("table %s: could not save the replay: %s", room.id, err)
        room.status = "finished"  # after the replay exists, so a finished table has its id
        room.away_since.clear()  # nobody is "away" from a race that is over
        result = room.table.result()
        if result is not None:
            self._notice(room, f"The race is over: {result.summary_for(room.table.names)}.")
        self._table_changed(room)
        with contextlib.suppress(RuntimeError):  # no running loop: kept until restart
            asyncio.get_running_loop().call_later(self.finished_keep, self._drop_room, room.id)

    def _drop_if_abandoned(self, room: _Room) -> None:
        """A table that never started and that nobody holds or watches any more goes away."""
        if room.status == "waiting" and not room.watchers and all(h is None for h in room.holders):
            self._rooms.pop(room.id, None)
            if room.invite_code is not None:
                self._codes.pop(room.invite_code, None)
            if self._store is not None:
                try:
                    self._store.drop(room.id)
                except OSError as err:
                    log.error("table %s: its waiting record could not be removed: %s", room.id, err)
            self._lobby_changed()

    def _drop_room(self, table_id: str) -> None:
        room = self._rooms.get(table_id)
        if room is None or room.status != "finished":
            return
        if room.watchers:  # someone is still looking at the result: ask again later
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_later(self.finished_keep, self._drop_room, table_id)
            return
        self._rooms.pop(table_id, None)
        if room.invite_code is not None:
            self._codes.pop(room.invite_code, None)
        self._lobby_changed()

    def _save_meta(self, room: _Room) -> None:
        if self._store is not None:
            try:
                self._store.update_meta(room)
            except OSError as err:
                self._break(room, err)

    def _break(self, room: _Room, err: OSError) -> None:
        # A failed fsync may have lost pages; never retry it (fsyncgate). Stop the table.
        room.broken = f"the table log could not be saved ({err.strerror or err})."
        log.error("table %s: durable log failed, table stopped: %s", room.id, err)
        self._notice(room, f"This table stopped: {room.broken}")

    async def hint(self, table_id: str, who: Identity, seat: int, bot: str | None) -> Any:
        room = self._room(table_id)
        if not 0 <= seat < len(room.holders) or room.holders[seat] != who.id:
            raise NotYourTurn(f"You do not hold seat {seat + 1} at this table.")
        try:
            return room.table.suggest(seat, bot)
        except ConfigError as err:
            raise ValueError(str(err)) from None

    async def chat(self, table_id: str, who: Identity, text: str) -> None:
        room = self._room(table_id)
        if not self._visible(room, who):
            raise ValueError(f"There is no table {table_id!r}.")
        line = clean_chat(text)
        if not line:
            raise ValueError("Say something with at least one visible character.")
        now = self.clock()
        times = room.chat_times.setdefault(who.id, deque())
        while times and now - times[0] > self.chat_window:
            times.popleft()
        if len(times) >= self.chat_burst:
            raise ValueError("You are sending messages too fast; wait a few seconds.")
        times.append(now)
        seats = room.seat_of(who.id)
        msg = ChatLine(
            nickname=clean_nickname(who.nickname), text=line, seat=seats[0] if seats else None
        )
        self._broadcast(room, lambda _seat: msg)

    # ------------------------------------------------------------------ automatic play

    def _kick(self, room: _Room) -> None:
        """Wake the table's scheduler (starting it if this is the first time in a loop)."""
        room.wake.set()
        if room.task is None or room.task.done():
            if room.status != "running" or self._closing:
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop yet: `start()` or the first async call will kick it
            # An empty context: the scheduler must not inherit a Textual app's context vars.
            room.task = loop.create_task(self._run_room(room), context=contextvars.Context())

    def _next_auto(self, room: _Room) -> tuple[float, int, str] | None:
        """The earliest automatic action: (deadline, seat, reason) or None."""
        if room.status != "running" or room.broken is not None:
            return None
        best: tuple[float, int, str] | None = None
        spec = room.spec
        bot_delay = spec.bot_delay if spec.bot_delay is not None else self.bot_delay
        grace = spec.away_grace if spec.away_grace is not None else self.away_grace
        timer = spec.turn_timer if spec.turn_timer is not None else self.turn_timer
        for seat in room.table.pending():
            holder = room.holders[seat]
            if room.table.seats[seat].is_bot or room.open[seat]:
                cand = (room.step_time + bot_delay, seat, "bot")
            elif holder in room.away_since and self.away_bots:
                since = room.away_since[holder]
                cand = (max(since + grace, room.step_time + bot_delay), seat, "away")
            elif timer is not None:
                cand = (room.step_time + timer, seat, "timer")
            else:
                continue
            if best is None or cand[0] < best[0]:
                best = cand
        return best

    async def _run_room(self, room: _Room) -> None:
        while not self._closing and room.status == "running":
            room.wake.clear()
            nxt = self._next_auto(room)
            if nxt is None:
                await room.wake.wait()
                continue
            deadline, seat, reason = nxt
            delay = deadline - self.clock()
            if delay > 0:
                # Not asyncio.wait_for: on 3.11 it can swallow a cancellation that arrives as
                # the event fires, and the scheduler would then outlive its hub.
                waiter = asyncio.ensure_future(room.wake.wait())
                try:
                    await asyncio.wait({waiter}, timeout=delay)
                finally:
                    waiter.cancel()
                if room.wake.is_set():
                    continue  # something changed: look again
            if self._next_auto(room) != nxt:
                continue
            try:
                await self._auto_play(room, seat, reason)
            except IllegalAction as err:
                log.warning("table %s: automatic play for seat %d refused: %s", room.id, seat, err)
                if room.broken is not None:
                    return
                await asyncio.sleep(max(0.05, self.bot_delay))
            except Exception:
                log.exception("table %s: bot crashed; table paused", room.id)
                room.broken = "a bot crashed; the table is paused."
                self._notice(room, f"This table stopped: {room.broken}")
                return
            await asyncio.sleep(0)

    async def _auto_play(self, room: _Room, seat: int, reason: str) -> None:
        table = room.table
        if reason == "bot":
            action = table.suggest(seat, table.seats[seat].bot)
        else:
            action = table.suggest(seat, None)
            if seat not in room.stand_in:  # a bot stands in for the player: on the record
                room.stand_in[seat] = next(iter(room.game.bots))
                room.seats_dirty = True
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
            self._kick(room)

    async def close(self, message: str = "The server is shutting down.") -> None:
        """Stop all tables: tell every viewer, end their streams, flush and close the logs."""
        self._closing = True
        for room in self._rooms.values():
            self._notice(room, message)
            for w in list(room.watchers):
                w.put(_CLOSE)
                w.closed = True
            room.watchers.clear()
            if room.task is not None:
                room.task.cancel()
        tasks = [r.task for r in self._rooms.values() if r.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        writes = [r.io for r in self._rooms.values() if r.io is not None]
        if writes:  # an append or a replay save still running in a thread: let it land
            await asyncio.gather(*writes, return_exceptions=True)
        if self._store is not None:
            self._store.close_all()
        self._lobby_changed()

    def _adopt_restored(self, restored: Any) -> None:
        """Take a table back from its durable log or waiting record (`net.persist.Restored`).

        Guests: a guest identity dies with its connection (the next connection is a new guest),
        so after a restart a guest's seat opens for anyone, as when a guest disconnects live —
        at a running table its bot plays meanwhile, a waiting table waits for someone new. A
        waiting table left with no holder at all is abandoned (as when its last player leaves):
        it and its files go.
        """
        room = _Room(restored.table_id, restored.game, restored.table, restored.spec)
        n = len(room.table.seats)
        room.holders = list(restored.holders)
        room.guests = set()
        room.open = list(restored.open) if len(restored.open) == n else [False] * n
        if len(restored.seats) == n:  # names of players who took a seat mid-race
            for s, seat in enumerate(restored.seats):
                if not room.table.seats[s].is_bot and not seat.is_bot:
                    room.table.seats[s] = seat
        guests = set(restored.guests)
        for s, h in enumerate(room.holders):
            if h is not None and h in guests:
                room.holders[s] = None
                room.open[s] = True
                room.table.seats[s] = Seat(name=OPEN_NAME)
        room.creator = restored.creator
        room.invite_code = restored.invite_code
        room.invited = set(restored.invited)
        if restored.waiting:
            # The in-memory salt of a waiting table (see `create_table`); starting writes the log's.
            room.commitment = commitment(room.table.seed, self._salt())
            room.status = "waiting"
        else:
            room.commitment = restored.commitment
            room.status = "running"
        room.step_time = self.clock()
        # Nobody is watching after a restart: every human is away until they come back.
        now = self.clock()
        for h in room.holders:
            if h is not None:
                room.away_since[h] = now
        if room.invite_code:
            self._codes[room.invite_code] = room.id
        self._rooms[room.id] = room
        if room.table.result() is not None:
            room.status = "finished"
        if any(h in guests for h in restored.holders):
            self._save_meta(room)
        self._drop_if_abandoned(room)


_NETWORK_FLOORS = {"bot_delay": 0.2, "turn_timer": 10.0, "away_grace": 10.0}


def _network_spec(spec: TableSpec) -> TableSpec:
    """A table spec made safe for a shared server (see `LocalHub`'s ``network``)."""
    changes: dict[str, Any] = {"seed": None}
    for name, floor in _NETWORK_FLOORS.items():
        value = getattr(spec, name)
        if value is not None and value < floor:
            changes[name] = floor
    return msgspec.structs.replace(spec, **changes)


def _build_table(game: Game, spec: TableSpec, seats: list[Seat], seed: int) -> Table:
    """The core table for ``spec`` (raises ValueError with the game's one-sentence reason).

    A branch from a replay starts from the source game's past events (TableSpec docs).
    """
    try:
        config = config_from_options(game, spec.options)
    except ConfigError as err:
        raise ValueError(str(err)) from None
    past = (spec.branched_from or {}).get("events")
    if past is not None:
        past = [msgspec.convert(e, game.event_type) if isinstance(e, dict) else e for e in past]
    try:
        return Table(game, config, seats, seed, setup_events=past)
    except ConfigError as err:
        raise ValueError(str(err)) from None


def _redacted(game: Game, events: list[Any], seat: int | None) -> list[Any]:
    out = []
    for event in events:
        r = game.redact(event, seat)
        if r is not None:
            out.append(r)
    return out


def _summary(game: Game, options: Mapping[str, Any]) -> str:
    """The game's own words for its options (``config_words``), else the options that differ
    from the game's defaults ("standard rules" if none)."""
    words = getattr(game, "config_words", None)
    if words is not None:
        with contextlib.suppress(ConfigError, ValueError, TypeError):
            return str(words(config_from_options(game, options)))
    default = msgspec.to_builtins(game.default_config())
    missing = object()
    changed = {
        k: v
        for k, v in options.items()
        if not (isinstance(default, dict) and default.get(k, missing) == msgspec.to_builtins(v))
    }
    if not changed:
        return "standard rules"
    return ", ".join(f"{k.replace('_', ' ')} {_word(v)}" for k, v in sorted(changed.items()))


def _word(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if value is None:
        return "default"
    return str(value).replace("_", " ")
