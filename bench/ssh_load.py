"""The load generator for the real server: `speedway serve` in a subprocess, N real SSH clients.

Owns `run_load`: start `speedway serve --bench-hooks` (the real server and the real app) with a
temporary data dir and ``SPEEDWAY_TRACE`` on loopback; connect N asyncssh clients, each with its
own key and a PTY (xterm-256color, 80x24); each picks a nickname; every ``group``-th creates a
table of bots (``SPEEDWAY_START=create:...``, the hub calls the new-game form makes) and the
others watch those tables (``watch:ID``, the lobby's watch call). After a settle time the window
opens; at its end the server's trace (the monotonic time of every broadcast step, every GC pause)
is matched against the time each client received bytes: event-to-screen latency is the time from
a broadcast to the first bytes a viewer of that table receives after it (CLOCK_MONOTONIC is
shared by the processes of one machine). A probe client then logs in fresh and times the lobby,
the new-game form, the rules page and single keys while the load runs.

Must not: bind anything but 127.0.0.1, run unbounded, or use a stand-in app.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
_ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]P^_][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[@-Z\\-_]")
_TABLE_ID = re.compile(r"table ([0-9a-f]{8})")
CONNECT_AT_ONCE = 4
T = 60.0  # the bound on any single wait


def plain(data: bytes) -> str:
    return _ANSI.sub(b"", data).decode("utf-8", errors="replace")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


# ---------------------------------------------------------------------------- the server


class Server:
    """`speedway serve` as a subprocess; CPU and RSS read from /proc."""

    def __init__(self, data: Path, extra: list[str] | None = None) -> None:
        self.data = data
        self.trace_path = data / "trace.jsonl"
        self.extra = extra or []
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0

    async def start(self) -> None:
        env = dict(os.environ, SPEEDWAY_TRACE=str(self.trace_path), PYTHONUNBUFFERED="1")
        err = open(self.data / "server.log", "wb")  # noqa: SIM115, ASYNC230 - lives with the server
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tui.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data",
            str(self.data),
            "--bench-hooks",
            "--max-sessions",
            "500",
            *self.extra,
            cwd=str(ROOT),
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
        )
        assert self.proc.stdout is not None
        while True:
            line = await asyncio.wait_for(self.proc.stdout.readline(), T)
            if not line:
                raise RuntimeError("the server exited: " + (self.data / "server.log").read_text())
            m = re.search(rb"port (\d+)", line)
            if m:
                self.port = int(m.group(1))
                break

    def cpu_seconds(self) -> float:
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 15)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()

    def trace(self) -> list[dict[str, Any]]:
        if not self.trace_path.exists():
            return []
        out = []
        for line in self.trace_path.read_text().splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out


# ---------------------------------------------------------------------------- clients


class Client(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """One SSH session with a PTY: every chunk's arrival time, and the screen text for waits."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.buf = bytearray()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.chan: Any = None
        self.conn: Any = None
        self.table: str | None = None
        self.total = 0
        self.since = 0.0  # steps of its table broadcast before this are not its to time
        self.until = float("inf")  # nor those after it left (`churn`)

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.times.append(time.monotonic())
        self.total += len(data)
        self.buf += data
        if len(self.buf) > 256 * 1024:
            del self.buf[: len(self.buf) - 128 * 1024]
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def text(self) -> str:
        return plain(bytes(self.buf))

    async def wait_for(self, pattern: str | re.Pattern[str], within: float = T) -> re.Match[str]:
        rx = re.compile(pattern) if isinstance(pattern, str) else pattern

        async def loop() -> re.Match[str]:
            while True:
                m = rx.search(self.text())
                if m:
                    return m
                if self.closed.is_set():
                    raise RuntimeError(f"closed before {rx.pattern!r}: {self.text()[-400:]!r}")
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(loop(), within)

    def clear(self) -> None:
        self.buf.clear()

    def send(self, data: str) -> None:
        self.chan.write(data.encode())

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            self.chan.close()
        with contextlib.suppress(Exception):
            self.conn.close()


