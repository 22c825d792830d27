"""Control of Python's cyclic garbage collector for a server full of long-lived apps.

Owns `Collector`. A full (generation-2) collection walks every tracked object of the process
that is not frozen; with a hundred Textual apps that is over a million objects and a pause of
hundreds of milliseconds for every session at once (shared/notes/perf-levers.md §2; measured
with the load benchmark's GC trace: 170-250 ms per full collection at 100 sessions, however
often it ran, because each app's working set is rebuilt on every step).

Almost nothing the server makes dies in a reference cycle — the one big source, Textual's
`Strip` keeping itself in its own caches, is removed by `tui.strips` (0 cyclic objects in 5 s
at 25 sessions, from ~28,000) — so reference counting frees what the sessions drop, and the
automatic full collections are switched off (`install`: the young generations still run, the
third threshold is out of reach). The objects of a running session live as long as it does,
so after a session's screens are built they are also *frozen* (`gc.freeze`): a full collection,
when one runs, never walks them.

What did die in cycles — a finished session's app and the screens it closed, about 11,000
objects and megabytes per session — now cuts its own (`tui.release`, called by the server once
the session is over: the server says so with ``session_ended(garbage=False)``). What still dies
in a cycle after it was frozen is collected by a *compaction* (`gc.unfreeze`, one full
collection, `gc.freeze`), which walks every object of every session: 4.5 s at 100 sessions in a
10-minute load run. So a compaction runs only when the server is quiet (at most
``quiet_sessions`` live sessions): when enough sessions that left garbage have ended, or once
``compact_every`` seconds have passed; a busy server never pauses for one (``max_ended`` still
bounds sessions that leave all their garbage, which ours never do). Until the server is quiet,
what an ended session's release left in cycles stays in memory: it was about 1,500 objects,
mostly asyncssh's connection (cut since by `net.server._cut_cycles`) and render caches.

Must not: run a full collection while many sessions play, except on those bounds.
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Any

__all__ = ["Collector"]

log = logging.getLogger("speedway.gc")

YOUNG_THRESHOLDS = (700, 10)
NEVER = 1_000_000_000  # the third threshold: automatic full collections never come due


class Collector:
    """Freeze built sessions, keep full collections for quiet moments (module docstring)."""

    def __init__(
        self,
        *,
        quiet_sessions: int = 10,
        compact_after: int = 20,
        max_ended: int = 200,
        compact_every: float = 600.0,
        clock: Any = time.monotonic,
        period: float = 5.0,
    ) -> None:
        self.quiet_sessions = quiet_sessions
        self.compact_after = compact_after
        self.max_ended = max_ended
        self.compact_every = compact_every
        self.clock = clock
        self.period = period
        self.ended_frozen = 0  # sessions that ended since the last compaction
        self.compactions = 0
        self.last_compaction = clock()
        self.enabled = True

    def install(self) -> None:
        """Switch the automatic full collections off (young generations as Python's defaults)."""
        if self.enabled:
            gc.set_threshold(*YOUNG_THRESHOLDS, NEVER)

    def uninstall(self) -> None:
        gc.set_threshold(*YOUNG_THRESHOLDS, 10)

    def session_built(self) -> None:
        """A session's first frame is out: freeze what it built (and everything older).

        Only the young generations are collected first. A full collection here skips the
        frozen objects, but what was promoted since the last freeze is already large at 100
        sessions (caches of rendered lines, folds, logs): in a 10-minute load run it paused
        the server 200-300 ms at every login, so it was taken out again."""
        if not self.enabled:
            return
        gc.collect(1)
        gc.freeze()

    def tick(self, live_sessions: int) -> None:
        """Every ``period`` seconds: compact if the time bound has come and the server is
        quiet (a compaction walks every session: never while many play)."""
        if (
            self.enabled
            and live_sessions <= self.quiet_sessions
            and self.clock() - self.last_compaction >= self.compact_every
        ):
            self.compact(live_sessions)

    def session_ended(self, live_sessions: int, *, garbage: bool = True) -> None:
        """A session ended; compact when enough ended and the server is quiet (or must).
        ``garbage=False``: its app cuts its own cycles (`tui.release`), nothing waits for us."""
        if not self.enabled or not garbage:
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
