"""A session's view of a table another process owns, read from the bus.

Owns `RemoteWatch` (a `net.hub.Watch`): it asks the table's owner to open a viewer for it
(`net.owner_desk`), then reads that viewer's numbered stream of updates from Redis. A number
out of order (an entry lost), or a new owner (the old one died), makes it ask again: the
screen gets a fresh `Welcome`, refolds from it, and goes on — nothing shown twice or skipped.
When the table moves into this very process it follows it as a local viewer (or, for a
worker's shared spectator stream, `net.table_feed`, it ends so the feed's sessions each follow
it locally). ``close`` tells the owner (best effort) and ends the stream. A refusal (a
`HubError`: the table is gone, the seat is no longer the viewer's) ends the stream with one
`Notice` saying why; it is never raised out of the stream, into the screen that reads it.

Must not: decide what the viewer may see (the owner's hub redacted it) or change the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

import msgspec
from redis.exceptions import RedisError

from core.game import Game, IllegalAction
from net.bus import decode_update
from net.hub import HubError, Identity, Notice, Update, Watch

if TYPE_CHECKING:
    from net.bus_hub import BusHub

__all__ = ["RemoteWatch", "wire"]

log = logging.getLogger("speedway.bus")


def wire(who: Identity) -> dict[str, Any]:
    """An identity as a request carries it."""
    out: dict[str, Any] = msgspec.to_builtins(who)
    return out


class RemoteWatch:
    """A session's view of a table owned by another process (implements `net.hub.Watch`)."""

    def __init__(
        self,
        hub: BusHub,
        table_id: str,
        who: Identity,
        seat: int | None,
        game: Game | None,
        *,
        follow_local: bool = True,
        weight: Callable[[], int] | None = None,
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
        self._follow_local = follow_local  # False: end when the table moves here
        self._weight = weight  # how many spectators this stream stands for (the lobby counts)
        self.moved_here = False

    def __aiter__(self) -> AsyncIterator[Update]:
        return self._iterate()

    async def _open(self) -> None:
        self._viewer = secrets.token_hex(8)
        self._owner = await self._hub.owner_of(self.table_id)  # (reads the lobby if need be)
        if self._game is None:
            self._game = self._hub.game_of(self.table_id)
        if self._owner == self._bus.worker:
            raise HubError("table-stopped", "This table is moving here.")
        body: dict[str, Any] = {
            "table": self.table_id, "who": wire(self.who), "seat": self.seat,
            "viewer": self._viewer,
        }  # fmt: skip
        if self._weight is not None:
            body["weight"] = self._weight()
        await self._bus.request(self._owner, "watch", body)

    async def _iterate(self) -> AsyncIterator[Update]:
        while not self.closed:
            if self._hub.local.has(self.table_id):
                if not self._follow_local:
                    self.moved_here = True
                    return
                # The table moved here (its owner died): follow it as any local viewer does.
                try:
                    self._local = self._hub.local.watch(self.table_id, self.who, self.seat)
                except HubError as err:  # refused here (a guest's seat opened as it moved)
                    yield Notice(text=str(err))
                    return
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

    def reweigh(self, weight: int) -> None:
        """Tell the owner how many spectators this stream stands for now (best effort; the
        next ``watch`` request carries it anyway)."""
        viewer, owner = self._viewer, self._owner
        if viewer is None or owner is None:
            return
        message = msgspec.msgpack.encode({"op": "weight", "viewer": viewer, "weight": weight})

        async def tell() -> None:
            with contextlib.suppress(RedisError, OSError):
                await self._bus.redis.rpush(self._bus.key("rpc", owner), message)

        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(tell(), context=contextvars.Context())

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
