"""The machine registry (`net.machines`): which processes count as one machine, and what an
owner knows of the others, on a real redis-server. Every wait is bounded."""

from __future__ import annotations

import asyncio
import os

import redis.asyncio as aioredis

from net.machines import HEARTBEAT, Peers, machine_id, others
from tests.net.test_bus_hub import make_hub, until


def test_one_data_dir_is_one_machine_however_it_is_named(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    os.symlink(tmp_path / "a", tmp_path / "link")
    assert machine_id(tmp_path / "a") == machine_id(tmp_path / "a")
    assert machine_id(tmp_path / "link") == machine_id(tmp_path / "a")
    assert machine_id(tmp_path / "b") != machine_id(tmp_path / "a")
    assert machine_id(None) != machine_id(None)  # no data dir, no lock files: a machine alone
    assert "|" not in machine_id(tmp_path / "a")


def test_peers_keep_the_latest_answer_and_know_nothing_before_the_first():
    peers = Peers("m1", "w1", lease=1.0)
    assert not peers.alone  # not known yet: not alone (an owner would rather pause)
    peers.saw([b"m1|w1", b"m1|w2"], sent=2.0)
    assert peers.alone  # only this machine's own workers
    peers.saw([b"m1|w1", b"m2|w7"], sent=1.0)  # an older answer, arriving late: ignored
    assert peers.alone
    peers.saw(["m1|w1", "m2|w7"], sent=3.0)
    assert not peers.alone
    assert peers.others == {"m2"}
    assert others([b"a/b/1-2|w|x"], "a/b/1-2|w") == set()  # (the worker is after the last bar)


async def test_an_entry_expires_unless_renewed(redis_server):
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        await client.eval(HEARTBEAT, 1, "speedway:machines", "m2|w", 100)
        got = await client.eval(HEARTBEAT, 1, "speedway:machines", "m1|w", 60_000)
        assert others(got, "m1") == {"m2"}
        await asyncio.sleep(0.3)
        got = await client.eval(HEARTBEAT, 1, "speedway:machines", "m1|w", 60_000)
        assert others(got, "m1") == set()
        assert await client.zcard("speedway:machines") == 1  # (expired entries are dropped)
    finally:
        await client.aclose()


async def test_hubs_register_and_see_only_other_machines(redis_server, tmp_path):
    """Two hubs on one data dir are one machine: each is alone. A hub on a data dir of its own
    is another machine: both know of it at once (its claims and heartbeats register it), and
    once it closes (leaving the registry) the first is alone again."""
    a = make_hub(redis_server.url, tmp_path / "data", "wa")
    b = make_hub(redis_server.url, tmp_path / "data", "wb")
    c = make_hub(redis_server.url, tmp_path / "other", "wc")
    await a.start()
    await b.start()
    closed = False
    try:
        await until(lambda: a.peers.alone and b.peers.alone, "a and b alone (one machine)")
        await c.start()
        assert not c.peers.alone  # it saw a and b when it registered
        await until(lambda: not a.peers.alone, "a to see the other machine", seconds=5)
        assert a.peers.others == {c.peers.machine}
        await c.close()
        closed = True
        await until(lambda: a.peers.alone, "a alone again once c left", seconds=5)
    finally:
        if not closed:
            await c.close()
        await b.close()
        await a.close()
