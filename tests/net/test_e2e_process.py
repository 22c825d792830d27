"""The server as a real process (`tests.net.run_server`, the same `run_server` that
`speedway serve` runs): kill -9 mid-race and restart (the table is back exactly as last
acknowledged), kill -9 while a table waits for a player (it is back, waiting), graceful SIGTERM (players told, logs synced, exit 0), the spectator's byte stream
carries no hidden card, and the real OpenSSH client under tmux reads the real lobby.
127.0.0.1, port 0, every wait bounded."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from tests.net.sshclient import T, Term, connect

ROOT = Path(__file__).resolve().parents[2]
KEY_A = asyncssh.generate_private_key("ssh-ed25519")
KEY_E = asyncssh.generate_private_key("ssh-ed25519")


class ServerProcess:
    def __init__(self, data: Path, *args: str) -> None:
        self.log = open(data.parent / f"server-{time.monotonic_ns()}.log", "w+b")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.net.run_server", str(data), *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.port = self._read_port()

    def _read_port(self) -> int:
        deadline = time.monotonic() + 30
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        buf = b""
        while time.monotonic() < deadline:
            chunk = self.proc.stdout.read() or b""
            buf += chunk
            m = re.search(rb"Join with: ssh -p (\d+) 127\.0\.0\.1", buf)
            if m:
                self.banner = buf.decode()
                return int(m.group(1))
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop(signal.SIGKILL)
        raise AssertionError(f"server did not start: {buf!r} {self.stderr()}")

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(timeout=15)


@pytest.fixture
def servers(tmp_path):
    started: list[ServerProcess] = []

    def start(*args: str) -> ServerProcess:
        s = ServerProcess(tmp_path / "data", *args)
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


async def join(port: int, key, nickname: str | None = None):
    conn = await connect(port, key)
    term = await Term.open(conn)
    if nickname is not None:
        await term.wait_for("Choose a nickname")
        term.send(nickname + "\r")
    await term.wait_for("HELLO")
    return conn, term


def last_state(term: Term) -> int:
    return int(re.findall(r"TABLE state=(\d+)", term.text)[-1])


async def state_above(term: Term, n: int) -> None:
    async def loop() -> None:
        while not (re.findall(r"TABLE state=(\d+)", term.text) and last_state(term) > n):
            term.changed.clear()
            await term.changed.wait()

    await asyncio.wait_for(loop(), T)


async def test_kill_9_mid_race_then_restart_restores_the_table(servers):
    server = servers()
    assert "Host key fingerprint: SHA256:" in server.banner
    conn, term = await join(server.port, KEY_A, "Ann")
    term.send("c")
    await term.wait_for("TABLE state=0")
    for _ in range(3):  # my roll, then the bot's (bot delay 0)
        before = last_state(term)
        term.send("r")
        await state_above(term, before)
    await asyncio.sleep(0.3)  # let the bot's answer land: that is the last acknowledged step
    seen = last_state(term)
    assert seen >= 3
    server.stop(signal.SIGKILL)
    conn.close()
    again = servers()
    conn, term = await join(again.port, KEY_A)  # same key: nickname kept, seat kept
    await term.wait_for(f"TABLE state={seen}")
    term.send("r")
    await state_above(term, seen)
    conn.close()
    assert again.stop() == 0


async def test_kill_9_while_waiting_then_restart_keeps_the_waiting_table(servers, tmp_path):
    server = servers()
    conn, term = await join(server.port, KEY_A, "Ann")
    term.send("o")
    await term.wait_for("LOBBY tables=1 waiting=1")
    tables = tmp_path / "data" / "tables"
    assert len(list(tables.glob("*.wait"))) == 1
    server.stop(signal.SIGKILL)
    conn.close()
    again = servers()
    conn, term = await join(again.port, KEY_A)
    await term.wait_for("LOBBY tables=1 waiting=1")
    conn_e, term_e = await join(again.port, KEY_E, "Eve")
    await term_e.wait_for("LOBBY tables=1 waiting=1")
    term_e.send("j")  # Eve takes the open seat: the race starts and its log is written
    await term.wait_for("LOBBY tables=1 waiting=0")
    assert len(list(tables.glob("*.log"))) == 1
    assert list(tables.glob("*.wait")) == []
    conn_e.close()
    conn.close()
    assert again.stop() == 0


async def test_sigterm_tells_players_syncs_and_exits_cleanly(servers):
    server = servers()
    conn, term = await join(server.port, KEY_A, "Ann")
    term.send("c")
    await term.wait_for("TABLE state=0")
    term.send("r")
    await state_above(term, 0)
    await asyncio.sleep(0.3)
    seen = last_state(term)
    code = await asyncio.to_thread(server.stop, signal.SIGTERM)
    assert code == 0
    await term.wait_for("shutting down")
    await term.wait_closed()
    assert "event=shutdown" in server.stderr()
    conn.close()
    again = servers()
    conn, term = await join(again.port, KEY_A)
    await term.wait_for(f"TABLE state={seen}")
    conn.close()


async def test_spectator_bytes_never_carry_a_hidden_card(servers):
    server = servers()
    conn_a, ann = await join(server.port, KEY_A, "Ann")
    ann.send("c")
    await ann.wait_for("TABLE state=0")
    mine = re.search(r"CARDS \[(\d), None\]", ann.text)
    assert mine, ann.text[-300:]
    conn_e, eve = await join(server.port, KEY_E, "Eve")
    eve.send("w")
    await eve.wait_for("CARDS [None, None]")
    ann.send("r")
    await state_above(ann, 1)
    await state_above(eve, 1)
    assert re.search(rb"CARDS \[\d", eve.out) is None
    conn_a.close()
    conn_e.close()


def _tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], capture_output=True, text=True, timeout=10, check=True
    ).stdout


async def test_openssh_client_under_tmux_reads_the_lobby(servers, tmp_path):
    missing = [tool for tool in ("ssh", "tmux", "ssh-keygen") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must install {', '.join(missing)} (see .ci/run)")
        pytest.skip(f"{', '.join(missing)} not installed")
    server = servers("--real-app")
    key = tmp_path / "id_test"
    await asyncio.to_thread(
        subprocess.run,
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
        check=True,
        timeout=30,
    )
    name = f"speedway-test-{os.getpid()}"
    socket = str(tmp_path / "tmux.sock")
    cmd = (
        f"ssh -p {server.port} -i {key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no "
        f"-o UserKnownHostsFile=/dev/null -o BatchMode=yes -tt 127.0.0.1; "
        "echo ssh-exit=$?; sleep 60"
    )
    _tmux("-S", socket, "new-session", "-d", "-s", name, "-x", "100", "-y", "30", cmd)
    try:

        async def screen_has(text: str) -> str:
            deadline = time.monotonic() + T * 2
            while time.monotonic() < deadline:
                screen = await asyncio.to_thread(
                    _tmux, "-S", socket, "capture-pane", "-p", "-t", name
                )
                if text in screen:
                    return screen
                await asyncio.sleep(0.1)
            raise AssertionError(f"no {text!r} on screen: {screen}")

        await screen_has("Choose a nickname")
        await asyncio.to_thread(_tmux, "-S", socket, "send-keys", "-t", name, "Tia", "Enter")
        await screen_has("Join seat")  # the lobby's footer
        # Its title may come a frame after the footer (5-110 ms, session 9): wait for it too.
        screen = await screen_has("Tables")
        assert "No tables yet" in screen
        await asyncio.to_thread(_tmux, "-S", socket, "send-keys", "-t", name, "C-q")
        screen = await screen_has("ssh-exit=")
        assert "Thanks for playing" in screen
        assert "ssh-exit=0" in screen
    finally:
        await asyncio.to_thread(
            subprocess.run, ["tmux", "-S", socket, "kill-server"], timeout=10, check=False
        )


def _need_openssh() -> None:
    missing = [tool for tool in ("ssh", "sftp", "scp", "ssh-keygen") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must install {', '.join(missing)} (see .ci/run)")
        pytest.skip(f"{', '.join(missing)} not installed")


def _openssh_policy(port: int, tmp: Path) -> dict[str, subprocess.CompletedProcess]:
    key = tmp / "id_policy"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True, timeout=30
    )
    opts = [
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-i", str(key),
    ]  # fmt: skip
    runs = {
        # stdin at EOF from the start and stdout a file: the output must still arrive
        "replays": ["ssh", "-p", str(port), *opts, "127.0.0.1", "replays"],
        "exec": ["ssh", "-p", str(port), *opts, "127.0.0.1", "cat", "/etc/passwd"],
        "no_pty": ["ssh", "-T", "-p", str(port), *opts, "127.0.0.1"],
        "sftp": ["sftp", "-P", str(port), *opts, "127.0.0.1"],
        "scp": ["scp", "-P", str(port), *opts, "/etc/hostname", "127.0.0.1:/tmp/speedway-x"],
        "scp_legacy": ["scp", "-O", "-P", str(port), *opts, "/etc/hostname", "127.0.0.1:/tmp/x"],
        "remote_fwd": [
            "ssh",
            "-p",
            str(port),
            *opts,
            "-o",
            "ExitOnForwardFailure=yes",
            "-R",
            "0:127.0.0.1:22",
            "-N",
            "127.0.0.1",
        ],
    }
    out = {}
    for name, argv in runs.items():
        with open(tmp / f"{name}.out", "w+") as f:
            proc = subprocess.run(
                argv, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.PIPE, timeout=20
            )
            f.seek(0)
            proc.stdout = f.read()
        out[name] = proc
    return out


async def test_openssh_client_policy(servers, tmp_path):
    _need_openssh()
    server = servers()
    runs = await asyncio.to_thread(_openssh_policy, server.port, tmp_path)
    assert runs["replays"].returncode == 0
    assert runs["replays"].stdout == "No finished games yet.\n"
    assert runs["exec"].returncode == 2
    assert runs["exec"].stdout.count("\n") == 1
    assert "unknown command" in runs["exec"].stdout
    assert runs["no_pty"].returncode == 1
    assert "needs a terminal" in runs["no_pty"].stdout
    for name in ("sftp", "scp", "scp_legacy", "remote_fwd"):
        assert runs[name].returncode != 0, name
    assert "event=exec" in server.stderr()
    # ... and it still serves players.
    conn, _term = await join(server.port, KEY_A, "Ann")
    conn.close()


KILL_AFTER = (0.35, 0.8, 0.15)  # "random" moments, fixed so a failure can be replayed


async def test_sigkill_at_moments_during_three_tables_loses_no_acknowledged_step(servers):
    """Three players race three tables (each against a bot) as fast as they can press keys;
    the server is SIGKILLed mid-play, restarted, and every table is back at or after the last
    step its player saw (everything a player saw was fsynced first); then again, three times.
    (That a finished race's replay verifies after all this is test_e2e_race's download.)"""
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]
    names = ["Ann", "Bob", "Cy"]
    server = servers("--bot-delay", "0.01")
    seen = [0, 0, 0]
    lost = 0
    survived = 0
    steps = 0
    for round_no, pause in enumerate(KILL_AFTER):
        sessions = []
        for i, key in enumerate(keys):
            conn, term = await join(server.port, key, names[i] if round_no == 0 else None)
            if round_no == 0:
                term.send("c")
            await term.wait_for("TABLE state=")
            now = last_state(term)
            if now < seen[i]:
                lost += 1
            assert now >= seen[i], f"{names[i]}'s table went back from {seen[i]} to {now}"
            sessions.append((conn, term))
        t0 = time.monotonic()
        while time.monotonic() - t0 < pause:  # everyone rolls as fast as the table allows
            for _conn, term in sessions:
                term.send("r")
            await asyncio.sleep(0.02)
        server.stop(signal.SIGKILL)
        survived += 1
        for i, (conn, term) in enumerate(sessions):
            steps += max(0, last_state(term) - seen[i])
            seen[i] = last_state(term)
            conn.close()
        server = servers("--bot-delay", "0.01")
    for i, key in enumerate(keys):  # the last restart: every table is still there
        conn, term = await join(server.port, key)
        await term.wait_for("TABLE state=")
        assert last_state(term) >= seen[i]
        conn.close()
    assert server.stop() == 0
    print(
        f"SIGKILL: {survived} kills survived, 3 tables, {steps} steps seen, "
        f"{lost} acknowledged steps lost"
    )
    assert lost == 0
    assert steps > 0


def _openssh_refused(port: int, tmp: Path) -> subprocess.CompletedProcess:
    key = tmp / "id_refused"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True, timeout=30
    )
    argv = [
        "ssh", "-p", str(port), "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-i", str(key),
        "127.0.0.1", "replays",
    ]  # fmt: skip
    return subprocess.run(
        argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20
    )


async def test_openssh_prints_why_a_connection_was_refused_and_when_to_retry(servers, tmp_path):
    import socket

    _need_openssh()
    server = servers("--limit", "per_source_startups=1")
    squat = socket.create_connection(("127.0.0.1", server.port), timeout=T)  # holds the slot
    try:
        await asyncio.sleep(0.3)
        run = await asyncio.to_thread(_openssh_refused, server.port, tmp_path)
    finally:
        squat.close()
    print(f"OpenSSH client was told: {run.stderr.strip()!r}")
    assert run.returncode != 0
    assert "Your address already has too many logins in progress" in run.stderr
    assert "please try again in 10 s" in run.stderr
    assert run.stderr.count("too many logins in progress") == 1  # one line, said once
