"""Nicknames shared by every machine on a bus: key fingerprint -> nickname, in Redis.

Owns `SharedNames`, the Redis side of `net.players.PlayerBook` when processes on several
machines share one lobby: hash ``speedway:players`` (fingerprint -> `Binding` JSON) and hash
``speedway:nicknames`` (the name's look-alike key, `net.sanitize.nickname_key` -> the
fingerprint holding it). A name is claimed with HSETNX, so two machines binding the same name
at once cannot both win. A binding that expired (never played, older than the book's expiry)
frees its name for the next claim.

Calls are synchronous and short (the book is synchronous); after a failure Redis is not asked
again for two seconds, and the book answers from its own file meanwhile.

Must not: validate nicknames (the book does, before it asks here) or authenticate anyone.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import msgspec
import redis
from redis.exceptions import RedisError

__all__ = ["SharedNames"]

log = logging.getLogger("speedway.bus")

RETRY_PAUSE = 2.0


class SharedNames:
    def __init__(self, url: str, prefix: str = "speedway:") -> None:
        self.redis: Any = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=0.5)
        self._players = prefix + "players"
        self._names = prefix + "nicknames"
        self._retry_at = 0.0

    def _call(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)``, or None while Redis is failing (the book then uses its own file)."""
        if time.monotonic() < self._retry_at:
            return None
        try:
            return fn(*args)
        except (RedisError, OSError) as err:
            if self._retry_at == 0.0 or time.monotonic() > self._retry_at + 60:
                log.warning("shared nicknames unreachable (%s); using this machine's", err)
            self._retry_at = time.monotonic() + RETRY_PAUSE
            return None

    def binding(self, fingerprint: str, kind: type[Any]) -> Any:
        raw = self._call(self.redis.hget, self._players, fingerprint)
        if raw is None:
            return None
        try:
            return msgspec.json.decode(raw, type=kind)
        except msgspec.DecodeError:
            return None

    def holder(self, name_key: str) -> str | None:
        raw = self._call(self.redis.hget, self._names, name_key)
        return raw.decode() if isinstance(raw, bytes) else None

    def claim(self, name_key: str, fingerprint: str) -> bool | None:
        """Take the name for ``fingerprint``: True (ours now or already), False (another
        key's), None (Redis unreachable)."""
        won = self._call(self.redis.hsetnx, self._names, name_key, fingerprint)
        if won is None:
            return None
        return bool(won) or self.holder(name_key) == fingerprint

    def free(self, name_key: str, fingerprint: str) -> None:
        """Give the name up if ``fingerprint`` holds it (a rename, or an expired binding)."""
        if self.holder(name_key) == fingerprint:
            self._call(self.redis.hdel, self._names, name_key)

    def store(self, fingerprint: str, binding: Any) -> None:
        self._call(self.redis.hset, self._players, fingerprint, msgspec.json.encode(binding))

    def forget(self, fingerprint: str) -> None:
        self._call(self.redis.hdel, self._players, fingerprint)
