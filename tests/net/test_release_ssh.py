"""An ended SSH session's app is freed by reference counting, on the real server.

The real server and app, real asyncssh clients with PTYs on 127.0.0.1. The server runs with
automatic full collections off (`net.collector`), so an app left in reference cycles would stay
in memory until a compaction; the app cuts its own cycles (`tui.release`) once its session is
over, and so does its connection. Two players watch a table; one leaves; weak references show
its app and its connection gone with no full collection, and the other player's screen still
follows the race.
"""

from __future__ import annotations

import asyncio
import gc
import weakref

import asyncssh

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from net.server import RELEASE_AFTER, Limits, SpeedwayServer, load_or_create_host_key
from tests.net.frames import app_factory
from tests.net.sshclient import T, Term, connect

ME = Identity(id="test:seats", nickname="seats")


async def login(port: int, nick: str) -> tuple[asyncssh.SSHClientConnection, Term, str]:
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await connect(port, key)
    term = await Term.open(conn, size=(80, 24))
    await term.wait_for("Choose a nickname")
    term.send(nick + "\r")
    await term.wait_for("w Watch")
    return conn, term, key.get_fingerprint("sha256")


async def test_an_ended_sessions_app_is_freed_without_a_full_collection(tmp_path):
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10**9)  # the server's regime: young generations only
    hub = LocalHub(tmp_path, bot_delay=0.2, lobby_interval=0.0)
    server = SpeedwayServer(
        hub,
        app_factory,
        host_key=load_or_create_host_key(tmp_path),
        data_dir=tmp_path,
        limits=Limits(),
    )
    await server.start("127.0.0.1", 0)
    try:
        seats = [SeatSpec(kind="bot", name=f"Bot{i}", bot="shrewd") for i in range(3)]
        await hub.create_table(TableSpec(game="cthulhu500", seats=seats, seed=3), ME)
        leaving, ann, ann_key = await login(server.port, "Ann")
        staying, bob, _ = await login(server.port, "Bob")
        ann.send("w")
        bob.send("w")
        await ann.wait_for("Race log")
        await bob.wait_for("Race log")
        session = next(s for s in server.sessions if s.conn.identity_id == ann_key)
        gone = weakref.ref(session.app)
        # The server's side of the connection (asyncssh's, and asyncio's transport) too:
        # both kept themselves in reference cycles after a close (`net.server._cut_cycles`).
        conn_gone = weakref.ref(session.conn.conn)
        del session
        leaving.close()
        await ann.wait_closed()

        async def freed() -> None:
            while gone() is not None or conn_gone() is not None:  # noqa: ASYNC110 - bounded poll
                await asyncio.sleep(0.05)

        await asyncio.wait_for(freed(), RELEASE_AFTER + T)
        # The other session is untouched and still follows the race.
        seen = len(bob.out)
        await asyncio.wait_for(_more(bob, seen), T)
        bob.send("?")
        await bob.wait_for("Rules")
        staying.close()
        await bob.wait_closed()
    finally:
        await asyncio.wait_for(server.shutdown(), T)
        gc.set_threshold(*before)


async def _more(term: Term, seen: int) -> None:
    while len(term.out) <= seen:  # noqa: ASYNC110 - bounded poll
        await asyncio.sleep(0.05)
