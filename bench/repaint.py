"""CPU per repaint of each game's real table screen, as a spectator over the real hub.

Owns `repaint_cpu_ms`: the real `SpeedwayApp`, driven by the real `net.ssh_driver.SSHDriver`
into a channel that only counts bytes (80x24 unless told), opens a network table of one game
as a spectator (``viewers`` apps, each with its own driver and channel, for the per-viewer cost
when several watch one table: they share frames, `net.mirror`, unless switched off); the bench plays the seats itself through the hub's public calls (`hint` for a
bot's move, then `submit`), and after each step waits until the frame's bytes have been written
and the output is quiet. Only that part is timed (process CPU): the hub's step and broadcast,
the screen's fold and widget updates, layout, compositor and the frame's bytes. The bots'
thinking is not.

Must not: use a stand-in screen or time the bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from typing import Any

GAMES = {
    "go500": "optimal,bold,cautious,random",
    "cthulhu500": "shrewd,random,shrewd,random",
    "champions": "promoter,random,promoter",
}


class _Channel:
    """What the SSH driver writes to: bytes and the time of each write (no network)."""

    def __init__(self) -> None:
        self.writes = 0
        self.bytes = 0
        self.wrote = asyncio.Event()

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.bytes += len(data)
        self.wrote.set()

    def is_closing(self) -> bool:
        return False


async def _quiet(channel: _Channel, *, first: int, within: float = 1.0) -> bool:
    """Wait for a write after ``first`` writes, then until the output has been quiet 30 ms.
    False if no write came within ``within`` seconds (a step that changes nothing shown, such
    as who is asked in a Cthulhu 500 reaction window)."""
    wrote = True
    if channel.writes <= first:
        channel.wrote.clear()
        try:
            await asyncio.wait_for(channel.wrote.wait(), within)
        except TimeoutError:
            wrote = False
    while True:
        channel.wrote.clear()
        try:
            await asyncio.wait_for(channel.wrote.wait(), 0.03)
        except TimeoutError:
            return wrote


async def _measure(
    game_id: str, steps: int, size: tuple[int, int], profiler: Any = None, viewers: int = 1
) -> list[float]:
    import functools

    from net.hub import Identity, SeatSpec, TableSpec
    from net.local_hub import LocalHub
    from net.ssh_driver import SSHDriver
    from tui.app import OpenTable, SpeedwayApp

    me = Identity(id="bench:me", nickname="bench")
    hub = LocalHub(None, persist=False, bot_delay=1e9, lobby_interval=0.0)
    names = GAMES[game_id].split(",")
    seats = [
        SeatSpec(kind="human", name=f"P{i + 1}", identity=me.id) for i in range(len(names))
    ]
    table_id = await hub.create_table(TableSpec(game=game_id, seats=seats, seed=7), me)
    channels: list[_Channel] = []
    apps: list[Any] = []
    runs: list[asyncio.Future[Any]] = []
    for v in range(viewers):
        channel = _Channel()
        app = SpeedwayApp(
            hub,
            Identity(id=f"bench:viewer{v}", nickname=f"viewer{v}"),
            start=OpenTable(table_id=table_id),
            animate=False,
            network=True,
            driver_class=functools.partial(SSHDriver, channel=channel),
        )
        channels.append(channel)
        apps.append(app)
        runs.append(asyncio.ensure_future(app.run_async(size=size)))
    cpu: list[float] = []
    try:
        table = hub.table(table_id)
        for app in apps:
            for _ in range(500):
                with contextlib.suppress(Exception):  # no screen yet
                    if getattr(app.screen, "fold", None) is not None:
                        break
                await asyncio.sleep(0.01)
        for channel in channels:
            await _quiet(channel, first=0)
        for _ in range(steps):
            pending = list(table.pending())
            if not pending or table.result() is not None:
                break
            seat = pending[0]
            action = await hub.hint(table_id, me, seat, names[seat])
            state = table.state_id
            before = [c.writes for c in channels]
            if profiler is not None:
                profiler.enable()
            start = time.process_time()
            await hub.submit(table_id, me, seat, action, state)
            within = 1.0
            for channel, first in zip(channels, before, strict=True):
                if not await _quiet(channel, first=first, within=within):
                    within = 0.05  # a step one viewer draws nothing for, the others neither
            cpu.append((time.process_time() - start) * 1000 / viewers)
            if profiler is not None:
                profiler.disable()
    finally:
        for app in apps:
            app.exit()
        for run in runs:
            await asyncio.wait_for(run, 10)
        await hub.close()
    return cpu


def repaint_cpu_ms(
    game_id: str, steps: int = 60, size: tuple[int, int] = (80, 24), viewers: int = 1
) -> float:
    """Median process CPU (ms) per step shown on ``game_id``'s table screen, per viewer."""
    samples = asyncio.run(_measure(game_id, steps, size, viewers=viewers))
    return statistics.median(samples[5:] or samples)


def run_all(steps: int = 60) -> dict[str, Any]:
    return {g: round(repaint_cpu_ms(g, steps), 2) for g in GAMES}


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run_all(int(sys.argv[1]) if len(sys.argv) > 1 else 60)))
