"""Finished replays shared through Redis, so every machine on a bus serves every replay.

Owns `ReplayShare`: when a table this process owns has finished and its verified replay is in
``DATA/replays/`` (`net.persist`), its bytes go to Redis (hash ``speedway:replay:ID``: the
file, its SHA-256, and for a private table the identities who may see it), the id is added to
the sorted set ``speedway:replays`` and named on channel ``speedway:replays``. Every process
follows that channel (and reads the whole set at start and every ``resync`` seconds, in case a
message was lost) and writes each replay its ``DATA/replays/`` lacks: a private one's
``ID.access`` first (that machine's own pseudonyms, `net.replay_access`), then the file, each
atomically under a name of its own, so a replay is never visible before its access file nor
half-written. So ``ssh HOST replays``, ``ssh HOST replay ID`` and the replay browser work on
any machine. Workers of one machine share the folder: the file is there, nothing is copied.

A failed copy is retried (the owner offers again until Redis has it). Replays stay in Redis
until someone deletes them (a few tens of KiB each; README).

Must not: decide who may see a replay (the owner's table says; `ReplayAccess` checks), touch
live tables' files, or be needed by a single process (no bus: nothing here runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import re
import time
from pathlib import Path
from typing import Any

import msgspec
from redis.exceptions import RedisError

from net.bus import Bus
from net.replay_access import ReplayAccess
from replays.log import fsync_dir

__all__ = ["ReplayShare"]

log = logging.getLogger("speedway.bus")


class _Shared(msgspec.Struct, frozen=True, kw_only=True):
    data: bytes
    sha256: str
    private: bool = False
    allowed: list[str] = []  # identities (fingerprints) who may see a private replay


class ReplayShare:
    """The replays folder of ``data_dir``, kept in step with every machine's through ``bus``."""

    def __init__(self, bus: Bus, data_dir: Path, *, resync: float = 30.0) -> None:
        self.bus = bus
        self.folder = Path(data_dir) / "replays"
        self.access = ReplayAccess(Path(data_dir))
        self.resync = resync
        self._offered: set[str] = set()  # replay ids Redis has from us
        self._known: set[str] = set()  # replay ids this folder has (or that are not usable)

    def _key(self, replay_id: str) -> str:
        return self.bus.key("replay", replay_id)

    # ------------------------------------------------------------ the owner's side

    def offered(self, replay_id: str) -> bool:
        return replay_id in self._offered

    async def offer(self, replay_id: str, *, private: bool, allowed: list[str]) -> bool:
        """Put a finished replay of ours into Redis (True when it is there)."""
        if replay_id in self._offered:
            return True
        path = self.folder / f"{replay_id}.replay"
        try:
            data = await asyncio.to_thread(path.read_bytes)
        except OSError as err:
            log.warning("replay %s could not be read to share it: %s", replay_id, err)
            self._offered.add(replay_id)  # (nothing to share: do not try forever)
            return False
        shared = _Shared(
            data=data,
            sha256=hashlib.sha256(data).hexdigest(),
            private=private,
            allowed=sorted({a for a in allowed if a}) if private else [],
        )
        try:
            pipe = self.bus.redis.pipeline(transaction=True)
            pipe.set(self._key(replay_id), msgspec.msgpack.encode(shared))
            pipe.zadd(self.bus.key("replays"), {replay_id: time.time()})
            pipe.publish(self.bus.key("replays"), replay_id.encode())
            await pipe.execute()
        except (RedisError, OSError):
            self.bus._down()
            return False  # offered again on the next round
        self._offered.add(replay_id)
        self._known.add(replay_id)
        log.info("event=replay-shared replay=%s bytes=%d", replay_id, len(data))
        return True

    # ------------------------------------------------------------ every process's side

    async def sync(self, replay_ids: list[str] | None = None) -> int:
        """Write the replays this folder lacks (all of Redis's, or those named); how many."""
        try:
            if replay_ids is None:
                raw = await self.bus.redis.zrange(self.bus.key("replays"), 0, -1)
                replay_ids = [r.decode() for r in raw]
        except (RedisError, OSError):
            self.bus._down()
            return 0
        written = 0
        for replay_id in replay_ids:
            if replay_id in self._known or not _safe(replay_id):
                continue
            if (self.folder / f"{replay_id}.replay").exists():
                self._known.add(replay_id)
                continue
            try:
                raw_entry = await self.bus.redis.get(self._key(replay_id))
            except (RedisError, OSError):
                self.bus._down()
                return written
            if raw_entry is None:
                continue
            try:
                shared = msgspec.msgpack.decode(raw_entry, type=_Shared)
            except msgspec.DecodeError:
                log.warning("replay %s in Redis could not be read; not copied", replay_id)
                self._known.add(replay_id)
                continue
            if hashlib.sha256(shared.data).hexdigest() != shared.sha256:
                log.warning("replay %s in Redis does not match its checksum; not copied", replay_id)
                self._known.add(replay_id)
                continue
            try:
                await asyncio.to_thread(self._write, replay_id, shared)
            except OSError as err:
                log.error("replay %s could not be written here: %s", replay_id, err)
                continue
            self._known.add(replay_id)
            written += 1
        return written

    def _write(self, replay_id: str, shared: _Shared) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if shared.private:  # its access file first: never visible to everyone, not even briefly
            self.access.restrict(replay_id, shared.allowed)
        _write_atomic(self.folder / f"{replay_id}.replay", shared.data)
        log.info("event=replay-copied replay=%s bytes=%d", replay_id, len(shared.data))

    async def follow(self, stopping: asyncio.Event) -> None:
        """Copy every replay another machine shares, as it is shared, until ``stopping``."""
        while not stopping.is_set():
            pubsub = self.bus.blocking.pubsub()
            try:
                await pubsub.subscribe(self.bus.key("replays"))
                await self.sync()
                while not stopping.is_set():
                    msg = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=self.resync
                    )
                    if msg is None:
                        await self.sync()  # quiet: a full look, in case a message was lost
                        continue
                    data = msg.get("data")
                    if isinstance(data, bytes):
                        await self.sync([data.decode(errors="replace")])
            except (RedisError, OSError):
                self.bus._down()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()


_REPLAY_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")  # as `net.replay_access` serves


def _safe(replay_id: str) -> bool:
    """An id that names a file in the folder and nothing else."""
    return bool(_REPLAY_ID.match(replay_id))


def _write_atomic(path: Path, data: bytes) -> None:
    """``data`` at ``path``: a temp file of this process's own, fsync, rename, dir fsync."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def room_access(room: Any) -> tuple[bool, list[str]]:
    """Whether a finished room's replay is private, and who may see it (as `net.persist`
    restricts it: its players, its creator and everyone who had the invite code)."""
    private = bool(room.spec.private)
    who = [*(h for h in room.holders if h), *room.invited, room.creator]
    return private, [w for w in who if w]
