"""Durable table logs for the hub: write before broadcast, restore at start.

Owns the files of live tables under ``DATA/tables/``: ``ID.seed`` (the secret seed, 0600,
fsynced at creation — the log header only carries its commitment), ``ID.meta`` (who holds which
seat, invite code, table options; replaced atomically) and ``ID.log`` (one framed record per
accepted action, fsynced before the hub broadcasts it). A restored table is rebuilt by
re-submitting the logged actions to a fresh `core.game.Table` from the seed, so it is exactly
the table that was last acknowledged. A torn tail (a crash mid-write) is cut back to the last
whole record. Finished tables are handed to `replays` to become replay files.

Must not: broadcast, schedule, or decide anything about play (that is `net.local_hub`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from core.game import Game, IllegalAction, Seat, Step, Table, config_from_options
from net.hub import TableSpec

__all__ = ["Restored", "TableStore", "fsync_dir", "write_private"]

log = logging.getLogger("speedway.persist")

_HEAD = struct.Struct("<II")  # payload length, crc32 of payload
_MAX_RECORD = 1 << 20


class Meta(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    game: str
    spec: TableSpec
    seats: list[Seat]
    holders: list[str | None]
    creator: str = ""
    invite_code: str | None = None
    invited: list[str] = []
    commitment: str = ""


class Restored(msgspec.Struct, kw_only=True):
    table_id: str
    game: Any
    table: Any
    spec: TableSpec
    holders: list[str | None]
    creator: str
    invite_code: str | None
    invited: list[str]
    commitment: str


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically with mode 0600 (temp file, fsync, rename, dir fsync)."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def _frame(payload: bytes) -> bytes:
    return _HEAD.pack(len(payload), zlib.crc32(payload)) + payload


def read_records(path: Path) -> tuple[list[bytes], int]:
    """Every whole record of a log, and the byte length they cover (a torn tail follows it)."""
    data = path.read_bytes()
    out: list[bytes] = []
    pos = 0
    while pos + _HEAD.size <= len(data):
        length, crc = _HEAD.unpack_from(data, pos)
        end = pos + _HEAD.size + length
        if length > _MAX_RECORD or end > len(data):
            break
        payload = data[pos + _HEAD.size : end]
        if zlib.crc32(payload) != crc:
            break
        out.append(payload)
        pos = end
    return out, pos


class TableStore:
    """The ``tables/`` folder of one data dir (one writer per live table)."""

    def __init__(self, data_dir: Path, on_finish: Callable[[Any], str | None] | None = None):
        self.root = Path(data_dir) / "tables"
        self.replays = Path(data_dir) / "replays"
        self._files: dict[str, BinaryIO] = {}
        self._on_finish = on_finish

    def exists(self, table_id: str) -> bool:
        return (self.root / f"{table_id}.log").exists()

    # ---------------------------------------------------------------- writing

    def _meta(self, room: Any) -> Meta:
        return Meta(
            table_id=room.id,
            game=room.game.id,
            spec=room.spec,
            seats=list(room.table.seats),
            holders=list(room.holders),
            creator=room.creator,
            invite_code=room.invite_code,
            invited=sorted(room.invited),
            commitment=room.commitment,
        )

    def start(self, room: Any) -> None:
        """A table starts: seed (0600), meta and an empty log, all fsynced."""
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)
        write_private(self.root / f"{room.id}.seed", str(room.table.seed).encode())
        write_private(self.root / f"{room.id}.meta", msgspec.json.encode(self._meta(room)))
        path = self.root / f"{room.id}.log"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        f = os.fdopen(fd, "ab", buffering=0)
        os.fsync(f.fileno())
        fsync_dir(self.root)
        self._files[room.id] = f
        # Steps accepted before the log existed (none today; setup is step 0) are written now.
        for step in room.table.history[1:]:
            self.append(room, step)

    def update_meta(self, room: Any) -> None:
        if room.id in self._files:
            write_private(self.root / f"{room.id}.meta", msgspec.json.encode(self._meta(room)))

    def append(self, room: Any, step: Step) -> None:
        """One accepted action, durable before it is broadcast (raises OSError: table stops)."""
        f = self._files.get(room.id)
        if f is None:
            return
        payload = msgspec.msgpack.encode([step.state_id, step.seat, step.action])
        f.write(_frame(payload))
        os.fsync(f.fileno())

    def finish(self, room: Any) -> str | None:
        """The game ended: save the replay (if a saver is set), then drop the live files."""
        replay_id = self._on_finish(room) if self._on_finish is not None else None
        f = self._files.pop(room.id, None)
        if f is not None:
            f.close()
        if replay_id is not None:
            for ext in ("log", "seed", "meta"):
                with contextlib.suppress(FileNotFoundError):
                    (self.root / f"{room.id}.{ext}").unlink()
            fsync_dir(self.root)
        return replay_id

    def close_all(self) -> None:
        for f in self._files.values():
            with contextlib.suppress(OSError):
                os.fsync(f.fileno())
            f.close()
        self._files.clear()

    # ---------------------------------------------------------------- restoring

    def restore_all(self, find_game: Callable[[str], Game]) -> Iterator[Restored]:
        if not self.root.is_dir():
            return
        for path in sorted(self.root.glob("*.log")):
            table_id = path.stem
            try:
                restored = self._restore(table_id, find_game)
            except (OSError, ValueError, msgspec.DecodeError, IllegalAction) as err:
                log.error("table %s could not be restored: %s", table_id, err)
                continue
            if restored is not None:
                yield restored

    def _restore(self, table_id: str, find_game: Callable[[str], Game]) -> Restored | None:
        meta = msgspec.json.decode((self.root / f"{table_id}.meta").read_bytes(), type=Meta)
        seed = int((self.root / f"{table_id}.seed").read_text().strip())
        game = find_game(meta.game)
        config = config_from_options(game, meta.spec.options)
        table = Table(game, config, meta.seats, seed)
        path = self.root / f"{table_id}.log"
        records, good = read_records(path)
        decoder = msgspec.msgpack.Decoder(tuple[int, int, game.action_type])  # type: ignore[name-defined]
        for payload in records:
            state_id, seat, action = decoder.decode(payload)
            table.submit(seat, action, state_id - 1)
        if good < path.stat().st_size:
            log.warning(
                "table %s: cut a torn tail of %d bytes", table_id, path.stat().st_size - good
            )
            with open(path, "r+b") as f:
                f.truncate(good)
                os.fsync(f.fileno())
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        self._files[table_id] = os.fdopen(fd, "ab", buffering=0)
        return Restored(
            table_id=table_id,
            game=game,
            table=table,
            spec=meta.spec,
            holders=meta.holders,
            creator=meta.creator,
            invite_code=meta.invite_code,
            invited=meta.invited,
            commitment=meta.commitment,
        )
