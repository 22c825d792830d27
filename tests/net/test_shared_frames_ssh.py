"""Shared frames over real SSH: three spectators of one table on the real server.

The real server and app, three real asyncssh clients with PTYs that watch one public table
from the lobby by keys (``w``); the test plays the table's seats through the hub. Two of the
three sessions follow the third's frames (`net.mirror`); every client's bytes, fed into a
terminal emulator, show exactly what the leading session's app renders. One spectator's own
input takes it back to drawing for itself. 127.0.0.1 only, port 0, every wait bounded.
"""

from __future__ import annotations

import asyncio

import asyncssh

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from net.server import Limits, SpeedwayServer, load_or_create_host_key
from tests.net.frames import SIZE, app_factory, quiet, rendered, session_of, shown, until
from tests.net.sshclient import T, Term, connect

KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("Ann", "Bob", "Eve")}
ME = Identity(id="test:seats", nickname="seats")
BOTS = ["shrewd", "random", "shrewd", "random"]


async def test_spectators_over_ssh_share_the_leaders_frames(tmp_path):
    hub = LocalHub(tmp_path, bot_delay=1e9, lobby_interval=0.0)
    server = SpeedwayServer(
        hub,
        app_factory,
        host_key=load_or_create_host_key(tmp_path),
        data_dir=tmp_path,
        limits=Limits(),
    )
    await server.start("127.0.0.1", 0)
    seats = [SeatSpec(kind="human", name=f"P{i + 1}", identity=ME.id) for i in range(4)]
    table_id = await hub.create_table(TableSpec(game="cthulhu500", seats=seats, seed=3), ME)
    table = hub.table(table_id)

    async def play(steps: int) -> None:
        for _ in range(steps):
            seat = table.pending()[0]
            action = await hub.hint(table_id, ME, seat, BOTS[seat])
            await hub.submit(table_id, ME, seat, action, table.state_id)
            await asyncio.sleep(0.03)

    conns = []
    terms: dict[str, Term] = {}
    try:
        for name in KEYS:
            conn = await connect(server.port, KEYS[name])
            conns.append(conn)
            term = terms[name] = await Term.open(conn, size=SIZE)
            await term.wait_for("Choose a nickname")
            term.send(name + "\r")
            await term.wait_for("Create table")
            term.send("w")  # watch the lobby's first (only) table
            await term.wait_for("Race log")
        roles = {}

        def grouped() -> bool:
            roles.update({n: session_of(server, KEYS[n]).driver.mirror_role for n in KEYS})
            return sorted(map(str, roles.values())) == ["follower", "follower", "leader"]

        await until(grouped)
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
    finally:
        for conn in conns:
            conn.close()
        await asyncio.wait_for(server.shutdown(), T)
