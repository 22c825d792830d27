"""`serve --workers 2 --bus URL` as a real process tree: one port, one lobby, a dead worker is
replaced, SIGTERM drains every worker. Real redis-server, real SSH clients with PTYs, the small
`tests.net.mini_app`; 127.0.0.1 only, every wait bounded."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import asyncssh

from tests.net.sshclient import Term, connect
from tests.net.test_e2e_process import ServerProcess


def children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry.name))
    return sorted(out)


async def wait_children(pid: int, n: int, *, besides: set[int] = frozenset()) -> list[int]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        kids = children(pid)
        if len(kids) == n and not besides & set(kids):
            return kids
        await asyncio.sleep(0.1)
    raise AssertionError(f"wanted {n} workers of {pid}, have {children(pid)}")


async def listening(server: ServerProcess, n: int) -> None:
    """Until ``n`` "listening" lines are in the server's log (bounded)."""
    deadline = time.monotonic() + 20
    while server.stderr().count("event=listening") < n:
        if time.monotonic() > deadline:
            raise AssertionError(f"fewer than {n} workers ever listened: {server.stderr()}")
        await asyncio.sleep(0.1)  # polling another process's log file


async def hello(port: int, name: str) -> tuple[asyncssh.SSHClientConnection, Term]:
    conn = await connect(port, asyncssh.generate_private_key("ssh-ed25519"))
    term = await Term.open(conn)
    await term.wait_for("Choose a nickname")
    term.send(name + "\r")
    await term.wait_for("HELLO")
    return conn, term


async def test_workers_share_one_port_and_lobby_are_restarted_and_drain(tmp_path, redis_server):
    server = ServerProcess(
        tmp_path / "data", "--bus", redis_server.url, "--lease", "1.5", "--workers", "2"
    )
    try:
        pid = server.proc.pid
        workers = await wait_children(pid, 2)
        sessions = [await hello(server.port, f"p{i}") for i in range(6)]
        _conn0, term0 = sessions[0]
        term0.send("c")  # a table against a bot, on whichever worker took this connection
        await term0.wait_for("TABLE state=0")
        for _conn, term in sessions:  # every session, on either worker, lists it
            await term.wait_for("LOBBY tables=1")
        for conn, _term in sessions:
            conn.close()
        os.kill(workers[0], signal.SIGKILL)  # a worker crashes: the supervisor starts another
        again = await wait_children(pid, 2, besides={workers[0]})
        assert workers[0] not in again
        await listening(server, 3)  # the new worker is up
        for i in range(4):  # whichever worker takes it, the table is in its lobby
            conn, term = await hello(server.port, f"late{i}")
            await term.wait_for("LOBBY tables=1")
            conn.close()
        assert await asyncio.to_thread(server.stop, signal.SIGTERM) == 0
        assert children(pid) == []
        assert server.stderr().count("event=stopped") >= 2  # every worker drained and said so
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait(timeout=15)
        for kid in children(server.proc.pid):
            os.kill(kid, signal.SIGKILL)
        server.log.close()
        if server.proc.stdout is not None:
            server.proc.stdout.close()
