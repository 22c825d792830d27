"""NASCAR Champions figures: bot strength (promoter vs random) and engine speed.

`make bench` prints one JSON line per figure. The win rate is measured over 1,000 seeded
two-player games (promoter and random alternate seats) and over 1,000 three-player games (one
promoter against two random bots, rotating seats); lookahead against promoter over 200 games. Speed: whole five-seat bot games per second
(5 cars, every seat a bot) and events per second. Lap length: the most turns any bot lap takes
(random and promoter tables of 1, 3 and 5 seats), against N-LAP-LIMIT's default
``lap_turn_limit``, and how many of those laps the limit called (expected: none).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from bench import QUICK
from core import registry
from core.game import Seat, Table

GAMES = 200 if QUICK else 1000
LOOKAHEAD_GAMES = 20 if QUICK else 200
LAP_GAMES = 10 if QUICK else 100


def _win_rate(players: int, games: int, bot: str = "promoter", rival: str = "random") -> float:
    game = registry.get("champions")
    wins = 0
    for seed in range(games):
        me = seed % players
        seats = [Seat(name=f"s{i}", bot=bot if i == me else rival) for i in range(players)]
        table = Table(game, game.default_config(), seats, seed)
        table.run_bots()
        result = table.result()
        assert result is not None
        wins += result.ranking[0] == me
    return 100.0 * wins / games


def _speed(bot: str, games: int) -> tuple[float, float]:
    game = registry.get("champions")
    events = 0
    start = time.perf_counter()
    for seed in range(games):
        seats = [Seat(name=f"s{i}", bot=bot) for i in range(5)]
        table = Table(game, game.default_config(), seats, 10_000 + seed)
        table.run_bots()
        events += sum(len(step.events) for step in table.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, events / elapsed


def _lap_lengths(games: int) -> tuple[int, int]:
    """(most turns in one lap, laps called by N-LAP-LIMIT) over seeded bot tables."""
    game = registry.get("champions")
    longest = called = 0
    for bot in ("random", "promoter"):
        for players in (1, 3, 5):
            for seed in range(games):
                seats = [Seat(name=f"s{i}", bot=bot) for i in range(players)]
                table = Table(game, game.default_config(), seats, 20_000 + seed)
                table.run_bots()
                turns = 0
                for event in (e for step in table.history for e in step.events):
                    kind = type(event).__name__
                    if kind == "TurnStarted":
                        turns += 1
                    elif kind == "LapCalled":
                        called += 1
                    elif kind == "LapEnded":
                        longest, turns = max(longest, turns), 0
    return longest, called


def run() -> Iterator[dict[str, Any]]:
    yield {
        "name": "champions_promoter_beats_random_2p",
        "value": round(_win_rate(2, GAMES), 1),
        "unit": f"% of {GAMES} games",
    }
    yield {
        "name": "champions_promoter_beats_two_random_3p",
        "value": round(_win_rate(3, GAMES), 1),
        "unit": f"% of {GAMES} games",
    }
    yield {
        "name": "champions_lookahead_beats_promoter_2p",
        "value": round(_win_rate(2, LOOKAHEAD_GAMES, "lookahead", "promoter"), 1),
        "unit": f"% of {LOOKAHEAD_GAMES} games",
    }
    longest, called = _lap_lengths(LAP_GAMES)
    limit = registry.get("champions").default_config().lap_turn_limit
    yield {
        "name": "champions_longest_bot_lap_turns",
        "value": longest,
        "unit": f"turns (lap_turn_limit {limit}; {6 * LAP_GAMES} bot games)",
    }
    yield {
        "name": "champions_bot_laps_called",
        "value": called,
        "unit": f"laps of {12 * LAP_GAMES}",
    }
    for bot in ("random", "promoter"):
        per_game, per_event = _speed(bot, 50 if QUICK else 200)
        yield {
            "name": f"champions_games_per_second_5_{bot}",
            "value": round(per_game, 1),
            "unit": "games/s",
        }
        yield {
            "name": f"champions_events_per_second_5_{bot}",
            "value": round(per_event),
            "unit": "events/s",
        }