async def open_client(port: int, nick: str, start: str | None, size: tuple[int, int]) -> Client:
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncio.wait_for(
        asyncssh.connect(
            "127.0.0.1",
            port,
            known_hosts=None,
            username=nick,
            client_keys=[key],
            agent_path=None,
            password_auth=False,
        ),
        T,
    )
    client = Client()
    env = {"SPEEDWAY_START": start} if start else {}
    chan, _ = await conn.create_session(
        lambda: client,
        encoding=None,
        term_type="xterm-256color",
        term_size=size,
        env=env,
    )
    client.chan = chan
    client.conn = conn
    await client.wait_for("Choose a nickname")
    client.send(nick + "\r")
    return client


# ---------------------------------------------------------------------------- the run


@dataclass
class LoadResult:
    sessions: int
    tables: int
    window: float
    latencies_ms: list[float] = field(default_factory=list)
    missed: int = 0
    quiet: int = 0  # (viewer, step) pairs whose step changed nothing on that screen (not timed)
    steps: int = 0
    gcs: list[tuple[int, float]] = field(default_factory=list)  # (generation, ms) in the window
    gc_longest_cpu_ms: float = 0.0
    gc_longest_ms: float = 0.0
    gc_total_ms: float = 0.0
    cpu_share: float = 0.0
    rss_idle: float = 0.0
    rss_loaded: float = 0.0
    rss_end: float = 0.0
    rss_series: list[tuple[float, float]] = field(default_factory=list)  # (s into window, MiB)
    steps_per_table_s: float = 0.0
    probe: dict[str, list[float]] = field(default_factory=dict)
    shared: int = 0  # most sessions following another's frames at once (`net.mirror`)
    client_cpu_share: float = 0.0  # the load generator's own CPU (its clients' timestamps)

    def row(self) -> dict[str, Any]:
        lat = self.latencies_ms
        return {
            "sessions": self.sessions,
            "p50": round(percentile(lat, 50), 1),
            "p99": round(percentile(lat, 99), 1),
            "max": round(max(lat), 1) if lat else None,
            "samples": len(lat),
            "missed": self.missed,
            "quiet": self.quiet,
            "gc_longest_ms": round(self.gc_longest_ms, 1),
            "gc_longest_cpu_ms": round(self.gc_longest_cpu_ms, 1),
            "cpu": round(self.cpu_share, 3),
            "following": self.shared,
            "clients_cpu": round(self.client_cpu_share, 3),
            "rss_per_session_mib": round(self.rss_per_session, 2),
            "rss_growth": round(self.rss_growth, 3),
            "rss_growth_second_half": round(self.rss_growth_second_half, 3),
            "rss_series_mib": [[round(t), round(m, 1)] for t, m in self.rss_series],
            "steps_per_table_s": round(self.steps_per_table_s, 3),
        }

    @property
    def rss_per_session(self) -> float:
        return (self.rss_loaded - self.rss_idle) / max(1, self.sessions)

    @property
    def rss_growth(self) -> float:
        return (self.rss_end - self.rss_loaded) / self.rss_loaded if self.rss_loaded else 0.0

    @property
    def rss_growth_second_half(self) -> float:
        """Growth from the first sample at or past half the window to the end: whether memory
        still climbs once the caches are full and the first races have ended (`rss_growth` also
        counts those first minutes)."""
        half = next((m for t, m in self.rss_series if t >= self.window / 2), None)
        return (self.rss_end - half) / half if half else 0.0


async def _sample_rss(
    server: Server, t0: float, window: float, into: list[tuple[float, float]]
) -> None:
    """The server's RSS every tenth of the window (at most every 30 s, at least every 0.5 s)."""
    every = min(30.0, max(0.5, window / 10))
    while True:
        await asyncio.sleep(every)
        into.append((time.monotonic() - t0, server.rss_mib()))


