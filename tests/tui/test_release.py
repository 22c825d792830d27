"""`tui.release`: an ended app and the screens it closed are freed by reference counting.

The server runs with automatic full collections off (`net.collector`), so whatever dies in a
long-lived reference cycle stays in memory until a compaction. These tests run in the same
regime and check with weak references that the real app and its screens are gone anyway,
how little is left for a full collection, and that releasing never touches what is live.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tests.tui.conftest import go500_app, make_app
from tui.release import release, release_in_slices
from tui.screens.rules import RulesScreen


@pytest.fixture
def server_gc() -> Iterator[None]:
    """The server's regime (`net.collector.install`): young generations only, no automatic
    full collection ever, so what dies in a long-lived cycle stays."""
    gc.collect()
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10**9)
    try:
        yield
    finally:
        gc.set_threshold(*before)


async def settle(pilot: Any, rounds: int = 6) -> None:
    for _ in range(rounds):
        await pilot.pause()
        await asyncio.sleep(0.01)


async def test_an_ended_app_and_the_screens_it_closed_are_freed_without_the_collector(
    server_gc,
):
    app = go500_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.show_rules("go500")
        await settle(pilot)
        page = weakref.ref(app.screen)
        assert isinstance(page(), RulesScreen)
        await pilot.press("escape")  # closed while the app goes on
        await settle(pilot)
        assert page() is not None, "a live app's closed screen waits for the app's end"
        assert app.screen is not page()
    del pilot
    gone = weakref.ref(app)
    app.release()  # in slices: the loop runs other work in between
    del app
    for _ in range(200):
        await asyncio.sleep(0)
        if gone() is None:
            break
    assert gone() is None, "the ended app (table, screens, workers) was freed, in slices"
    # What is left for a full collection: the last cycles Textual makes as it lays out (the
    # rules page it had closed may hang from one of those until then); ~7,000 unreleased,
    # 315 before Textual's `LRUCache` rings were cut (`install`), ~140 since.
    left = gc.collect()
    assert left < 200, f"{left} objects were left for a full collection"  # 315 before the rings
    assert page() is None


async def test_a_live_app_is_never_released():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert release(app) == 0
        assert release(app.screen) == 0
        app.show_rules("go500")
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen), "nothing was emptied"


class Grid(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable()


async def test_restyles_and_cancelled_workers_leave_fewer_cycles():
    """Textual makes a virtual node per component class at each restyle (a data table has
    a dozen) and used to leave the old ones in cycles (9,600 objects for these 20 restyles),
    and a cancelled worker kept its frames in one (140 objects for five). Counted with the
    collector off, so every cycle made here is still there to count."""
    app = Grid()
    async with app.run_test(size=(40, 10)) as pilot:
        grid = app.query_one(DataTable)
        grid.add_columns("a", "b")
        grid.add_row("1", "2")
        await settle(pilot)
        gc.collect()
        gc.disable()
        try:
            for i in range(20):
                grid.set_class(i % 2 == 0, "-odd")  # a restyle of the table each time
                await pilot.pause()
            restyles = gc.collect()

            async def forever() -> None:
                await asyncio.Event().wait()

            for _ in range(5):
                app.run_worker(forever(), group="w")
                await settle(pilot, 2)
                app.workers.cancel_group(app, "w")
                await settle(pilot, 2)
            workers = gc.collect()
        finally:
            gc.enable()
    assert restyles < 4000, f"{restyles} objects in cycles after 20 restyles"
    assert workers == 0, f"{workers} objects in cycles after five cancelled workers"


async def test_an_ended_app_is_released_in_slices_with_the_loop_free_in_between(server_gc):
    """On a server the release of an ended session (~40 ms) must not hold the other sessions
    back: with a budget of nothing, every step of the walk is a turn of the loop of its own."""
    app = go500_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
    del pilot
    gone = weakref.ref(app)
    nodes = list(app._all_nodes)
    release_in_slices(app, *nodes, budget=0.0)
    del app, nodes
    turns = 0
    while gone() is not None and turns < 10_000:
        await asyncio.sleep(0)
        turns += 1
    assert gone() is None, "all of it was released in the end"
    assert turns > 3, "the release took several turns of the loop"


def test_a_dropped_cleared_or_discarded_lru_cache_leaves_no_cycle(server_gc):
    """Textual's `LRUCache` is a ring of lists; `tui.release.install` (done by every app) cuts
    it when the cache is dropped or cleared and a link when it is discarded, so what it held
    is freed by reference counting (a screen's `query_one` cache held its widgets)."""
    from textual.cache import LRUCache

    import tui.app  # noqa: F401  (installs it)

    class Held:
        pass

    gc.collect()
    gc.disable()
    try:
        held = [Held() for _ in range(4)]
        alive = [weakref.ref(h) for h in held]
        dropped: LRUCache[int, Held] = LRUCache(8)
        cleared: LRUCache[int, Held] = LRUCache(8)
        one: LRUCache[int, Held] = LRUCache(8)
        for i, h in enumerate(held[:2]):
            dropped[i] = h
        cleared[0] = held[2]
        cleared[1] = held[2]
        one[0] = held[3]  # a ring of one: a link that refers to itself
        assert cleared.get(1) is held[2], "the cache still works"
        del dropped
        cleared.clear()
        one.discard(0)
        del held, h
        assert [ref() for ref in alive] == [None] * 4, "each value was freed at once"
        assert gc.collect() == 0, "and no ring was left for the collector"
    finally:
        gc.enable()
