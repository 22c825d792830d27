"""Writing a table's log: the durable, append-only record of a live (or finished) table.

Owns `RecordEncoder` (frames records for one file: salt, next seq, running digest) and
`LogWriter` (the live log: header and step 0 on `create`, one fsynced commit per `append`,
a periodic state snapshot every K steps, the end record with the revealed seed on `finish`).

Durability: with ``fsync=True`` (the hub's setting) `append` returns only after the record is
on disk, so the hub may broadcast the step afterwards; a crash can then lose nothing that was
shown. ``fsync=False`` (tests, sim, benchmarks) survives a crash of the program but not of the
machine. Any failed write or fsync raises `LogBroken` and the writer refuses all later calls.

Must not: read files back (that is `replays.reader`), know any game's rules, or import net/tui.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import msgspec

from core.game import Game, Result, Seat, Step, Table, fold
from core.rng import RNG_NAME
from replays.errors import LogBroken
from replays.format import (
    KIND_END,
    KIND_HEADER,
    KIND_SEATS,
    KIND_SNAPSHOT,
    KIND_STEP,
    SALT_SIZE,
    End,
    Header,
    SeatsRecord,
    Snapshot,
    StepRecord,
    commitment,
    encode_frame,
    encode_preamble,
)

if sys.platform != "win32":
    import fcntl
else:  # pragma: no cover - no F_FULLFSYNC on Windows
    fcntl = None

__all__ = [
    "DEFAULT_SNAPSHOT_EVERY",
    "LogWriter",
    "RecordEncoder",
    "encode_start",
    "fsync_dir",
    "full_fsync",
    "utc_stamp",
]

DEFAULT_SNAPSHOT_EVERY = 32
_ENCODER = msgspec.msgpack.Encoder()
_SEED_MIN = -(1 << 63)
_SEED_MAX = (1 << 64) - 1


def utc_stamp(now: datetime | None = None) -> str:
    """Wall-clock time as the header's ``created`` field (UTC, ISO 8601, seconds)."""
    moment = now if now is not None else datetime.now(UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def full_fsync(fd: int) -> None:
    """Flush a file to stable storage: ``F_FULLFSYNC`` on macOS, where plain fsync leaves the
    drive's cache unflushed (python-atomicwrites' _proper_fsync), ``os.fsync`` elsewhere."""
    full = getattr(fcntl, "F_FULLFSYNC", None) if fcntl is not None else None
    if full is not None:
        fcntl.fcntl(fd, full)
    else:
        os.fsync(fd)


def fsync_dir(folder: Path) -> None:
    """Make a create/rename inside ``folder`` durable (python-atomicwrites' _sync_directory)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    fd = os.open(folder, flags)
    try:
        full_fsync(fd)
    finally:
        os.close(fd)


def check_seed(seed: int) -> None:
    if not _SEED_MIN <= seed <= _SEED_MAX:
        raise ValueError(f"A replay can only record seeds from {_SEED_MIN} to {_SEED_MAX}.")


class RecordEncoder:
    """Frames records for one file: keeps its salt, the next ``seq`` and the running digest."""

    def __init__(self, salt: bytes, *, next_seq: int = 0, written: bytes = b"") -> None:
        self.salt = salt
        self.next_seq = next_seq
        self._digest = hashlib.sha256(written)

    @property
    def digest(self) -> str:
        """SHA-256 hex of every byte produced so far (and of ``written``)."""
        return self._digest.hexdigest()

    def preamble(self) -> bytes:
        data = encode_preamble(self.salt)
        self._digest.update(data)
        return data

    def record(self, kind: int, record: msgspec.Struct) -> bytes:
        data = encode_frame(self.salt, self.next_seq, kind, _ENCODER.encode(record))
        self.next_seq += 1
        self._digest.update(data)
        return data

    def header(self, header: Header) -> bytes:
        return self.record(KIND_HEADER, header)

    def step(self, step: Step) -> bytes:
        record = StepRecord(
            state_id=step.state_id,
            seat=step.seat,
            action=msgspec.Raw(_ENCODER.encode(step.action)),
            events=[msgspec.Raw(_ENCODER.encode(event)) for event in step.events],
        )
        return self.record(KIND_STEP, record)

    def snapshot(self, state_id: int, state: Any) -> bytes:
        record = Snapshot(state_id=state_id, state=msgspec.Raw(_ENCODER.encode(state)))
        return self.record(KIND_SNAPSHOT, record)

    def seats(self, state_id: int, seats: list[Seat]) -> bytes:
        return self.record(KIND_SEATS, SeatsRecord(state_id=state_id, seats=seats))

    def end(self, steps: int, result: Result, seed: int) -> bytes:
        return self.record(KIND_END, End(steps=steps, result=result, seed=seed, digest=self.digest))


def make_header(
    table: Table,
    salt: bytes,
    *,
    snapshot_every: int,
    created: str,
    branched_from: Mapping[str, Any] | None,
) -> Header:
    check_seed(table.seed)
    branch = None
    if branched_from is not None:
        # The source's past events are this table's step 0; do not store them twice.
        branch = {k: v for k, v in branched_from.items() if k != "events"}
    return Header(
        game=table.game.id,
        title=table.game.title,
        rules_version=table.game.rules_version,
        rng=RNG_NAME,
        config=msgspec.Raw(_ENCODER.encode(table.config)),
        seats=list(table.seats),
        commitment=commitment(table.seed, salt),
        snapshot_every=snapshot_every,
        created=created,
        branched_from=branch,
    )


class _Snapshots:
    """Folds steps just far enough to write a snapshot every ``every`` steps."""

    def __init__(self, game: Game, state: Any, state_id: int, every: int) -> None:
        self.game = game
        self.every = every
        self._state = state
        self._state_id = state_id
        self._pending: list[Step] = []

    def due(self, step: Step, table: Table | None) -> Any | None:
        """The state after ``step`` if a snapshot is due there, else None."""
        if self.every <= 0:
            return None
        self._pending.append(step)
        if step.state_id == 0 or step.state_id % self.every:
            return None
        if table is not None and table.state_id == step.state_id:
            state = table.state
        else:
            state = self._state
            for pending in self._pending:
                state = fold(self.game, state, pending.events)
        self._state, self._state_id = state, step.state_id
        self._pending.clear()
        return state


def encode_start(
    table: Table,
    *,
    salt: bytes | None = None,
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
    created: str | None = None,
    branched_from: Mapping[str, Any] | None = None,
    seats: Sequence[Seat] | None = None,
) -> tuple[RecordEncoder, Header, _Snapshots, bytes]:
    """The bytes of a new log for ``table``: preamble, header and every step (with snapshots).

    ``seats``: how the header names the seats, if not as ``table.seats`` (the server writes
    opaque ids instead of key fingerprints).
    """
    salt = salt if salt is not None else secrets.token_bytes(SALT_SIZE)
    header = make_header(
        table,
        salt,
        snapshot_every=snapshot_every,
        created=created if created is not None else utc_stamp(),
        branched_from=branched_from,
    )
    if seats is not None:
        if len(seats) != len(table.seats):
            raise ValueError(f"The table has {len(table.seats)} seats, not {len(seats)}.")
        header = msgspec.structs.replace(header, seats=list(seats))
    encoder = RecordEncoder(salt)
    snapshots = _Snapshots(
        table.game, table.game.new_state(table.config, len(table.seats)), -1, snapshot_every
    )
    chunks = [encoder.preamble(), encoder.header(header)]
    for step in table.history:
        chunks.append(encoder.step(step))
        state = snapshots.due(step, table)
        if state is not None:
            chunks.append(encoder.snapshot(step.state_id, state))
    return encoder, header, snapshots, b"".join(chunks)


class LogWriter:
    """The append-only log of one table (see the module docstring for durability)."""

    def __init__(
        self,
        path: Path,
        handle: IO[bytes],
        encoder: RecordEncoder,
        header: Header,
        snapshots: _Snapshots,
        *,
        state_id: int,
        fsync: bool,
        table: Table | None,
    ) -> None:
        self.path = path
        self.header = header
        self.state_id = state_id
        self.fsync = fsync
        self.finished = False
        self.broken: str | None = None
        self._handle: IO[bytes] | None = handle
        self._encoder = encoder
        self._snapshots = snapshots
        self._table = table

    # ------------------------------------------------------------------ creating

    @classmethod
    def create(
        cls,
        path: Path | str,
        table: Table,
        *,
        fsync: bool = True,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        branched_from: Mapping[str, Any] | None = None,
        created: str | None = None,
        salt: bytes | None = None,
        seats: Sequence[Seat] | None = None,
    ) -> LogWriter:
        """Start a new log at ``path`` (which must not exist) for ``table``.

        Writes the preamble, the header (with the commitment to ``table.seed``) and every step
        already in ``table.history`` (normally just step 0, the setup), then syncs the file and
        its folder. ``branched_from`` marks a table branched from a replay (its step 0 holds the
        source's past events).
        """
        path = Path(path)
        encoder, header, snapshots, data = encode_start(
            table,
            salt=salt,
            snapshot_every=snapshot_every,
            created=created,
            branched_from=branched_from,
            seats=seats,
        )
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as err:
            raise LogBroken(f"Could not create the table log {path}: {err.strerror}.") from err
        handle = os.fdopen(fd, "wb")
        writer = cls(
            path,
            handle,
            encoder,
            header,
            snapshots,
            state_id=table.history[-1].state_id,
            fsync=fsync,
            table=table,
        )
        writer._write(data)
        if fsync:
            writer._guard(lambda: fsync_dir(path.parent))
        return writer

    @classmethod
    def reopen(
        cls,
        path: Path,
        header: Header,
        *,
        salt: bytes,
        written: bytes,
        next_seq: int,
        table: Table,
        fsync: bool = True,
    ) -> LogWriter:
        """Continue a log whose whole records are exactly ``written`` (see `restore_table`)."""
        encoder = RecordEncoder(salt, next_seq=next_seq, written=written)
        snapshots = _Snapshots(table.game, table.state, table.state_id, header.snapshot_every)
        try:
            handle = open(path, "r+b")  # noqa: SIM115 - owned by the writer until close()
            handle.seek(len(written))
            handle.truncate()
        except OSError as err:
            raise LogBroken(f"Could not reopen the table log {path}: {err.strerror}.") from err
        writer = cls(
            path,
            handle,
            encoder,
            header,
            snapshots,
            state_id=table.state_id,
            fsync=fsync,
            table=table,
        )
        writer._sync()
        return writer

    # ------------------------------------------------------------------ writing

    @property
    def commitment(self) -> str:
        """The SHA-256 commitment to the seed, to show players when the table starts."""
        return self.header.commitment

    @property
    def salt(self) -> bytes:
        return self._encoder.salt

    def append(self, step: Step) -> None:
        """Commit one accepted step; with fsync on, it is on disk when this returns."""
        if step.state_id != self.state_id + 1:
            raise ValueError(
                f"The log is at step {self.state_id}; step {step.state_id} cannot follow it."
            )
        data = self._encoder.step(step)
        state = self._snapshots.due(step, self._table)
        if state is not None:
            data += self._encoder.snapshot(step.state_id, state)
        self._write(data)
        self.state_id = step.state_id

    def set_seats(self, seats: Sequence[Seat]) -> None:
        """Record who sits where from now on (same number of seats); a commit like `append`."""
        if len(seats) != len(self.header.seats):
            raise ValueError(f"The table has {len(self.header.seats)} seats, not {len(seats)}.")
        self._write(self._encoder.seats(self.state_id, list(seats)))

    def finish(self, result: Result, seed: int) -> None:
        """Write the end record (result, revealed seed, digest), sync and close."""
        if commitment(seed, self.salt) != self.header.commitment:
            raise ValueError("That seed does not match the commitment in the log's header.")
        self._write(self._encoder.end(self.state_id, result, seed))
        self.finished = True
        self.close()

    def close(self) -> None:
        """Sync and close without finishing (the table can be restored later)."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        try:
            if self.broken is None:
                handle.flush()
                if self.fsync:
                    full_fsync(handle.fileno())
        except OSError as err:
            self.broken = f"Writing the table log failed ({err.strerror or err}); the table stops."
            raise LogBroken(self.broken) from err
        finally:
            handle.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    def _guard(self, action: Any) -> None:
        if self.broken is not None:
            raise LogBroken(self.broken)
        try:
            action()
        except OSError as err:
            self.broken = f"Writing the table log failed ({err.strerror or err}); the table stops."
            handle, self._handle = self._handle, None
            if handle is not None:
                with contextlib.suppress(OSError):
                    handle.close()
            raise LogBroken(self.broken) from err

    def _write(self, data: bytes) -> None:
        if self.broken is not None:
            raise LogBroken(self.broken)
        if self._handle is None:
            raise ValueError("The table log is closed.")
        handle = self._handle

        def write() -> None:
            handle.write(data)
            handle.flush()
            if self.fsync:
                full_fsync(handle.fileno())

        self._guard(write)

    def _sync(self) -> None:
        self._write(b"")
