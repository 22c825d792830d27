"""Control of Python's cyclic garbage collector for a server full of long-lived apps.

Owns `Collector`. A full (generation-2) collection walks every tracked object of the process;
with a hundred Textual apps that is about a million objects and a pause of up to seconds for
every session at once (shared/notes/perf-levers.md §2). The objects of a running session live
as long as it does, so after a session's screens are built its objects are *frozen*
(`gc.freeze`, after collecting the young generations so little garbage is frozen with them):
the collector never walks them again and its pauses stay those of the short-lived garbage.

Sessions keep building long-lived objects as they play (kept screen lines, the fold of every
step), so `tick` (every ``period`` seconds, 1 by default) runs a collection — which walks only what is not frozen,
the few seconds' worth of new objects — and freezes what survived: the heap the collector walks
stays small however long the sessions last, and nothing that was garbage at that moment is
frozen. What dies *later* in a cycle (a closed screen, a toast) stays frozen until a compaction.

Frozen objects are never collected, so the cycles a finished session leaves behind are kept
until the next *compaction* (`gc.unfreeze`, one full collection, `gc.freeze` again), which runs
when enough frozen sessions have ended and the server is quiet (few sessions), when the frozen
heap has grown to ``grow_factor`` times its size after the last compaction (a bound on what can
be kept), and at the latest after ``max_ended`` ended sessions — one long pause then instead of
one every few seconds. Reference counting still frees everything without cycles
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
        grow_factor: float = 3.0,
        min_frozen: int = 2_000_000,
        clock: Any = time.monotonic,
        period: float = 1.0,
    ) -> None:
        self.period = period
        self.quiet_sessions = quiet_sessions
        self.compact_after = compact_after
        self.max_ended = max_ended
        self.grow_factor = grow_factor
        self.min_frozen = min_frozen
        self.clock = clock
        self.frozen_after_compaction = gc.get_freeze_count()
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
        limit = max(self.min_frozen, self.grow_factor * self.frozen_after_compaction)
        if gc.get_freeze_count() > limit:
            self.compact(live_sessions)
            return
        gc.collect()  # walks only the unfrozen objects: the few seconds since the last tick
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
        self.frozen_after_compaction = gc.get_freeze_count()
