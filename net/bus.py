"""The Redis bus between Speedway processes: keys, leases, the wire format and requests.

Owns everything that touches Redis (`redis.asyncio`): the key names under one prefix, the
ownership lease of a table (``SET NX PX``, renewed only by its holder, checked in one script),
the wire format of hub messages (msgspec MessagePack; a game's events, config and actions are
decoded back into its own types), and requests from one process to a table's owner (a list per
process; the answer on a list per request, bounded in time). A request that cannot reach Redis
raises `HubError` ``bus-down`` with a sentence.

Keys (``PREFIX`` = ``speedway:``): ``owner:ID`` (the owner's worker id, with expiry),
``fence:ID`` and ``epoch`` (the lease's fencing token and the counter behind it, `net.leases`),
``machines`` (sorted set: the live processes of every machine, `net.machines`),
``lobby`` (hash: table id -> `LobbyEntry`) and channel ``lobby`` (a change happened),
``codes`` (hash: invite code -> table id), ``rpc:WORKER`` (requests to one process),
``reply:REQ`` (one answer), ``view:VIEWER`` (stream: one remote viewer's updates, in order,
numbered).

Must not: decide anything about play or seats (that is `net.local_hub` at the owner), or know
the TUI. It moves bytes and says who owns what.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.game import (
    BreaksRule,
    Game,
    GameOver,
    IllegalAction,
    NotYourTurn,
    StaleAction,
)
from net.hub import HubError, Identity, StepUpdate, TableInfo, Update, Welcome
from net.leases import FENCE_MS, LEASE
from net.machines import HEARTBEAT, LEAVE, Peers

__all__ = [
    "PREFIX",
    "Bus",
    "LobbyEntry",
    "decode_action",
    "decode_update",
    "encode_update",
    "error_from_wire",
    "error_to_wire",
]

log = logging.getLogger("speedway.bus")

PREFIX = "speedway:"
DOWN = "The shared server bus is unreachable just now; try again in a moment."

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class LobbyEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One table as every process's lobby sees it, published by its owner."""

    info: TableInfo
    owner: str
    may_see: list[str] = []  # identities who see a private table (holders, invited, creator)
    invite_code: str | None = None  # shown only to ``may_see``
    creator: str = ""  # (the cap on unfinished tables per identity counts every process's)


# ---------------------------------------------------------------------------- wire format

_update_decoder = msgspec.msgpack.Decoder(Update)


def encode_update(update: Update) -> bytes:
    return msgspec.msgpack.encode(update)


def decode_update(data: bytes, game: Game) -> Update:
    """An update back in ``game``'s own types (events, config)."""
    update = _update_decoder.decode(data)
    if isinstance(update, Welcome):
        return msgspec.structs.replace(
            update,
            config=msgspec.convert(update.config, game.config_type),
            events=[msgspec.convert(e, game.event_type) for e in update.events],
        )
    if isinstance(update, StepUpdate):
        return msgspec.structs.replace(
            update, events=[msgspec.convert(e, game.event_type) for e in update.events]
        )
    return update


def decode_action(raw: Any, game: Game) -> Any:
    return msgspec.convert(raw, game.action_type)


_ILLEGAL: dict[str, type[IllegalAction]] = {
    cls.kind: cls for cls in (IllegalAction, NotYourTurn, StaleAction, GameOver, BreaksRule)
}


def error_to_wire(err: Exception) -> dict[str, str]:
    if isinstance(err, HubError):
        return {"err": "hub", "kind": err.kind, "text": str(err)}
    if isinstance(err, IllegalAction):
        return {"err": "illegal", "kind": err.kind, "text": str(err)}
    raise TypeError(err)


def error_from_wire(answer: dict[str, Any]) -> Exception:
    text = str(answer.get("text", ""))
    if answer.get("err") == "hub":
        return HubError(answer.get("kind", "config-refused"), text)
    return _ILLEGAL.get(str(answer.get("kind")), IllegalAction)(text)


# ---------------------------------------------------------------------------- the bus


