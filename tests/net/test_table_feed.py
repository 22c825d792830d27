"""One stream per table per worker (`net.table_feed`): spectators on a hub that does not own
the table share one stream from the owner, fanned out; a spectator joining mid-race gets the
snapshot plus what follows, gap-free; a gap in the shared stream resyncs every session; a
table that moves here is followed locally. Two `BusHub`s on a real redis-server, one process.
"""

from __future__ import annotations

import asyncio

import pytest

from net.hub import Identity, SeatSpec, StepUpdate, TableSpec, Welcome
from net.remote_watch import RemoteWatch
from net.table_feed import FeedWatch
from tests.fakegame import Roll
from tests.net.test_bus_hub import ANN, BOB, EVE, make_hub, until

SPECTATORS = [Identity(id=f"SHA256:s{i}", nickname=f"S{i}") for i in range(3)]


@pytest.fixture
async def two(redis_server, tmp_path):
    a = make_hub(redis_server.url, tmp_path / "data", "wa")
    b = make_hub(redis_server.url, tmp_path / "data", "wb")
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def running_table(a, b) -> str:
    spec = TableSpec(
        game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], options={"goal": 200}
    )
    tid = await a.create_table(spec, ANN)
    await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
    await b.take_seat(tid, 1, BOB)
    await until(lambda: b.tables(EVE)[0].status == "running", "the running table in b's lobby")
    return tid


async def next_of(updates, kind, within: float = 5.0):
    while True:
        u = await asyncio.wait_for(anext(updates), within)
        if isinstance(u, kind):
            return u


async def play(a, tid: str, steps: int) -> None:
    table = a.local.table(tid)
    for _ in range(steps):
        seat = table.pending()[0]
        await a.local.submit(tid, ANN if seat == 0 else BOB, seat, Roll(), table.state_id)


def local_welcome(a, tid: str) -> Welcome:
    """What a spectator at the owner itself would be welcomed with now."""
    viewer = a.local.watch(tid, EVE, None)
    welcome = viewer._items[0]
    assert isinstance(welcome, Welcome)
    asyncio.get_running_loop().create_task(viewer.close())
    return welcome


async def test_spectators_on_another_hub_share_one_stream_and_are_all_counted(two):
    a, b = two
    tid = await running_table(a, b)
    before = len(a.desk._viewers)
    watches = [b.watch(tid, who, None) for who in SPECTATORS]
    streams = [aiter(w) for w in watches]
    for s in streams:
        assert isinstance(await asyncio.wait_for(anext(s), 5), Welcome)
    assert len(a.desk._viewers) == before + 1  # one stream at the owner for all three
    await until(lambda: a.local.info(tid).spectators == 3, "the owner counting 3 spectators")
    await until(lambda: b.tables(EVE)[0].spectators == 3, "b's lobby counting them")
    await play(a, tid, 2)
    got = [await next_of(s, StepUpdate) for s in streams]
    assert len({id(u) for u in got}) == 1  # the very same update, fanned out
    await watches[0].close()
    await until(lambda: a.local.info(tid).spectators == 2, "one spectator fewer")
    for w in watches[1:]:
        await w.close()
    await until(lambda: len(a.desk._viewers) == before, "the shared stream closed")
    assert b.feeds.feed(tid) is None


async def test_a_spectator_joining_mid_race_gets_the_snapshot_then_every_step(two):
    a, b = two
    tid = await running_table(a, b)
    first = b.watch(tid, SPECTATORS[0], None)
    s0 = aiter(first)
    await next_of(s0, Welcome)
    await play(a, tid, 3)
    table = a.local.table(tid)
    feed = b.feeds.feed(tid)
    await until(lambda: feed.state_id == table.state_id, "the feed to fold every step")
    late = b.watch(tid, SPECTATORS[1], None)
    s1 = aiter(late)
    welcome = await next_of(s1, Welcome)
    want = local_welcome(a, tid)
    assert welcome.state_id == want.state_id == table.state_id
    assert welcome.events == want.events  # the same snapshot a local spectator gets
    assert welcome.table.state_id == want.table.state_id
    await play(a, tid, 1)
    step = await next_of(s1, StepUpdate)
    assert step.state_id == welcome.state_id + 1  # no gap between snapshot and stream
    await first.close()
    await late.close()


