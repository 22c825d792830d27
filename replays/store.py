"""The replays folder: saving finished games atomically and listing what is there.

Owns `save_finished_table` (a finished `Table` -> one verified ``.replay`` file, written as
``NAME.partial``, fsynced, renamed, folder fsynced), `publish_log` (a finished live table log ->
the replays folder, same atomic steps, for the hub: the file keeps the salt and commitment the
players saw) and `list_replays` (newest first, from headers and end records only).

File names are ``{game}-{YYYYmmdd-HHMMSS}-{12 hex of the file's SHA-256}.replay``; the time is
file metadata (when the file was made), never part of the game.
Must not: know any game's rules, or import net/tui.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from core.game import Game, Table
from replays.errors import ReplayError
from replays.format import KIND_STEP
from replays.log import encode_start, fsync_dir, full_fsync, utc_stamp
from replays.reader import peek, read_file_bytes, read_replay
from replays.verify import verify as verify_replay

__all__ = [
    "SUFFIX",
    "ReplayInfo",
    "list_replays",
    "publish_log",
    "replay_name",
    "save_finished_table",
]

SUFFIX = ".replay"


class ReplayInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One file in the replays folder, as a file browser lists it."""

    path: Path
    game: str
    title: str
    date: str
    """When the file was started (UTC, ISO 8601)."""
    players: list[str]
    winner: str | None
    """The winner's seat name (None while unfinished or without a winner)."""
    finished: bool
    steps: int
    summary: str
    problem: str | None = None
    """Why the file cannot be read (only with ``include_broken``)."""

    @property
    def id(self) -> str:
        """The replay's id: its file name without ``.replay`` (``ssh host replay ID``)."""
        return self.path.stem


def replay_name(game_id: str, created: str, data: bytes) -> str:
    """``{game}-{YYYYmmdd-HHMMSS}-{shortdigest}.replay`` for a file's bytes."""
    try:
        moment = datetime.strptime(created, "%Y-%m-%dT%H:%M:%SZ")
        stamp = moment.strftime("%Y%m%d-%H%M%S")
    except ValueError:
        stamp = "00000000-000000"
    return f"{game_id}-{stamp}-{hashlib.sha256(data).hexdigest()[:12]}{SUFFIX}"


def _write_atomically(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / name
    partial = folder / (name + ".partial")
    try:
        with open(partial, "wb") as handle:
            handle.write(data)
            handle.flush()
            full_fsync(handle.fileno())
        os.replace(partial, final)
    except OSError:
        partial.unlink(missing_ok=True)
        raise
    fsync_dir(folder)
    return final


def save_finished_table(
    table: Table,
    folder: Path,
    *,
    verify: bool = True,
    branched_from: Mapping[str, Any] | None = None,
    now: datetime | None = None,
    salt: bytes | None = None,
) -> Path:
    """Write a finished table's complete replay into ``folder`` and return its path.

    With ``verify`` the bytes are read back and re-simulated before the file appears; a
    mismatch (a non-deterministic game) raises `ReplayError` and leaves no file behind.
    ``salt`` (default: fresh from `secrets`) lets a table that announced
    ``commitment(seed, salt)`` at its start keep that commitment in its replay.
    """
    result = table.result()
    if result is None:
        raise ValueError("Only a finished game can be saved as a replay.")
    created = utc_stamp(now if now is not None else datetime.now(UTC))
    encoder, _header, _snaps, start = encode_start(
        table, salt=salt, created=created, branched_from=branched_from
    )
    data = start + encoder.end(table.state_id, result, table.seed)
    if verify:
        report = verify_replay(read_replay(data, table.game))
        if not report.ok:
            raise ReplayError(f"The replay does not verify, so it was not saved: {report.message}")
    return _write_atomically(Path(folder), replay_name(table.game.id, created, data), data)


def publish_log(
    log_path: Path | str,
    folder: Path,
    *,
    verify: bool = True,
    game: Game | None = None,
    before: Callable[[str], None] | None = None,
) -> Path:
    """Move a finished table log into the replays ``folder`` (atomically) and return its path.

    The file is copied byte for byte (keeping the commitment the players saw), synced and
    renamed into place; then the log is removed. ``game`` defaults to the registered one.
    ``before`` is called with the replay's id (its file name without ``.replay``) before the
    file appears, so anything that must hold from the first moment (who may see it) does.
    """
    log_path = Path(log_path)
    data = read_file_bytes(log_path)
    replay = read_replay(data, game, path=log_path)
    if replay.end is None:
        raise ReplayError(f"The table log {log_path.name} has not finished, so it is no replay.")
    data = data[: replay.scan.good_end]
    if verify:
        report = verify_replay(replay)
        if not report.ok:
            raise ReplayError(f"The table log {log_path.name} does not verify: {report.message}")
    name = replay_name(replay.header.game, replay.header.created, data)
    if before is not None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        before(name.removesuffix(SUFFIX))
    final = _write_atomically(Path(folder), name, data)
    log_path.unlink()
    fsync_dir(log_path.parent)
    return final


def _info(path: Path) -> ReplayInfo:
    header, seats, end, frames = peek(read_file_bytes(path))
    names = [seat.name for seat in seats]
    winner = None
    if end is not None and end.result.winner is not None and 0 <= end.result.winner < len(names):
        winner = names[end.result.winner]
    steps = sum(1 for frame in frames.frames if frame.kind == KIND_STEP) - 1
    return ReplayInfo(
        path=path,
        game=header.game,
        title=header.title,
        date=header.created,
        players=names,
        winner=winner,
        finished=end is not None,
        steps=max(steps, 0),
        summary=end.result.summary_for(names) if end is not None else "unfinished",
    )


def list_replays(folder: Path | str, *, include_broken: bool = False) -> list[ReplayInfo]:
    """The ``.replay`` files in ``folder``, newest first (unreadable ones only if asked)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    infos: list[ReplayInfo] = []
    for path in folder.iterdir():
        if path.suffix != SUFFIX or not path.is_file():
            continue
        try:
            infos.append(_info(path))
        except ReplayError as err:
            if include_broken:
                infos.append(
                    ReplayInfo(
                        path=path,
                        game="?",
                        title="?",
                        date="",
                        players=[],
                        winner=None,
                        finished=False,
                        steps=0,
                        summary="unreadable",
                        problem=str(err),
                    )
                )
    infos.sort(key=lambda info: (info.date, info.path.name), reverse=True)
    return infos
