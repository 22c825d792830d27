"""Replay-format throughput: records written per second (fsync off), read+verify events/s.

Uses every registered game (Dash, the test game, when none is registered yet): plays bot games
to the end, then times (1) a LogWriter appending every step to a real file without fsync,
(2) one fsynced append (the per-action latency the hub pays), (3) open_replay + verify of the
written files, and (4) seeking with state_at to every step.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench import QUICK
from core import registry
from core.game import Game, Seat, Table
from replays.log import LogWriter
from replays.reader import open_replay
from replays.verify import verify

GAMES_PER_RUN = 5 if QUICK else 20


def _games() -> list[Game]:
    games = registry.all_games()
    if games:
        return games
    from tests.fakegame import GAME

    return [GAME]


def _played(game: Game, seed: int) -> Table:
    n = min(4, game.max_seats)
    bot = game.default_bot
    table = Table(
        game, game.default_config(), [Seat(name=f"b{i}", bot=bot) for i in range(n)], seed
    )
    table.run_bots()
    return table


def _write(folder: Path, tables: list[Table], fsync: bool) -> tuple[int, float]:
    """Time a LogWriter writing every recorded step (snapshot folds included, rules excluded)."""
    fresh = [Table(t.game, t.config, t.seats, t.seed) for t in tables]  # just the setup
    records = 0
    start = time.perf_counter()
    for i, (table, start_table) in enumerate(zip(tables, fresh, strict=True)):
        writer = LogWriter.create(folder / f"{fsync}-{i}.log", start_table, fsync=fsync)
        for step in table.history[1:]:
            writer.append(step)
        records += len(table.history) + 1  # header + steps (incl. setup)
        result = table.result()
        assert result is not None
        writer.finish(result, table.seed)
        records += 1
    return records, time.perf_counter() - start


def run() -> Iterator[dict[str, Any]]:
    for game in _games():
        tables = [_played(game, seed) for seed in range(1, GAMES_PER_RUN + 1)]
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            records, elapsed = _write(folder, tables, fsync=False)
            yield {
                "name": f"replays.{game.id}.records_written_per_s",
                "value": round(records / elapsed),
                "unit": "records/s",
                "fsync": False,
            }
            one = tables[:1]
            fs_records, fs_elapsed = _write(folder, one, fsync=True)
            yield {
                "name": f"replays.{game.id}.fsynced_append_ms",
                "value": round(1000 * fs_elapsed / fs_records, 3),
                "unit": "ms/record",
                "fsync": True,
            }
            events = 0
            start = time.perf_counter()
            paths = sorted(folder.glob("False-*.log"))
            for path in paths:
                replay = open_replay(path, game)
                report = verify(replay, game)
                assert report.ok, report.message
                events += report.events
            elapsed = time.perf_counter() - start
            yield {
                "name": f"replays.{game.id}.read_verify_events_per_s",
                "value": round(events / elapsed),
                "unit": "events/s",
            }
            replay = open_replay(paths[0], game)
            start = time.perf_counter()
            for k in reversed(range(len(replay.steps))):
                replay.state_at(k)
                replay._cache = None  # measure cold seeks, not the sequential cache
            elapsed = time.perf_counter() - start
            yield {
                "name": f"replays.{game.id}.seek_ms",
                "value": round(1000 * elapsed / len(replay.steps), 3),
                "unit": "ms/seek",
                "steps": len(replay.steps),
            }
            yield {
                "name": f"replays.{game.id}.file_bytes_per_step",
                "value": round(paths[0].stat().st_size / len(replay.steps), 1),
                "unit": "bytes/step",
            }
