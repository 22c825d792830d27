"""A copy of every live table's durable files in Redis, for owners on other machines.

Owns `LogMirror`: after `net.persist.TableStore` has written and fsynced a table's file on the
owner's disk, the same bytes go to Redis — the seed and the seat records as plain keys, the log
as a stream of ``(offset, bytes)`` chunks appended in order (whole records only: it is read
after the fsync). A process on another machine that takes a dead owner's table over writes
those files into its own ``DATA/tables/`` (`restore_into`) and restores the table from them as
from its own disk. With AOF persistence in Redis (README) the copy survives a Redis restart.

A failed copy never stops a table (the owner's disk has it; the next write copies what is
missing, from the offset Redis has, and so does `catch_up`, which the bus hub calls for every
lagging table once Redis answers again, so a table that takes no step after an outage is
copied too); it is logged once per table until it succeeds again. The copies of one table are
made one at a time (a lock per table: the disk threads and `catch_up` may race).

*Fencing*: once the owner's hub has a table's lease epoch (`net.leases`; ``tokens``), every
write of that table's copy is one script that first checks ``fence:ID`` still holds that epoch.
An owner that was cut off and whose table another process has taken over meanwhile is refused:
the write raises `Fenced` (an ``OSError``: the hub stops the table at once, before the step is
shown to anyone) and ``on_fenced`` tells the hub to let the table go. Restoring prefers the
copy in Redis over a local log that is not a prefix-or-extension of it (the local one is then a
fenced owner's).

Must not: decide anything about tables, or be needed by a single process (no bus: no mirror).
The seed is secret until the race ends: it is in Redis only for as long as the table is live,
so Redis must be private (README: password, bind address).
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis
from redis.exceptions import RedisError

from net.not_copied import NotCopied

__all__ = ["Fenced", "LogMirror", "NotCopied"]

log = logging.getLogger("speedway.bus")

_CHUNK = 256 * 1024
RETRY_PAUSE = 2.0  # seconds without copies after Redis failed one
DELETE = b"\x00delete"  # (a file value no table file can be: the script deletes that key)

# KEYS[1] fence:ID, KEYS[2] the log stream. ARGV: epoch, offset, bytes. -1: fenced.
_XADD = """
local f = redis.call('GET', KEYS[1])
if f ~= false and f ~= ARGV[1] then return -1 end
redis.call('XADD', KEYS[2], '*', 'off', ARGV[2], 'data', ARGV[3])
return 1
"""
# KEYS[1] fence:ID, then file keys. ARGV[1] epoch, then one value per file key (DELETE: del).
_FILES = """
local f = redis.call('GET', KEYS[1])
if f ~= false and f ~= ARGV[1] then return -1 end
for i = 2, #KEYS do
  if ARGV[i] == ARGV[#ARGV] then redis.call('DEL', KEYS[i])
  else redis.call('SET', KEYS[i], ARGV[i]) end
end
return 1
"""


class Fenced(OSError):
    """Another process holds this table's lease now: this process's copy writes are refused."""

    def __init__(self, table_id: str) -> None:
        super().__init__(errno.ESTALE, "another server has taken this table over")
        self.table_id = table_id


class LogMirror:
    """Synchronous (it runs in the hub's disk thread, right after the fsync)."""

    def __init__(self, url: str, prefix: str = "speedway:") -> None:
        # (Typed Any: the client's own annotations are a union of sync and async results.)
        self.redis: Any = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=0.5)
        self.prefix = prefix
        self._sent: dict[str, int] = {}  # table -> bytes of its log known to be in Redis
        self._failing: set[str] = set()
        self._retry_at = 0.0  # after a failure, copies wait (a down Redis never slows a move)
        self._owed: dict[str, dict[str, bytes | None]] = {}  # small files not copied yet
        self.tokens: dict[str, int] = {}  # table -> its lease epoch here (set by the bus hub)
        self.on_fenced: Callable[[str], None] = lambda _table_id: None  # (from any thread)
        # Whether a step must be in Redis before it is acknowledged: another machine is live
        # (the bus hub says, `net.machines`); alone, the disk is enough (its lock files).
        self.must_copy: Callable[[], bool] = lambda: False
        self._locks: dict[str, threading.RLock] = {}  # one copy of a table at a time
        self._dropped: set[str] = set()  # over, but the deletion of its copy failed
        self._xadd = self.redis.register_script(_XADD)
        self._files = self.redis.register_script(_FILES)

    def _fence_key(self, table_id: str) -> str:
        return f"{self.prefix}fence:{table_id}"

    def _fenced(self, table_id: str) -> Fenced:
        log.warning("table %s: its copy in Redis refused this process (fenced)", table_id)
        self.tokens.pop(table_id, None)
        self.on_fenced(table_id)
        return Fenced(table_id)

    def _write_files(self, table_id: str, files: dict[str, bytes | None]) -> None:
        token = self.tokens.get(table_id)
        if token is None:
            pipe = self.redis.pipeline(transaction=True)
            for name, data in files.items():
                if data is None:
                    pipe.delete(self._key(table_id, name))
                else:
                    pipe.set(self._key(table_id, name), data)
            pipe.execute()
            return
        keys = [self._fence_key(table_id), *(self._key(table_id, n) for n in files)]
        values = [DELETE if data is None else data for data in files.values()]
        if self._files(keys=keys, args=[str(token), *values, DELETE]) == -1:
            raise self._fenced(table_id)

    def _append(self, table_id: str, offset: int, chunk: bytes) -> None:
        token = self.tokens.get(table_id)
        if token is None:
            self.redis.xadd(self._key(table_id, "log"), {"off": offset, "data": chunk})
            return
        keys = [self._fence_key(table_id), self._key(table_id, "log")]
        if self._xadd(keys=keys, args=[str(token), offset, chunk]) == -1:
            raise self._fenced(table_id)

    def _key(self, table_id: str, name: str) -> str:
        return f"{self.prefix}tables:{table_id}:{name}"

    def _skip(self, table_id: str) -> bool:
        """Redis failed a moment ago: do not wait for it again yet (the disk has everything;
        the next copy after the pause sends what is missing)."""
        if time.monotonic() < self._retry_at:
            self._failing.add(table_id)
            return True
        return False

    def _failed(self, table_id: str, err: Exception) -> None:
        self._retry_at = time.monotonic() + RETRY_PAUSE
        if table_id not in self._failing:
            log.warning("table %s: the copy in Redis lags (%s); the disk has it", table_id, err)
            self._failing.add(table_id)

    def _ok(self, table_id: str) -> None:
        if table_id in self._failing:
            self._failing.discard(table_id)
            log.info("table %s: the copy in Redis caught up", table_id)

    def _lock(self, table_id: str) -> threading.RLock:
        return self._locks.setdefault(table_id, threading.RLock())

    def lagging(self) -> list[str]:
        """Tables whose copy in Redis misses something the disk has (a copy failed)."""
        failing, owed = set(self._failing), dict(self._owed)  # (copies: disk threads write)
        return sorted(failing | {t for t, files in owed.items() if files})

    def catch_up(self, table_id: str, path: Path | None) -> None:
        """Copy what the table's copy in Redis lacks (``path``: its log, if it has one; None:
        the table is not played here any more, so only a deletion still owed is made), unless
        Redis failed a moment ago (raises `Fenced`, as a write does)."""
        with self._lock(table_id):
            if table_id not in self.lagging() or time.monotonic() < self._retry_at:
                return
            if table_id in self._dropped:  # its copy should be gone: only the deletion again
                if table_id not in self.tokens:  # (not ours any more: another's copy stays)
                    self._dropped.discard(table_id)
                    self._owed.pop(table_id, None)
                    self._failing.discard(table_id)
                    return
                self._files_now(table_id, {})
                if not self._owed.get(table_id):
                    self._dropped.discard(table_id)
                    self.tokens.pop(table_id, None)
                    self._locks.pop(table_id, None)
                return
            if path is None:  # (gone from here: nothing of it is ours to copy)
                self._failing.discard(table_id)
                self._owed.pop(table_id, None)
            elif path.exists():
                self._log_tail_now(table_id, path)
            else:
                self._files_now(table_id, {})

    def files(self, table_id: str, files: dict[str, bytes | None]) -> None:
        """Small files of the table (``seed``, ``meta``, ``wait``): set, or deleted (None)."""
        with self._lock(table_id):
            self._files_now(table_id, files)

    def _files_now(self, table_id: str, files: dict[str, bytes | None]) -> None:
        if self._skip(table_id):
            self._owed.setdefault(table_id, {}).update(files)
            return
        files = {**self._owed.pop(table_id, {}), **files}
        try:
            self._write_files(table_id, files)
            self._ok(table_id)
        except Fenced:
            raise
        except (RedisError, OSError) as err:
            self._owed.setdefault(table_id, {}).update(files)
            self._failed(table_id, err)

    def log_tail(self, table_id: str, path: Path, *, step: bool = False) -> None:
        """The log's bytes Redis does not have yet (everything written so far is fsynced).

        ``step``: they end with a step about to be acknowledged; if they cannot be copied and
        ``must_copy()``, raise `NotCopied` (the hub then withholds the step)."""
        with self._lock(table_id):
            self._log_tail_now(table_id, path, step=step)

    def _log_tail_now(self, table_id: str, path: Path, *, step: bool = False) -> None:
        if self._skip(table_id):
            if step and self.must_copy():
                raise NotCopied(table_id)
            return
        if self._owed.get(table_id):
            self.files(table_id, {})
        try:
            sent = self._sent.get(table_id)
            if sent is None:
                sent = self._stream_length(table_id)
            with open(path, "rb") as f:
                f.seek(sent)
                while chunk := f.read(_CHUNK):
                    self._append(table_id, sent, chunk)
                    sent += len(chunk)
            self._sent[table_id] = sent
            self._ok(table_id)
        except Fenced:
            self._sent.pop(table_id, None)
            raise
        except (RedisError, OSError) as err:
            self._sent.pop(table_id, None)  # ask Redis where it stands next time
            self._failed(table_id, err)
            if step and self.must_copy():
                raise NotCopied(table_id) from err

    def reset_log(self, table_id: str, path: Path) -> None:
        """The log as it is on disk now (after a restore cut a torn tail): the copy anew."""
        with self._lock(table_id):
            self._reset_log_now(table_id, path)

    def _reset_log_now(self, table_id: str, path: Path) -> None:
        try:
            self._write_files(table_id, {"log": None})
            self._sent[table_id] = 0
        except Fenced:
            raise
        except (RedisError, OSError) as err:
            self._failed(table_id, err)
            return
        self.log_tail(table_id, path)

    def _stream_length(self, table_id: str) -> int:
        last = self.redis.xrevrange(self._key(table_id, "log"), count=1)
        if not last:
            return 0
        fields = last[0][1]
        return int(fields[b"off"]) + len(fields[b"data"])

    def drop(self, table_id: str) -> None:
        """The table is over (published or abandoned): its copy goes, the seed with it."""
        gone = dict.fromkeys(("log", "seed", "meta", "wait"))
        with self._lock(table_id):
            self._sent.pop(table_id, None)
            self._owed.pop(table_id, None)
            try:
                self._write_files(table_id, gone)
            except Fenced:
                pass  # (the new owner's copy stays; logged, and the hub lets the table go)
            except (RedisError, OSError) as err:
                self._failed(table_id, err)
                self._owed[table_id] = dict(gone)  # deleted by `catch_up` (under our epoch)
                self._dropped.add(table_id)
                return
            self._failing.discard(table_id)
            self._dropped.discard(table_id)
            self.tokens.pop(table_id, None)
        self._locks.pop(table_id, None)

    def restore_into(self, table_id: str, root: Path) -> bool:
        """Write the table's files from Redis into ``root`` (``DATA/tables``) when Redis has
        more of its log than this disk (or this disk has none of it). True if it wrote."""
        try:
            seed = self.redis.get(self._key(table_id, "seed"))
            meta = self.redis.get(self._key(table_id, "meta"))
            wait = self.redis.get(self._key(table_id, "wait"))
            entries = self.redis.xrange(self._key(table_id, "log"))
        except (RedisError, OSError) as err:
            log.warning("table %s: its copy in Redis could not be read: %s", table_id, err)
            return False
        if seed is None or (meta is None and wait is None):
            return False
        data = bytearray()
        for _id, fields in entries:
            if int(fields[b"off"]) != len(data):
                log.error("table %s: its copy in Redis has a gap; not used", table_id)
                return False
            data += fields[b"data"]
        log_path = root / f"{table_id}.log"
        if data:
            if meta is None:
                return False
            if log_path.exists() and log_path.read_bytes().startswith(bytes(data)):
                return False  # this disk has all of it (the one machine's shared data dir)
            # (A local log that is no extension of the copy is a fenced owner's: replaced.)
        elif wait is None or (root / f"{table_id}.wait").exists():
            return False
        root.mkdir(parents=True, exist_ok=True)
        os.chmod(root, 0o700)
        from net.persist import write_private

        write_private(root / f"{table_id}.seed", seed)
        if data:
            assert meta is not None
            write_private(root / f"{table_id}.meta", meta)
            write_private(log_path, bytes(data))
        else:
            assert wait is not None
            write_private(root / f"{table_id}.wait", wait)
        log.info("table %s: its files were restored from Redis (%d log bytes)", table_id, len(data))
        return True
