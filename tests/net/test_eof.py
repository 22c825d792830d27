"""EOF on stdin at login (``ssh HOST </dev/null`` with a PTY, or a client closing its input
while the app starts) is a quiet goodbye, never "the game screen failed". The real app, real
server, real client on 127.0.0.1."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from net.local_hub import LocalHub
from net.server import Limits, SpeedwayServer, load_or_create_host_key
from tests.net.sshclient import T, Term, connect


def app_factory(**kw):
    from tui.cli import ssh_app_factory

    return ssh_app_factory(**kw)


@pytest.fixture
async def server(tmp_path):
    hub = LocalHub(tmp_path, bot_delay=0.0, lobby_interval=0.0)
    s = SpeedwayServer(
        hub,
        app_factory,
        host_key=load_or_create_host_key(tmp_path),
        data_dir=tmp_path,
        limits=Limits(),
    )
    await s.start("127.0.0.1", 0)
    yield s
    await asyncio.wait_for(s.shutdown(), T)


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2])
async def test_eof_while_the_app_starts_is_a_quiet_goodbye(server, caplog, delay):
    caplog.set_level("INFO", logger="speedway")
    key = asyncssh.generate_private_key("ssh-ed25519")
    server.players.bind(key.get_fingerprint("sha256"), "Quiet")
    conn = await connect(server.port, key)
    term = await Term.open(conn, size=(80, 24))
    if delay:
        await asyncio.sleep(delay)
    term.chan.write_eof()
    status = await term.wait_closed(within=T)
    conn.close()
    assert "failed" not in term.text
    assert "went wrong" not in term.text
    assert status == 0
    assert "event=app_error" not in caplog.text
    assert "event=session_error" not in caplog.text


async def test_eof_at_the_nickname_prompt_is_a_quiet_goodbye(server):
    conn = await connect(server.port, asyncssh.generate_private_key("ssh-ed25519"))
    term = await Term.open(conn, size=(80, 24))
    await term.wait_for("Choose a nickname")
    term.chan.write_eof()
    status = await term.wait_closed(within=T)
    conn.close()
    assert status == 0
    assert "Goodbye" in term.text


@pytest.mark.parametrize("delay", [0.0, 0.1, 0.3, 0.6])
async def test_a_nickname_then_eof_is_a_quiet_goodbye(server, caplog, delay):
    # `printf 'Ann\\n' | ssh -tt HOST`: the answer, then the end of input
    caplog.set_level("INFO", logger="speedway")
    conn = await connect(server.port, asyncssh.generate_private_key("ssh-ed25519"))
    term = await Term.open(conn, size=(80, 24))
    await term.wait_for("Choose a nickname")
    term.send("Ann\r")
    if delay:
        await asyncio.sleep(delay)
    term.chan.write_eof()
    status = await term.wait_closed(within=T)
    conn.close()
    assert "failed" not in term.text
    assert status == 0
    assert "event=app_error" not in caplog.text
