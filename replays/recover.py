"""Crash recovery: bring an unfinished table back from its log and keep appending to it.

Owns `restore_table`: read the log (refusing damage in the middle), cut a torn tail back to the
last whole record (keeping the cut bytes in a ``.torn`` sidecar for diagnosis), re-simulate every
step with the seed the hub kept privately and check each event byte for byte, then reopen the
file for appending after the last whole record.

Must not: guess around damage, or accept a log whose events differ from the re-simulation.
"""

from __future__ import annotations

from pathlib import Path

from core.game import Game, Table
from replays.errors import ReplayError
from replays.format import commitment
from replays.log import LogWriter, fsync_dir, full_fsync
from replays.reader import read_file_bytes, read_replay
from replays.verify import resimulate

__all__ = ["restore_table"]


def _keep_torn_tail(path: Path, tail: bytes) -> None:
    sidecar = path.with_name(path.name + ".torn")
    with open(sidecar, "wb") as handle:
        handle.write(tail)
        handle.flush()
        full_fsync(handle.fileno())


def restore_table(
    path: Path | str, seed: int, game: Game | None = None, *, fsync: bool = True
) -> tuple[Table, LogWriter]:
    """The table a log describes, re-simulated with ``seed``, and a writer appending to the log.

    Raises `ReplayError` (one sentence) if the log is damaged in the middle, does not match the
    seed's commitment, or any event differs from the re-simulation. For a log that already has
    its end record the table is returned finished and the writer is already closed.
    """
    path = Path(path)
    data = read_file_bytes(path)
    replay = read_replay(data, game, path=path)
    if replay.steps:
        report, table = resimulate(replay, seed=seed)
        if not report.ok or table is None:
            raise ReplayError(f"The table log {path.name} cannot be restored: {report.message}")
    else:
        # Crashed between the header and step 0: the setup is re-dealt from the seed.
        if commitment(seed, replay.salt) != replay.header.commitment:
            raise ReplayError(f"The seed does not match the commitment of {path.name}.")
        if replay.header.branched_from is not None:
            raise ReplayError(f"The branched table log {path.name} lost its starting position.")
        table = Table(replay.game, replay.config, replay.seats, seed)
    good_end = replay.scan.good_end
    try:
        if good_end < len(data):
            _keep_torn_tail(path, data[good_end:])
    except OSError as err:
        raise ReplayError(f"Cannot keep the torn tail of {path.name}: {err.strerror}.") from None
    writer = LogWriter.reopen(
        path,
        replay.header,
        salt=replay.salt,
        written=data[:good_end],
        next_seq=len(replay.scan.frames),
        table=table,
        fsync=fsync,
    )
    if fsync:
        fsync_dir(path.parent)
    if not replay.steps:
        writer.state_id = -1
        writer.append(table.history[0])
    if replay.end is not None:
        writer.finished = True
        writer.close()
    return table, writer
