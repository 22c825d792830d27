"""Network faults between a real SSH client and the real server (tests/net/chaos_proxy.py):
latency with jitter, throttling and fragmented writes still play; a player cut after N bytes
or reset keeps the seat and resumes; a client that stops reading is dropped and keeps the seat;
a hung client is dropped within the keepalive bound; other viewers keep receiving throughout;
the table log never holds a torn record. 127.0.0.1 only, every wait bounded."""

from __future__ import annotations

import asyncio
import time

from replays.format import scan
from tests.net.chaos_proxy import ChaosProxy, Faults
from tests.net.sshclient import T, Term, connect
from tests.net.test_server import KEY_A, KEY_B, _until, join, start  # noqa: F401 - fixture

COUNTS = {"faults": 0, "resumed": 0}


async def _through(proxy: ChaosProxy, key, nickname: str | None = None) -> tuple[object, Term]:
    conn = await connect(proxy.port, key)
    term = await Term.open(conn)
    if nickname is not None:
        await term.wait_for("Choose a nickname")
        term.send(nickname + "\r")
    return conn, term


def _clean_log(server, table_id: str) -> None:
    data = (server.data_dir / "tables" / f"{table_id}.log").read_bytes()
    result = scan(data)
    assert result.truncated_at is None  # no torn record
    assert result.good_end == len(data)


async def _spectator(server) -> tuple[object, Term]:
    conn, term = await join(server, KEY_B, "Bob")
    await term.wait_for("HELLO Bob")
    term.send("w")
    await term.wait_for("TABLE state=")
    return conn, term


async def test_latency_jitter_throttle_and_fragments_still_play(start):  # noqa: F811
    server = await start()
    proxy = ChaosProxy(server.port, Faults(latency=0.02, jitter=0.03, rate=64 * 1024, fragment=7))
    await proxy.start()
    try:
        conn, term = await _through(proxy, KEY_A, "Ann")
        await term.wait_for("HELLO Ann", within=15)
        term.send("c")
        await term.wait_for("TABLE state=", within=15)
        (table_id,) = list(server.hub._rooms)
        before = server.hub.table(table_id).state_id
        term.send("r")
        await asyncio.wait_for(_until(lambda: server.hub.table(table_id).state_id > before), T)
        COUNTS["faults"] += 1
        conn.close()
        _clean_log(server, table_id)
        print(f"slow, jittery, fragmented link: {proxy.to_client} bytes down, played on")
    finally:
        await proxy.close()


async def _cut_scenario(server, how: str) -> None:
    proxy = ChaosProxy(server.port)
    await proxy.start()
    try:
        conn, term = await _through(proxy, KEY_A, "Ann")
        await term.wait_for("HELLO Ann")
        term.send("c")
        await term.wait_for("TABLE state=")
        (table_id,) = list(server.hub._rooms)
        bob_conn, bob = await _spectator(server)
        if how == "cut":  # the link dies after a few more bytes to the client
            proxy.faults.cut_after = proxy.to_client + 200
            term.chan.change_terminal_size(90, 30)  # a repaint pushes bytes past the cut
        else:
            proxy.reset()
        await asyncio.wait_for(_until(lambda: server.hub.info(table_id).seats[0].away), T)
        await bob.wait_for("NOTICE Ann is away")  # the spectator keeps receiving
        assert server.hub.info(table_id).seats[0].identity == KEY_A.get_fingerprint("sha256")
        conn.abort() if hasattr(conn, "abort") else conn.close()
        # Ann comes back (directly this time): same seat, and she plays on
        back_conn, back = await join(server, KEY_A)
        await back.wait_for("TABLE state=")
        await bob.wait_for("NOTICE Ann is back")
        before = server.hub.table(table_id).state_id
        back.send("r")
        await asyncio.wait_for(_until(lambda: server.hub.table(table_id).state_id > before), T)
        COUNTS["resumed"] += 1
        back_conn.close()
        bob_conn.close()
        _clean_log(server, table_id)
    finally:
        await proxy.close()


async def test_a_player_cut_after_n_bytes_keeps_the_seat_and_resumes(start):  # noqa: F811
    await _cut_scenario(await start(), "cut")


async def test_a_player_reset_keeps_the_seat_and_resumes(start):  # noqa: F811
    await _cut_scenario(await start(), "reset")


async def test_a_client_that_stops_reading_is_dropped_and_keeps_its_seat(start):  # noqa: F811
    server = await start(output_buffer=16 * 1024)
    proxy = ChaosProxy(server.port)
    await proxy.start()
    try:
        conn = await connect(proxy.port, KEY_A)
        term = await Term.open(conn, window=4096)
        await term.wait_for("Choose a nickname")
        term.send("Ann\r")
        await term.wait_for("HELLO Ann")
        term.send("c")
        await term.wait_for("TABLE state=")
        (table_id,) = list(server.hub._rooms)
        bob_conn, bob = await _spectator(server)
        proxy.faults.stop_reading.set()
        for w in range(60, 240, 3):  # every resize repaints the whole screen
            term.chan.change_terminal_size(w, 80)
            await asyncio.sleep(0.01)
        fp = KEY_A.get_fingerprint("sha256")
        await asyncio.wait_for(
            _until(lambda: all(s.conn.identity_id != fp for s in server.sessions)), T
        )
        assert server.hub.info(table_id).seats[0].away
        await bob.wait_for("NOTICE Ann is away")
        COUNTS["faults"] += 1
        bob_conn.close()
        conn.abort()
        _clean_log(server, table_id)
    finally:
        await proxy.close()


async def test_a_hung_client_is_dropped_within_the_keepalive_bound(start):  # noqa: F811
    interval, count = 0.2, 2
    server = await start(keepalive_interval=interval, keepalive_count=count)
    proxy = ChaosProxy(server.port)
    await proxy.start()
    try:
        conn, term = await _through(proxy, KEY_A, "Ann")
        await term.wait_for("HELLO Ann")
        term.send("c")
        await term.wait_for("TABLE state=")
        (table_id,) = list(server.hub._rooms)
        bob_conn, bob = await _spectator(server)
        fp = KEY_A.get_fingerprint("sha256")
        t0 = time.monotonic()
        proxy.faults.frozen.set()  # the client's network goes silent; nothing is closed
        await asyncio.wait_for(
            _until(lambda: all(s.conn.identity_id != fp for s in server.sessions)), T
        )
        took = time.monotonic() - t0
        bound = interval * (count + 1) + 1.0
        print(f"hung client dropped after {took:.2f} s (bound {bound:.2f} s)")
        assert took < bound
        assert server.hub.info(table_id).seats[0].away
        await bob.wait_for("NOTICE Ann is away")
        COUNTS["faults"] += 1
        bob_conn.close()
        conn.abort()
        _clean_log(server, table_id)
    finally:
        await proxy.close()
