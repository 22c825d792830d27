"""Shared helpers for the replay tests: Dash tables, logs written step by step, file bytes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.game import Seat, Step, Table
from replays.format import SALT_SIZE
from replays.log import LogWriter, RecordEncoder, make_header
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll

CORPUS = Path(__file__).parent / "corpus"
GOLDEN = Path(__file__).parent / "golden" / "dash-seed1.replay"
SALT = bytes(range(SALT_SIZE))


def seats(n: int = 2, bot: str = "random") -> list[Seat]:
    return [Seat(name=f"{bot}-{i + 1}", bot=bot) for i in range(n)]


def dash_table(seed: int = 3, n: int = 2, bot: str = "random", goal: int = 10) -> Table:
    """A Dash table just after setup."""
    config = DASH.config_type(goal=goal)
    return Table(DASH, config, seats(n, bot), seed)


def finished_dash(seed: int = 3, n: int = 2, bot: str = "random", goal: int = 10) -> Table:
    table = dash_table(seed, n, bot, goal)
    if bot == "roll":
        while table.pending():
            table.submit(table.pending()[0], Roll())
    else:
        table.run_bots()
    assert table.result() is not None
    return table


def play_logged(
    path: Path,
    seed: int = 3,
    *,
    snapshot_every: int = 4,
    finish: bool = True,
    n: int = 2,
    goal: int = 10,
    bot: str = "random",
) -> Table:
    """Play a bot game of Dash with a live LogWriter (fsync off), as the hub does.

    ``bot="roll"`` always rolls: the longest games (about goal/3.5 rolls per seat).
    """
    table = dash_table(seed, n, bot, goal)
    writer = LogWriter.create(path, table, fsync=False, snapshot_every=snapshot_every)
    while table.pending():
        seat = table.pending()[0]
        action = Roll() if bot == "roll" else table.bot_action(seat)
        writer.append(table.submit(seat, action, table.state_id))
    if finish:
        result = table.result()
        assert result is not None
        writer.finish(result, seed)
    else:
        writer.close()
    return table


def encode_log(
    table: Table,
    history: Sequence[Step],
    *,
    end_seed: int | None = None,
    result: Any = None,
    snapshots: dict[int, Any] | None = None,
    finish: bool = True,
    salt: bytes = SALT,
    branched_from: dict[str, Any] | None = None,
) -> bytes:
    """Frame any history (tampered or not) with valid checksums, as a forger could."""
    enc = RecordEncoder(salt)
    header = make_header(
        table, salt, snapshot_every=0, created="2026-01-01T00:00:00Z", branched_from=branched_from
    )
    parts = [enc.preamble(), enc.header(header)]
    for step in history:
        parts.append(enc.step(step))
        if snapshots and step.state_id in snapshots:
            parts.append(enc.snapshot(step.state_id, snapshots[step.state_id]))
    if finish:
        res = result if result is not None else table.result()
        seed = end_seed if end_seed is not None else table.seed
        parts.append(enc.end(history[-1].state_id, res, seed))
    return b"".join(parts)


def golden_bytes() -> bytes:
    """The byte-exact file of one fixed game (fixed salt and time): the format's golden copy."""
    table = finished_dash(1, n=3, goal=20, bot="roll")
    from replays.log import encode_start

    encoder, _header, _snaps, start = encode_start(
        table, salt=SALT, snapshot_every=4, created="2026-01-02T03:04:05Z"
    )
    result = table.result()
    assert result is not None
    return start + encoder.end(table.state_id, result, table.seed)
