"""Hub and SSH-session throughput: what one server process can carry.

Figures:
- ``hub_steps_per_s`` / ``hub_updates_per_s``: bot-only tables in a `LocalHub` without disk,
  each with three viewers (two seats and a spectator), all running at once.
- ``hub_fsync_steps_per_s``: the same with the durable log on (one fsync per accepted action).
The hub figures use Go 500 when registered, else the Dash test game. The SSH figures (the real
server and the real app) are `bench.bench_ssh`; CPU per repaint of the real table screens is
`bench.bench_repaint`.
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


def run() -> Iterator[dict[str, Any]]:
    steps, updates, elapsed = asyncio.run(_hub_run(None))
    yield {"name": "hub_steps_per_s", "value": round(steps / elapsed), "unit": "steps/s"}
    yield {"name": "hub_updates_per_s", "value": round(updates / elapsed), "unit": "updates/s"}
    with tempfile.TemporaryDirectory() as tmp:
        steps, _updates, elapsed = asyncio.run(_hub_run(Path(tmp)))
    yield {"name": "hub_fsync_steps_per_s", "value": round(steps / elapsed), "unit": "steps/s"}

