"""Shared frames across workers: spectators on a worker that does not own the table.

Two workers on a real redis-server (two `BusHub`s, each with its own data dir): worker A owns
a public Cthulhu 500 table, played through A's hub; three real asyncssh clients with PTYs log
in to worker B's real server and app and watch it from B's lobby (``w``). B follows the table's
stream once for all three (`net.table_feed`) and the three sessions share one leader's frames
(`net.mirror`): every client's bytes, fed into a terminal emulator, show exactly what the
leader's app renders. One spectator's own input takes it back to drawing for itself, on the
same one stream. 127.0.0.1 only, port 0, every wait bounded.
"""

from __future__ import annotations

import asyncio

import asyncssh

from net.bus import Bus
from net.bus_hub import BusHub
from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from net.server import Limits, SpeedwayServer, load_or_create_host_key
from tests.net.frames import SIZE, app_factory, quiet, rendered, session_of, shown, until
from tests.net.sshclient import T, Term, connect

KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("Cy", "Di", "Ed")}
ME = Identity(id="test:seats", nickname="seats")
BOTS = ["shrewd", "random", "shrewd", "random"]


def bus_hub(url: str, data, worker: str) -> BusHub:
    local = LocalHub(data, bot_delay=1e9, lobby_interval=0.0, restore=False)
    return BusHub(local, Bus(url, worker=worker), game=local.find_game, lobby_interval=0.0)


async def test_spectators_on_the_worker_that_does_not_own_the_table_share_frames(
    tmp_path, redis_server
):
    a = bus_hub(redis_server.url, tmp_path / "a", "wa")
    b = bus_hub(redis_server.url, tmp_path / "b", "wb")
    await a.start()
    await b.start()
    server = SpeedwayServer(
        b,
        app_factory,
        host_key=load_or_create_host_key(tmp_path / "b"),
        data_dir=tmp_path / "b",
        limits=Limits(),
    )
    await server.start("127.0.0.1", 0)
    seats = [SeatSpec(kind="human", name=f"P{i + 1}", identity=ME.id) for i in range(4)]
    table_id = await a.create_table(TableSpec(game="cthulhu500", seats=seats, seed=3), ME)
    table = a.local.table(table_id)

    async def play(steps: int) -> None:
        for _ in range(steps):
            seat = table.pending()[0]
            action = await a.hint(table_id, ME, seat, BOTS[seat])
            await a.submit(table_id, ME, seat, action, table.state_id)
            await asyncio.sleep(0.03)

    conns = []
    terms: dict[str, Term] = {}
    try:
        await until(lambda: bool(b.tables(ME)), 10)
        for name in KEYS:
            conn = await connect(server.port, KEYS[name])
            conns.append(conn)
            term = terms[name] = await Term.open(conn, size=SIZE)
            await term.wait_for("Choose a nickname")
            term.send(name + "\r")
            await term.wait_for("Create table")
            term.send("w")  # watch the lobby's first (only) table: worker A's
            await term.wait_for("Race log")
        roles = {}

        def grouped() -> bool:
            roles.update({n: session_of(server, KEYS[n]).driver.mirror_role for n in KEYS})
            return sorted(map(str, roles.values())) == ["follower", "follower", "leader"]

        await until(grouped)
        feed = b.feeds.feed(table_id)
        assert feed is not None
        assert len(feed.sessions) == 3
        assert len(a.desk._viewers) == 1  # and one viewer at the owner
        await until(lambda: a.local.info(table_id).spectators == 3)  # each one counted
        leader = next(n for n, r in roles.items() if r == "leader")
        await play(10)
        await quiet(list(terms.values()))
        want = rendered(session_of(server, KEYS[leader]).app)
        assert any("Turn" in line for line in want)
        for name, term in terms.items():
            assert shown(term) == want, name

        me = next(n for n in KEYS if n != leader)
        terms[me].send("\x1b[I")  # a focus report: that spectator's own input
        await until(lambda: session_of(server, KEYS[me]).driver.mirror_role is None)
        await play(5)
        await quiet(list(terms.values()))
        assert shown(terms[me]) == rendered(session_of(server, KEYS[me]).app)
        want = rendered(session_of(server, KEYS[leader]).app)
        assert shown(terms[me]) == want  # its own frames show the same race
        for name, term in terms.items():
            assert shown(term) == want, name
        assert b.feeds.feed(table_id) is feed
        assert len(a.desk._viewers) == 1
    finally:
        for conn in conns:
            conn.close()
        await asyncio.wait_for(server.shutdown(), T)  # (closes b's hub too)
        await a.close()
