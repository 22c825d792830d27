"""The owner's side of the bus: requests from other processes for the tables run here.

Owns `OwnerDesk`: it takes requests off this process's list on the bus (`net.bus.Bus`), each
on a task of its own so one table's slow fsync never holds another's request, and answers each
with the value or the refusal (`HubError` or `IllegalAction`, kind and sentence) the local hub
gave. A ``watch`` request opens an ordinary viewer of the local hub for the remote session and
copies its updates — already redacted for that seat by the hub — in order and numbered, to
that viewer's stream on the bus (retrying while Redis is down; the viewer's own bounded queue
holds what comes meanwhile). A viewer that is another worker's one stream for all its
spectators of a table (`net.table_feed`) says how many it stands for (``weight``, updated by
``weight`` requests), so every lobby counts every spectator. Also `lobby_entry`: one room as
every lobby lists it.

Must not: play, validate or redact (the local hub does), or ask other processes anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Callable
from typing import Any

import msgspec
from redis.exceptions import RedisError

from core.game import IllegalAction
from net.bus import Bus, LobbyEntry, decode_action, encode_update, error_to_wire, identity_from
from net.hub import HubError, Identity, Watch
from net.local_hub import LocalHub
from net.room import Room, TableStatus
from net.viewer import Viewer

__all__ = ["OwnerDesk", "lobby_entry"]

log = logging.getLogger("speedway.bus")


class OwnerDesk:
    """Answers the bus's requests for ``local``'s tables until ``stopping`` is set."""

    def __init__(
        self,
        local: LocalHub,
        bus: Bus,
        stopping: asyncio.Event,
        changed: Callable[[], None] = lambda: None,
    ) -> None:
        self.local = local
        self.bus = bus
        self.stopping = stopping
        self._changed = changed  # a viewer's weight changed: the lobby shows new counts
        self._viewers: dict[str, tuple[Viewer, asyncio.Task[None]]] = {}  # remote viewers here

    def stop_viewers(self) -> None:
        """Stop copying (no end marker: the remote viewers resync with the next owner)."""
        for _watch, pump in list(self._viewers.values()):
            pump.cancel()

    async def serve(self) -> None:
        await self._serve_requests()

    async def _serve_requests(self) -> None:
        while not self.stopping.is_set():
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
        if op == "weight":
            item = self._viewers.get(str(request.get("viewer", "")))
            if item is not None:
                item[0].weight = max(1, int(request.get("weight", 1)))
                self._changed()
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
            return self.entry_bytes(table_id)
        elif op == "leave":
            await local.leave(table_id, who)
            return self.entry_bytes(table_id)
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
                table_id,
                who,
                None if seat is None else int(seat),
                str(request["viewer"]),
                int(request.get("weight", 1)),
            )
        else:
            raise HubError("config-refused", f"Unknown request {op!r}.")
        return None

    def entry_bytes(self, table_id: str) -> bytes | None:
        room = next((r for r in self.local.rooms() if r.id == table_id), None)
        return None if room is None else msgspec.msgpack.encode(lobby_entry(room, self.bus.worker))

    def _open_viewer(
        self, table_id: str, who: Identity, seat: int | None, viewer: str, weight: int = 1
    ) -> None:
        watch = self.local.watch(table_id, who, seat)
        if weight != 1:
            watch.weight = max(1, weight)
            self._changed()
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


def lobby_entry(room: Room, worker: str) -> LobbyEntry:
    """``room`` as every process's lobby lists it (who may see a private one, its code)."""
    may_see = sorted({*(h for h in room.holders if h), *room.invited, room.creator} - {""})
    return LobbyEntry(
        info=room.info(),
        owner=worker,
        may_see=may_see,
        invite_code=room.invite_code if room.status is not TableStatus.FINISHED else None,
        creator=room.creator,
    )
