"""The SSH server in-process with the small stand-in app: identity, nicknames, guests, exec
commands and every policy guard (STYLE.md #14). Real sockets on 127.0.0.1, port 0, bounded
waits. (End-to-end tests with the real app in a subprocess live in test_e2e.py.)"""

from __future__ import annotations

import asyncio
import socket
import stat

import asyncssh
import pytest

from net.local_hub import LocalHub
from net.server import Limits, SpeedwayServer, load_or_create_host_key
from tests.fakegame import GAME as DASH
from tests.net.mini_app import MiniApp, make_app
from tests.net.sshclient import T, Term, connect

KEY_A = asyncssh.generate_private_key("ssh-ed25519")
KEY_B = asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def start(tmp_path):
    servers: list[SpeedwayServer] = []

    async def make(guests: bool = False, **limits) -> SpeedwayServer:
        hub = LocalHub(tmp_path, bot_delay=0.0, games={"dash": DASH}, lobby_interval=0.0)
        server = SpeedwayServer(
            hub,
            make_app,
            host_key=load_or_create_host_key(tmp_path),
            data_dir=tmp_path,
            limits=Limits(**limits),
            allow_guests=guests,
        )
        await server.start("127.0.0.1", 0)
        servers.append(server)
        return server

    yield make
    for s in servers:
        await asyncio.wait_for(s.shutdown(), T)


async def join(server, key, nickname: str | None = None, **kw) -> tuple[object, Term]:
    conn = await connect(server.port, key)
    term = await Term.open(conn, **kw)
    if nickname is not None:
        await term.wait_for("Choose a nickname")
        term.send(nickname + "\r")
    return conn, term


async def test_first_visit_binds_a_nickname_to_the_key(start):
    server = await start()
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann guest=False")
    term.send("q")
    assert await term.wait_closed() == 0
    conn.close()
    # Same key again: no prompt, same nickname.
    conn, term = await join(server, KEY_A)
    await term.wait_for("HELLO Ann")
    assert "Choose a nickname" not in term.text
    conn.close()
    # Another key cannot take it; bad characters are refused with one sentence.
    conn, term = await join(server, KEY_B, "ann")
    await term.wait_for("taken")
    term.send("\x1b[31mx\r")  # ESC sequences are not part of the line editor's input
    await term.wait_for("HELLO x guest=False")
    conn.close()
    fp = KEY_A.get_fingerprint("sha256")
    assert server.players.nickname(fp) == "Ann"


async def test_guests_need_allow_guests_and_keep_no_identity(start):
    closed = await start()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(closed.port, None)
    server = await start(guests=True)
    conn, term = await join(server, None, "Gus")
    await term.wait_for("HELLO Gus guest=True")
    conn.close()
    assert server.players.nickname("guest") is None


async def test_exec_commands_and_refusals(start, tmp_path):
    server = await start()
    conn = await connect(server.port, KEY_A)
    r = await asyncio.wait_for(conn.run("replays"), T)
    assert r.exit_status == 0
    assert "No finished games yet." in r.stdout
    r = await asyncio.wait_for(conn.run("rm -rf /"), T)
    assert r.exit_status == 2
    assert r.stdout.count("\n") == 1
    assert "unknown command" in r.stdout
    r = await asyncio.wait_for(conn.run("replay ../../etc/passwd"), T)
    assert r.exit_status == 2
    assert "no replay" in r.stdout
    (tmp_path / "replays").mkdir()
    (tmp_path / "replays" / "abc.replay").write_bytes(bytes(range(256)) * 1000)
    r = await asyncio.wait_for(conn.run("replay abc", encoding=None), T)
    assert r.exit_status == 0
    assert r.stdout == bytes(range(256)) * 1000
    conn.close()


async def test_no_pty_shell_sftp_scp_and_forwarding_are_refused(start):
    server = await start()
    conn = await connect(server.port, KEY_A)
    term = await Term.open(conn, term_type=None)
    assert await term.wait_closed() == 1
    assert "needs a terminal" in term.text
    with pytest.raises(asyncssh.ChannelOpenError):
        await asyncio.wait_for(conn.start_sftp_client(), T)
    with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError, OSError)):
        await asyncio.wait_for(asyncssh.scp("/etc/hostname", (conn, "x")), T)
    with pytest.raises(asyncssh.ChannelOpenError):
        await asyncio.wait_for(conn.open_connection("127.0.0.1", 22), T)
    with pytest.raises(asyncssh.ChannelListenError):
        await asyncio.wait_for(conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22), T)
    conn.close()
    # ... and the server still serves others.
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    conn.close()


async def test_agent_forwarding_is_not_granted(start, tmp_path):
    server = await start()
    fake_agent = tmp_path / "agent.sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(fake_agent))
    try:
        conn = await connect(server.port, KEY_A, agent_forwarding=True, agent_path=str(fake_agent))
        term = await Term.open(conn)
        await term.wait_for("Choose a nickname")
        (session,) = server.sessions
        assert session.chan.get_agent_path() is None
        conn.close()
    finally:
        sock.close()


