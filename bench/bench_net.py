"""Hub and SSH-session throughput: what one server process can carry.

Figures:
- ``hub_steps_per_s`` / ``hub_updates_per_s``: bot-only tables in a `LocalHub` without disk,
  each with three viewers (two seats and a spectator), all running at once.
- ``hub_fsync_steps_per_s``: the same with the durable log on (one fsync per accepted action).
- ``ssh_first_frame_ms``: nickname entered -> the app's first frame, one session, idle server.
- ``ssh_cpu_ms_per_repaint``: process CPU per (session x table step) with N spectators over real
  SSH on loopback watching one bot table (client crypto included: an upper bound).
The hub figures use Go 500 when registered, else the Dash test game; the SSH figures use Dash
and the small stand-in app of the tests (a lean screen, as the notes' "lean" rows).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core import registry
from net.hub import Identity, SeatSpec, StepUpdate, TableSpec

TABLES = 8
SPECTATORS = 10
WATCH_SECONDS = 4.0


def _game_id() -> tuple[str, dict[str, Any] | None]:
    if "go500" in registry.game_ids():
        return "go500", None
    from tests.fakegame import GAME

    return "dash", {"dash": GAME}


async def _hub_run(data: Path | None) -> tuple[int, int, float]:
    from net.local_hub import LocalHub

    game_id, games = _game_id()
    hub = LocalHub(data, bot_delay=0.0, games=games, persist=data is not None, lobby_interval=0)
    who = Identity(id="bench", nickname="bench")
    updates = 0

    async def drain(watch: Any) -> None:
        nonlocal updates
        async for item in watch:
            if isinstance(item, StepUpdate):
                updates += 1

    start = time.perf_counter()
    ids = []
    tasks = []
    for seed in range(TABLES):
        spec = TableSpec(
            game=game_id, seats=[SeatSpec(kind="bot"), SeatSpec(kind="bot")], seed=seed + 1
        )
        tid = await hub.create_table(spec, who)
        ids.append(tid)
        for _ in range(3):
            tasks.append(asyncio.ensure_future(drain(hub.watch(tid, who, None))))
    while any(hub.info(t).status != "finished" for t in ids):  # noqa: ASYNC110
        await asyncio.sleep(0.01)
    elapsed = time.perf_counter() - start
    steps = sum(hub.table(t).state_id for t in ids)
    await hub.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return steps, updates, elapsed


async def _ssh_run() -> dict[str, float]:
    import asyncssh

    from net.local_hub import LocalHub
    from net.server import Limits, SpeedwayServer, load_or_create_host_key
    from tests.fakegame import GAME as DASH
    from tests.net.mini_app import make_app
    from tests.net.sshclient import Term, connect

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        hub = LocalHub(data, bot_delay=0.25, games={"dash": DASH}, persist=False)
        server = SpeedwayServer(
            hub,
            make_app,
            host_key=load_or_create_host_key(data),
            data_dir=data,
            limits=Limits(max_app_starts=4),
        )
        port = await server.start("127.0.0.1", 0)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(SPECTATORS)]
        conns, terms = [], []
        first_frame = 0.0
        for i in range(SPECTATORS):
            conn = await connect(port, keys[i])
            term = await Term.open(conn)
            await term.wait_for("Choose a nickname")
            t0 = time.perf_counter()
            term.send(f"p{i}\r")
            await term.wait_for("HELLO")
            if i == 0:
                first_frame = time.perf_counter() - t0
            conns.append(conn)
            terms.append(term)
        # One long Dash bot table (far goal) that every session watches.
        spec = TableSpec(
            game="dash",
            seats=[SeatSpec(kind="bot", bot="random"), SeatSpec(kind="bot", bot="random")],
            options={"goal": 10_000},
        )
        tid = await hub.create_table(spec, Identity(id="bench", nickname="bench"))
        for term in terms:
            term.send("w")
        before_steps = hub.table(tid).state_id
        cpu0 = time.process_time()
        await asyncio.sleep(WATCH_SECONDS)
        cpu = time.process_time() - cpu0
        steps = hub.table(tid).state_id - before_steps
        for conn in conns:
            conn.close()
        await server.shutdown()
    repaints = max(1, steps * SPECTATORS)
    return {
        "first_frame_ms": first_frame * 1000,
        "cpu_ms_per_repaint": cpu * 1000 / repaints,
        "sessions": SPECTATORS,
    }


def run() -> Iterator[dict[str, Any]]:
    steps, updates, elapsed = asyncio.run(_hub_run(None))
    yield {"name": "hub_steps_per_s", "value": round(steps / elapsed), "unit": "steps/s"}
    yield {"name": "hub_updates_per_s", "value": round(updates / elapsed), "unit": "updates/s"}
    with tempfile.TemporaryDirectory() as tmp:
        steps, _updates, elapsed = asyncio.run(_hub_run(Path(tmp)))
    yield {"name": "hub_fsync_steps_per_s", "value": round(steps / elapsed), "unit": "steps/s"}
    ssh = asyncio.run(_ssh_run())
    yield {"name": "ssh_first_frame_ms", "value": round(ssh["first_frame_ms"], 1), "unit": "ms"}
    yield {
        "name": "ssh_cpu_ms_per_repaint",
        "value": round(ssh["cpu_ms_per_repaint"], 2),
        "unit": "ms",
        "sessions": ssh["sessions"],
    }
