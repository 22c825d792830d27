"""Replay analysis speed: whole replays analysed from real files, on one core.

Targets (issue 16): a 4-player Go 500 replay in at most 2 s; a NASCAR Champions and a
Cthulhu 500 replay with the default settings in at most 30 s (Champions: rollouts to the end
of the lap; each row names the rollouts and horizon it ran). Each figure is one dict
``{"bench", "value", "unit", "target", "ok", ...}``; the value is the slowest of the
replays tried. Go 500 figures are cold: the solver's caches are emptied before each replay,
as in a fresh ``speedway replay FILE --analyse``. ``QUICK``: three Go 500 replays, not ten.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench import QUICK
from core import registry
from core.analysis import Settings, played, resolve
from core.game import Seat, Table
from replays.analysis import analyse_replay
from replays.reader import open_replay
from replays.store import save_finished_table

CASES: tuple[tuple[str, tuple[str, ...], tuple[int, ...], float], ...] = (
    ("go500", ("optimal", "cautious", "bold", "random"), tuple(range(1, 4 if QUICK else 11)), 2.0),
    ("champions", ("promoter", "random", "promoter"), (1,), 30.0),
    ("cthulhu500", ("shrewd", "random", "shrewd", "random"), (1,), 30.0),
)
"""Game, seats, seeds (the figure is the slowest of them) and the target in seconds."""


def _replay_file(folder: Path, game_id: str, bots: Sequence[str], seed: int) -> Path:
    game = registry.get(game_id)
    seats = [Seat(name=f"{bot}-{i + 1}", bot=bot) for i, bot in enumerate(bots)]
    table = Table(game, game.default_config(), seats, seed)
    table.run_bots()
    return save_finished_table(table, folder)


def _cold_go500() -> None:
    from core.go500 import optimal

    optimal.policy.cache_clear()
    optimal.win_table.cache_clear()
    optimal.finish_chance.cache_clear()


def run() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        for game_id, bots, seeds, target in CASES:
            settings = Settings()  # the game's defaults
            rollouts, horizon = played(resolve(game_id, settings))
            worst = 0.0
            steps = decisions = 0
            for seed in seeds:
                path = _replay_file(Path(tmp) / game_id, game_id, bots, seed)
                replay = open_replay(path)
                if game_id == "go500":
                    _cold_go500()
                start = time.process_time()
                analysis = analyse_replay(replay, settings)
                elapsed = time.process_time() - start
                if elapsed >= worst:
                    worst, steps, decisions = elapsed, replay.last_step, len(analysis.decisions)
            name = f"analysis.{game_id}.{len(bots)}p_replay_s"
            yield {
                "bench": name,
                "value": round(worst, 3),
                "unit": "s (CPU)",
                "target": target,
                "ok": worst <= target,
                "replays": len(seeds),
                "steps": steps,
                "decisions": decisions,
                "rollouts": rollouts,
                "horizon": horizon,
            }