async def test_a_gap_in_the_shared_stream_resyncs_every_session(two):
    a, b = two
    tid = await running_table(a, b)
    watches = [b.watch(tid, who, None) for who in SPECTATORS[:2]]
    streams = [aiter(w) for w in watches]
    for s in streams:
        await next_of(s, Welcome)
    feed = b.feeds.feed(tid)
    await play(a, tid, 1)
    for s in streams:
        await next_of(s, StepUpdate)
    await b.bus.view_put(feed.remote._viewer, 99, b"")  # an entry out of order
    table = a.local.table(tid)
    for s in streams:
        again = await next_of(s, Welcome)
        assert again.state_id == table.state_id
    await play(a, tid, 1)
    for s in streams:
        assert (await next_of(s, StepUpdate)).state_id == table.state_id
    for w in watches:
        await w.close()


async def test_a_table_that_moves_here_is_followed_locally_by_every_spectator(
    redis_server, tmp_path
):
    a = make_hub(redis_server.url, tmp_path / "data", "wa")
    b = make_hub(redis_server.url, tmp_path / "data", "wb")
    await a.start()
    await b.start()
    try:
        tid = await running_table(a, b)
        watches = [b.watch(tid, who, None) for who in SPECTATORS[:2]]
        streams = [aiter(w) for w in watches]
        for s in streams:
            await next_of(s, Welcome)
        for task in a._tasks:  # a dies as a SIGKILL would
            task.cancel()
        await asyncio.to_thread(a._leases.stop)
        a.local._store.close_all()
        for room in a.local.rooms():
            if room.task is not None:
                room.task.cancel()
        await until(lambda: b.local.has(tid), "b to take the table over", seconds=10)
        moved = b.local.table(tid)
        for s in streams:  # each spectator is a local viewer of b now
            welcome = await next_of(s, Welcome, within=10)
            assert welcome.state_id == moved.state_id
        await until(lambda: b.local.info(tid).spectators == 2, "b counting both")
        seat = moved.pending()[0]
        await b.local.submit(tid, ANN if seat == 0 else BOB, seat, Roll(), moved.state_id)
        for s in streams:
            assert (await next_of(s, StepUpdate)).state_id == moved.state_id
        for w in watches:
            await w.close()
    finally:
        await b.close()
        await a.bus.close()


async def test_a_seat_a_private_table_and_a_player_in_the_stands_keep_streams_of_their_own(two):
    a, b = two
    tid = await running_table(a, b)
    spectator = b.watch(tid, SPECTATORS[0], None)
    seat = b.watch(tid, BOB, 1)  # Bob's own seat: his card is his
    stands = b.watch(tid, BOB, None)  # Bob, who plays here, watching as a spectator
    assert isinstance(spectator, FeedWatch)
    assert isinstance(seat, RemoteWatch)
    assert isinstance(stands, RemoteWatch)
    private = await a.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], private=True),
        ANN,
    )
    code = a.local.invite_code(private, ANN)
    for _ in range(100):  # (the code reaches Redis with a's next lobby publish)
        if await b.bus.code(code) == private:
            break
        await asyncio.sleep(0.05)
    await b.join_private(code, EVE)
    await until(lambda: any(t.id == private for t in b.tables(EVE)), "the private table at b")
    invited = b.watch(private, EVE, None)
    assert isinstance(invited, RemoteWatch)  # its title may show the code: never shared
    for w in (spectator, seat, stands, invited):
        assert isinstance(await next_of(aiter(w), Welcome), Welcome)
        await w.close()