async def test_zero_window_invalid_utf8_and_huge_window_are_handled(start):
    server = await start()
    conn, term = await join(server, KEY_A, "Ann", size=(0, 0))
    await term.wait_for("HELLO Ann")
    (session,) = server.sessions
    assert session.size == (80, 24)
    term.send(b"\xff\xfe\xc3\x28\x80")  # invalid UTF-8: replaced, never a crash
    term.chan.change_terminal_size(10_000, 10_000)
    await asyncio.sleep(0.2)
    assert session.driver._size == (240, 80)
    term.send("q")
    assert await term.wait_closed() == 0
    conn.close()


async def test_pre_auth_connection_cap_and_login_grace(start):
    server = await start(max_startups=1, login_grace=1.0)
    squatter = socket.create_connection(("127.0.0.1", server.port), timeout=T)
    try:
        await asyncio.sleep(0.2)
        with pytest.raises((asyncssh.Error, OSError)):
            await connect(server.port, KEY_A)
        # the squatter never authenticates: the grace time frees its slot
        await asyncio.sleep(1.5)
        conn = await connect(server.port, KEY_A)
        conn.close()
    finally:
        squatter.close()


async def test_per_source_connection_rate_limit(start):
    server = await start(per_source_per_minute=2)
    for _ in range(2):
        conn = await connect(server.port, KEY_A)
        conn.close()
    with pytest.raises((asyncssh.Error, OSError)):
        await connect(server.port, KEY_A)


async def test_auth_attempt_cap(start):
    server = await start(max_auth_attempts=0)
    with pytest.raises((asyncssh.Error, OSError)):
        await connect(server.port, KEY_A)


async def test_server_full_gives_a_friendly_line(start):
    server = await start(max_sessions=1)
    conn1, term1 = await join(server, KEY_A, "Ann")
    await term1.wait_for("HELLO Ann")
    conn2 = await connect(server.port, KEY_B)
    term2 = await Term.open(conn2)
    assert await term2.wait_closed() == 1
    assert "full" in term2.text
    conn1.close()
    conn2.close()


async def test_idle_sessions_are_closed(start):
    server = await start(idle_timeout=0.4)
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    await term.wait_for("idle too long", within=5)
    await term.wait_closed()
    conn.close()


async def test_a_crashing_app_ends_only_its_session(start):
    server = await start()
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    other_conn, other = await join(server, KEY_B, "Bob")
    await other.wait_for("HELLO Bob")
    term.send("x")
    assert await term.wait_closed() == 1
    assert "something went wrong" in term.text or "failed" in term.text
    assert term.out.rstrip(b"\r\n").rfind(b"\x1b[?1049l") != -1  # terminal restored
    other.send("q")
    assert await other.wait_closed() == 0
    conn.close()
    other_conn.close()


async def test_slow_client_is_dropped_and_keeps_its_seat(start):
    server = await start(output_buffer=16 * 1024)
    conn = await connect(server.port, KEY_A)
    term = await Term.open(conn, window=4096)
    await term.wait_for("Choose a nickname")
    term.send("Ann\r")
    await term.wait_for("HELLO Ann")
    term.send("c")  # sit at a Dash table
    await term.wait_for("TABLE state=")
    (table_id,) = list(server.hub._rooms)
    term.chan.pause_reading()
    for w in range(60, 240, 3):  # every resize repaints the whole screen
        term.chan.change_terminal_size(w, 80)
        await asyncio.sleep(0.01)
    await asyncio.wait_for(_until(lambda: not server.sessions), T)
    info = server.hub.info(table_id)
    assert info.seats[0].identity == KEY_A.get_fingerprint("sha256")
    assert info.seats[0].away
    conn.close()


async def _until(cond) -> None:
    while not cond():  # noqa: ASYNC110 - bounded poll
        await asyncio.sleep(0.05)


async def test_input_rate_limit_drops_floods(start):
    server = await start(input_burst=2000, input_rate=10)
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    (session,) = server.sessions
    term.send(b"a" * 5000)
    await asyncio.wait_for(_until(lambda: session._dropped_input >= 5000), T)
    conn.close()


def test_host_key_is_created_once_private_and_never_replaced(tmp_path):
    key = load_or_create_host_key(tmp_path)
    path = tmp_path / "keys" / "ssh_host_ed25519_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create_host_key(tmp_path)
    assert again.get_fingerprint() == key.get_fingerprint()
    path.chmod(0o644)
    with pytest.raises(ValueError, match="readable by others"):
        load_or_create_host_key(tmp_path)
    path.chmod(0o600)
    path.write_bytes(b"not a key")
    with pytest.raises(ValueError, match="never replaces a host key"):
        load_or_create_host_key(tmp_path)
    assert path.read_bytes() == b"not a key"


