"""The hub of one process among several sharing a Redis bus: one lobby, tables anywhere.

Owns `BusHub` (a `net.hub.Hub`) and `RemoteWatch`. Each table is run by exactly one process,
its *owner*: the one holding its lease (`net.bus.Bus.claim`), renewed every third of the lease
while the process lives (`net.leases`, on a thread: a busy event loop keeps its tables). The owner's `net.local_hub.LocalHub` runs the table as in a single
process (``Table.submit`` -> fsync -> viewers), so nothing about play changes here. What this
module adds:

- *Lobby*: the owner publishes each of its tables (`net.bus.LobbyEntry`) whenever its local lobby
  changes, coalesced to one write per ``lobby_interval``; every process keeps the whole lobby
  in memory, refreshed on the bus's "lobby changed" message (and every few seconds), so
  ``tables()`` stays a memory read.
- *Requests*: a seat, a move, a chat line or a watch for a table owned elsewhere goes to its
  owner (`net.bus.Bus.request`) and comes back accepted or refused with the owner's sentence.
- *Remote viewers*: the owner opens an ordinary viewer for the remote session and copies its
  updates, already redacted for that seat, in order and numbered, to a Redis stream the remote
  process reads (`RemoteWatch`). A gap in the numbers, or a new owner, makes the remote viewer
  ask again: it gets a fresh `Welcome` (the screen refolds from it) and goes on.
- *Owner failure*: a process that sees an unfinished table in the lobby without an owner for a
  whole lease (a live owner renews every third of one, also right after a bus outage) claims
  it and restores it from the shared data dir (`LocalHub.adopt`: the durable
  log, re-simulated; nothing acknowledged is lost, nothing applied twice); a process that finds
  its lease taken by another stops playing that table (`LocalHub.let_go`).
- *Bus down*: tables owned here keep playing for sessions here; anything that needs another
  process gets a `HubError` ``bus-down`` sentence; leases, the lobby and viewers resume when
  Redis answers again.

Must not: play, validate or redact itself (the owner's `LocalHub` does), write table files
(`net.persist` at the owner), or import tui.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
from redis.exceptions import RedisError

from core.game import Game, IllegalAction
from net.bus import (
    DOWN,
    Bus,
    LobbyEntry,
    decode_action,
    decode_update,
    encode_update,
    error_to_wire,
    identity_from,
    sleep_until,
)
from net.hub import HubError, Identity, Notice, TableInfo, TableSpec, Update, Watch
from net.leases import LeaseKeeper
from net.local_hub import LocalHub
from net.room import Room, TableStatus

__all__ = ["BusHub", "RemoteWatch"]

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
    ) -> None:
        self.local = local
        self.bus = bus
        self._game = game
        self.lobby_interval = lobby_interval
        self.refresh = refresh
        self._remote: dict[str, LobbyEntry] = {}  # every table of the bus, as last read
        self._published: set[str] = set()
        self._lobby_dirty = asyncio.Event()  # our tables changed: publish
        self._lobby_waiters: list[asyncio.Event] = []
        self._viewers: dict[str, tuple[Watch, asyncio.Task[None]]] = {}  # remote viewers here
        self._tasks: list[asyncio.Task[None]] = []
        self._adopting: set[str] = set()  # tables being claimed and restored right now
        self._orphaned: dict[str, float] = {}  # table -> when we first saw it without owner
        self._leases: LeaseKeeper | None = None
        self._stopping = asyncio.Event()
        self.trace: Any = None
        local.lobby_listeners.append(self._local_lobby_changed)

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Claim the tables of the data dir nobody owns, then run the bus tasks."""
        await self.bus.ping()
        if self.bus.up:
            await self._refresh_lobby()
            for table_id in self.local.stored_tables():
                await self._try_adopt(table_id)
        await self.local.start()
        loop = asyncio.get_running_loop()
        self._leases = LeaseKeeper(
            self.bus.url,
            worker=self.bus.worker,
            lease=self.bus.lease,
            key=lambda t: self.bus.key("owner", t),
            lost=self._lease_lost,
            loop=loop,
        )
        for room in self.local.rooms():
            self._leases.keep(room.id)
        self._leases.start()
        for job in (self._serve_requests, self._keep_leases, self._publish_lobby, self._follow):
            self._tasks.append(loop.create_task(job(), context=contextvars.Context()))
        self._lobby_dirty.set()

    async def close(self, message: str = "The server is shutting down.") -> None:
        self._stopping.set()
        for _watch, pump in list(self._viewers.values()):
            pump.cancel()
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
        await self.bus.close()

    async def _try_adopt(self, table_id: str) -> bool:
        """Claim an unowned table and restore it here from the shared data dir."""
        try:
            if not await self.bus.claim(table_id):
                return False
        except (RedisError, OSError):
            return False
        if self.local.adopt(table_id):
            log.info("event=adopted table=%s worker=%s", table_id, self.bus.worker)
            if self._leases is not None:
                self._leases.keep(table_id)
            return True
        with contextlib.suppress(RedisError, OSError):
            await self.bus.release(table_id)
            entry = self._remote.get(table_id)
            if entry is not None and entry.owner != self.bus.worker:
                # It cannot be restored here (finished, gone, unreadable: logged): unlisted,
                # rather than offered to players forever.
                log.warning("event=unlisted table=%s: it could not be taken over", table_id)
                await self.bus.publish_lobby([], [table_id])
        return False

    # ------------------------------------------------------------------ lobby

    def _local_lobby_changed(self) -> None:
        self._lobby_dirty.set()
        self._notify()

    def _notify(self) -> None:
        for ev in self._lobby_waiters:
            ev.set()

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

    def _entries(self) -> list[LobbyEntry]:
        return [_entry(room, self.bus.worker) for room in self.local.rooms()]

    async def _publish_lobby(self) -> None:
        while not self._stopping.is_set():
            await self._lobby_dirty.wait()
            if self.lobby_interval > 0:
                await asyncio.sleep(self.lobby_interval)
            self._lobby_dirty.clear()
            entries = self._entries()
            ids = {e.info.id for e in entries}
            gone = sorted(self._published - ids)
            try:
                await self.bus.publish_lobby(entries, gone)
                for entry in entries:
                    if entry.invite_code is not None:
                        await self.bus.set_code(entry.invite_code, entry.info.id)
            except (RedisError, OSError):
                self.bus._down()
                await asyncio.sleep(0.5)
                self._lobby_dirty.set()  # try again when the bus is back
                continue
            self._published = ids

    async def _refresh_lobby(self) -> None:
        try:
            entries = await self.bus.lobby()
        except (RedisError, OSError):
            self.bus._down()
            return
        if entries != self._remote:
            self._remote = entries
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
                    if msg is not None and self.lobby_interval > 0:
                        await asyncio.sleep(self.lobby_interval)  # coalesce
                        while await pubsub.get_message(ignore_subscribe_messages=True, timeout=0):
                            pass
                    await self._refresh_lobby()
            except (RedisError, OSError):
                self.bus._down()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()

    # ------------------------------------------------------------------ leases

    def _lease_lost(self, table_id: str) -> None:
        log.warning("event=lease-lost table=%s worker=%s", table_id, self.bus.worker)
        self.local.let_go(table_id, "This table moved to another server; reopen it from the lobby.")

    async def _keep_leases(self) -> None:
        """Hand our tables to the lease keeper; take over orphaned tables."""
        while not self._stopping.is_set():
            await sleep_until(self._stopping, self.bus.lease / 3)
            if self._stopping.is_set():
                return
            if not await self.bus.ping():
                self._orphaned.clear()  # nothing is known while the bus is down
                continue  # our tables play on here; nobody else can take them
            if self._leases is not None:  # (renewed on the keeper's own thread)
                self._leases.retain({room.id for room in self.local.rooms()})
            for table_id, entry in list(self._remote.items()):
                if entry.owner == self.bus.worker or self.local.has(table_id):
                    continue
                try:
                    owner = await self.bus.owner(table_id)
                    if owner is None and entry.info.status == "finished":
                        # Its owner died before listing it out: nothing to take over.
                        await self.bus.publish_lobby([], [table_id])
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
                    task.add_done_callback(lambda _t, t=table_id: self._adopting.discard(t))
                    self._orphaned.pop(table_id, None)

    # ------------------------------------------------------------------ requests to owners

    async def _owner(self, table_id: str) -> str:
        """The worker owning ``table_id`` (raises: unknown table, bus down, moving)."""
        if table_id not in self._remote:
            await self._refresh_lobby()
            if table_id not in self._remote:
                if not self.bus.up:
                    raise HubError("bus-down", DOWN)
                raise HubError("no-such-table", f"There is no table {table_id!r}.")
        try:
            owner = await self.bus.owner(table_id)
        except (RedisError, OSError):
            self.bus._down()
            raise HubError("bus-down", DOWN) from None
        if owner is None:
            raise HubError(
                "table-stopped", "This table is moving to another server; try again in a moment."
            )
        return owner

    async def _ask(self, table_id: str, op: str, **body: Any) -> Any:
        owner = await self._owner(table_id)
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
        table_id = await self.local.create_table(spec, who)
        try:
            await self.bus.claim(table_id)
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
        result = await self._ask(table_id, "join_private", code=code, who=_wire(who))
        self._keep(self._entry_bytes(table_id) if self.local.has(table_id) else None)
        await self._refresh_lobby()
        return str(result)

    async def take_seat(self, table_id: str, seat: int, who: Identity) -> None:
        if self.local.has(table_id):
            await self.local.take_seat(table_id, seat, who)
            return
        self._keep(await self._ask(table_id, "take_seat", seat=seat, who=_wire(who)))

    async def leave(self, table_id: str, who: Identity) -> None:
        if self.local.has(table_id):
            await self.local.leave(table_id, who)
            return
        self._keep(await self._ask(table_id, "leave", who=_wire(who)))

    def _keep(self, raw: Any) -> None:
        """The owner's answer to a seat change is the table's new lobby entry: this process's
        lobby shows it now (the seat is ours to watch at once), not after the next publish."""
        if isinstance(raw, bytes):
            entry = msgspec.msgpack.decode(raw, type=LobbyEntry)
            self._remote[entry.info.id] = entry
            self._notify()

    async def abandon(self, table_id: str, who: Identity) -> None:
        await self._local_or(
            table_id, lambda: self.local.abandon(table_id, who), "abandon", who=_wire(who)
        )

    async def submit(
        self, table_id: str, who: Identity, seat: int, action: Any, state_id: int
    ) -> None:
        await self._local_or(
            table_id,
            lambda: self.local.submit(table_id, who, seat, action, state_id),
            "submit",
            who=_wire(who),
            seat=seat,
            action=msgspec.to_builtins(action),
            state_id=state_id,
        )

    async def hint(self, table_id: str, who: Identity, seat: int, bot: str | None) -> Any:
        if self.local.has(table_id):
            return await self.local.hint(table_id, who, seat, bot)
        raw = await self._ask(table_id, "hint", who=_wire(who), seat=seat, bot=bot)
        return decode_action(raw, self._game(self._remote[table_id].info.game))

    async def chat(self, table_id: str, who: Identity, text: str) -> None:
        await self._local_or(
            table_id,
            lambda: self.local.chat(table_id, who, text),
            "chat",
            who=_wire(who),
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
        return RemoteWatch(self, table_id, who, seat, self._game(entry.info.game))

    # ------------------------------------------------------------------ answering requests

    async def _serve_requests(self) -> None:
        while not self._stopping.is_set():
            try:
                request = await self.bus.next_request(wait=1.0)
            except (RedisError, OSError):
                self.bus._down()
                await asyncio.sleep(0.5)
                continue
            if request is None:
                continue
            # Each request on its own task: a slow fsync at one table never holds another.
            asyncio.get_running_loop().create_task(
                self._answer(request), context=contextvars.Context()
            )

    async def _answer(self, request: dict[str, Any]) -> None:
        reply = request.get("reply")
        try:
            value = await self._do(request)
            answer: dict[str, Any] = {"ok": value}
        except (HubError, IllegalAction) as err:
            answer = error_to_wire(err)
        except Exception:
            log.exception("request %s failed", request.get("op"))
            answer = {"err": "hub", "kind": "table-stopped", "text": "The table server failed."}
        if isinstance(reply, str):
            with contextlib.suppress(RedisError, OSError):
                await self.bus.answer(reply, answer)

    async def _do(self, request: dict[str, Any]) -> Any:
        op = request.get("op")
        table_id = str(request.get("table", ""))
        if op == "unwatch":
            self._drop_viewer(str(request.get("viewer", "")))
            return None
        who = identity_from(request.get("who"))
        if op == "join_private":
            return await self.local.join_private(str(request.get("code", "")), who)
        if not self.local.has(table_id):
            raise HubError(
                "table-stopped", "This table is moving to another server; try again in a moment."
            )
        local = self.local
        if op == "take_seat":
            await local.take_seat(table_id, int(request["seat"]), who)
            return self._entry_bytes(table_id)
        elif op == "leave":
            await local.leave(table_id, who)
            return self._entry_bytes(table_id)
        elif op == "abandon":
            await local.abandon(table_id, who)
        elif op == "chat":
            await local.chat(table_id, who, str(request.get("text", "")))
        elif op == "submit":
            game = local.game_of(table_id)
            action = decode_action(request.get("action"), game)
            await local.submit(
                table_id, who, int(request["seat"]), action, int(request["state_id"])
            )
        elif op == "hint":
            return msgspec.to_builtins(
                await local.hint(table_id, who, int(request["seat"]), request.get("bot"))
            )
        elif op == "watch":
            seat = request.get("seat")
            self._open_viewer(
                table_id, who, None if seat is None else int(seat), str(request["viewer"])
            )
        else:
            raise HubError("config-refused", f"Unknown request {op!r}.")
        return None

    def _entry_bytes(self, table_id: str) -> bytes | None:
        room = next((r for r in self.local.rooms() if r.id == table_id), None)
        return None if room is None else msgspec.msgpack.encode(_entry(room, self.bus.worker))

    def _open_viewer(self, table_id: str, who: Identity, seat: int | None, viewer: str) -> None:
        watch = self.local.watch(table_id, who, seat)
        pump = asyncio.get_running_loop().create_task(
            self._pump(viewer, watch), context=contextvars.Context()
        )
        self._viewers[viewer] = (watch, pump)

    async def _pump(self, viewer: str, watch: Watch) -> None:
        """Copy one local viewer's updates to the remote viewer's stream, numbered."""
        seq = 0
        try:
            async for update in watch:
                await self._put(viewer, seq, encode_update(update))
                seq += 1
            await self._put(viewer, seq, None)
        finally:
            self._viewers.pop(viewer, None)
            await watch.close()

    async def _put(self, viewer: str, seq: int, data: bytes | None) -> None:
        """Write one entry, retrying while the bus is down (the local viewer's bounded queue
        holds what comes meanwhile; one that falls too far behind is ended there)."""
        while True:
            try:
                await self.bus.view_put(viewer, seq, data)
                return
            except (RedisError, OSError):
                self.bus._down()
                await asyncio.sleep(0.2)

    def _drop_viewer(self, viewer: str) -> None:
        item = self._viewers.pop(viewer, None)
        if item is not None:
            watch, pump = item
            pump.cancel()
            asyncio.get_running_loop().create_task(watch.close(), context=contextvars.Context())


class RemoteWatch:
    """A session's view of a table owned by another process (implements `net.hub.Watch`)."""

    def __init__(
        self, hub: BusHub, table_id: str, who: Identity, seat: int | None, game: Game | None
    ) -> None:
        self._hub = hub
        self._bus = hub.bus
        self.table_id = table_id
        self.who = who
        self.seat = seat
        self._game = game
        self.closed = False
        self._viewer: str | None = None
        self._owner: str | None = None
        self._local: Watch | None = None
        self._unseen = 20 if game is None else 0  # tries left for a table not yet in the lobby

    def __aiter__(self) -> AsyncIterator[Update]:
        return self._iterate()

    async def _open(self) -> None:
        self._viewer = secrets.token_hex(8)
        self._owner = await self._hub._owner(self.table_id)  # (reads the lobby if need be)
        if self._game is None:
            self._game = self._hub._game(self._hub._remote[self.table_id].info.game)
        if self._owner == self._bus.worker:
            raise HubError("table-stopped", "This table is moving here.")
        await self._bus.request(
            self._owner,
            "watch",
            {"table": self.table_id, "who": _wire(self.who), "seat": self.seat,
             "viewer": self._viewer},
        )  # fmt: skip

    async def _iterate(self) -> AsyncIterator[Update]:
        while not self.closed:
            if self._hub.local.has(self.table_id):
                # The table moved here (its owner died): follow it as any local viewer does.
                self._local = self._hub.local.watch(self.table_id, self.who, self.seat)
                async for update in self._local:
                    yield update
                return
            try:
                await self._open()
            except HubError as err:
                if err.kind == "no-such-table" and self._unseen > 0:
                    self._unseen -= 1  # made a moment ago: its owner publishes it shortly
                    await asyncio.sleep(0.1)
                    continue
                if err.kind not in ("bus-down", "table-stopped"):
                    yield Notice(text=str(err))
                    return
                await asyncio.sleep(0.5)  # the owner is moving, or the bus is down: again
                continue
            except IllegalAction as err:
                yield Notice(text=str(err))
                return
            async for update in self._read():
                yield update
            self._unwatch()

    async def _read(self) -> AsyncIterator[Update]:
        """This viewer's stream until it ends, a gap shows, or its owner changes."""
        assert self._viewer is not None
        after = b"0"
        expected = 0
        while not self.closed:
            try:
                entries = await self._bus.view_read(self._viewer, after, block=1.0)
                if not entries and await self._bus.owner(self.table_id) != self._owner:
                    return  # the owner died or moved: ask its successor
            except (RedisError, OSError):
                self._bus._down()
                await asyncio.sleep(0.5)
                continue
            for entry_id, fields in entries:
                after = entry_id
                seq = int(fields.get(b"seq", b"-1"))
                if seq != expected:
                    log.warning(
                        "viewer %s: gap (%d, wanted %d): resync", self._viewer, seq, expected
                    )
                    return
                expected += 1
                if b"end" in fields:
                    self.closed = True
                    return
                assert self._game is not None
                yield decode_update(fields[b"u"], self._game)

    def _unwatch(self) -> None:
        viewer, owner = self._viewer, self._owner
        self._viewer = None
        if viewer is None or owner is None:
            return

        async def tell() -> None:
            with contextlib.suppress(RedisError, OSError):
                await self._bus.redis.rpush(
                    self._bus.key("rpc", owner),
                    msgspec.msgpack.encode({"op": "unwatch", "viewer": viewer}),
                )
                await self._bus.view_drop(viewer)

        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(tell(), context=contextvars.Context())

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
        self._unwatch()
        if self._local is not None:
            await self._local.close()


def _wire(who: Identity) -> dict[str, Any]:
    out: dict[str, Any] = msgspec.to_builtins(who)
    return out


def _may_see(entry: LobbyEntry, who: Identity) -> bool:
    return not entry.info.private or who.id in entry.may_see


def _entry(room: Room, worker: str) -> LobbyEntry:
    may_see = sorted({*(h for h in room.holders if h), *room.invited, room.creator} - {""})
    return LobbyEntry(
        info=room.info(),
        owner=worker,
        may_see=may_see,
        invite_code=room.invite_code if room.status is not TableStatus.FINISHED else None,
    )
