"""End to end over real SSH: the real server, the real Speedway app, three real clients.

Two players and a spectator join a Go 500 table through the lobby by keys, the players race the
whole race by keys (what to press is read from the table's legal moves; the pressing is real),
one player drops mid-race and comes back to the same seat, and at the end the finished race is
downloaded with `ssh HOST replay ID` and accepted by `speedway replay --verify`.
127.0.0.1 only, port 0, every wait bounded.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys

import asyncssh
from textual.app import ScreenStackError

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from net.server import Limits, SpeedwayServer, load_or_create_host_key
from tests.net.sshclient import T, Term, connect

KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("Ann", "Bob", "Eve")}


def app_factory(**kw):
    from tui.cli import ssh_app_factory

    return ssh_app_factory(**kw)


async def until(cond, within: float = T) -> None:
    async def loop() -> None:
        while not cond():  # noqa: ASYNC110 - bounded poll of the hub
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), within)


async def at_table(server, name: str) -> None:
    """Wait until ``name``'s app (server side) shows a table screen."""
    fp = KEYS[name].get_fingerprint("sha256")

    def there() -> bool:
        for session in server.sessions:
            app = session.app
            if app is not None and session.conn.identity_id == fp:
                try:
                    screen = app.screen
                except ScreenStackError:  # the app is starting: no screen yet
                    return False
                return type(screen).__name__.endswith("TableScreen")
        return False

    await until(there)


async def arrive(server, name: str) -> tuple[object, Term]:
    conn = await connect(server.port, KEYS[name])
    term = await Term.open(conn, size=(100, 30))
    if server.players.nickname(KEYS[name].get_fingerprint("sha256")) is None:
        await term.wait_for("Choose a nickname")
        term.send(name + "\r")
    await term.wait_for("Tables")
    return conn, term


def key_for(table, seat: int) -> str:
    from core.go500.model import ChoosePaintTarget, Stop
    from tui.screens.go500 import stage_of

    legal = table.legal(seat)
    paint = [a for a in legal if isinstance(a, ChoosePaintTarget)]
    if paint:
        return str(paint[0].driver + 1)
    if stage_of(table.state, seat) == "decide" and any(isinstance(a, Stop) for a in legal):
        return "s"
    return "r"


async def test_two_players_and_a_spectator_race_go500_over_ssh(tmp_path):
    hub = LocalHub(tmp_path, bot_delay=0.0, lobby_interval=0.0)
    server = SpeedwayServer(
        hub,
        app_factory,
        host_key=load_or_create_host_key(tmp_path),
        data_dir=tmp_path,
        limits=Limits(),
    )
    await server.start("127.0.0.1", 0)
    try:
        terms: dict[str, Term] = {}
        conns: dict[str, object] = {}
        for name in ("Ann", "Bob", "Eve"):
            conns[name], terms[name] = await arrive(server, name)
        ann = Identity(id=KEYS["Ann"].get_fingerprint("sha256"), nickname="Ann")
        tid = await hub.create_table(
            TableSpec(
                game="go500",
                seats=[SeatSpec(kind="human"), SeatSpec(kind="open")],
                options={"race_length": 400},
                bot_delay=0.0,
                seed=3,  # a whole 400-mile race in 19 moves with this key policy (no crash-out)
            ),
            ann,
        )
        # Bob takes the open seat from the lobby; Ann returns to hers; Eve watches.
        for name, key in (("Bob", "j"), ("Ann", "j"), ("Eve", "w")):
            await terms[name].wait_for(tid)
            terms[name].send(key)
            await at_table(server, name)
            await terms[name].wait_for("Leave")  # the table screen's footer
        table = hub.table(tid)
        assert hub.info(tid).status == "running"
        assert [s.name for s in hub.info(tid).seats] == ["Ann", "Bob"]
        by_seat = {0: "Ann", 1: "Bob"}
        dropped = False
        for _ in range(2000):
            if table.result() is not None:
                break
            (seat, *_rest) = table.pending()
            before = table.state_id
            if not dropped and before >= 6 and seat == 0:
                # Bob drops mid-race (his seat is kept), then comes back to the same seat.
                dropped = True
                conns["Bob"].close()
                await until(lambda: hub.info(tid).seats[1].away)
                # Reconnected with a seat at a running table: straight back at it, no lobby
                # key needed (the lobby is one esc away).
                conn = await connect(server.port, KEYS["Bob"])
                conns["Bob"], terms["Bob"] = conn, await Term.open(conn, size=(100, 30))
                await at_table(server, "Bob")
                await until(lambda: not hub.info(tid).seats[1].away)
            terms[by_seat[seat]].send(key_for(table, seat))
            await until(lambda b=before: hub.info(tid).state_id > b or table.result() is not None)
        result = table.result()
        assert result is not None
        assert table.state_id >= 15  # a real race, with the drop in the middle of it
        assert dropped
        await until(lambda: hub.info(tid).replay_id is not None)
        replay_id = hub.info(tid).replay_id
        # Everyone saw the result (the spectator too).
        winner = table.names[result.ranking[0]]
        for name in ("Ann", "Bob", "Eve"):
            await terms[name].wait_for(winner)
        # `ssh HOST replays` lists it; `ssh HOST replay ID > race.replay` downloads it.
        # (one session per connection, as sshd MaxSessions 1: a new connection for commands)
        cmd = await connect(server.port, KEYS["Eve"])
        listing = await asyncio.wait_for(cmd.run("replays"), T)
        assert replay_id in listing.stdout
        got = await asyncio.wait_for(cmd.run(f"replay {replay_id}", encoding=None), T)
        assert got.exit_status == 0
        saved = (tmp_path / "replays" / f"{replay_id}.replay").read_bytes()
        assert got.stdout == saved
        race = tmp_path / "race.replay"
        race.write_bytes(got.stdout)
        verify = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "tui.cli", "replay", "--verify", str(race)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert verify.returncode == 0, verify.stdout + verify.stderr
        cmd.close()
        for conn in conns.values():
            conn.close()
    finally:
        await asyncio.wait_for(server.shutdown(), T)
