"""Several server processes on one real Redis bus, played over real SSH with PTYs.

Each server is `tests.net.run_server` (the real `run_server`, Dash injected, the small
`tests.net.mini_app`) with ``--bus`` on a redis-server of the test's own, all sharing one data
dir as workers on one machine do. Two players on different servers race at one table while a
spectator follows from a third; the owner is SIGKILLed mid-race and the race goes on elsewhere;
Redis is restarted mid-race, or down for a while (the owner, alone on its machine, plays on);
every lobby shows the same table; the replay downloads from any server. 127.0.0.1 only, every wait bounded.
"""

from __future__ import annotations

import asyncio
import re
import signal

import asyncssh
import pytest

from tests.net.sshclient import T, Term, connect
from tests.net.test_e2e_process import ServerProcess

KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("Ann", "Bob", "Eve")}
LEASE = "1.5"


@pytest.fixture
def bus_servers(tmp_path, redis_server):
    started: list[ServerProcess] = []

    def start(lease: str = LEASE) -> ServerProcess:
        s = ServerProcess(tmp_path / "data", "--bus", redis_server.url, "--lease", lease)
        started.append(s)
        return s

    yield start
    for s in started:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait(timeout=15)
        s.log.close()
        if s.proc.stdout is not None:
            s.proc.stdout.close()


async def player(port: int, name: str, *, first: bool = True) -> tuple[object, Term]:
    conn = await connect(port, KEYS[name])
    term = await Term.open(conn)
    if first:
        await term.wait_for("Choose a nickname")
        term.send(name + "\r")
    await term.wait_for("HELLO")
    return conn, term


def states(term: Term) -> list[int]:
    return [int(n) for n in re.findall(r"TABLE state=(\d+)", term.text)]


async def at_state(term: Term, n: int, within: float = T) -> None:
    async def loop() -> None:
        while not (states(term) and states(term)[-1] >= n):
            term.changed.clear()
            await term.changed.wait()

    await asyncio.wait_for(loop(), within)


async def race_to_the_end(terms: dict[int, Term], watchers: list[Term], upto: int = 40) -> int:
    """Seat 0 and seat 1 roll in turn (Dash: at state s, seat s % 2 is asked) until it ends."""
    for _ in range(upto):
        everyone = [*terms.values(), *watchers]
        if all(re.search(r"TABLE state=\d+ CARDS .* OVER", t.text) for t in everyone):
            break
        s = states(terms[0])[-1]
        terms[s % 2].send("r")
        for t in everyone:
            try:
                await at_state(t, s + 1)
            except TimeoutError:
                shown = [(states(x)[-3:], x.text[-300:]) for x in everyone]
                raise AssertionError(f"state {s + 1} did not reach every screen: {shown}") from None
    await asyncio.wait_for(_over(watchers[0]), T)
    return states(watchers[0])[-1]


async def _over(term: Term) -> None:
    while "The race is over" not in term.text:
        term.changed.clear()
        await term.changed.wait()


async def start_race(s_ann: ServerProcess, s_bob: ServerProcess, s_eve: ServerProcess):
    ann, t_ann = await player(s_ann.port, "Ann")
    t_ann.send("o")  # a table with an open seat, owned by Ann's server
    await t_ann.wait_for("TABLE state=0")
    bob, t_bob = await player(s_bob.port, "Bob")
    await t_bob.wait_for("LOBBY tables=1 waiting=1")  # the other server's table, in this lobby
    t_bob.send("j")
    await t_bob.wait_for("TABLE state=0")
    eve, t_eve = await player(s_eve.port, "Eve")
    await t_eve.wait_for("LOBBY tables=1 waiting=0")
    t_eve.send("w")
    await t_eve.wait_for("TABLE state=0")
    for t in (t_ann, t_bob):
        await t.wait_for("LOBBY tables=1 waiting=0")
    return (ann, t_ann), (bob, t_bob), (eve, t_eve)


async def test_two_players_on_two_servers_race_with_a_spectator_on_a_third(bus_servers):
    s1, s2, s3 = bus_servers(), bus_servers(), bus_servers()
    (ann, t_ann), (bob, t_bob), (eve, t_eve) = await start_race(s1, s2, s3)
    end = await race_to_the_end({0: t_ann, 1: t_bob}, [t_eve])
    assert end >= 2
    for t in (t_ann, t_bob, t_eve):  # every step reached every screen, in order, none twice
        seen = states(t)
        assert seen == sorted(seen)
        assert set(range(seen[0], end + 1)) <= set(seen)
    assert re.search(r"CARDS \[None, None\]", t_eve.text)  # the spectator sees no hidden card
    assert not re.search(r"CARDS \[\d", t_eve.text)
    assert re.search(r"CARDS \[None, \d\]", t_bob.text)  # Bob sees his own card only
    # The replay: listed and downloaded from a server that never ran the table.
    for conn in (ann, bob, eve):
        conn.close()
    conn = await connect(s3.port, KEYS["Bob"])
    listing = ""
    for _ in range(50):
        listing = (await asyncio.wait_for(conn.run("replays"), T)).stdout
        if "dash-" in listing:
            break
        await asyncio.sleep(0.1)
    replay_id = listing.split()[0]
    got = await asyncio.wait_for(conn.run(f"replay {replay_id}", encoding=None), T)
    assert got.exit_status == 0
    assert got.stdout.startswith(b"\x89SPEEDWAY")
    conn.close()
    for s in (s1, s2, s3):
        assert s.stop() == 0


