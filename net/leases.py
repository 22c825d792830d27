"""Keeping this process's table leases alive from a thread of their own.

Owns `LeaseKeeper`: every third of a lease it renews (or, after a Redis restart lost them,
re-takes) the lease of every table this process owns, with a synchronous Redis client on a
daemon thread. A lease says "this process is alive", not "its event loop is quick": a loop
slowed by a burst of screens must not lose its tables to another process (which would restore
them and make the burst worse). A table whose lease another process holds is reported back to
the loop (``lost``), which stops playing it there.

Must not: touch rooms or the hub (it only knows table ids, and calls ``lost`` through the loop).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

import redis
from redis.exceptions import RedisError

__all__ = ["LeaseKeeper"]

log = logging.getLogger("speedway.bus")

_TAKE = """
local v = redis.call('GET', KEYS[1])
if v == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""


class LeaseKeeper:
    def __init__(
        self,
        url: str,
        *,
        worker: str,
        lease: float,
        key: Callable[[str], str],
        lost: Callable[[str], None],
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self._redis: Any = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=0.5)
        self._take = self._redis.register_script(_TAKE)
        self._worker = worker
        self._lease_ms = int(lease * 1000)
        self._every = lease / 3
        self._key = key
        self._lost = lost
        self._loop = loop
        self._tables: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="speedway-leases", daemon=True)
        self.up = True

    def start(self) -> None:
        self._thread.start()

    def keep(self, table_id: str) -> None:
        with self._lock:
            self._tables.add(table_id)

    def retain(self, table_ids: set[str]) -> None:
        """Keep exactly these (tables that ended or left this process stop being renewed)."""
        with self._lock:
            self._tables = set(table_ids)

    def drop(self, table_id: str) -> None:
        with self._lock:
            self._tables.discard(table_id)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._redis.close()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            with self._lock:
                tables = sorted(self._tables)
            try:
                pipe = self._redis.pipeline(transaction=False)
                for table_id in tables:
                    self._take(keys=[self._key(table_id)], args=[self._worker, self._lease_ms],
                               client=pipe)  # fmt: skip
                answers = pipe.execute()
            except (RedisError, OSError) as err:
                if self.up:
                    log.warning("event=leases-unrenewed worker=%s: %s", self._worker, err)
                self.up = False
                continue
            if not self.up:
                log.info("event=leases-renewed worker=%s", self._worker)
            self.up = True
            for table_id, ours in zip(tables, answers, strict=True):
                if not ours:
                    self.drop(table_id)
                    self._loop.call_soon_threadsafe(self._lost, table_id)
