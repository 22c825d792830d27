"""Sessions one machine holds with 2 workers on a Redis bus against 1 (issue 15).

``ssh_sessions_held_workers_K``: the most sessions (25 Cthulhu 500 tables of 4 bots per 100
sessions, each table watched by 4, as `bench.bench_ssh`) at which the event-to-screen p99 stays
≤ 100 ms, for `speedway serve --workers K --bus URL` with K = 1 and 2, measured side by side in
one run, each on a redis-server of its own this module starts (127.0.0.1, a temporary dir)
and stops.
``ssh_sessions_workers``: held with 2 ÷ held with 1, target ≥ 1.7. Each K climbs its ladder
of session counts on one server (`bench.ssh_load.run_ladder`): sessions are added rung by rung
(a table of bots and its watchers for every 4) and each rung is measured over its own window,
until the p99 goes over; a failing rung gets a second window at the same count and the better
one counts. QUICK: 100, 200, 300 sessions, 5 s windows (one worker holding 300 leaves the ratio
unmeasured: the figure is null and says so); a full run 50-400 in steps of 50, 30 s windows.
Steps that draw nothing on a spectator's screen are not timed (`quiet`, `bench.ssh_load`).

Sessions land on either worker (SO_REUSEPORT), so most viewers follow a table owned by the
other worker: their updates cross Redis, and the figure includes that hop.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench import QUICK
from bench.ssh_load import LoadResult, percentile, run_ladder

P99_MS = 100.0


def _redis(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder),
         "--appendonly", "yes", "--save", "", "--maxmemory-policy", "noeviction",
         "--logfile", str(folder / "redis.log")],
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("redis-server did not start")


def _holds(result: LoadResult) -> bool:
    return (
        bool(result.latencies_ms)
        and not result.missed
        and (percentile(result.latencies_ms, 99) <= P99_MS)
    )


def _held(workers: int, ladder: list[int], window: float) -> tuple[int, list[dict[str, Any]]]:
    """Climb the ladder on one server (`bench.ssh_load.run_ladder`, a redis-server of its own)
    while the p99 holds; the most sessions held and every rung's figures."""
    with tempfile.TemporaryDirectory(prefix="speedway-redis-") as tmp:
        proc, url = _redis(Path(tmp))
        try:
            results = asyncio.run(
                run_ladder(
                    ladder,
                    _holds,
                    window=window,
                    serve_args=["--workers", str(workers), "--bus", url],
                )
            )
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    rows = [
        {"sessions": r.sessions, "p99": round(percentile(r.latencies_ms, 99), 1),
         "missed": r.missed, "quiet": r.quiet}
        for r in results
    ]  # fmt: skip
    held = [r.sessions for r in results if _holds(r)]
    return (max(held) if held else 0), rows


def run() -> Iterator[dict[str, Any]]:
    ladder = [100, 200, 300] if QUICK else [50, 100, 150, 200, 250, 300, 350, 400]
    window = 5.0 if QUICK else 30.0
    one, rows1 = _held(1, ladder, window)
    two, rows2 = _held(2, ladder, window)
    yield {"bench": "ssh_sessions_held_workers_1", "value": one, "unit": "sessions",
           "better": "higher", "ladder": rows1}  # fmt: skip
    yield {"bench": "ssh_sessions_held_workers_2", "value": two, "unit": "sessions",
           "better": "higher", "ladder": rows2}  # fmt: skip
    # One worker holding the ladder's top rung leaves the ratio unmeasured (not 1.0): it says so.
    topped = one == ladder[-1]
    yield {
        "bench": "ssh_sessions_workers",
        "value": round(two / one, 2) if one and not topped else None,
        "unit": "x",
        "target": 1.7,
        "better": "higher",
        **({"ok": None, "note": f"1 worker held the top rung ({one}): a longer ladder is "
            "needed to tell 1 worker from 2"} if topped else {}),
    }  # fmt: skip
