"""How far each layer is from the least work it could do (issue 11, second priority).

- ``core_overhead_<game>``: the engine per event as a `Table` runs it (`Table.submit` of the
  actions of seeded bot games: validation, resolution, fold) ÷ the least a game must do for the
  same events: draw the same random numbers (`core.rng.Pcg32`) and MessagePack-encode the same
  events. Target ≤ 3. The rules' caches are emptied after the bots play and warmed with another
  game, as a server's are: the bots' own games left in them made the figure flatter (session 12).
- ``replay_open``: open the largest of those games' replay files and fold it to its last state
  (`replays.open_replay` + `state_at`) ÷ reading the file and decoding its records. Target ≤ 3.
- ``tui_first_frame``: a fresh ``speedway`` process to the home screen's first frame ÷ a fresh
  process running a hello-world Textual app to its first frame (both drawing into a channel that
  counts bytes through the real SSH driver). Target ≤ 1.5.
Each is the median of a few repeats; bot thinking is never timed.
"""

from __future__ import annotations

import functools
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from bench import QUICK
from core import registry
from core.game import Seat, Table
from core.rng import Pcg32

ROOT = Path(__file__).resolve().parent.parent
GAMES = 4 if QUICK else 12


class _Counting:
    """A chance source that counts the numbers drawn (and draws them from a real Pcg32)."""

    def __init__(self, seed: int) -> None:
        self.inner = Pcg32(seed)
        self.draws: list[int] = []

    def below(self, n: int) -> int:
        self.draws.append(n)
        return self.inner.below(n)

    def snapshot(self) -> Any:
        return (self.inner.snapshot(), len(self.draws))

    def restore(self, snap: Any) -> None:
        self.inner.restore(snap[0])
        del self.draws[snap[1] :]


def _played(game_id: str, seed: int) -> tuple[list[tuple[int, Any]], Table]:
    """A seeded bot game: its actions, and the table (whose ``chance`` counted its draws)."""
    game = registry.get(game_id)
    bots = list(game.bots)
    n = min(4, game.max_seats)
    seats = [Seat(name=f"b{i}", bot=bots[i % len(bots)]) for i in range(n)]
    table = Table(game, game.default_config(), seats, seed, chance=_Counting(seed))
    table.run_bots()
    return [(s.seat, s.action) for s in table.history[1:] if s.seat is not None], table


def _clear_rule_caches() -> None:
    """Empty every cache of the rules' helpers (`core.memo` and the others)."""
    for name, module in list(sys.modules.items()):
        if name == "core" or name.startswith("core."):
            for value in vars(module).values():
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()


def core_overhead(game_id: str) -> float:
    game = registry.get(game_id)
    engine, floor = [], []
    games = [_played(game_id, seed) for seed in range(1, GAMES + 1)]
    # The bots just played these very games: the rules' caches hold their hands and routes. A
    # server's hold other races, so they are emptied and warmed with a game of another seed.
    _clear_rule_caches()
    _played(game_id, 1000)
    for seed, (actions, played) in enumerate(games, 1):
        events = [e for step in played.history for e in step.events]
        seats = played.seats
        # The draws were counted while the bots played (bots draw from their own chance, so the
        # table draws the same numbers again); the timed table draws from a plain Pcg32, as a
        # server's does, so the counting is not charged to the engine.
        assert isinstance(played.chance, _Counting)
        draws = played.chance.draws
        start = time.process_time()
        table = Table(game, game.default_config(), seats, seed)
        for seat, action in actions:
            table.submit(seat, action, table.state_id)
        engine.append(time.process_time() - start)
        assert table.state == played.state
        encode = msgspec.msgpack.Encoder().encode
        start = time.process_time()
        rng = Pcg32(seed)
        for n in draws:
            rng.below(n)
        for event in events:
            encode(event)
        floor.append(time.process_time() - start)
    return sum(engine) / sum(floor)


def replay_open() -> float:
    from replays import save_finished_table
    from replays.reader import open_replay

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for game_id in registry.game_ids():
            _, table = _played(game_id, 3)
            paths.append(save_finished_table(table, Path(tmp)))
        path = max(paths, key=lambda p: p.stat().st_size)
        opened, raw = [], []
        for _ in range(3 if QUICK else 7):
            start = time.process_time()
            replay = open_replay(path)
            replay.state_at(replay.last_step)
            opened.append(time.process_time() - start)
            start = time.process_time()
            data = path.read_bytes()
            _decode_records(data)
            raw.append(time.process_time() - start)
    return statistics.median(opened) / statistics.median(raw)


def _decode_records(data: bytes) -> int:
    """Walk the framing and msgpack-decode every payload (no checks, no fold)."""
    import struct

    from replays.format import PREAMBLE_SIZE, RECORD_HEAD

    decode = msgspec.msgpack.Decoder().decode
    pos, count = PREAMBLE_SIZE, 0
    while pos + RECORD_HEAD <= len(data):
        (length,) = struct.unpack_from("<I", data, pos)
        start = pos + RECORD_HEAD
        decode(data[start : start + length])
        pos = start + length
        count += 1
    return count


_FIRST_FRAME = """
import sys, time, asyncio, functools
t0 = time.perf_counter()
{imports}
from net.ssh_driver import SSHDriver
class Chan:
    def __init__(self): self.done = asyncio.Event(); self.n = 0
    def write(self, data):
        self.n += len(data)
        if self.n > 2000: self.done.set()
    def is_closing(self): return False
async def main():
    chan = Chan()
    app = {make}
    run = asyncio.ensure_future(app.run_async(size=(80, 24)))
    await chan.done.wait()
    print(time.perf_counter() - t0, flush=True)
    app.exit()
    await run
asyncio.run(main())
"""


def _first_frame(imports: str, make: str) -> float:
    script = _FIRST_FRAME.format(imports=imports, make=make)
    times = []
    for _ in range(3 if QUICK else 7):
        with tempfile.TemporaryDirectory() as data:
            start = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-c", script],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=60,
                env={"SPEEDWAY_DATA": data, "PATH": "/usr/bin:/bin", "HOME": data},
            )
            total = time.perf_counter() - start
        if out.returncode != 0:
            raise RuntimeError(out.stderr[-500:])
        times.append(total)
    return statistics.median(times)


def tui_first_frame() -> tuple[float, float, float]:
    hello = _first_frame(
        "from textual.app import App\nfrom textual.widgets import Static\n"
        "class Hello(App):\n    def compose(self):\n        yield Static('hello ' * 400)\n",
        "Hello(driver_class=functools.partial(SSHDriver, channel=chan))",
    )
    ours = _first_frame(
        "from pathlib import Path\nfrom tui.app import SpeedwayApp\nfrom tui.launch import "
        "local_identity, make_hub\n",
        "SpeedwayApp(make_hub(None), local_identity(), "
        "driver_class=functools.partial(SSHDriver, channel=chan))",
    )
    return ours / hello, ours, hello


def run() -> Iterator[dict[str, Any]]:
    for game_id in registry.game_ids():
        yield {
            "bench": f"core_overhead_{game_id}",
            "value": round(core_overhead(game_id), 1),
            "unit": "x",
            "target": 3,
            "games": GAMES,
        }
    yield {"bench": "replay_open", "value": round(replay_open(), 1), "unit": "x", "target": 3}
    ratio, ours, hello = tui_first_frame()
    yield {
        "bench": "tui_first_frame",
        "value": round(ratio, 2),
        "unit": "x",
        "target": 1.5,
        "speedway_s": round(ours, 3),
        "hello_world_s": round(hello, 3),
    }