async def test_one_structured_log_line_per_connect_auth_failure_and_disconnect(start, caplog):
    caplog.set_level("INFO", logger="speedway")
    server = await start()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, None)  # no key, guests off
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    term.send("q")
    await term.wait_closed()
    conn.close()
    await asyncio.wait_for(_until(lambda: "event=disconnect" in caplog.text), T)
    lines = [r.getMessage() for r in caplog.records if r.name == "speedway.server"]
    assert sum(1 for m in lines if m.startswith("event=connect ")) == 2
    assert sum(1 for m in lines if m.startswith("event=auth_failure ")) == 1
    fp = KEY_A.get_fingerprint("sha256")
    assert any(m.startswith("event=disconnect ") and fp in m for m in lines)
    assert all("\n" not in m and "\x1b" not in m for m in lines)


async def test_neutral_version_no_weak_ciphers_and_colours_from_each_terminal(start):
    server = await start()
    with pytest.raises((asyncssh.Error, OSError)):
        await connect(server.port, KEY_A, encryption_algs=["chacha20-poly1305@openssh.com"])
    conn_a, plain16 = await join(server, KEY_A, "Ann", term_type="xterm")
    assert conn_a.get_extra_info("server_version") == "SSH-2.0-Server"
    await plain16.wait_for("HELLO Ann")
    conn_b, rich256 = await join(server, KEY_B, "Bob", term_type="xterm-256color")
    await rich256.wait_for("HELLO Bob")
    systems = {s.conn.identity_id: s.app.console.color_system for s in server.sessions}
    assert systems[KEY_A.get_fingerprint("sha256")] == "standard"
    assert systems[KEY_B.get_fingerprint("sha256")] == "256"
    conn_a.close()
    conn_b.close()


async def test_identity_is_the_key_that_signed_not_the_key_probed(start, monkeypatch):
    from asyncssh import auth

    server = await start()
    signer = asyncssh.load_keypairs([KEY_B])[0]
    original = auth._ClientPublicKeyAuth._send_signed_request

    async def swap_then_sign(self):
        self._keypair = signer  # probe with key A, then sign with key B
        await original(self)

    monkeypatch.setattr(auth._ClientPublicKeyAuth, "_send_signed_request", swap_then_sign)
    conn, term = await join(server, KEY_A, "Bea")
    await term.wait_for("HELLO Bea")
    monkeypatch.undo()
    (session,) = server.sessions
    assert session.conn.identity_id == KEY_B.get_fingerprint("sha256")
    assert server.players.nickname(KEY_B.get_fingerprint("sha256")) == "Bea"
    assert server.players.nickname(KEY_A.get_fingerprint("sha256")) is None
    conn.close()


class FreezableProxy:
    """A loopback TCP proxy that can stop forwarding (a peer that hangs without closing)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.frozen = asyncio.Event()
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def _pipe(self, reader, writer) -> None:
        try:
            while not self.frozen.is_set():
                data = await reader.read(65536)
                if not data or self.frozen.is_set():
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        if not self.frozen.is_set():
            writer.close()

    async def _serve(self, client_r, client_w) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        await asyncio.gather(self._pipe(client_r, server_w), self._pipe(server_r, client_w))

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


async def test_a_hung_peer_is_dropped_by_keepalive_and_keeps_its_seat(start):
    server = await start(keepalive_interval=0.2, keepalive_count=2)
    proxy = FreezableProxy(server.port)
    port = await proxy.start()
    try:
        conn = await connect(port, KEY_A)
        term = await Term.open(conn)
        await term.wait_for("Choose a nickname")
        term.send("Ann\r")
        await term.wait_for("HELLO Ann")
        term.send("c")
        await term.wait_for("TABLE state=")
        (table_id,) = list(server.hub._rooms)
        proxy.frozen.set()  # the client's network goes silent; nothing is closed
        await asyncio.wait_for(_until(lambda: not server.sessions), T)
        assert server.hub.info(table_id).seats[0].away
        conn.abort()
    finally:
        proxy.close()


async def test_app_start_ups_are_limited(start):
    server = await start(max_app_starts=1)
    gate = asyncio.Event()
    built: list[str] = []

    class SlowStart(MiniApp):
        async def on_load(self) -> None:
            await gate.wait()  # the first frame waits for the gate

    def factory(**kw):
        built.append(kw["identity"].nickname)
        return SlowStart(kw["hub"], kw["identity"], driver_class=kw["driver_class"])

    server.app_factory = factory
    conn_a, term_a = await join(server, KEY_A, "Ann")
    await asyncio.wait_for(_until(lambda: built == ["Ann"]), T)
    conn_b, term_b = await join(server, KEY_B, "Bob")
    await asyncio.sleep(0.3)
    assert built == ["Ann"]  # Bob's app is not even built while Ann's is starting
    gate.set()
    await term_a.wait_for("HELLO Ann")
    await term_b.wait_for("HELLO Bob")
    assert built == ["Ann", "Bob"]
    conn_a.close()
    conn_b.close()
