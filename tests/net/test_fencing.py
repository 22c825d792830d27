"""Fencing across machines (`net.leases`, `net.log_mirror`, `BusHub._fence`), on a real
redis-server: hub A reaches Redis through a TCP proxy the test cuts (a machine cut off from a
Redis the others still reach), hub B directly; separate data dirs, so B restores from the copy
in Redis. A stops taking steps before its lease can lapse, with a sentence to its players; B
takes the table over; A, back on the bus, finds the epoch moved on and lets the table go; and a
write of A's under its old epoch is refused by Redis itself.

A pauses only because another machine is in the registry (`net.machines`): on one machine
(hubs sharing one data dir, so one machine id), the owner cut off from Redis, or Redis stopped
for everyone, plays on, its lock files keeping the table its own; back on the bus, under the
same epoch, nothing is lost. Every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import pytest
import redis.asyncio as aioredis

from net.hub import HubError, Notice, SeatSpec, StepUpdate, TableSpec
from net.local_hub import PAUSED
from net.log_mirror import Fenced
from net.machines import HEARTBEAT
from tests.fakegame import Roll
from tests.net.chaos_proxy import ChaosProxy
from tests.net.test_bus_hub import ANN, BOB, make_hub, until


def long_race() -> TableSpec:
    return TableSpec(
        game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], options={"goal": 200}
    )


async def step(hub, tid: str) -> None:
    table = hub.local.table(tid)
    seat = table.pending()[0]
    await hub.local.submit(tid, ANN if seat == 0 else BOB, seat, Roll(), table.state_id)


def notices(viewer) -> list[str]:
    return [u.text for u in viewer._items if isinstance(u, Notice)]


async def another_machine(url: str) -> None:
    """A process of another machine, live in the registry (it reaches Redis; it claims
    nothing): an owner that is cut off from Redis must then pause."""
    client = aioredis.Redis.from_url(url)
    try:
        await client.eval(HEARTBEAT, 1, "speedway:machines", "elsewhere/b00t/1-2|wz", 600_000)
    finally:
        await client.aclose()


async def stored(hub, tid: str) -> bytes:
    """The table's log as its copy in Redis has it."""
    data = b""
    for _id, fields in await hub.bus.redis.xrange(f"speedway:tables:{tid}:log"):
        data += fields[b"data"]
    return data


