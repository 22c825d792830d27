"""`tui.fold`: viewers of one table from one perspective fold each step once per process.

The real hub streams a Cthulhu 500 table to several spectators and a seated player; the test
plays the seats through the hub's calls and folds every stream with `TableFold`, as the table
screens do. Shared steps must give exactly what a viewer folding alone gets.
"""

from __future__ import annotations

import asyncio

from net.hub import Identity, SeatSpec, StepUpdate, TableSpec, Welcome
from net.local_hub import LocalHub
from tui import fold as fold_module
from tui.fold import TableFold

ME = Identity(id="test:me", nickname="me")
BOTS = ["shrewd", "random", "shrewd", "random"]


async def _table() -> tuple[LocalHub, str]:
    hub = LocalHub(None, persist=False, bot_delay=1e9, lobby_interval=0.0)
    seats = [SeatSpec(kind="human", name=f"P{i + 1}", identity=ME.id) for i in range(4)]
    return hub, await hub.create_table(TableSpec(game="cthulhu500", seats=seats, seed=7), ME)


async def _play(hub: LocalHub, table_id: str, steps: int) -> None:
    table = hub.table(table_id)
    for _ in range(steps):
        seat = table.pending()[0]
        action = await hub.hint(table_id, ME, seat, BOTS[seat])
        await hub.submit(table_id, ME, seat, action, table.state_id)


async def _drain(watch) -> list:
    """What the hub has put on this viewer's stream so far."""
    out = []
    items = aiter(watch)
    while True:
        try:
            out.append(await asyncio.wait_for(anext(items), 0.05))
        except TimeoutError:
            return out


def _fold(updates: list) -> TableFold:
    welcome = updates[0]
    assert isinstance(welcome, Welcome)
    fold = TableFold.from_welcome(welcome)
    for update in updates[1:]:
        if isinstance(update, StepUpdate):
            fold.apply(update)
    return fold


async def test_spectators_share_each_step_and_see_what_a_lone_viewer_sees(monkeypatch):
    hub, table_id = await _table()
    try:
        watches = [
            hub.watch(table_id, Identity(id=f"test:v{i}", nickname=f"v{i}"), None) for i in range(3)
        ]
        seated = hub.watch(table_id, ME, 0)
        await _play(hub, table_id, 40)
        streams = [await _drain(w) for w in watches]
        folds = [_fold(s) for s in streams]
        mine = _fold(await _drain(seated))
        a, b, c = folds
        assert a.state is b.state is c.state, "one state for the three spectators"
        joined = a.history[0][0]  # the welcome's lines are each viewer's own, the steps' shared
        stepped = [line for line in a.log if line.state_id > joined]
        assert len(stepped) > 40
        others = [line for line in b.log if line.state_id > joined]
        assert all(x is y for x, y in zip(stepped, others, strict=True)), "one log"
        assert a.history[-1] is c.history[-1]
        assert mine.state is not a.state, "a seat's view is its own (its hand)"
        monkeypatch.setattr(fold_module, "_SHARED_STEPS_KEPT", 0)  # no sharing: fold alone
        fold_module._SHARED_STEPS.clear()
        alone = _fold(streams[0])
        assert alone.state == a.state
        assert alone.state is not a.state
        assert [line.text for line in alone.log] == [line.text for line in a.log]
        assert alone.history == a.history
        assert alone.pending == a.pending
    finally:
        await hub.close()


async def test_a_viewer_whose_state_differs_folds_the_step_itself():
    """The key (table, perspective, state ids, names) is not trusted alone: a viewer takes a
    shared step only if its state before it is the one the step was folded onto."""
    hub, table_id = await _table()
    try:
        one = hub.watch(table_id, Identity(id="test:a", nickname="a"), None)
        two = hub.watch(table_id, Identity(id="test:b", nickname="b"), None)
        await _play(hub, table_id, 6)
        first, second = await _drain(one), await _drain(two)
        ahead = _fold(first)
        odd = TableFold.from_welcome(second[0])
        odd.state = ahead.state  # not the state this viewer folded to
        update = next(u for u in second[1:] if isinstance(u, StepUpdate))
        theirs = next(
            s for s in fold_module._SHARED_STEPS.values() if s.record[0] == update.state_id
        )
        odd.apply(update)
        assert odd.state is not theirs.after, "it did not take the others' step"
        assert odd.history[-1] is not theirs.record
        again = next(
            s for s in fold_module._SHARED_STEPS.values() if s.record[0] == update.state_id
        )
        assert again is theirs, "and it did not push the others' step out"
    finally:
        await hub.close()
