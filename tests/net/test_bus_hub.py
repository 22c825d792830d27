"""Two hubs on one real Redis bus, in one process: one lobby, play and watch across hubs.

Each `BusHub` has its own `LocalHub` over the same data dir (as workers on one machine) and its
own connections to a real redis-server (`tests.net.redis_server`). Every wait is bounded.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from core.game import StaleAction
from net.bus import Bus
from net.bus_hub import BusHub
from net.hub import HubError, Identity, Notice, SeatSpec, StepUpdate, TableSpec, Welcome
from net.local_hub import LocalHub
from net.log_mirror import LogMirror
from net.remote_watch import RemoteWatch
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll

ANN = Identity(id="SHA256:ann", nickname="Ann")
BOB = Identity(id="SHA256:bob", nickname="Bob")
EVE = Identity(id="SHA256:eve", nickname="Eve")


def make_hub(url: str, data: Path, name: str, *, mirror: bool = False) -> BusHub:
    copy = LogMirror(url) if mirror else None
    local = LocalHub(
        data,
        games={"dash": DASH},
        bot_delay=0.0,
        lobby_interval=0.0,
        restore=False,
        network=False,
        mirror=copy,
    )
    bus = Bus(url, worker=name, lease=1.0)
    return BusHub(local, bus, game=local.find_game, lobby_interval=0.0, mirror=copy)


async def until(check: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@pytest.fixture
async def two(redis_server, tmp_path) -> AsyncIterator[tuple[BusHub, BusHub]]:
    a = make_hub(redis_server.url, tmp_path / "data", "wa")
    b = make_hub(redis_server.url, tmp_path / "data", "wb")
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


def two_humans() -> TableSpec:
    return TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")])


async def test_a_table_made_on_one_hub_is_in_the_other_lobby_and_playable_from_it(two):
    a, b = two
    tid = await a.create_table(two_humans(), ANN)
    await until(lambda: [t.id for t in b.tables(BOB)] == [tid], "b's lobby to show the table")
    await b.take_seat(tid, 1, BOB)  # a request to the owner, a
    assert a.local.table(tid).seats[1].identity == BOB.id
    with pytest.raises(HubError) as taken:
        await b.take_seat(tid, 1, EVE)
    assert taken.value.kind == "seat-taken"  # the owner's refusal, with its kind, crosses over
    watch = b.watch(tid, BOB, 1)
    updates = aiter(watch)
    welcome = await asyncio.wait_for(anext(updates), 5)
    assert isinstance(welcome, Welcome)
    assert welcome.seat == 1
    table = a.local.table(tid)
    assert welcome.state_id == table.state_id
    with pytest.raises(StaleAction):
        await b.submit(tid, BOB, 1, Roll(), table.state_id + 5)
    # Ann plays on a (her own hub), Bob's remote viewer sees the step, typed as Dash events.
    await a.submit(tid, ANN, 0, Roll(), table.state_id)
    step = None
    while not isinstance(step, StepUpdate):
        step = await asyncio.wait_for(anext(updates), 5)
    assert step.state_id == table.state_id
    assert type(step.events[0]).__module__ == "tests.fakegame"
    await watch.close()


@pytest.mark.parametrize("machines", ["one data dir", "two machines"])
async def test_the_owner_dying_moves_the_table_to_the_other_hub_with_nothing_lost(
    redis_server, tmp_path, machines
):
    """One machine: b restores from the shared data dir. Two machines (two data dirs): b
    restores from the copy of a's files in Redis (`net.log_mirror`)."""
    two = machines == "two machines"
    a = make_hub(redis_server.url, tmp_path / "a", "wa", mirror=two)
    b = make_hub(redis_server.url, tmp_path / ("b" if two else "a"), "wb", mirror=two)
    await a.start()
    await b.start()
    try:
        tid = await a.create_table(two_humans(), ANN)
        await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
        await b.take_seat(tid, 1, BOB)
        table = a.local.table(tid)
        await a.submit(tid, ANN, 0, Roll(), table.state_id)
        acknowledged = [s.state_id for s in table.history]
        # a dies as a SIGKILL would: its tasks stop, nothing is released or flushed.
        for task in a._tasks:
            task.cancel()
        await asyncio.to_thread(a._leases.stop)  # its lease keeper thread dies with it
        a.local._store.close_all()  # and the kernel closes its files (and lets go of its locks)
        for room in a.local.rooms():
            if room.task is not None:
                room.task.cancel()
        await until(lambda: b.local.has(tid), "b to take the table over", seconds=10)
        moved = b.local.table(tid)
        assert [s.state_id for s in moved.history] == acknowledged
        if two:  # b's own disk now holds the log it got from Redis, the same bytes as a's
            log_a = (tmp_path / "a" / "tables" / f"{tid}.log").read_bytes()
            log_b = (tmp_path / "b" / "tables" / f"{tid}.log").read_bytes()
            assert log_b[: len(log_a)] == log_a
        pending = moved.pending()
        await b.submit(tid, BOB if pending[0] == 1 else ANN, pending[0], Roll(), moved.state_id)
        assert moved.state_id == acknowledged[-1] + 1
    finally:
        await b.close()
        await a.bus.close()


