"""Go 500 benchmarks: engine speed with the full event log, and bot win rates.

Figures (one JSON line each via `make bench`):
* races/s and events/s for whole 4-seat Oval races with four `random` bots (the engine through
  `Table`: every event folded and kept, as a live table or replay does), and with four
  `optimal` bots once their value tables are warm (measured after the win-rate runs);
* win rates over seeded 4-player races (seats rotate with the seed, so each bot sits in each
  seat equally): `optimal` against three `cautious`, against three `bold`, and a mixed table of
  optimal, cautious, bold and random. Each lineup plays five blocks of 2,000 races (seeds
  1-2000, 2001-4000, ...): the figure is the rate over all 10,000 with its standard error, and
  ``blocks`` gives each 2,000-race block's rate, so the spread between blocks is on record.

`GO500_BENCH_RACES` (races per block) and `GO500_BENCH_BLOCKS` override 2,000 and 5.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from math import sqrt
from typing import Any

from bench import QUICK
from core import registry
from core.game import Seat, Table

RACES = int(os.environ.get("GO500_BENCH_RACES", "300" if QUICK else "2000"))
BLOCKS = int(os.environ.get("GO500_BENCH_BLOCKS", "2" if QUICK else "5"))
LINEUPS: dict[str, tuple[str, ...]] = {
    "optimal_vs_3_cautious": ("optimal", "cautious", "cautious", "cautious"),
    "optimal_vs_3_bold": ("optimal", "bold", "bold", "bold"),
    "mixed": ("optimal", "cautious", "bold", "random"),
}


def race(bots: Sequence[str], seed: int) -> Table:
    game = registry.get("go500")
    table = Table(game, game.default_config(), [Seat(name=b, bot=b) for b in bots], seed)
    table.run_bots()
    return table


def speed(bot: str, races: int, warm: int) -> Iterator[dict[str, Any]]:
    for seed in range(10_000, 10_000 + warm):
        race([bot] * 4, seed)
    events = 0
    start = time.perf_counter()
    for seed in range(1, races + 1):
        table = race([bot] * 4, seed)
        events += sum(len(step.events) for step in table.history)
    elapsed = time.perf_counter() - start
    yield {
        "name": f"go500_races_per_s_4_{bot}",
        "value": round(races / elapsed, 1),
        "unit": "races/s",
    }
    yield {
        "name": f"go500_events_per_s_4_{bot}",
        "value": round(events / elapsed),
        "unit": "events/s",
    }


def win_rates(
    label: str, lineup: Sequence[str], races: int, blocks: int
) -> Iterator[dict[str, Any]]:
    bots_in = sorted(set(lineup))
    block_wins: list[Counter[str]] = []
    for block in range(blocks):
        wins: Counter[str] = Counter()
        for seed in range(block * races + 1, (block + 1) * races + 1):
            k = seed % len(lineup)
            bots = [*lineup[k:], *lineup[:k]]
            result = race(bots, seed).result()
            assert result is not None
            assert result.winner is not None
            wins[bots[result.winner]] += 1
        block_wins.append(wins)
    for bot in bots_in:
        per_race = lineup.count(bot)  # seats the bot holds in each race
        won = sum(wins[bot] for wins in block_wins)
        seats = per_race * races * blocks
        # wins per seat the bot held per race: 0.25 is an even share at a 4-seat table
        rate = won / seats
        share = per_race * rate  # chance that one of the bot's seats wins a race
        yield {
            "name": f"go500_win_rate_{label}_{bot}",
            "value": round(rate, 4),
            "unit": "wins per seat per race",
            "races": races * blocks,
            "stderr": round(sqrt(share * (1 - share) / (races * blocks)) / per_race, 4),
            "blocks": [round(wins[bot] / (per_race * races), 4) for wins in block_wins],
        }


def run() -> Iterator[dict[str, Any]]:
    yield from speed("random", max(50, RACES // 10), 5)
    # The win-rate races fill the optimal bot's value tables; speed is measured after them.
    for label, lineup in LINEUPS.items():
        yield from win_rates(label, lineup, RACES, BLOCKS)
    yield from speed("optimal", max(50, RACES // 10), 20)
