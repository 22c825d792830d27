"""One client floods keys; what do the other players feel? (issue 11 item 3)

Starts the real server with the real app (`tests.net.run_server --real-app`, a temporary data
dir, 127.0.0.1) as a subprocess; a probe player types into the lobby's invite-code box at a
human pace (a character, then backspace) and measures key -> first output bytes; first on a quiet server, then while a second
logged-in client sends arrow keys as fast as its connection takes them (with the server's
default key budget: 40 events/s, then reading pauses, then a drop). Prints:

- ``flood_probe_key_to_screen_p99_ms`` (target 100) and its quiet baseline;
- ``flood_events_sent`` and whether the flooder was dropped.

Bounded: a few seconds per phase; the server process is stopped at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 40
FLOOD_SECONDS = 6.0


def _start_server(data: Path) -> tuple[subprocess.Popen[bytes], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.net.run_server", str(data), "--real-app"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    buf = b""
    os.set_blocking(proc.stdout.fileno(), False)
    while time.monotonic() < deadline:
        buf += proc.stdout.read() or b""
        m = re.search(rb"Join with: ssh -p (\d+)", buf)
        if m:
            return proc, int(m.group(1))
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


class _Client(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self) -> None:
        self.out = bytearray()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.out += data
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()


async def _login(port: int, nickname: str) -> tuple[Any, Any, _Client]:
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        known_hosts=None,
        username="bench",
        client_keys=[key],
        agent_path=None,
        password_auth=False,
    )
    client = _Client()
    chan, _ = await conn.create_session(
        lambda: client, term_type="xterm-256color", term_size=(100, 30), encoding=None
    )
    await _wait_for(client, "Choose a nickname")
    chan.write(nickname.encode() + b"\r")
    await _wait_for(client, "Tables")
    await asyncio.sleep(0.5)
    return conn, chan, client


async def _wait_for(client: _Client, needle: str, within: float = 30.0) -> None:
    from tests.net.sshclient import plain

    deadline = time.monotonic() + within
    while needle not in plain(bytes(client.out)):
        if time.monotonic() > deadline or client.closed.is_set():
            raise RuntimeError(f"no {needle!r} on the screen within {within} s")
        client.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.changed.wait(), 0.5)


async def _probe(chan: Any, client: _Client) -> list[float]:
    """Type into the lobby's invite-code box (`i`): every key echoes, so every key repaints."""
    from tests.net.sshclient import plain

    if "invite code" not in plain(bytes(client.out)):
        chan.write(b"i")
        await _wait_for(client, "invite code")
        await asyncio.sleep(0.3)
    latencies = []
    for i in range(PRESSES):
        before = len(client.out)
        t0 = time.perf_counter()
        chan.write(b"x" if i % 2 == 0 else b"\x7f")
        while len(client.out) == before and not client.closed.is_set():
            client.changed.clear()
            try:
                await asyncio.wait_for(client.changed.wait(), 3.0)
            except TimeoutError:
                break
        latencies.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(0.12)  # a human pace
    return latencies


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def _measure(port: int) -> dict[str, Any]:
    probe_conn, probe_chan, probe = await _login(port, "Probe")
    quiet = await _probe(probe_chan, probe)
    print(f"bench_flood: quiet phase done ({len(quiet)} presses)", file=sys.stderr, flush=True)
    flood_conn, flood_chan, flooder = await _login(port, "Flood")
    sent = 0
    stop = asyncio.Event()

    async def flood() -> None:
        nonlocal sent
        t0 = time.monotonic()
        while not stop.is_set() and not flooder.closed.is_set():
            flood_chan.write(b"\x1b[B\x1b[A" * 100)
            sent += 200
            # as fast as the connection takes them (the server may stop reading)
            while flood_chan.get_write_buffer_size() > 64 * 1024 and not stop.is_set():  # noqa: ASYNC110
                await asyncio.sleep(0.01)
            await asyncio.sleep(0)
            if time.monotonic() - t0 > FLOOD_SECONDS:
                break

    task = asyncio.ensure_future(flood())
    await asyncio.sleep(0.3)
    loud = await _probe(probe_chan, probe)
    stop.set()
    await asyncio.wait_for(task, 10.0)
    dropped = flooder.closed.is_set() or b"faster than anyone can play" in flooder.out
    probe_conn.close()
    flood_conn.close()
    return {"quiet": quiet, "loud": loud, "sent": sent, "dropped": dropped}


def run() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="bench-flood-") as tmp:
        proc, port = _start_server(Path(tmp) / "data")
        try:
            result = asyncio.run(asyncio.wait_for(_measure(port), 180.0))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    quiet, loud = _p99(result["quiet"]), _p99(result["loud"])
    yield {
        "bench": "flood_probe_key_to_screen_quiet_p99_ms",
        "value": round(quiet, 1),
        "unit": "ms",
        "target": None,
        "ok": None,
    }
    yield {
        "bench": "flood_probe_key_to_screen_p99_ms",
        "value": round(loud, 1),
        "unit": "ms",
        "target": 100,
        "ok": loud <= 100,
        "presses": PRESSES,
    }
    yield {
        "bench": "flood_events_sent",
        "value": result["sent"],
        "unit": "events",
        "target": None,
        "ok": None,
        "flooder_dropped": result["dropped"],
    }


if __name__ == "__main__":
    import json

    for figure in run():
        print(json.dumps(figure, sort_keys=True), flush=True)