async def test_a_refusal_when_the_table_moves_here_is_a_notice_not_an_exception(
    redis_server, tmp_path
):
    """A guest's seat opens when its table's owner dies (a guest keeps no seat across a
    restart): the remote viewer that follows the table here is refused that seat, and says so in
    one sentence instead of raising out of the stream (a crash of the player's screen)."""
    guest = Identity(id="guest:bob", nickname="Bob", guest=True)
    a = make_hub(redis_server.url, tmp_path / "data", "wa")
    b = make_hub(redis_server.url, tmp_path / "data", "wb")
    await a.start()
    await b.start()
    try:
        tid = await a.create_table(two_humans(), ANN)
        await until(lambda: bool(b.tables(guest)), "the table in b's lobby")
        await b.take_seat(tid, 1, guest)
        watch = b.watch(tid, guest, 1)
        updates = aiter(watch)
        assert isinstance(await asyncio.wait_for(anext(updates), 5), Welcome)
        # a dies as a SIGKILL would (as in the test above); b takes the table over.
        for task in a._tasks:
            task.cancel()
        await asyncio.to_thread(a._leases.stop)
        a.local._store.close_all()
        for room in a.local.rooms():
            if room.task is not None:
                room.task.cancel()
        rest = []
        async with asyncio.timeout(15):
            async for update in updates:  # ends, with nothing raised
                rest.append(update)
        assert b.local.has(tid)
        assert b.local.info(tid).seats[1].identity is None  # the guest's seat opened
        assert isinstance(rest[-1], Notice)
        assert rest[-1].text == "You do not hold seat 2 at this table."
        await watch.close()
    finally:
        await b.close()
        await a.bus.close()


async def test_a_table_gone_from_the_lobby_while_its_owner_is_found_is_a_notice(two):
    """Between finding a table's owner and reading its game the table can leave the lobby (it
    ended and went): no table, said in one sentence, not a KeyError out of the stream."""
    a, b = two
    tid = await a.create_table(two_humans(), ANN)
    await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
    real = b.owner_of

    async def owner_then_gone(table_id: str) -> str:
        owner = await real(table_id)
        b._remote.pop(table_id, None)  # the lobby lost it meanwhile
        return owner

    b.owner_of = owner_then_gone
    watch = RemoteWatch(b, tid, BOB, None, None)
    seen = []
    async with asyncio.timeout(10):
        async for update in watch:  # ends, with nothing raised
            seen.append(update)
    assert seen == [Notice(text=f"There is no table {tid!r}.")]
    await watch.close()


async def test_a_gap_in_a_remote_viewers_stream_makes_it_resync_from_a_fresh_welcome(two):
    a, b = two
    tid = await a.create_table(two_humans(), ANN)
    await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
    await b.take_seat(tid, 1, BOB)
    watch = b.watch(tid, BOB, 1)
    updates = aiter(watch)
    first = await asyncio.wait_for(anext(updates), 5)
    assert isinstance(first, Welcome)
    table = a.local.table(tid)
    await a.submit(tid, ANN, 0, Roll(), table.state_id)
    # An entry numbered out of order (as if one were lost) lands in the viewer's stream.
    await b.bus.view_put(watch._viewer, 99, b"")
    seen: list[object] = []
    while not (seen and isinstance(seen[-1], Welcome)):
        seen.append(await asyncio.wait_for(anext(updates), 5))
    again = seen[-1]
    assert again.state_id == table.state_id  # the fresh snapshot has the step: nothing lost
    await watch.close()


async def test_every_hub_lists_the_same_tables_and_forgets_one_that_goes(redis_server, tmp_path):
    hubs = [make_hub(redis_server.url, tmp_path / "data", f"w{i}") for i in range(3)]
    for h in hubs:
        await h.start()
    try:
        owners = zip(hubs, (ANN, BOB, EVE), strict=True)
        made = [await h.create_table(two_humans(), who) for h, who in owners]

        def listed(h: BusHub) -> set[str]:
            return {t.id for t in h.tables(ANN)}

        await until(lambda: all(listed(h) == set(made) for h in hubs), "one lobby everywhere")
        await hubs[2].take_seat(made[0], 1, EVE)  # at Ann's table, owned by hubs[0]

        def eve_seated(h: BusHub) -> bool:
            info = next(t for t in h.tables(ANN) if t.id == made[0])
            return info.seats[1].identity == EVE.id and info.status == "running"

        await until(lambda: all(eve_seated(h) for h in hubs), "the seat taken, in every lobby")
        await hubs[1].leave(made[1], BOB)  # Bob's waiting table loses its last player: gone
        await until(
            lambda: all(listed(h) == {made[0], made[2]} for h in hubs), "the table gone everywhere"
        )
    finally:
        for h in hubs:
            await h.close()
