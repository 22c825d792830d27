"""A server's timing trace for the load benchmark: broadcast steps and garbage-collection pauses.

Owns `Trace`: when ``SPEEDWAY_TRACE=FILE`` is set for `speedway serve`, the hub calls
`Trace.step` at the moment it broadcasts each accepted step (its monotonic time, which the load
generator compares with the time its clients receive the next bytes: CLOCK_MONOTONIC is shared
by every process of a machine), and a `gc.callbacks` hook times every collection. Records are
buffered in memory and appended to FILE as JSON lines once a second and at exit, so tracing costs
a few microseconds per step and never blocks the loop on disk.

Lines: ``{"k": "step", "t": T, "table": ID, "state": N, "viewers": V}``,
``{"k": "quiet", "t": T, "table": ID, "state": N, "seat": S}`` (a session's table screen, seen from
seat S or None for a spectator, drew nothing for step N: nothing it shows changed, such as who is
asked in a Cthulhu 500 reaction window; written by the screen when the next step arrives),
``{"k": "shared", "t": T, "groups": G, "members": M}`` (once a second: sessions sharing frames,
`net.mirror`), ``{"k": "gc", "t": T, "gen": G, "ms": D, "cpu_ms": C, "collected": N}`` (``ms`` is the wall time
of the pause, ``cpu_ms`` the thread's CPU time in it: on a loaded machine the first grows when the
process is descheduled mid-collection; pauses under 1 ms are counted, not written), ``{"k": "mark", "t": T, "what": S}``.

Must not: change what the hub does, import tui, or write on the event loop's critical path.
"""

from __future__ import annotations

import gc
import json
import os
import time
from pathlib import Path
from typing import Any

__all__ = ["Trace", "active", "from_environment"]

_ACTIVE: Trace | None = None


class Trace:
    """Buffered timing records for one server process (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._buffer: list[str] = []
        self._gc_start = 0.0
        self._gc_cpu_start = 0.0
        self.longest_gc_ms = 0.0
        self.collections = 0
        gc.callbacks.append(self._on_gc)

    def step(self, table_id: str, state_id: int, viewers: int) -> None:
        self._buffer.append(
            f'{{"k":"step","t":{time.monotonic():.6f},"table":"{table_id}",'
            f'"state":{state_id},"viewers":{viewers}}}'
        )

    def quiet(self, table_id: str, state_id: int, seat: int | None) -> None:
        self._buffer.append(
            f'{{"k":"quiet","t":{time.monotonic():.6f},"table":"{table_id}",'
            f'"state":{state_id},"seat":{"null" if seat is None else seat}}}'
        )

    def mark(self, what: str) -> None:
        self._buffer.append(json.dumps({"k": "mark", "t": time.monotonic(), "what": what}))

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        # Called twice for every collection (dozens a second): keep it to two clock reads,
        # and write a record only for a pause of a millisecond or more.
        if phase == "start":
            self._gc_start = time.perf_counter()
            self._gc_cpu_start = time.thread_time()
            return
        ms = (time.perf_counter() - self._gc_start) * 1000
        self.collections += 1
        if ms < 1.0:
            return
        cpu = (time.thread_time() - self._gc_cpu_start) * 1000
        self.longest_gc_ms = max(self.longest_gc_ms, ms)
        self._buffer.append(
            f'{{"k":"gc","t":{time.monotonic():.6f},"gen":{info.get("generation", -1)},'
            f'"ms":{ms:.3f},"cpu_ms":{cpu:.3f},"collected":{info.get("collected", 0)}}}'
        )

    def flush(self) -> None:
        from net.mirror import MIRROR

        sizes = MIRROR.groups().values()
        if sizes:
            self._buffer.append(
                f'{{"k":"shared","t":{time.monotonic():.6f},"groups":{len(sizes)},'
                f'"members":{sum(sizes)}}}'
            )
        if not self._buffer:
            return
        lines, self._buffer = self._buffer, []
        with open(self.path, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    def close(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        self.flush()


def from_environment() -> Trace | None:
    """The trace asked for by ``SPEEDWAY_TRACE`` (None when it is unset)."""
    global _ACTIVE
    path = os.environ.get("SPEEDWAY_TRACE")
    _ACTIVE = Trace(Path(path)) if path else None
    return _ACTIVE


def active() -> Trace | None:
    """This process's trace, once `from_environment` made one (for records from the screens)."""
    return _ACTIVE