async def _connect_all(port: int, starts: list[tuple[str, str | None]]) -> list[Client]:
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def one(nick: str, start: str | None) -> Client:
        async with gate:
            return await open_client(port, nick, start, (80, 24))

    return list(await asyncio.gather(*(one(n, s) for n, s in starts)))


async def run_load(
    sessions: int,
    *,
    group: int = 4,
    game: str = "cthulhu500",
    bots: str = "shrewd,random,shrewd,random",
    window: float = 20.0,
    settle: float = 3.0,
    probe: bool = True,
    one_table: bool = False,
    flood: bool = False,
    churn: bool = False,
    serve_args: list[str] | None = None,
) -> LoadResult:
    """Start a server, hold ``sessions`` clients for ``window`` seconds, measure (module doc).

    ``churn``: when a table's race is over its players look at the result for a few seconds and
    log out, and as many new players log in to a new table of bots and watch it (`_churn`), so
    races run all through a long window (an evening, not one race and then idle tables).
    ``serve_args``: more `speedway serve` options (``--workers 2 --bus URL``)."""
    with tempfile.TemporaryDirectory(prefix="speedway-load-") as tmp:
        server = Server(Path(tmp), serve_args)
        await server.start()
        print(f"load: server on 127.0.0.1 port {server.port}", file=sys.stderr, flush=True)
        clients: list[Client] = []
        try:
            await asyncio.sleep(0.5)
            rss_idle = server.rss_mib()
            creators = 1 if one_table else max(1, sessions // group)
            made = await _connect_all(
                server.port,
                [(f"make{i}", f"create:{game}:{bots}") for i in range(creators)],
            )
            for c in made:
                c.table = (await c.wait_for(_TABLE_ID)).group(1)
            clients += made
            watchers = []
            for i in range(sessions - creators):
                table = made[0 if one_table else i % creators].table
                watchers.append((f"view{i}", f"watch:{table}"))
            watching = await _connect_all(server.port, watchers)
            for c, (_, start) in zip(watching, watchers, strict=True):
                c.table = start.split(":", 1)[1] if start else None
            clients += watching
            flooder = None
            if flood:  # one player holds an arrow key down (under the byte limit) all along
                hog = await open_client(server.port, "flood", None, (80, 24))
                await hog.wait_for("Create table")
                clients.append(hog)
                flooder = asyncio.ensure_future(_flood(hog))
            await asyncio.sleep(settle)
            rss_loaded = server.rss_mib()
            cpu0, t0 = server.cpu_seconds(), time.monotonic()
            own0 = time.process_time()  # this process: the clients (a busy one reads late)
            churning = []
            if churn:
                for i, c in enumerate(made):
                    group = [c, *(w for w in watching if w.table == c.table)]
                    churning.append(
                        asyncio.ensure_future(
                            _churn(server.port, group, i, f"create:{game}:{bots}", clients)
                        )
                    )
            rss_series: list[tuple[float, float]] = []
            sampler = asyncio.ensure_future(_sample_rss(server, t0, window, rss_series))
            probe_times: dict[str, list[float]] = {}
            if probe:
                probe_times = await _probe(server.port, window)
            else:
                await asyncio.sleep(window)
            t1 = time.monotonic()
            sampler.cancel()
            for task in churning:
                task.cancel()
            if flooder is not None:
                flooder.cancel()
            cpu1 = server.cpu_seconds()
            own1 = time.process_time()
            rss_end = server.rss_mib()
        finally:
            await server.stop()
            for c in clients:
                await c.close()
        result = LoadResult(sessions=sessions, tables=len(made), window=t1 - t0)
        result.cpu_share = (cpu1 - cpu0) / (t1 - t0)
        result.client_cpu_share = (own1 - own0) / (t1 - t0)
        result.rss_idle, result.rss_loaded, result.rss_end = rss_idle, rss_loaded, rss_end
        result.rss_series = rss_series
        result.probe = probe_times
        _match(result, server.trace(), clients, t0, t1)
        return result


async def run_ladder(
    rungs: list[int],
    holds: Callable[[LoadResult], bool],
    *,
    group: int = 4,
    game: str = "cthulhu500",
    bots: str = "shrewd,random,shrewd,random",
    window: float = 10.0,
    settle: float = 2.0,
    serve_args: list[str] | None = None,
) -> list[LoadResult]:
    """One server, sessions added rung by rung: the load of `run_load` grown to each count of
    ``rungs`` in turn (a new table of bots and its watchers for every ``group`` sessions),
    each rung measured over its own window, until one does not ``hold``.

    A rung that does not hold gets one more window at the same count (one stall of a loaded
    machine must not decide it); the better of the two is its result. Only the sessions a
    rung adds log in for it, so a ladder costs one server start and its top rung's logins,
    not every rung's. A race lasts 150-200 s: a ladder that takes longer (a full run's 30 s
    windows) measures its upper rungs with the first tables' races over, a lighter load than
    the count says; QUICK's (about a minute a ladder) stays inside the first races."""
    results: list[LoadResult] = []
    with tempfile.TemporaryDirectory(prefix="speedway-ladder-") as tmp:
        server = Server(Path(tmp), serve_args)
        await server.start()
        print(f"ladder: server on 127.0.0.1 port {server.port}", file=sys.stderr, flush=True)
        clients: list[Client] = []
        made: list[Client] = []
        watchers: dict[str, int] = {}
        try:
            await asyncio.sleep(0.5)
            rss_idle = server.rss_mib()
            for n in rungs:
                await _grow(server.port, n, group, f"create:{game}:{bots}", clients, made,
                            watchers)  # fmt: skip
                await asyncio.sleep(settle)
                tries = [await _window(server, clients, len(made), window, rss_idle)]
                if not holds(tries[0]):
                    tries.append(await _window(server, clients, len(made), window, rss_idle))
                best = max(tries, key=lambda r: (holds(r), -percentile(r.latencies_ms, 99)))
                results.append(best)
                if not holds(best):
                    break
        finally:
            await server.stop()
            for c in clients:
                await c.close()
    return results


async def _grow(
    port: int,
    n: int,
    group: int,
    create: str,
    clients: list[Client],
    made: list[Client],
    watchers: dict[str, int],
) -> None:
    """Add sessions until there are ``n``: first the tables ``n`` needs (one per ``group``),
    then watchers, each on the table with the fewest."""
    new = [(f"make{i}", create) for i in range(len(made), max(1, n // group))]
    fresh = await _connect_all(port, new)
    for c in fresh:
        c.table = (await c.wait_for(_TABLE_ID)).group(1)
        watchers[c.table] = 0
    made += fresh
    clients += fresh
    starts = []
    for i in range(n - len(clients)):
        table = min(watchers, key=lambda t: watchers[t])  # ties: the oldest table (dict order)
        watchers[table] += 1
        starts.append((f"view{len(clients) + i}", f"watch:{table}"))
    joined = await _connect_all(port, starts)
    for c, (_, start) in zip(joined, starts, strict=True):
        c.table = start.split(":", 1)[1]
    clients += joined


async def _window(
    server: Server, clients: list[Client], tables: int, window: float, rss_idle: float
) -> LoadResult:
    """Measure the running load over ``window`` seconds (`_match`)."""
    rss_loaded = server.rss_mib()
    cpu0, t0 = server.cpu_seconds(), time.monotonic()
    await asyncio.sleep(window)
    t1 = time.monotonic()
    cpu1 = server.cpu_seconds()
    result = LoadResult(sessions=len(clients), tables=tables, window=t1 - t0)
    result.cpu_share = (cpu1 - cpu0) / (t1 - t0)
    result.rss_idle, result.rss_loaded, result.rss_end = rss_idle, rss_loaded, server.rss_mib()
    await asyncio.sleep(1.2)  # the server writes its trace once a second
    _match(result, server.trace(), clients, t0, t1)
    return result


def _match(
    result: LoadResult, trace: list[dict[str, Any]], clients: list[Client], t0: float, t1: float
) -> None:
    """Latency of each (viewer, step): the step's broadcast to the viewer's next bytes.

    A step the server's screens drew nothing for (a ``quiet`` record: nothing they show
    changed) has no latency of its own; a viewer whose next bytes came only after the table's
    next step is counted in ``quiet``, not timed. Every client here watches as a spectator,
    so only the spectators' quiet records apply.
    """
    steps: dict[str, list[float]] = {}
    quiet: set[tuple[str, float]] = set()
    states: dict[tuple[str, int], float] = {}
    quiet_states: list[tuple[str, int]] = []
    for rec in trace:
        if rec["k"] == "step":
            states[(rec["table"], rec["state"])] = rec["t"]
            if t0 <= rec["t"] <= t1:
                steps.setdefault(rec["table"], []).append(rec["t"])
        elif rec["k"] == "quiet" and rec["seat"] is None:
            quiet_states.append((rec["table"], rec["state"]))
        elif rec["k"] == "shared" and t0 <= rec["t"] <= t1:
            result.shared = max(result.shared, rec["members"] - rec["groups"])
        elif rec["k"] == "gc" and t0 <= rec["t"] <= t1:
            result.gcs.append((rec["gen"], rec["ms"]))
            result.gc_longest_cpu_ms = max(result.gc_longest_cpu_ms, rec.get("cpu_ms", 0.0))
            result.gc_longest_ms = max(result.gc_longest_ms, rec["ms"])
            result.gc_total_ms += rec["ms"]
    every: dict[str, list[float]] = {}
    for (table, _state), t in states.items():
        every.setdefault(table, []).append(t)
    for times_of in every.values():
        times_of.sort()
    for key in quiet_states:
        if key in states:
            quiet.add((key[0], states[key]))
    result.steps = sum(len(v) for v in steps.values())
    # Each table's time at play in the window: from the window's start (or its first step,
    # for a table that began in it) to the window's end (or its last step, for a race that
    # ended in it: with `churn`, tables come and go).
    playing = 0.0
    for table, in_window in steps.items():
        times_of = every[table]
        start = t0 if times_of[0] < t0 else in_window[0]
        end = t1 if times_of[-1] > t1 else in_window[-1]
        playing += max(0.0, end - start)
    if steps and playing > 0:
        result.steps_per_table_s = result.steps / playing
    for c in clients:
        times = c.times
        table = c.table or ""
        later = every.get(table, [])
        for tb in steps.get(table, []):
            if not c.since <= tb <= c.until:
                continue  # before it was at the table, or after it left (`churn`)
            k = bisect.bisect_left(times, tb)
            n = bisect.bisect_right(later, tb)
            following = later[n] if n < len(later) else float("inf")
            if (table, tb) in quiet and (k >= len(times) or times[k] > following):
                result.quiet += 1
            elif k < len(times) and times[k] - tb < 5.0:
                result.latencies_ms.append((times[k] - tb) * 1000)
            else:
                result.missed += 1


_RACE_OVER = re.compile(r"Race over")


async def _race_over(c: Client) -> None:
    """Until ``c``'s screen says the race is over (its newest output, every 2 s: searching the
    whole buffer on every chunk would cost the load generator CPU the clients need)."""
    while not _RACE_OVER.search(plain(bytes(c.buf[-32768:]))):
        if c.closed.is_set():
            raise RuntimeError("closed before the race was over")
        await asyncio.sleep(2.0)


async def _churn(
    port: int, group: list[Client], n: int, start: str, clients: list[Client], linger: float = 5.0
) -> None:
    """One table's players, race after race (cancelled at the window's end): when the race is
    over they look at the result for ``linger`` seconds and log out, and a new creator logs in
    to a new table of bots with as many new watchers. A new client's latencies count from the
    moment its table shows (`Client.since`)."""
    generation = 0
    with contextlib.suppress(asyncio.CancelledError):
        while True:
            await _race_over(group[0])
            await asyncio.sleep(linger)
            watching = len(group) - 1
            for c in group:
                c.until = time.monotonic()
                await c.close()
            generation += 1
            maker = await open_client(port, f"make{n}r{generation}", start, (80, 24))
            clients.append(maker)
            maker.table = (await maker.wait_for(_TABLE_ID)).group(1)
            maker.since = time.monotonic()
            watchers = await _connect_all(
                port,
                [(f"view{n}r{generation}w{k}", f"watch:{maker.table}") for k in range(watching)],
            )
            for w in watchers:
                clients.append(w)
                w.table = maker.table
                await w.wait_for(f"table {maker.table}")
                w.since = time.monotonic()
            group = [maker, *watchers]


async def _probe(port: int, window: float) -> dict[str, list[float]]:
    """A fresh player under load: login-to-lobby, lobby/new-game/rules opens, key-to-screen."""
    out: dict[str, list[float]] = {"login": [], "lobby": [], "new_game": [], "rules": [], "key": []}
    deadline = time.monotonic() + window
    n = 0
    while time.monotonic() < deadline - 2:
        n += 1
        start = time.monotonic()
        c = await open_client(port, f"probe{n}", None, (80, 24))
        try:
            await c.wait_for("Create table")
            out["login"].append((time.monotonic() - start) * 1000)
            for _ in range(5):  # single keys: the lobby's cursor moves
                await asyncio.sleep(0.15)
                before = len(c.times)
                sent = time.monotonic()
                c.send("\x1b[B" if _ % 2 == 0 else "\x1b[A")
                await _first_bytes(c, before)
                out["key"].append((c.times[before] - sent) * 1000)
            for key, name, needle in (
                ("c", "new_game", "Start race"),
                ("\x1b", "lobby", "Create table"),
            ):
                await asyncio.sleep(0.2)
                c.clear()
                sent = time.monotonic()
                c.send(key)
                await c.wait_for(needle)
                out[name].append((time.monotonic() - sent) * 1000)
            await asyncio.sleep(0.2)
            c.clear()
            c.send("\x1b")  # back to home
            await c.wait_for("Signed in as")
            await asyncio.sleep(0.2)
            c.clear()
            sent = time.monotonic()
            c.send("r")
            await c.wait_for("Go 500")
            out["rules"].append((time.monotonic() - sent) * 1000)
            await asyncio.sleep(0.2)
            c.clear()
            c.send("\x1b")
            await c.wait_for("Signed in as")
            await asyncio.sleep(0.2)
            c.clear()
            sent = time.monotonic()
            c.send("l")
            await c.wait_for("Create table")
            out["lobby"].append((time.monotonic() - sent) * 1000)
        finally:
            await c.close()
    return out


async def _flood(c: Client) -> None:
    """Arrow keys as fast as a held key repeats and then some: 4,000 keys/s, 12 KB/s."""
    with contextlib.suppress(Exception):
        while not c.closed.is_set():
            c.send("\x1b[B" * 40)
            await asyncio.sleep(0.01)


async def _first_bytes(c: Client, before: int, within: float = 10.0) -> None:
    async def loop() -> None:
        while len(c.times) <= before:
            c.changed.clear()
            await c.changed.wait()

    await asyncio.wait_for(loop(), within)


def summary(result: LoadResult) -> str:
    row = result.row()
    probe = {k: round(statistics.median(v), 1) for k, v in result.probe.items() if v}
    gens = {g: [round(ms, 1) for gen, ms in result.gcs if gen == g] for g in (0, 1, 2)}
    worst = {g: sorted(v)[-3:] for g, v in gens.items()}
    counts = {g: len(v) for g, v in gens.items()}
    return json.dumps({**row, "probe_median_ms": probe, "gc_counts": counts, "gc_worst": worst})


if __name__ == "__main__":  # python -m bench.ssh_load N [window] [one|churn]
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    w = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    mode = sys.argv[3] if len(sys.argv) > 3 else ""
    result = asyncio.run(run_load(n, window=w, one_table=mode == "one", churn=mode == "churn"))
    print(summary(result))
