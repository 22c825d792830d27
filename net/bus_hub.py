"""The hub of one process among several sharing a Redis bus: one lobby, tables anywhere.

Owns `BusHub` (a `net.hub.Hub`). Each table is run by exactly one process, its *owner*: the
one holding its lease (`net.bus.Bus.claim`), renewed every third of the lease while the
process lives (`net.leases`, on a thread: a busy event loop keeps its tables). The owner's
`net.local_hub.LocalHub` runs the table as in a single process (``Table.submit`` -> fsync ->
viewers), so nothing about play changes. What this module adds, with its helpers:

- *Lobby*: the owner publishes each of its tables (`net.owner_desk.lobby_entry`) whenever its
  local lobby changes, coalesced to one write per ``lobby_interval``; every process keeps the
  whole lobby in memory, refreshed on the bus's "lobby changed" message (and every few
  seconds), so ``tables()`` stays a memory read.
- *Requests*: a seat, a move, a chat line or a watch for a table owned elsewhere goes to its
  owner (`net.bus.Bus.request`, answered by its `net.owner_desk.OwnerDesk`) and comes back
  accepted or refused with the owner's sentence.
- *Remote viewers*: `net.remote_watch.RemoteWatch` follows a table owned elsewhere from a
  snapshot plus a numbered stream; a gap or a new owner makes it resync. Spectators of a public
  table share one such stream per process (`net.table_feed`), fanned out to their sessions;
  a seat's view (and a private table's, or a player's watching from the stands) is its own.
- *Owner failure*: a process that sees an unfinished table in the lobby without an owner for a
  whole lease (a live owner renews every third of one, also right after a bus outage) claims
  it and restores it from the data dir (`LocalHub.adopt`: the durable log, re-simulated;
  nothing acknowledged is lost, nothing applied twice; from another machine, the files come
  from Redis, `net.log_mirror`); a process that finds its lease taken by another stops playing
  that table (`LocalHub.let_go`).
- *Replays*: a finished table's replay goes to Redis and every process writes the replays its
  data dir lacks (`net.replay_share`), so any machine serves any replay.
- *Bus down*: tables owned here keep playing for sessions here; anything that needs another
  process gets a `HubError` ``bus-down`` sentence; leases, the lobby and viewers resume when
  Redis answers again. *Fencing* (`_fence`): an owner that cannot renew a table's lease pauses
  it before the lease may lapse only if another machine could take it over, that is if the
  machine registry (`net.machines`) had another machine's process live at our last contact
  with Redis; on one machine alone the lock files already stop every other process from
  taking a table that is still owned, so it plays on. Back on the bus, the lease renews only
  under our epoch (else the table is let go).

Must not: play, validate or redact itself (the owner's `LocalHub` does), write table files
(`net.persist` at the owner), or import tui.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import fcntl
import functools
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from redis.exceptions import RedisError

from core.game import Game
from net.bus import (
    DOWN,
    Bus,
    LobbyEntry,
    decode_action,
    sleep_until,
)
from net.hub import HubError, Identity, Notice, TableInfo, TableSpec, Watch
from net.leases import LeaseKeeper
from net.lobby_feed import follow_lobby, wake
from net.local_hub import PAUSED, LocalHub
from net.machines import Peers, machine_id
from net.owner_desk import OwnerDesk, lobby_entry
from net.remote_watch import RemoteWatch, wire
from net.replay_share import ReplayShare, room_access
from net.room import Room, TableStatus
from net.table_feed import SpectatorFeeds

if TYPE_CHECKING:
    from net.log_mirror import LogMirror

__all__ = ["BusHub"]

log = logging.getLogger("speedway.bus")


class BusHub:
    """The `net.hub.Hub` of one process on a bus (see the module docstring)."""

    def __init__(
        self,
        local: LocalHub,
        bus: Bus,
        *,
        game: Callable[[str], Game],
        lobby_interval: float = 0.2,
        refresh: float = 2.0,
        mirror: LogMirror | None = None,
        machine: str | None = None,
    ) -> None:
        self.local = local
        self.bus = bus
        # Which machine this process is (`net.machines`: one kernel, one data dir), and what it
        # knows of the others; the bus registers us with every claim, the keeper every round.
        data = Path(local.data_dir) if local.data_dir is not None else None
        self.peers = Peers(machine or machine_id(data), bus.worker, bus.lease)
        bus.peers = self.peers
        self.mirror = mirror  # the local hub's copy in Redis: its writes carry our lease epochs
        self._game = game
        self.lobby_interval = lobby_interval
        self.refresh = refresh
        self._remote: dict[str, LobbyEntry] = {}  # every table of the bus, as last read
        self._sent: dict[str, bytes] = {}  # our entries as last published
        self._lobby_dirty = asyncio.Event()  # our tables changed: publish
        self._lobby_waiters: list[asyncio.Event] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._adopting: set[str] = set()  # tables being claimed and restored right now
        self._orphaned: dict[str, float] = {}  # table -> when we first saw it without owner
        self._leases: LeaseKeeper | None = None
        self._claimed: dict[str, tuple[int, float]] = {}  # epoch, valid until (before keeper)
        self._paused: set[str] = set()  # tables paused here: their lease may lapse
        self._alone: set[str] = set()  # tables unrenewed, played on: no other machine is live
        self._stopping = asyncio.Event()
        self._started = False
        self.desk = OwnerDesk(local, bus, self._stopping, self._local_lobby_changed)
        self.feeds = SpectatorFeeds(self)  # one stream per table owned elsewhere, shared
        # Finished replays through Redis, so every machine serves each one (`net.replay_share`).
        self.replays = ReplayShare(bus, local.data_dir) if local.data_dir is not None else None
        self.trace: Any = None
        local.lobby_listeners.append(self._local_lobby_changed)

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Claim the tables of the data dir nobody owns, then run the bus tasks (once: a second
        call, as from a server given a hub already started, does nothing)."""
        if self._started:
            return
        self._started = True
        if await self.bus.ping():
            with contextlib.suppress(RedisError, OSError):
                await self.bus.heartbeat()  # in the machine registry before anything else
            await self._refresh_lobby()
            for table_id in self.local.stored_tables():
                await self._try_adopt(table_id)
        await self.local.start()
        loop = asyncio.get_running_loop()
        self._leases = LeaseKeeper(
            self.bus.url,
            worker=self.bus.worker,
            lease=self.bus.lease,
            key=self.bus.key,
            lost=self._lease_lost,
            loop=loop,
            token=self._token,
            peers=self.peers,
        )
        if self.mirror is not None:

            def fenced(table_id: str) -> None:  # (from the disk thread)
                loop.call_soon_threadsafe(self._lease_lost, table_id)

            self.mirror.on_fenced = fenced
            # Another machine live at our last contact with Redis could take a table over from
            # its copy there: a step is then acknowledged only once the copy has it.
            peers = self.peers
            self.mirror.must_copy = lambda: not peers.alone
        for room in self.local.rooms():
            epoch, until = self._claimed.get(room.id, (None, 0.0))
            self._leases.keep(room.id, epoch, until)
        self._claimed.clear()
        self._leases.start()
        jobs = (self.desk.serve, self._keep_leases, self._publish_lobby, self._follow, self._fence)
        for job in jobs:
            self._tasks.append(loop.create_task(job(), context=contextvars.Context()))
        if self.replays is not None:
            follow = self.replays.follow(self._stopping)
            self._tasks.append(loop.create_task(follow, context=contextvars.Context()))
        self._lobby_dirty.set()

    async def close(self, message: str = "The server is shutting down.") -> None:
        self._stopping.set()
        self.desk.stop_viewers()
        self.feeds.close()
        owned = [r.id for r in self.local.rooms()]
        await self.local.close(message)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._leases is not None:
            await asyncio.to_thread(self._leases.stop)
        if self.bus.up:
            with contextlib.suppress(RedisError, OSError):
                for table_id in owned:  # another process may take them over at once
                    await self.bus.release(table_id)
                await self.bus.leave()
        await self.bus.close()

    async def _claim(self, table_id: str) -> int:
        """Take the table's lease: its epoch (0: another holds it), handed to the mirror (so
        every copy write from now on carries it) and to the lease keeper."""
        sent = time.monotonic()
        epoch = await self.bus.claim(table_id)
        if epoch:
            if self.mirror is not None:
                self.mirror.tokens[table_id] = epoch
            until = sent + self.bus.lease
            if self._leases is not None:
                self._leases.keep(table_id, epoch, until)
            else:
                self._claimed[table_id] = (epoch, until)
        return epoch

    def _unclaimed(self, table_id: str) -> None:
        if self.mirror is not None:
            self.mirror.tokens.pop(table_id, None)
        self._claimed.pop(table_id, None)
        if self._leases is not None:
            self._leases.drop(table_id)

    def _token(self, table_id: str, epoch: int) -> None:
        """The lease keeper claimed a table afresh (it was made while the bus was down)."""
        if self.mirror is not None and self.local.has(table_id):
            self.mirror.tokens[table_id] = epoch

    def _held_here(self, table_id: str) -> bool:
        """Another process of this machine holds the table's lock file (`net.persist`)."""
        if self.local.data_dir is None:
            return False
        try:
            fd = os.open(Path(self.local.data_dir) / "tables" / f"{table_id}.lock", os.O_RDWR)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)
        return False

    def _adopted(self, table_id: str, _task: asyncio.Task[bool]) -> None:
        self._adopting.discard(table_id)

    async def _try_adopt(self, table_id: str) -> bool:
        """Claim an unowned table and restore it here from the shared data dir."""
        if self._held_here(table_id):
            return False  # its owner on this machine lives (its lock file says): not ours
        try:
            epoch = await self._claim(table_id)
        except (RedisError, OSError):
            return False
        if not epoch:
            return False
        if self.local.adopt(table_id):
            log.info("event=adopted table=%s worker=%s epoch=%d", table_id, self.bus.worker, epoch)
            return True
        self._unclaimed(table_id)
        with contextlib.suppress(RedisError, OSError):
            await self.bus.release(table_id)
            entry = self._remote.get(table_id)
            if entry is not None and entry.owner != self.bus.worker:
                # It cannot be restored here (finished, gone, unreadable: logged): unlisted,
                # rather than offered to players forever.
                log.warning("event=unlisted table=%s: it could not be taken over", table_id)
                await self.bus.publish_lobby({}, [table_id])
        return False

    # ------------------------------------------------------------------ lobby

    def _local_lobby_changed(self) -> None:
        self._lobby_dirty.set()
        self._notify()

    def _notify(self) -> None:
        wake(self._lobby_waiters)

    def tables(self, who: Identity) -> list[TableInfo]:
        out = self.local.tables(who)
        mine = {t.id for t in out}
        for table_id, entry in self._remote.items():
            if table_id in mine or self.local.has(table_id):
                continue
            if entry.owner != self.bus.worker and _may_see(entry, who):
                out.append(entry.info)
        return out

    async def watch_lobby(self, who: Identity) -> AsyncIterator[list[TableInfo]]:
        feed = follow_lobby(
            self._lobby_waiters, lambda: self.tables(who), lambda: self.lobby_interval
        )
        async with contextlib.aclosing(feed):  # the waiter goes when the session stops
            async for tables in feed:
                yield tables

    def _entries(self) -> list[LobbyEntry]:
        return [lobby_entry(room, self.bus.worker) for room in self.local.rooms()]

    async def _publish_lobby(self) -> None:
        while not self._stopping.is_set():
            await self._lobby_dirty.wait()
            if self.lobby_interval > 0:
                await asyncio.sleep(self.lobby_interval)
            self._lobby_dirty.clear()
            now = {e.info.id: (e, msgspec.msgpack.encode(e)) for e in self._entries()}
            changed = {t: raw for t, (_e, raw) in now.items() if self._sent.get(t) != raw}
            gone = sorted(set(self._sent) - set(now))
            if not changed and not gone:
                continue  # (a change that does not show in any lobby: nothing to send)
            try:
                await self.bus.publish_lobby(changed, gone)
                for table_id in changed:
                    entry = now[table_id][0]
                    if entry.invite_code is not None:
                        await self.bus.set_code(entry.invite_code, table_id)
            except (RedisError, OSError):
                self.bus._down()
                self._sent = {}  # Redis may have lost them: send every entry again
                await asyncio.sleep(0.5)
                self._lobby_dirty.set()  # try again when the bus is back
                continue
            self._sent = {t: raw for t, (_e, raw) in now.items()}
            await self._share_replays()

    async def _share_replays(self) -> None:
        """Every finished table of ours whose replay Redis does not have yet: offered."""
        if self.replays is None:
            return
        for room in self.local.rooms():
            if room.status is not TableStatus.FINISHED or room.replay_id is None:
                continue
            if not self.replays.offered(room.replay_id):
                private, allowed = room_access(room)
                await self.replays.offer(room.replay_id, private=private, allowed=allowed)

    async def _refresh_lobby(self) -> None:
        try:
            entries = await self.bus.lobby()
        except (RedisError, OSError):
            self.bus._down()
            return
        if entries != self._remote:
            self._remote = entries
            self._notify()

    async def _refresh_some(self, table_ids: list[str]) -> None:
        """Read only the entries a "lobby changed" message named."""
        if not table_ids:
            return
        try:
            fresh = await self.bus.lobby_some(table_ids)
        except (RedisError, OSError):
            self.bus._down()
            return
        changed = False
        for table_id, entry in fresh.items():
            if entry is None:
                changed |= self._remote.pop(table_id, None) is not None
            elif self._remote.get(table_id) != entry:
                self._remote[table_id] = entry
                changed = True
        if changed:
            self._notify()

    async def _follow(self) -> None:
        """Keep the lobby copy fresh: on every "lobby changed" message, and every ``refresh``."""
        while not self._stopping.is_set():
            pubsub = self.bus.blocking.pubsub()
            try:
                await pubsub.subscribe(self.bus.key("lobby"))
                await self._refresh_lobby()
                while not self._stopping.is_set():
                    msg = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=self.refresh
                    )
                    if msg is None:
                        await self._refresh_lobby()  # quiet: a full read, in case one was lost
                        continue
                    if self.lobby_interval > 0:
                        await asyncio.sleep(self.lobby_interval)  # coalesce a burst
                    ids = set(_named(msg))
                    while more := await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0
                    ):
                        ids.update(_named(more))
                    await self._refresh_some(sorted(ids))
            except (RedisError, OSError):
                self.bus._down()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()

    # ------------------------------------------------------------------ leases

    def _lease_lost(self, table_id: str) -> None:
        if not self.local.has(table_id):
            return
        log.warning("event=lease-lost table=%s worker=%s", table_id, self.bus.worker)
        self._unclaimed(table_id)
        self._paused.discard(table_id)
        self._alone.discard(table_id)
        self.local.let_go(table_id, "This table moved to another server; reopen it from the lobby.")

    async def _fence(self) -> None:
        """Pause every table of ours whose lease may lapse before it is renewed, if another
        machine could then take it over (this process cannot reach Redis): no step is accepted
        here after that moment. Whether one could is what the machine registry said at our
        last contact with Redis (`net.machines`): no other machine live then, and the lock
        files of this machine's data dir keep every other process here from taking a table we
        still hold, so it plays on, nothing said. Play goes on here when the lease is renewed,
        with the same epoch; if another process took it meanwhile, the keeper (or the copy in
        Redis, refusing a write) reports it lost instead."""
        margin = self.bus.lease / 6
        while not self._stopping.is_set():
            await sleep_until(self._stopping, self.bus.lease / 10)
            if self._leases is None:
                continue
            now = time.monotonic()
            alone = self.peers.alone
            for room in self.local.rooms():
                until = self._leases.valid_until.get(room.id)
                if until is None or room.status is TableStatus.FINISHED:
                    continue
                if now < until - margin:  # renewed in time
                    self._alone.discard(room.id)
                    if room.withheld:  # a step whose copy failed: copied now, then shown
                        if not await self.local.release_withheld(room):
                            continue
                        self._paused.add(room.id)
                    if room.id in self._paused:
                        self._paused.discard(room.id)
                        if room.stopped == PAUSED:
                            room.stopped = None
                            room.step_time = self.local.clock()  # (a turn timer starts afresh)
                            log.info("event=unfenced table=%s worker=%s", room.id, self.bus.worker)
                            _tell(room, "The shared bus answers again: play goes on.")
                            self.local.scheduler.kick(room)
                elif room.id in self._paused:
                    continue  # (paused until its lease is renewed)
                elif alone:  # nobody could take it over: it plays on
                    if room.id not in self._alone:
                        self._alone.add(room.id)
                        log.info(
                            "event=unrenewed-alone table=%s worker=%s: no other machine on the "
                            "bus; plays on",
                            room.id,
                            self.bus.worker,
                        )
                elif room.stopped is None:
                    room.stopped = PAUSED
                    self._paused.add(room.id)
                    log.warning("event=fenced table=%s worker=%s", room.id, self.bus.worker)
                    _tell(room, "This table is paused: " + PAUSED)

    async def _keep_leases(self) -> None:
        """Hand our tables to the lease keeper; take over orphaned tables."""
        while not self._stopping.is_set():
            await sleep_until(self._stopping, self.bus.lease / 3)
            if self._stopping.is_set():
                return
            if not await self.bus.ping():
                self._orphaned.clear()  # nothing is known while the bus is down
                continue  # our tables play on here (or pause, if another machine may take them)
            if self._leases is not None:  # (renewed on the keeper's own thread)
                self._leases.retain({room.id for room in self.local.rooms()})
            await self._catch_up()
            await self._share_replays()  # (one that failed a moment ago: again)
            for table_id, entry in list(self._remote.items()):
                if entry.owner == self.bus.worker or self.local.has(table_id):
                    continue
                try:
                    owner = await self.bus.owner(table_id)
                    if owner is None and entry.info.status == "finished":
                        # Its owner died before listing it out: nothing to take over.
                        await self.bus.publish_lobby({}, [table_id])
                        continue
                except (RedisError, OSError):
                    break
                if owner is not None:
                    self._orphaned.pop(table_id, None)
                    continue
                # Unowned for a whole lease, seen from here: its owner is dead (a live one,
                # even one just back from a bus outage, renews every third of a lease).
                now = asyncio.get_running_loop().time()
                since = self._orphaned.setdefault(table_id, now)
                if now - since >= self.bus.lease and table_id not in self._adopting:
                    # On a task of its own: our own renewals must not wait for it.
                    self._adopting.add(table_id)
                    task = asyncio.get_running_loop().create_task(
                        self._try_adopt(table_id), context=contextvars.Context()
                    )
                    task.add_done_callback(functools.partial(self._adopted, table_id))
                    self._orphaned.pop(table_id, None)

    async def _catch_up(self) -> None:
        """The bus answers again: the copy in Redis of every table of ours that missed some
        (steps accepted while Redis was down) catches up now, not only at its next step."""
        if self.mirror is None or self.local.data_dir is None:
            return
        rooms = {room.id: room for room in self.local.rooms()}
        for table_id in self.mirror.lagging():
            room = rooms.get(table_id)
            path = Path(self.local.data_dir) / "tables" / f"{table_id}.log"
            try:
                if room is None:
                    await asyncio.to_thread(self.mirror.catch_up, table_id, None)
                    continue
                async with room.lock:  # (between two steps: only whole, fsynced records)
                    await asyncio.to_thread(self.mirror.catch_up, table_id, path)
            except (RedisError, OSError):
                pass  # (fenced: the hub is told and lets it go; down: again next time)

    # ------------------------------------------------------------------ requests to owners

    def game_of(self, table_id: str) -> Game:
        """The game of a table in this process's lobby (after `owner_of` found it; gone from the
        lobby since, it is no table: `HubError` no-such-table)."""
        entry = self._remote.get(table_id)
        if entry is None:
            raise HubError("no-such-table", f"There is no table {table_id!r}.")
        return self._game(entry.info.game)

    async def owner_of(self, table_id: str) -> str:
        """The worker owning ``table_id`` (raises: unknown table, bus down, moving)."""
        if table_id not in self._remote:
            await self._refresh_lobby()
            if table_id not in self._remote:
                if not self.bus.up:
                    raise HubError("bus-down", DOWN)
                raise HubError("no-such-table", f"There is no table {table_id!r}.")
        # No owner for a moment (it is re-taking its lease after a bus outage, or another
        # process is taking a dead owner's table over): wait up to one lease for it.
        deadline = asyncio.get_running_loop().time() + self.bus.lease
        while True:
            try:
                owner = await self.bus.owner(table_id)
            except (RedisError, OSError):
                self.bus._down()
                raise HubError("bus-down", DOWN) from None
            if owner is not None or asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.1)
        if owner is None:
            raise HubError(
                "table-stopped", "This table is moving to another server; try again in a moment."
            )
        return owner

    async def _ask(self, table_id: str, op: str, **body: Any) -> Any:
        owner = await self.owner_of(table_id)
        if owner == self.bus.worker:  # ours after all (adopted a moment ago)
            raise HubError("table-stopped", "This table just moved here; try again.")
        return await self.bus.request(owner, op, {"table": table_id, **body})

    def _local_or(
        self, table_id: str, here: Callable[[], Awaitable[Any]], op: str, **body: Any
    ) -> Awaitable[Any]:
        if self.local.has(table_id):
            return here()
        return self._ask(table_id, op, **body)

    async def create_table(self, spec: TableSpec, who: Identity) -> str:
        if self.local.network:  # the cap counts this identity's tables on every process
            elsewhere = sum(
                1
                for tid, e in self._remote.items()
                if e.creator == who.id
                and e.info.status != "finished"
                and e.owner != self.bus.worker
                and not self.local.has(tid)
            )
            mine = sum(
                1
                for r in self.local.rooms()
                if r.creator == who.id and r.status is not TableStatus.FINISHED
            )
            if elsewhere and mine + elsewhere >= self.local.max_tables_per_identity:
                raise HubError(
                    "config-refused",
                    f"You already have {mine + elsewhere} unfinished tables; "
                    "finish or leave one first.",
                )
        table_id = await self.local.create_table(spec, who)
        try:
            await self._claim(table_id)
        except (RedisError, OSError):
            self.bus._down()  # it plays here; the lease is taken when the bus is back
            if self._leases is not None:
                self._leases.keep(table_id)
        return table_id

    async def join_private(self, code: str, who: Identity) -> str:
        try:
            return await self.local.join_private(code, who)
        except HubError as err:
            if err.kind != "no-such-table":
                raise
        try:
            table_id = await self.bus.code(code.strip().upper())
        except (RedisError, OSError):
            self.bus._down()
            raise HubError("bus-down", DOWN) from None
        if table_id is None or self.local.has(table_id):
            raise HubError("no-such-table", "No table has that invite code.")
        result = await self._ask(table_id, "join_private", code=code, who=wire(who))
        self._keep(self.desk.entry_bytes(table_id) if self.local.has(table_id) else None)
        await self._refresh_lobby()
        return str(result)

    async def take_seat(self, table_id: str, seat: int, who: Identity) -> None:
        if self.local.has(table_id):
            await self.local.take_seat(table_id, seat, who)
            return
        self._keep(await self._ask(table_id, "take_seat", seat=seat, who=wire(who)))

    async def leave(self, table_id: str, who: Identity) -> None:
        if self.local.has(table_id):
            await self.local.leave(table_id, who)
            return
        self._keep(await self._ask(table_id, "leave", who=wire(who)))

    def _keep(self, raw: Any) -> None:
        """The owner's answer to a seat change is the table's new lobby entry: this process's
        lobby shows it now (the seat is ours to watch at once), not after the next publish."""
        if isinstance(raw, bytes):
            entry = msgspec.msgpack.decode(raw, type=LobbyEntry)
            self._remote[entry.info.id] = entry
            self._notify()

    async def abandon(self, table_id: str, who: Identity) -> None:
        await self._local_or(
            table_id, lambda: self.local.abandon(table_id, who), "abandon", who=wire(who)
        )

    async def submit(
        self, table_id: str, who: Identity, seat: int, action: Any, state_id: int
    ) -> None:
        await self._local_or(
            table_id,
            lambda: self.local.submit(table_id, who, seat, action, state_id),
            "submit",
            who=wire(who),
            seat=seat,
            action=msgspec.to_builtins(action),
            state_id=state_id,
        )

    async def hint(self, table_id: str, who: Identity, seat: int, bot: str | None) -> Any:
        if self.local.has(table_id):
            return await self.local.hint(table_id, who, seat, bot)
        raw = await self._ask(table_id, "hint", who=wire(who), seat=seat, bot=bot)
        return decode_action(raw, self._game(self._remote[table_id].info.game))

    async def chat(self, table_id: str, who: Identity, text: str) -> None:
        await self._local_or(
            table_id,
            lambda: self.local.chat(table_id, who, text),
            "chat",
            who=wire(who),
            text=text,
        )

    def invite_code(self, table_id: str, who: Identity) -> str | None:
        if self.local.has(table_id):
            return self.local.invite_code(table_id, who)
        entry = self._remote.get(table_id)
        if entry is None:
            raise HubError("no-such-table", f"There is no table {table_id!r}.")
        if who.id not in entry.may_see:
            raise HubError("not-seated", "Only players at this table can see its invite code.")
        return entry.invite_code

    def watch(self, table_id: str, who: Identity, seat: int | None) -> Watch:
        if self.local.has(table_id):
            return self.local.watch(table_id, who, seat)
        entry = self._remote.get(table_id)
        if entry is None:
            # Not in this process's copy of the lobby yet (made a moment ago elsewhere): the
            # watch asks the owner, whose refusal, if any, arrives as the stream's one notice.
            return RemoteWatch(self, table_id, who, seat, None)
        if not _may_see(entry, who):
            raise HubError("no-such-table", f"There is no table {table_id!r}.")
        if seat is not None and (
            not 0 <= seat < len(entry.info.seats) or entry.info.seats[seat].identity != who.id
        ):
            raise HubError("not-seated", f"You do not hold seat {seat + 1} at this table.")
        game = self._game(entry.info.game)
        if (
            seat is None
            and not entry.info.private
            and all(s.identity != who.id for s in entry.info.seats)
        ):
            return self.feeds.watch(table_id, who, game)  # the public view: shared
        return RemoteWatch(self, table_id, who, seat, game)

    # ------------------------------------------------------------------ answering requests




def _tell(room: Room, text: str) -> None:
    note = Notice(text=text)
    for viewer in list(room.viewers):
        viewer.put(note)


def _named(message: dict[str, Any]) -> list[str]:
    """The table ids a "lobby changed" message names."""
    try:
        ids = msgspec.msgpack.decode(message.get("data", b""))
    except (msgspec.DecodeError, TypeError):
        return []
    return [str(i) for i in ids] if isinstance(ids, list) else []


def _may_see(entry: LobbyEntry, who: Identity) -> bool:
    return not entry.info.private or who.id in entry.may_see