class ThreadedProxy:
    """A `ChaosProxy` on an event loop of its own thread: the hub's synchronous Redis clients
    (the lease keeper, the log mirror) may block the test's loop, never the proxy's."""

    def __init__(self, target_port: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.proxy = ChaosProxy(target_port)
        self.port = self._run(self.proxy.start())

    def _run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def _call(self, fn) -> None:
        async def call() -> None:
            fn()

        self._run(call())

    def partition(self) -> None:
        def cut() -> None:
            self.proxy.faults.frozen.set()  # new connections hang, as to an unreachable host
            self.proxy.cut()

        self._call(cut)

    def heal(self) -> None:
        def mend() -> None:
            self.proxy.faults.frozen.clear()
            self.proxy.cut()  # (the hung ones end; the clients connect again)

        self._call(mend)

    def close(self) -> None:
        self.heal()
        self._run(self.proxy.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def proxy(redis_server):
    p = ThreadedProxy(redis_server.port)
    yield p
    p.close()


@contextlib.asynccontextmanager
async def behind_proxy(proxy, redis_server, tmp_path):
    """Hub a, reaching Redis through ``proxy``, owns a long race of ANN and BOB; another
    machine is live in the registry (so a cut-off a must not play on alone)."""
    await another_machine(redis_server.url)
    a = make_hub(f"redis://127.0.0.1:{proxy.port}/0", tmp_path / "a", "wa", mirror=True)
    await a.start()
    try:
        tid = await a.create_table(long_race(), ANN)
        await a.local.take_seat(tid, 1, BOB)
        yield a, tid
    finally:
        await a.close()


async def test_a_cut_off_owner_pauses_then_plays_on_when_the_bus_is_back(
    proxy, redis_server, tmp_path
):
    async with behind_proxy(proxy, redis_server, tmp_path) as (a, tid):
        await step(a, tid)
        seen = a.local.watch(tid, ANN, 0)
        proxy.partition()
        room = next(r for r in a.local.rooms() if r.id == tid)
        await until(lambda: room.stopped == PAUSED, "the table paused", seconds=5)
        with pytest.raises(HubError) as refused:
            await step(a, tid)
        assert refused.value.kind == "table-stopped"
        assert "lost touch with the shared bus" in str(refused.value)
        assert any(n.startswith("This table is paused") for n in notices(seen))
        proxy.heal()
        await until(lambda: room.stopped is None, "play to go on", seconds=10)
        assert "The shared bus answers again: play goes on." in notices(seen)
        before = a.local.table(tid).state_id
        await step(a, tid)  # accepted again, under the same epoch
        assert a.local.table(tid).state_id == before + 1
        await seen.close()


def shown(viewer) -> list[int]:
    return [u.state_id for u in viewer._items if isinstance(u, StepUpdate)]


async def test_a_step_whose_copy_cannot_reach_redis_is_withheld_until_it_can(
    proxy, redis_server, tmp_path
):
    """Another machine is live, so it could take the table over from the copy in Redis: a
    step accepted just as the owner is cut off, whose copy fails, is not acknowledged (the
    mover is told, nobody is shown it, the table pauses); once the bus answers, the copy gets
    it first, then everyone sees it and play goes on."""
    async with behind_proxy(proxy, redis_server, tmp_path) as (a, tid):
        await until(lambda: not a.peers.alone, "the other machine in a's registry")
        await step(a, tid)
        seen = a.local.watch(tid, ANN, 0)
        room = next(r for r in a.local.rooms() if r.id == tid)
        proxy.partition()
        with pytest.raises(HubError) as refused:
            await step(a, tid)  # accepted, on disk; its copy cannot reach Redis
        assert refused.value.kind == "table-stopped"
        assert "Your move is kept, but not shown yet" in str(refused.value)
        assert room.withheld
        assert room.stopped == PAUSED
        held = a.local.table(tid).state_id
        assert held not in shown(seen)
        assert any(n.startswith("This table is paused") for n in notices(seen))
        with pytest.raises(HubError):  # and nothing more is taken meanwhile
            await step(a, tid)
        assert a.local.table(tid).state_id == held
        proxy.heal()
        await until(lambda: room.stopped is None, "play to go on", seconds=10)
        assert not room.withheld
        assert shown(seen)[-1] == held  # shown now, once
        assert shown(seen).count(held) == 1
        log = tmp_path / "a" / "tables" / f"{tid}.log"
        assert await stored(a, tid) == log.read_bytes()  # in Redis before anyone saw it
        await step(a, tid)
        assert a.local.table(tid).state_id == held + 1
        await seen.close()


async def test_the_table_moves_to_the_machine_that_reaches_redis_and_the_old_owner_lets_go(
    proxy, redis_server, tmp_path
):
    a = make_hub(f"redis://127.0.0.1:{proxy.port}/0", tmp_path / "a", "wa", mirror=True)
    b = make_hub(redis_server.url, tmp_path / "b", "wb", mirror=True)
    await a.start()
    await b.start()
    try:
        tid = await a.create_table(long_race(), ANN)
        await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
        await b.take_seat(tid, 1, BOB)
        await step(a, tid)
        await step(a, tid)
        acknowledged = a.local.table(tid).state_id
        old_epoch = a.mirror.tokens[tid]
        seen = a.local.watch(tid, ANN, 0)
        proxy.partition()
        await until(lambda: b.local.has(tid), "b to take the table over", seconds=15)
        moved = b.local.table(tid)
        assert moved.state_id == acknowledged  # from the copy in Redis: nothing lost
        assert b.mirror.tokens[tid] > old_epoch  # a newer fencing token
        with pytest.raises(HubError):  # a took no step since it paused (before the lapse)
            await step(a, tid)
        await step(b, tid)
        proxy.heal()
        await until(lambda: not a.local.has(tid), "a to let the table go", seconds=10)
        assert "This table moved to another server; reopen it from the lobby." in notices(seen)
        # A write under the old epoch (a stale owner's) is refused by Redis itself.
        a.mirror.tokens[tid] = old_epoch
        with pytest.raises(Fenced):
            a.mirror.files(tid, {"meta": b"{}"})
        meta = await b.bus.redis.get(f"speedway:tables:{tid}:meta")
        assert meta == (tmp_path / "b" / "tables" / f"{tid}.meta").read_bytes()
        await seen.close()
    finally:
        await b.close()
        await a.close()


async def test_a_step_under_a_stale_epoch_is_refused_and_never_shown(redis_server, tmp_path):
    """Renewals paused (a stalled keeper) while a's connection works: b takes the table over;
    a step that a still tries (its pause lifted by hand, as if it raced the lapse) is written
    to a's disk but refused by Redis: the table stops there, the step reaches no screen."""
    a = make_hub(redis_server.url, tmp_path / "a", "wa", mirror=True)
    b = make_hub(redis_server.url, tmp_path / "b", "wb", mirror=True)
    await a.start()
    await b.start()
    try:
        tid = await a.create_table(long_race(), ANN)
        await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
        await b.take_seat(tid, 1, BOB)
        await step(a, tid)
        acknowledged = a.local.table(tid).state_id
        seen = a.local.watch(tid, ANN, 0)
        a._leases.paused.set()
        await until(lambda: b.local.has(tid), "b to take the table over", seconds=15)
        assert b.local.table(tid).state_id == acknowledged
        room = next(r for r in a.local.rooms() if r.id == tid)
        assert room.stopped == PAUSED
        room.stopped = None  # (as if the step had raced the pause)
        a._paused.discard(tid)
        with pytest.raises(HubError) as refused:
            await step(a, tid)
        assert "another server has taken this table over" in str(refused.value)
        await asyncio.sleep(0.2)
        assert not any(isinstance(u, StepUpdate) for u in seen._items)  # never shown
        await until(lambda: not a.local.has(tid), "a to let the table go", seconds=5)
        await step(b, tid)  # b plays on from what was acknowledged
        assert b.local.table(tid).state_id == acknowledged + 1
        await seen.close()
    finally:
        await b.close()
        await a.close()


async def test_on_one_machine_a_stalled_owner_is_not_taken_over_and_plays_on(
    redis_server, tmp_path
):
    """One data dir (workers of one machine): a's renewals stall, its lease lapses, but a still
    holds the table's lock file, so b neither claims the lease (no new epoch) nor restores the
    table; a, with no other machine on the bus, never pauses: it takes steps all along, and
    renews again under its own epoch."""
    a = make_hub(redis_server.url, tmp_path / "data", "wa", mirror=True)
    b = make_hub(redis_server.url, tmp_path / "data", "wb", mirror=True)
    await a.start()
    await b.start()
    try:
        assert a.peers.machine == b.peers.machine
        tid = await a.create_table(long_race(), ANN)
        await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
        await b.take_seat(tid, 1, BOB)
        epoch = a.mirror.tokens[tid]
        seen = a.local.watch(tid, ANN, 0)
        a._leases.paused.set()
        room = next(r for r in a.local.rooms() if r.id == tid)
        before = a.local.table(tid).state_id
        for _ in range(6):  # three leases, long past the lapse: b would have taken it
            await asyncio.sleep(b.bus.lease / 2)
            await step(a, tid)
            assert room.stopped is None
        assert a.local.table(tid).state_id == before + 6
        assert not b.local.has(tid)
        assert await b.bus.redis.get(f"speedway:fence:{tid}") == str(epoch).encode()
        a._leases.paused.clear()
        await until_owner(a, tid)
        await step(a, tid)
        assert a.mirror.tokens[tid] == epoch
        assert not any("paused" in n for n in notices(seen))
        await seen.close()
    finally:
        await b.close()
        await a.close()


async def until_owner(hub, tid: str, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while await hub.bus.owner(tid) != hub.bus.worker:
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {hub.bus.worker} to hold {tid}")
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("machines", ["one machine", "two machines"])
async def test_redis_stopped_mid_race_the_owner_plays_on_alone_and_nothing_is_lost(
    redis_server, tmp_path, machines
):
    """Redis stopped for everyone, mid-race. One machine (two hubs on one data dir): the
    owner's table keeps taking steps, long past its lease, with nothing said; two machines
    (two data dirs, both in the registry): the owner pauses with its sentence. Redis back: the
    owner renews under the same epoch, the copy in Redis catches up with every step accepted
    meanwhile, and play goes on, from the other hub too."""
    two = machines == "two machines"
    a = make_hub(redis_server.url, tmp_path / "a", "wa", mirror=True)
    b = make_hub(redis_server.url, tmp_path / ("b" if two else "a"), "wb", mirror=True)
    await a.start()
    await b.start()
    try:
        assert (a.peers.machine != b.peers.machine) is two
        tid = await a.create_table(long_race(), ANN)
        await a.local.take_seat(tid, 1, BOB)
        await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
        await step(a, tid)
        await step(a, tid)
        epoch = a.mirror.tokens[tid]
        seen = a.local.watch(tid, ANN, 0)
        room = next(r for r in a.local.rooms() if r.id == tid)
        acknowledged = a.local.table(tid).state_id
        await asyncio.to_thread(redis_server.stop)
        if two:
            await until(lambda: room.stopped == PAUSED, "the table paused", seconds=5)
            with pytest.raises(HubError):
                await step(a, tid)
            assert any(n.startswith("This table is paused") for n in notices(seen))
            await asyncio.sleep(a.bus.lease)
        else:
            for _ in range(6):  # three leases: long past the moment it would have paused
                await asyncio.sleep(a.bus.lease / 2)
                await step(a, tid)
                acknowledged += 1
                assert room.stopped is None
            assert not any("paused" in n for n in notices(seen))
        assert a.local.table(tid).state_id == acknowledged
        await asyncio.to_thread(redis_server.start)
        await until_owner(a, tid)
        await until(lambda: room.stopped is None, "play to go on", seconds=10)
        assert await a.bus.redis.get(f"speedway:fence:{tid}") == str(epoch).encode()
        assert a.mirror.tokens[tid] == epoch
        assert not b.local.has(tid)
        await step(a, tid)  # accepted under the same epoch; its copy carries what was missing
        acknowledged += 1
        log = tmp_path / "a" / "tables" / f"{tid}.log"
        for _ in range(200):
            if await stored(a, tid) == log.read_bytes():
                break
            await asyncio.sleep(0.05)
        assert await stored(a, tid) == log.read_bytes()  # nothing acknowledged only on disk
        table = a.local.table(tid)
        assert table.state_id == acknowledged
        seat = table.pending()[0]  # a move from the other hub, through the bus: play goes on
        await b.submit(tid, ANN if seat == 0 else BOB, seat, Roll(), table.state_id)
        assert a.local.table(tid).state_id == acknowledged + 1
        if two:
            assert "The shared bus answers again: play goes on." in notices(seen)
        assert not any("moved to another server" in n for n in notices(seen))
        await seen.close()
    finally:
        await b.close()
        await a.close()


async def test_a_machine_that_joins_while_a_lone_owner_is_cut_off_may_take_the_table(
    proxy, redis_server, tmp_path
):
    """The case the registry cannot see (README, "What fencing does not save"): a, alone on the
    bus, is cut off and plays on; b, a machine that joins meanwhile, takes the lapsed table over
    from the copy in Redis; a, back on the bus, finds the epoch moved on and lets the table go,
    with its sentence, and accepts nothing more there."""
    a = make_hub(f"redis://127.0.0.1:{proxy.port}/0", tmp_path / "a", "wa", mirror=True)
    await a.start()
    b = make_hub(redis_server.url, tmp_path / "b", "wb", mirror=True)
    try:
        tid = await a.create_table(long_race(), ANN)
        await a.local.take_seat(tid, 1, BOB)
        await step(a, tid)
        assert a.peers.alone
        copied = a.local.table(tid).state_id
        assert a.mirror.lagging() == []  # (its copy in Redis has the step)
        deadline = asyncio.get_running_loop().time() + 10
        while not await a.bus.redis.hexists("speedway:lobby", tid):  # (b will find it there)
            assert asyncio.get_running_loop().time() < deadline, "the table in the lobby"
            await asyncio.sleep(0.02)
        seen = a.local.watch(tid, ANN, 0)
        proxy.partition()
        await asyncio.sleep(a.bus.lease)
        await step(a, tid)  # past the lapse: a plays on (nobody else was on the bus)
        await b.start()
        await until(lambda: b.local.has(tid), "b to take the lapsed table over", seconds=15)
        assert b.local.table(tid).state_id == copied  # what reached Redis before the cut
        proxy.heal()
        await until(lambda: not a.local.has(tid), "a to let the table go", seconds=10)
        assert "This table moved to another server; reopen it from the lobby." in notices(seen)
        await step(b, tid)
        assert b.local.table(tid).state_id == copied + 1
        await seen.close()
    finally:
        await b.close()
        await a.close()


def test_a_lease_keeper_whose_event_loop_closed_stops_itself(redis_server):
    """A keeper outliving its hub (never stopped) would renew and heartbeat for ever."""
    import time

    from net.leases import LeaseKeeper

    loop = asyncio.new_event_loop()
    keeper = LeaseKeeper(
        redis_server.url,
        worker="wx",
        lease=0.3,
        key=lambda *parts: "speedway:" + ":".join(parts),
        lost=lambda _t: None,
        loop=loop,
    )
    keeper.start()
    loop.close()
    deadline = time.monotonic() + 5
    while keeper._thread.is_alive():
        assert time.monotonic() < deadline, "the keeper still runs"
        time.sleep(0.05)
    keeper.stop()
