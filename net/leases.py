"""Table leases with fencing tokens, kept alive from a thread of their own.

Owns the lease script (`LEASE`) and `LeaseKeeper`. A table's lease is two keys: ``owner:ID``
(the owner's worker id, expiring after one lease) and ``fence:ID`` (its *fencing token*, the
epoch: a number from the bus-wide counter ``epoch``, new at every fresh claim, so no two
claims ever share one). A fresh claim takes a free lease with a new epoch; a renewal (or, when
the key expired during an outage, a re-take) succeeds only while ``fence:ID`` still holds our
epoch, so an owner that was cut off never takes a table back from the one that took it over
meanwhile. Every write of a table's durable copy in Redis carries the epoch too
(`net.log_mirror`): a stale owner's writes are refused there.

`LeaseKeeper`: every third of a lease it renews (or re-takes) the lease of every table this
process owns, with a synchronous Redis client on a daemon thread. A lease says "this process
is alive", not "its event loop is quick": a loop slowed by a burst of screens must not lose its
tables to another process (which would restore them and make the burst worse). For each table
it keeps ``valid_until`` (monotonic: when the lease it last renewed expires at the earliest,
counted from before the renewal was sent); the hub stops taking steps before that moment
passes unrenewed (`net.bus_hub`) *if* another machine could take it over: every round also
sends this process's heartbeat to the machine registry (`net.machines`, first in the same
pipeline) and hands its answer to ``peers``, so the hub knows, from the last round that reached
Redis, whether any other machine was live then. A table whose lease another process holds is
reported back to the loop (``lost``), which stops playing it there; a fresh epoch is reported
(``token``).

Must not: touch rooms or the hub (it only knows table ids, and calls back through the loop).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from redis.exceptions import RedisError

from net.machines import HEARTBEAT, Peers

__all__ = ["LeaseKeeper"]

log = logging.getLogger("speedway.bus")

# KEYS: owner:ID, fence:ID, epoch. ARGV: worker, lease ms, our epoch ('' = none yet: a fresh
# claim), fence ms. Returns our epoch (a fresh one for a fresh claim), or 0: not ours.
LEASE = """
local v = redis.call('GET', KEYS[1])
local f = redis.call('GET', KEYS[2])
if ARGV[3] == '' then
  if v ~= false and v ~= ARGV[1] then return 0 end
  if v == ARGV[1] and f then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    redis.call('PEXPIRE', KEYS[2], ARGV[4])
    return tonumber(f)
  end
  local e = redis.call('INCR', KEYS[3])
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('SET', KEYS[2], e, 'PX', ARGV[4])
  return e
end
if f ~= false and f ~= ARGV[3] then return 0 end
if v ~= false and v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
return tonumber(ARGV[3])
"""
FENCE_MS = 24 * 3600 * 1000  # a token outlives any outage; renewed with the lease


class LeaseKeeper:
    def __init__(
        self,
        url: str,
        *,
        worker: str,
        lease: float,
        key: Callable[..., str],
        lost: Callable[[str], None],
        loop: asyncio.AbstractEventLoop,
        token: Callable[[str, int], None] = lambda _t, _e: None,
        peers: Peers | None = None,
    ) -> None:
        self._redis: Any = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=0.5)
        self._take = self._redis.register_script(LEASE)
        self._heartbeat = self._redis.register_script(HEARTBEAT)
        self.peers = peers
        self._worker = worker
        self._lease = lease
        self._lease_ms = int(lease * 1000)
        self._every = lease / 3
        self._key = key  # key("owner", ID) and so on (`net.bus.Bus.key`)
        self._lost = lost
        self._token = token
        self._loop = loop
        self._tables: dict[str, int | None] = {}  # table -> our epoch (None: not claimed yet)
        self._gone: set[str] = set()  # lost to another process: never claimed afresh here
        self.valid_until: dict[str, float] = {}  # table -> monotonic end of its renewed lease
        self.paused = threading.Event()  # (tests: renewals stop, as in a stalled process)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="speedway-leases", daemon=True)
        self.up = True

    def start(self) -> None:
        self._thread.start()

    def keep(self, table_id: str, epoch: int | None = None, valid_until: float = 0.0) -> None:
        """Renew ``table_id`` from now on (``epoch``: the claim's token, if it was claimed)."""
        with self._lock:
            self._gone.discard(table_id)
            if epoch is not None or table_id not in self._tables:
                self._tables[table_id] = epoch
            if valid_until:
                self.valid_until[table_id] = valid_until

    def epoch(self, table_id: str) -> int | None:
        return self._tables.get(table_id)

    def retain(self, table_ids: set[str]) -> None:
        """Keep exactly these (tables that ended or left this process stop being renewed)."""
        with self._lock:
            self._tables = {t: self._tables.get(t) for t in table_ids - self._gone}
            for gone in set(self.valid_until) - table_ids:
                del self.valid_until[gone]

    def drop(self, table_id: str) -> None:
        with self._lock:
            self._tables.pop(table_id, None)
            self.valid_until.pop(table_id, None)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._redis.close()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            if self._loop.is_closed():  # (its hub is gone without stopping us: so do we)
                log.warning("event=leases-orphaned worker=%s: the event loop closed", self._worker)
                self._redis.close()
                return
            if self.paused.is_set():
                continue
            self.renew_now()

    def renew_now(self) -> None:
        """One round of renewals (the thread's; tests call it too)."""
        with self._lock:
            tables = sorted(self._tables.items())
        sent = time.monotonic()
        try:
            pipe = self._redis.pipeline(transaction=False)
            if self.peers is not None:
                self._heartbeat(keys=[self._key("machines")], args=self.peers.args(), client=pipe)
            for table_id, epoch in tables:
                keys = [self._key("owner", table_id), self._key("fence", table_id),
                        self._key("epoch")]  # fmt: skip
                args: list[str | int] = [self._worker, self._lease_ms,
                                         "" if epoch is None else str(epoch), FENCE_MS]  # fmt: skip
                self._take(keys=keys, args=args, client=pipe)
            answers = pipe.execute() if len(pipe) else []
        except (RedisError, OSError) as err:
            if self.up:
                log.warning("event=leases-unrenewed worker=%s: %s", self._worker, err)
            self.up = False
            return
        if not self.up:
            log.info("event=leases-renewed worker=%s", self._worker)
        self.up = True
        if self.peers is not None:
            self.peers.saw(answers[0], sent)
            answers = answers[1:]
        for (table_id, epoch), ours in zip(tables, answers, strict=True):
            if not ours:
                self.drop(table_id)
                with self._lock:
                    self._gone.add(table_id)
                self._loop.call_soon_threadsafe(self._lost, table_id)
                continue
            with self._lock:
                if table_id in self._tables:
                    self._tables[table_id] = int(ours)
                    self.valid_until[table_id] = sent + self._lease
            if epoch is None:
                self._loop.call_soon_threadsafe(self._token, table_id, int(ours))