class Bus:
    """One process's connection to the bus (``url`` like ``redis://HOST:PORT/N``)."""

    def __init__(self, url: str, *, worker: str | None = None, lease: float = 3.0) -> None:
        self.url = url
        self.worker = worker or secrets.token_hex(6)
        self.lease = lease
        # A connection Redis dropped (a restart) is retried a few times, briefly, before a
        # request is refused as "bus down".
        retry: dict[str, Any] = {
            "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 4),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError],
        }
        # (Typed Any: the client's own annotations are a union of sync and async results.)
        self.redis: Any = aioredis.Redis.from_url(
            url, socket_timeout=2.0, socket_connect_timeout=2.0, health_check_interval=5, **retry
        )
        # Blocking reads (requests, viewer streams) wait on connections of their own.
        self.blocking: Any = aioredis.Redis.from_url(
            url, socket_timeout=None, socket_connect_timeout=2.0, **retry
        )
        self.up = True
        self._renew = self.redis.register_script(_RENEW)
        self._claim = self.redis.register_script(LEASE)
        self._release = self.redis.register_script(_RELEASE)
        self._heartbeat = self.redis.register_script(HEARTBEAT)
        self._leave = self.redis.register_script(LEAVE)
        self.peers: Peers | None = None  # the machine registry as last seen (set by the hub)

    def key(self, *parts: str) -> str:
        return PREFIX + ":".join(parts)

    async def ping(self) -> bool:
        try:
            await self.redis.ping()
        except (RedisError, OSError):
            self._down()
            return False
        if not self.up:
            log.info("event=bus-up url=%s", self.url)
        self.up = True
        return True

    def _down(self) -> None:
        if self.up:
            log.warning("event=bus-down url=%s", self.url)
        self.up = False

    async def close(self) -> None:
        for client in (self.redis, self.blocking):
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()

    # ------------------------------------------------------------ leases

    async def claim(self, table_id: str) -> int:
        """Take the table's lease if nobody holds it (or we already do): its fencing token (the
        epoch, `net.leases`), or 0 when another process holds it. With ``peers``, the same
        round trip registers this process first (`net.machines`): a claimer is always in the
        registry, so an owner that could lose a table to it knows of it."""
        keys = [self.key("owner", table_id), self.key("fence", table_id), self.key("epoch")]
        args: list[str | int] = [self.worker, int(self.lease * 1000), "", FENCE_MS]
        if self.peers is None:
            return int(await self._claim(keys=keys, args=args))
        sent = time.monotonic()
        pipe = self.redis.pipeline(transaction=True)  # (one MULTI: registered, then claimed)
        await self._heartbeat(keys=[self.key("machines")], args=self.peers.args(), client=pipe)
        await self._claim(keys=keys, args=args, client=pipe)
        members, epoch = await pipe.execute()
        self.peers.saw(members, sent)
        return int(epoch)

    async def heartbeat(self) -> None:
        """Register this process in the machine registry and read the others (`net.machines`)."""
        if self.peers is not None:
            sent = time.monotonic()
            members = await self._heartbeat(keys=[self.key("machines")], args=self.peers.args())
            self.peers.saw(members, sent)

    async def leave(self) -> None:
        """Out of the machine registry (this process closes; its machine's others stay)."""
        if self.peers is not None:
            await self._leave(keys=[self.key("machines")], args=[self.peers.member])

    async def renew(self, table_id: str) -> bool:
        """Extend our lease; False if it is not ours any more."""
        ms = int(self.lease * 1000)
        return bool(await self._renew(keys=[self.key("owner", table_id)], args=[self.worker, ms]))

    async def release(self, table_id: str) -> None:
        await self._release(keys=[self.key("owner", table_id)], args=[self.worker])

    async def owner(self, table_id: str) -> str | None:
        raw = await self.redis.get(self.key("owner", table_id))
        return raw.decode() if raw is not None else None

    # ------------------------------------------------------------ requests

    async def request(
        self, worker: str, op: str, body: dict[str, Any], *, wait: float = 5.0
    ) -> Any:
        """Ask ``worker`` to do ``op``; its answer, or its refusal raised here."""
        req_id = secrets.token_hex(8)
        reply = self.key("reply", req_id)
        message = msgspec.msgpack.encode({"op": op, "reply": reply, **body})
        try:
            await self.redis.rpush(self.key("rpc", worker), message)
            await self.redis.expire(self.key("rpc", worker), 60)
            got = await self.blocking.blpop([reply], timeout=wait)
        except (RedisError, OSError):
            self._down()
            raise HubError("bus-down", DOWN) from None
        if got is None:
            raise HubError(
                "table-stopped", "The server running this table did not answer; try again."
            )
        answer = msgspec.msgpack.decode(got[1])
        if isinstance(answer, dict) and "err" in answer:
            raise error_from_wire(answer)
        return answer.get("ok") if isinstance(answer, dict) else None

    async def answer(self, reply: str, answer: dict[str, Any]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.rpush(reply, msgspec.msgpack.encode(answer))
        pipe.expire(reply, 30)
        await pipe.execute()

    async def next_request(self, wait: float = 1.0) -> dict[str, Any] | None:
        got = await self.blocking.blpop([self.key("rpc", self.worker)], timeout=wait)
        if got is None:
            return None
        message = msgspec.msgpack.decode(got[1])
        return message if isinstance(message, dict) else None

    # ------------------------------------------------------------ lobby

    async def publish_lobby(self, entries: dict[str, bytes], gone: list[str]) -> None:
        """Changed entries (encoded `LobbyEntry`) and tables gone; one message names them."""
        pipe = self.redis.pipeline(transaction=False)
        if entries:
            pipe.hset(self.key("lobby"), mapping=entries)
        for table_id in gone:
            pipe.hdel(self.key("lobby"), table_id)
        pipe.publish(self.key("lobby"), msgspec.msgpack.encode([*entries, *gone]))
        await pipe.execute()

    async def lobby_some(self, table_ids: list[str]) -> dict[str, LobbyEntry | None]:
        """The entries of these tables now (None: gone)."""
        raw = await self.redis.hmget(self.key("lobby"), table_ids)
        out: dict[str, LobbyEntry | None] = {}
        for table_id, v in zip(table_ids, raw, strict=True):
            try:
                out[table_id] = None if v is None else msgspec.msgpack.decode(v, type=LobbyEntry)
            except msgspec.DecodeError:
                out[table_id] = None
        return out

    async def lobby(self) -> dict[str, LobbyEntry]:
        raw = await self.redis.hgetall(self.key("lobby"))
        out: dict[str, LobbyEntry] = {}
        for k, v in raw.items():
            try:
                out[k.decode()] = msgspec.msgpack.decode(v, type=LobbyEntry)
            except msgspec.DecodeError:
                log.warning("lobby entry %r could not be read", k)
        return out

    async def set_code(self, code: str, table_id: str) -> None:
        await self.redis.hset(self.key("codes"), code, table_id)

    async def code(self, code: str) -> str | None:
        raw = await self.redis.hget(self.key("codes"), code)
        return raw.decode() if raw is not None else None

    # ------------------------------------------------------------ viewer streams

    async def view_put(self, viewer: str, seq: int, data: bytes | None) -> None:
        """One update for a remote viewer (``None``: its stream ends)."""
        key = self.key("view", viewer)
        fields: dict[str, Any] = {"seq": seq, "end": 1} if data is None else {"seq": seq, "u": data}
        pipe = self.redis.pipeline(transaction=False)
        pipe.xadd(key, fields, maxlen=20_000, approximate=True)
        pipe.expire(key, 600)
        await pipe.execute()

    async def view_read(
        self, viewer: str, after: bytes, block: float
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        got = await self.blocking.xread(
            {self.key("view", viewer): after}, block=int(block * 1000), count=256
        )
        if not got:
            return []
        return list(got[0][1])

    async def view_drop(self, viewer: str) -> None:
        await self.redis.delete(self.key("view", viewer))


async def sleep_until(event: asyncio.Event, seconds: float) -> None:
    """Sleep ``seconds`` or until ``event`` is set, whichever comes first."""
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({waiter}, timeout=seconds)
    finally:
        waiter.cancel()


def identity_from(raw: Any) -> Identity:
    return msgspec.convert(raw, Identity)
