"""Control of Python's cyclic garbage collector for a server full of long-lived apps.

Owns `Collector`. A full (generation-2) collection walks every tracked object of the process;
with a hundred Textual apps that is about a million objects and a pause of up to seconds for
every session at once (shared/notes/perf-levers.md §2). The objects of a running session live
as long as it does, so after a session's screens are built its objects are *frozen*
(`gc.freeze`, after collecting the young generations so little garbage is frozen with them):
the collector never walks them again and its pauses stay those of the short-lived garbage.

Sessions keep building long-lived objects as they play (kept screen lines, the fold of every
step), so `tick` (every few seconds) collects the young generations and freezes what survived:
the generation-2 heap the collector walks stays small however long the sessions last.

Frozen objects are never collected, so the cycles a finished session leaves behind are kept
until the next *compaction* (`gc.unfreeze`, one full collection, `gc.freeze` again), which runs
when enough frozen sessions have ended and the server is quiet (few sessions), at the latest
after ``max_ended`` ended sessions, and once every ``compact_every`` seconds — one long pause
then instead of one every few seconds. Reference counting still frees everything without cycles
at once, frozen or not.

Must not: run a full collection while many sessions play, unless the leak bound forces it.
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Any

__all__ = ["Collector"]

log = logging.getLogger("speedway.gc")


class Collector:
    """Freeze each session's objects once it is built; compact when quiet (module docstring)."""

    def __init__(
        self,
        *,
        quiet_sessions: int = 10,
        compact_after: int = 20,
        max_ended: int = 200,
        compact_every: float = 3600.0,
        clock: Any = time.monotonic,
    ) -> None:
        self.quiet_sessions = quiet_sessions
        self.compact_after = compact_after
        self.max_ended = max_ended
        self.compact_every = compact_every
        self.clock = clock
        self.last_compaction = clock()
        self.ended_frozen = 0  # sessions that ended since the last compaction
        self.compactions = 0
        self.enabled = True

    def session_built(self) -> None:
        """A session's first frame is out: freeze what it built (and everything older)."""
        if not self.enabled:
            return
        gc.collect(1)
        gc.freeze()

    def tick(self, live_sessions: int) -> None:
        """Every few seconds: freeze what survived the young collections; compact when due."""
        if not self.enabled:
            return
        if self.clock() - self.last_compaction >= self.compact_every:
            self.compact(live_sessions)
            return
        gc.collect(1)
        gc.freeze()

    def session_ended(self, live_sessions: int) -> None:
        """A session ended; compact when enough ended and the server is quiet (or must)."""
        if not self.enabled:
            return
        self.ended_frozen += 1
        quiet = live_sessions <= self.quiet_sessions and self.ended_frozen >= self.compact_after
        if quiet or self.ended_frozen >= self.max_ended:
            self.compact(live_sessions)

    def compact(self, live_sessions: int = 0) -> None:
        """One full collection of everything, then freeze the survivors again."""
        start = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.compactions += 1
        log.info(
            "event=gc_compact sessions=%d ended=%d freed=%d ms=%.0f",
            live_sessions,
            self.ended_frozen,
            freed,
            (time.perf_counter() - start) * 1000,
        )
        self.ended_frozen = 0
        self.last_compaction = self.clock()