async def test_the_owner_killed_mid_race_the_race_goes_on_elsewhere(bus_servers):
    s1, s2, s3 = bus_servers(), bus_servers(), bus_servers()
    (ann, t_ann), (bob, t_bob), (eve, t_eve) = await start_race(s1, s2, s3)
    for _ in range(2):  # two acknowledged steps, seen by everyone
        s = states(t_ann)[-1]
        (t_ann if s % 2 == 0 else t_bob).send("r")
        for t in (t_ann, t_bob, t_eve):
            await at_state(t, s + 1)
    seen = states(t_eve)[-1]
    assert seen == 2
    s1.stop(signal.SIGKILL)  # the owner dies: Ann's session with it
    ann.close()
    # Another server takes the lease after it expires, restores the log; Ann comes back there.
    ann, t_ann = await player(s3.port, "Ann", first=False)
    await t_ann.wait_for(f"TABLE state={seen}", within=20)
    end = await race_to_the_end({0: t_ann, 1: t_bob}, [t_eve])
    assert end > seen
    for t in (t_bob, t_eve):  # the remote viewers resynced: every step once, in order
        shown = states(t)
        assert shown == sorted(shown)
        assert set(range(seen, end + 1)) <= set(shown)
    for conn in (ann, bob, eve):
        conn.close()
    assert s2.stop() == 0
    assert s3.stop() == 0


async def test_redis_restarted_mid_race_loses_nothing(bus_servers, redis_server):
    s1, s2 = bus_servers(), bus_servers()
    (ann, t_ann), (bob, t_bob), (eve, t_eve) = await start_race(s1, s2, s2)
    s = states(t_ann)[-1]
    t_ann.send("r")
    for t in (t_ann, t_bob, t_eve):
        await at_state(t, s + 1)
    await asyncio.to_thread(redis_server.restart)  # AOF brings back leases, lobby, streams
    end = await race_to_the_end({0: t_ann, 1: t_bob}, [t_eve])
    assert end > s + 1
    for t in (t_ann, t_bob, t_eve):
        seen = states(t)
        assert set(range(s + 1, end + 1)) <= set(seen)
    for conn in (ann, bob, eve):
        conn.close()
    assert s1.stop() == 0
    assert s2.stop() == 0


async def test_redis_down_the_owners_players_play_on_others_are_told_then_catch_up(
    bus_servers, redis_server
):
    # Both servers share one data dir: one machine, alone on the bus. Its lock files keep the
    # table with its owner, so the owner plays on however long Redis is down: no pause.
    s1, s2 = bus_servers(), bus_servers()
    (ann, t_ann), (bob, t_bob), (eve, t_eve) = await start_race(s1, s2, s2)
    assert states(t_ann)[-1] == 0  # Ann's move (seat 0), at her own server: the owner
    await asyncio.to_thread(redis_server.stop)
    await asyncio.sleep(3 * float(LEASE))  # long past the moment a fenced owner would pause
    t_ann.send("r")
    await at_state(t_ann, 1)  # accepted, logged and shown without the bus
    t_bob.send("s")  # Bob's server cannot reach the owner: told so in one sentence
    await t_bob.wait_for("REFUSED The shared server bus is unreachable just now")
    assert states(t_bob)[-1] == 0
    assert "paused" not in t_ann.text  # nothing alarming said at the owner
    assert "REFUSED" not in t_ann.text
    await asyncio.to_thread(redis_server.start)
    for t in (t_bob, t_eve):  # what the owner accepted meanwhile reaches them when it is back
        await at_state(t, 1, within=20)
    end = await race_to_the_end({0: t_ann, 1: t_bob}, [t_eve])
    assert end > 1
    assert "moved to another server" not in t_ann.text  # the owner kept its table
    assert "paused" not in t_ann.text
    for t in (t_ann, t_bob, t_eve):
        seen = states(t)
        assert seen == sorted(seen)
        assert set(range(0, end + 1)) <= set(seen)
    for conn in (ann, bob, eve):
        conn.close()
    assert s1.stop() == 0
    assert s2.stop() == 0


async def test_a_replay_downloads_from_a_machine_with_a_data_dir_of_its_own(tmp_path, redis_server):
    """Two servers with separate data dirs (two machines): the race is owned by the first, and
    the second, which never ran it and shares no folder with it, lists and serves its replay."""
    started = [
        ServerProcess(tmp_path / machine, "--bus", redis_server.url, "--lease", LEASE)
        for machine in ("a", "b")
    ]
    s1, s2 = started
    try:
        ann, t_ann = await player(s1.port, "Ann")
        t_ann.send("o")  # a table with an open seat, owned by the first machine
        await t_ann.wait_for("TABLE state=0")
        bob, t_bob = await player(s2.port, "Bob")
        await t_bob.wait_for("LOBBY tables=1 waiting=1")
        t_bob.send("j")
        await t_bob.wait_for("TABLE state=0")
        await race_to_the_end({0: t_ann, 1: t_bob}, [t_ann])
        bob.close()
        ann.close()
        conn = await connect(s2.port, KEYS["Ann"])
        listing = ""
        for _ in range(100):
            listing = (await asyncio.wait_for(conn.run("replays"), T)).stdout
            if "dash-" in listing:
                break
            await asyncio.sleep(0.1)
        replay_id = listing.split()[0]
        mine = (tmp_path / "a" / "replays" / f"{replay_id}.replay").read_bytes()
        got = await asyncio.wait_for(conn.run(f"replay {replay_id}", encoding=None), T)
        assert got.exit_status == 0
        assert got.stdout == mine  # byte for byte the first machine's verified replay
        assert not (tmp_path / "b" / "tables" / f"{replay_id}.log").exists()
        conn.close()
        for s in started:
            assert s.stop() == 0
    finally:
        for s in started:
            if s.proc.poll() is None:
                s.proc.kill()
                s.proc.wait(timeout=15)
            s.log.close()
            if s.proc.stdout is not None:
                s.proc.stdout.close()
