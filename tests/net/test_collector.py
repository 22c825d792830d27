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


def test_tick_compacts_once_the_time_bound_has_come_and_only_on_a_quiet_server():
    clock = [0.0]
    collector = Collector(compact_every=100.0, quiet_sessions=10, clock=lambda: clock[0])
    collector.tick(live_sessions=5)
    assert collector.compactions == 0
    clock[0] = 150.0
    collector.tick(live_sessions=50)
    assert collector.compactions == 0, "a compaction walks every session: not while 50 play"
    collector.tick(live_sessions=5)
    assert collector.compactions == 1
    collector.tick(live_sessions=5)
    assert collector.compactions == 1, "and then not again until the next period"


def test_install_switches_automatic_full_collections_off_and_uninstall_back():
    collector = Collector()
    before = gc.get_threshold()
    try:
        collector.install()
        young0, young1, full = gc.get_threshold()
        assert (young0, young1) == (700, 10)
        assert full >= 10**9
    finally:
        gc.set_threshold(*before)


def test_a_disabled_collector_does_nothing():
    gc.unfreeze()
    collector = Collector()
    collector.enabled = False
    collector.session_built()
    collector.tick(1)
    collector.install()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold()[2] < 10**9


def test_sessions_that_free_themselves_never_bring_a_compaction():
    collector = Collector(quiet_sessions=2, compact_after=1, max_ended=2)
    for _ in range(5):  # their apps cut their own cycles (tui.release): nothing to compact
        collector.session_ended(live_sessions=1, garbage=False)
    assert collector.compactions == 0
    assert collector.ended_frozen == 0
    collector.session_ended(live_sessions=1)  # one that did leave garbage, on a quiet server
    assert collector.compactions == 1
