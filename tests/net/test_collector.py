"""`net.collector.Collector`: built sessions are frozen out of the collector's walks, and the
frozen garbage of ended sessions is compacted when the server is quiet (or must be)."""

from __future__ import annotations

import gc

import pytest

from net.collector import Collector


class Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def _unfrozen():
    yield
    gc.unfreeze()


def test_a_built_session_is_frozen_and_a_quiet_compaction_frees_its_cycles():
    gc.unfreeze()
    collector = Collector(quiet_sessions=2, compact_after=1)
    gc.collect()
    before = gc.get_freeze_count()
    session = [Cycle() for _ in range(1000)]
    collector.session_built()
    assert gc.get_freeze_count() >= before + 1000, "the session's objects are frozen"
    frozen_with_session = gc.get_freeze_count()
    del session  # the cycles are garbage now, but frozen: nothing collects them yet
    assert gc.collect() == 0
    collector.session_ended(live_sessions=1)
    assert collector.compactions == 1, "one ended session and a quiet server: compact"
    assert gc.get_freeze_count() <= frozen_with_session - 1000, "the compaction freed the cycles"


def test_no_compaction_while_busy_until_the_bound_forces_it():
    clock = [0.0]
    collector = Collector(quiet_sessions=2, compact_after=1, max_ended=3, clock=lambda: clock[0])
    collector.session_ended(live_sessions=50)
    collector.session_ended(live_sessions=50)
    assert collector.compactions == 0, "a busy server does not pause for a full collection"
    collector.session_ended(live_sessions=50)
    assert collector.compactions == 1, "max_ended bounds the frozen garbage"
    assert collector.ended_frozen == 0


def test_tick_freezes_survivors_not_garbage_and_compacts_when_the_frozen_heap_grew():
    gc.unfreeze()
    collector = Collector(grow_factor=1.5, min_frozen=10**9)
    collector.tick(live_sessions=50)  # everything older is frozen now
    keep = [Cycle() for _ in range(500)]
    garbage = [Cycle() for _ in range(700)]
    del garbage  # cycles: only a collection frees them
    before = gc.get_freeze_count()
    collector.tick(live_sessions=50)
    frozen = gc.get_freeze_count()
    assert frozen >= before + 500, "what survives is frozen"
    assert frozen < before + 1200, "what was garbage is collected first, not frozen"
    assert collector.compactions == 0
    collector.min_frozen = 0
    collector.frozen_after_compaction = frozen // 2  # as if the frozen heap had doubled since
    collector.tick(live_sessions=50)
    assert collector.compactions == 1
    assert keep[0].me is keep[0]


def test_a_disabled_collector_does_nothing():
    gc.unfreeze()
    collector = Collector()
    collector.enabled = False
    collector.session_built()
    collector.tick(1)
    assert gc.get_freeze_count() == 0
