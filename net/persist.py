"""Durable table logs for the hub: write before broadcast, restore at start.

Owns the files of live tables under ``DATA/tables/``: ``ID.log`` (the table's replay-format log,
`replays.log.LogWriter`: header with the seed's commitment, one fsynced commit per accepted
action, written before the hub broadcasts it), ``ID.seed`` (the secret seed, 0600, fsynced at
creation — the log header only carries the commitment) and ``ID.meta`` (who holds which seat,
invite code, table options; replaced atomically). At start every unfinished log is restored
with `replays.recover.restore_table` (re-simulated from the seed, torn tail cut), so a table
comes back exactly as last acknowledged. A finished table's log gets its end record (the seed
revealed) and is published, verified, into ``DATA/replays/`` (`replays.store.publish_log`).

A table still waiting for players has no log yet: it keeps ``ID.seed`` and ``ID.wait`` (the
same `TableRecord` record, with the branch's past events, rewritten atomically whenever a seat is
taken or left). Starting it writes the three files above and then removes ``ID.wait`` (a
``.wait`` next to a ``.log`` is superseded); dropping it removes both. At start every waiting
record is rebuilt with the same seed, so its setup events are identical. A record that cannot
be read is logged and skipped (its files stay for a person to look at).

A table its players abandon (local play) loses all its files and publishes nothing.

On a bus, processes of one machine share this folder: each holds an ``ID.lock`` (flock) on the
tables it plays, so another takes a table over only once its owner is truly gone; and each
write is also copied to Redis right after its fsync (`net.log_mirror`), so a table taken over
on another machine gets its files from there.

Must not: broadcast, schedule, or decide anything about play (that is `net.local_hub`).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from core.game import Game, IllegalAction, Seat, Step, Table
from net.hub import TableSpec
from replays.errors import LogBroken, ReplayError
from replays.log import LogWriter, fsync_dir
from replays.recover import restore_table
from replays.store import publish_log

if TYPE_CHECKING:
    from net.log_mirror import LogMirror

__all__ = ["Restored", "TableRecord", "TableStore", "write_private"]

log = logging.getLogger("speedway.persist")


class TableRecord(msgspec.Struct, frozen=True, kw_only=True):
    """Who sits where and how the table was made: ``ID.meta`` / ``ID.wait`` (JSON).

    ``spec`` carries a branch's past events in memory and in ``ID.wait``; ``ID.meta`` keeps only
    where the branch came from (its past is the log's step 0).
    """

    table_id: str
    game: str
    spec: TableSpec
    seats: list[Seat]
    holders: list[str | None]
    creator: str = ""
    invite_code: str | None = None
    invited: list[str] = []
    open: list[bool] = []  # [] in files from before open seats were kept: none open
    guests: list[str] = []  # holders who are guests (their identity dies with the connection)


class Restored(msgspec.Struct, kw_only=True):
    """A table read back at start: started (from its log) or still ``waiting`` (from ``.wait``).

    ``record.seats`` is who sits where now (the log's header has who sat at the start).
    """

    record: TableRecord
    game: Game
    table: Table
    commitment: str  # "" for a waiting table (it has no log, so no salted commitment yet)
    waiting: bool = False
    played_at: float = 0.0  # when its log (or waiting record) was last written: its last move


# Builds a table from its game, spec (with any branch's past events), seats and seed; raises
# ValueError if the spec no longer makes a table (the hub's own rule, passed in).
BuildTable = Callable[[Game, TableSpec, list[Seat], int], Table]


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


class TableStore:
    """The ``tables/`` folder of one data dir (one `LogWriter` per live table).

    Every failure to write raises ``OSError`` (a `LogBroken` is turned into one): the hub stops
    that table and never retries (a failed fsync may have lost pages).
    """

    def __init__(
        self, data_dir: Path, mirror: LogMirror | None = None, *, locks: bool = False
    ) -> None:
        self.root = Path(data_dir) / "tables"
        self.mirror = mirror  # a copy in Redis for owners on other machines (`net.log_mirror`)
        self.replays = Path(data_dir) / "replays"
        self._writers: dict[str, LogWriter] = {}
        self._waiting: set[str] = set()  # tables with an ``ID.wait`` record
        self.locks = locks  # several processes share this dir (a bus): ``ID.lock`` (`_hold`)
        self._locks: dict[str, int] = {}  # table -> fd holding ``ID.lock``
        from net.replay_access import ReplayAccess  # (it writes with our `write_private`)

        self.access = ReplayAccess(Path(data_dir))

    def exists(self, table_id: str) -> bool:
        return any((self.root / f"{table_id}.{ext}").exists() for ext in ("log", "wait"))

    # ---------------------------------------------------------------- writing

    def _hold(self, table_id: str) -> bool:
        """Hold the table's ``ID.lock`` (flock) for as long as this process plays it: another
        process on this machine restores it only once we are gone (the kernel lets go of a
        dead process's locks), never while we might still write its log."""
        if not self.locks or table_id in self._locks:
            return True
        self._mkroot()
        fd = os.open(self.root / f"{table_id}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._locks[table_id] = fd
        return True

    def _let_go_lock(self, table_id: str, *, remove: bool = False) -> None:
        fd = self._locks.pop(table_id, None)
        if remove:
            with contextlib.suppress(FileNotFoundError):
                (self.root / f"{table_id}.lock").unlink()
        if fd is not None:
            os.close(fd)

    def _mkroot(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)

    def _write_meta(self, record: TableRecord) -> None:
        spec = msgspec.structs.replace(record.spec, branched_from=_without_events(record.spec))
        meta = msgspec.json.encode(msgspec.structs.replace(record, spec=spec))
        write_private(self.root / f"{record.table_id}.meta", meta)
        if self.mirror is not None:
            self.mirror.files(record.table_id, {"meta": meta, "wait": None})

    def _write_wait(self, record: TableRecord) -> None:
        wait = msgspec.json.encode(record)
        write_private(self.root / f"{record.table_id}.wait", wait)
        if self.mirror is not None:
            self.mirror.files(record.table_id, {"wait": wait})

    def _write_seed(self, table_id: str, seed: int) -> None:
        write_private(self.root / f"{table_id}.seed", str(seed).encode())
        if self.mirror is not None:
            self.mirror.files(table_id, {"seed": str(seed).encode()})

    def _mirror_log(self, table_id: str, *, step: bool = False) -> None:
        if self.mirror is not None:
            self.mirror.log_tail(table_id, self.root / f"{table_id}.log", step=step)

    def copy_steps(self, table_id: str) -> None:
        """Copy the log's steps Redis lacks (raises `NotCopied` while it cannot, if another
        machine may take the table over: the hub keeps them withheld)."""
        self._mirror_log(table_id, step=True)

    def wait(self, record: TableRecord, seed: int) -> None:
        """A table waiting for players: its seed (0600) and its ``.wait`` record, fsynced."""
        self._mkroot()
        table_id = record.table_id
        self._hold(table_id)  # (a new id: nobody else holds it)
        try:
            self._write_seed(table_id, seed)
            self._write_wait(record)
        except OSError:
            for ext in ("wait", "seed"):  # the table is refused: leave nothing of it behind
                with contextlib.suppress(OSError):
                    (self.root / f"{table_id}.{ext}").unlink()
            raise
        self._waiting.add(table_id)

    def drop(self, table_id: str) -> None:
        """A waiting table went away unstarted: its seed and record go too."""
        if table_id not in self._waiting:
            return
        self._waiting.discard(table_id)
        for ext in ("wait", "seed"):  # the record first: a seed alone is never restored
            with contextlib.suppress(FileNotFoundError):
                (self.root / f"{table_id}.{ext}").unlink()
        fsync_dir(self.root)
        self._let_go_lock(table_id, remove=True)
        if self.mirror is not None:
            self.mirror.drop(table_id)

    def start(self, record: TableRecord, table: Table) -> str:
        """A table starts: seed (0600), meta and the log (header + setup), all fsynced; then a
        waiting record it had is removed (the log supersedes it).

        Returns the commitment to the seed written in the log's header.
        """
        self._mkroot()
        table_id = record.table_id
        self._hold(table_id)
        self._write_seed(table_id, table.seed)
        self._write_meta(record)
        try:
            writer = LogWriter.create(
                self.root / f"{table_id}.log",
                table,
                fsync=True,
                branched_from=record.spec.branched_from,
                seats=self._public_seats(table.seats),
            )
        except LogBroken as err:
            raise OSError(str(err)) from None
        self._writers[table_id] = writer
        if self.mirror is not None:
            self.mirror.reset_log(table_id, writer.path)
        if table_id in self._waiting:
            self._waiting.discard(table_id)
            with contextlib.suppress(FileNotFoundError):
                (self.root / f"{table_id}.wait").unlink()
            fsync_dir(self.root)
        return writer.commitment

    def update_meta(self, record: TableRecord) -> None:
        """Seats changed: rewrite the started table's meta or the waiting table's record."""
        if record.table_id in self._writers:
            self._write_meta(record)
        elif record.table_id in self._waiting:
            self._write_wait(record)

    def append(self, table_id: str, step: Step) -> None:
        """One accepted action, durable before it is broadcast (raises OSError: table stops;
        `NotCopied`: it is on disk, but must not be broadcast until its copy is in Redis)."""
        writer = self._writers.get(table_id)
        if writer is None:
            return
        try:
            writer.append(step)
        except LogBroken as err:
            raise OSError(str(err)) from None
        self._mirror_log(table_id, step=True)  # after the fsync: only whole, durable records

    def seats(self, table_id: str, seats: list[Seat]) -> None:
        """Who sits where from now on (a bot standing in for an away player, or the player
        back): a seats record in the log, a commit like `append` (raises OSError: table stops)."""
        writer = self._writers.get(table_id)
        if writer is None:
            return
        try:
            writer.set_seats(seats)
        except LogBroken as err:
            raise OSError(str(err)) from None
        self._mirror_log(table_id)

    def abandon(self, table_id: str) -> None:
        """An unfinished table given up by its players: its log, seed and records go, unpublished
        (no replay of a game that was never played out)."""
        writer = self._writers.pop(table_id, None)
        if writer is not None:
            with contextlib.suppress(LogBroken, ValueError, OSError):
                writer.close()
        self._waiting.discard(table_id)
        for ext in ("log", "meta", "wait", "seed"):  # the seed last: never a log without it
            with contextlib.suppress(FileNotFoundError):
                (self.root / f"{table_id}.{ext}").unlink()
        if self.root.is_dir():
            fsync_dir(self.root)
        self._let_go_lock(table_id, remove=True)
        if self.mirror is not None:
            self.mirror.drop(table_id)

    def finish(self, record: TableRecord, game: Game, table: Table) -> str | None:
        """The game ended: end record (seed revealed), publish the verified replay, tidy up.

        Returns the replay id (`ssh host replay ID`), or None if it could not be published
        (then the finished log stays in ``tables/`` for a person to look at).
        """
        table_id = record.table_id
        writer = self._writers.pop(table_id, None)
        result = table.result()
        if writer is None or result is None:
            return None
        try:
            writer.finish(result, table.seed)
            path = self._publish(writer.path, game, record)
        except (LogBroken, ReplayError, OSError) as err:
            log.error("table %s: the finished replay could not be saved: %s", table_id, err)
            return None
        for ext in ("seed", "meta"):
            with contextlib.suppress(FileNotFoundError):
                (self.root / f"{table_id}.{ext}").unlink()
        fsync_dir(self.root)
        self._let_go_lock(table_id, remove=True)
        if self.mirror is not None:
            self.mirror.drop(table_id)  # published: the live copy (and the seed) go
        return path.stem

    def _public_seats(self, seats: list[Seat]) -> list[Seat]:
        from net.replay_access import public_seats

        return public_seats(self.access.secret, seats)

    def _publish(self, log_path: Path, game: Game, meta: TableRecord) -> Path:
        """Publish a finished log; a private table's replay is restricted before it appears
        (to its players, its creator and everyone who had the invite code)."""

        def restrict(replay_id: str) -> None:
            if meta.spec.private:
                who = [*meta.holders, *meta.invited, meta.creator]
                self.access.restrict(replay_id, [w for w in who if w])

        return publish_log(log_path, self.replays, game=game, before=restrict)

    def close_all(self) -> None:
        for writer in self._writers.values():
            with contextlib.suppress(LogBroken, ValueError, OSError):
                writer.close()
        self._writers.clear()
        for table_id in list(self._locks):
            self._let_go_lock(table_id)

    # ---------------------------------------------------------------- restoring

    def table_ids(self) -> list[str]:
        """Every table with a log or a waiting record here (started or not, sorted)."""
        if not self.root.is_dir():
            return []
        return sorted({p.stem for ext in ("log", "wait") for p in self.root.glob(f"*.{ext}")})

    def restore_one(
        self, table_id: str, find_game: Callable[[str], Game], build_table: BuildTable
    ) -> Restored | None:
        """One table taken over (from its log, else its waiting record), or None if it is
        finished (published now), gone or cannot be read (logged)."""
        if table_id in self._writers:
            return None  # already ours
        if not self._hold(table_id):
            log.warning("table %s: another process here still holds it; not taken over", table_id)
            return None
        restored = self._restore_one(table_id, find_game, build_table)
        if restored is None:
            self._let_go_lock(table_id)
        return restored

    def _restore_one(
        self, table_id: str, find_game: Callable[[str], Game], build_table: BuildTable
    ) -> Restored | None:
        if self.mirror is not None:  # (another machine's table: its files come from Redis)
            try:
                self.mirror.restore_into(table_id, self.root)
            except OSError as err:
                log.error("table %s: its files could not be written from Redis: %s", table_id, err)
        if (self.root / f"{table_id}.log").exists():
            try:
                restored = self._restore(table_id, find_game)
                if restored is not None and self.mirror is not None:
                    self.mirror.reset_log(table_id, self.root / f"{table_id}.log")
                return restored
            except (OSError, ValueError, msgspec.DecodeError, IllegalAction, ReplayError) as err:
                log.error("table %s could not be restored: %s", table_id, err)
            except LogBroken as err:
                log.error("table %s could not be reopened: %s", table_id, err)
            return None
        if (self.root / f"{table_id}.wait").exists():
            try:
                restored = self._restore_waiting(table_id, find_game, build_table)
            except (OSError, ValueError, msgspec.DecodeError, IllegalAction) as err:
                log.error("waiting table %s could not be restored: %s", table_id, err)
                return None
            self._waiting.add(table_id)
            return restored
        return None

    def let_go(self, table_id: str) -> None:
        """Another process owns this table now: close our writer, touch no file."""
        writer = self._writers.pop(table_id, None)
        if writer is not None:
            with contextlib.suppress(LogBroken, ValueError, OSError):
                writer.close()
        self._waiting.discard(table_id)
        self._let_go_lock(table_id)

    def restore_all(
        self, find_game: Callable[[str], Game], build_table: BuildTable
    ) -> Iterator[Restored]:
        """Every unfinished started table (from its log), then every waiting table."""
        if not self.root.is_dir():
            return
        read: set[str] = set()  # logs read back (restored, or finished and published)
        for path in sorted(self.root.glob("*.log")):
            table_id = path.stem
            try:
                restored = self._restore(table_id, find_game)
            except (OSError, ValueError, msgspec.DecodeError, IllegalAction, ReplayError) as err:
                log.error("table %s could not be restored: %s", table_id, err)
                continue
            except LogBroken as err:
                log.error("table %s could not be reopened: %s", table_id, err)
                continue
            read.add(table_id)
            if restored is not None:
                yield restored
        for path in sorted(self.root.glob("*.wait")):
            table_id = path.stem
            if (self.root / f"{table_id}.log").exists() or table_id in read:
                # It started, but the crash came before its waiting record was removed: the
                # log supersedes it (kept only while the log itself cannot be read).
                if table_id in read:
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()
                continue
            try:
                restored = self._restore_waiting(table_id, find_game, build_table)
            except (OSError, ValueError, msgspec.DecodeError, IllegalAction) as err:
                log.error("waiting table %s could not be restored: %s", table_id, err)
                continue
            self._waiting.add(table_id)
            yield restored

    def _restore_waiting(
        self, table_id: str, find_game: Callable[[str], Game], build_table: BuildTable
    ) -> Restored:
        meta = msgspec.json.decode((self.root / f"{table_id}.wait").read_bytes(), type=TableRecord)
        seed = int((self.root / f"{table_id}.seed").read_text().strip())
        n = len(meta.seats)
        if meta.table_id != table_id or len(meta.holders) != n or len(meta.open) != n:
            raise ValueError("its record does not match its seats")
        game = find_game(meta.game)
        table = build_table(game, meta.spec, list(meta.seats), seed)
        played_at = _written_at(self.root / f"{table_id}.wait")
        return _restored(table_id, meta, game, table, commitment="", waiting=True, at=played_at)

    def _restore(self, table_id: str, find_game: Callable[[str], Game]) -> Restored | None:
        meta = msgspec.json.decode((self.root / f"{table_id}.meta").read_bytes(), type=TableRecord)
        seed = int((self.root / f"{table_id}.seed").read_text().strip())
        game = find_game(meta.game)
        played_at = _written_at(self.root / f"{table_id}.log")  # (before a torn tail is cut)
        table, writer = restore_table(self.root / f"{table_id}.log", seed, game, fsync=True)
        if writer.finished:
            # Finished but not yet published (a crash in between): publish it now.
            try:
                self._publish(writer.path, game, meta)
            except (ReplayError, OSError) as err:
                log.error("table %s: the finished replay could not be saved: %s", table_id, err)
            return None
        self._writers[table_id] = writer
        return _restored(
            table_id, meta, game, table, commitment=writer.commitment, waiting=False, at=played_at
        )


def _written_at(path: Path) -> float:
    """When ``path`` was last written (0.0 if that cannot be read)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _restored(
    table_id: str,
    meta: TableRecord,
    game: Game,
    table: Table,
    *,
    commitment: str,
    waiting: bool,
    at: float,
) -> Restored:
    """A table taken back: the game and core table, with who sits where from its record."""
    if meta.table_id != table_id:
        raise ValueError("its record names another table")
    return Restored(
        record=meta, game=game, table=table, commitment=commitment, waiting=waiting, played_at=at
    )


def _without_events(spec: TableSpec) -> dict[str, Any] | None:
    """The meta file keeps where a branch came from, not its past (that is the log's step 0)."""
    if spec.branched_from is None:
        return None
    return {k: v for k, v in spec.branched_from.items() if k != "events"}
