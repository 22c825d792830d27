"""`speedway sim`: whole bot games, headless, through the same Table every screen uses.

Owns: seating bots, playing games to the end, the per-game line or JSON object, the summary
(wins per seat and per bot) and, with ``--save``, writing each game's replay file and verifying
it. Must not import textual (it runs on servers and in benchmarks).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from core import registry
from core.game import ConfigError, Seat, Table, check_seats, config_from_options


class SimRequest(msgspec.Struct, kw_only=True):
    game: str
    players: int | None = None
    seed: int = 1
    bots: list[str] = []
    games: int = 1
    save: Path | None = None
    as_json: bool = False
    options: dict[str, Any] = {}


def bot_seats(game_id: str, players: int | None, bots: list[str]) -> list[Seat]:
    """Seats named after their bots; bot names cycle over the seats."""
    game = registry.get(game_id)
    names = bots or [game.default_bot]
    for name in names:
        if name not in game.bots:
            known = ", ".join(game.bots)
            raise ConfigError(f"{game.title} has no bot called {name!r}; its bots are: {known}.")
    count = players if players is not None else max(len(bots), min(4, game.max_seats))
    check_seats(game, count)
    return [
        Seat(name=f"{names[i % len(names)]}-{i + 1}", bot=names[i % len(names)])
        for i in range(count)
    ]


def play_one(game_id: str, seats: list[Seat], seed: int, options: dict[str, Any]) -> Table:
    """One full bot game."""
    game = registry.get(game_id)
    table = Table(game, config_from_options(game, options), seats, seed)
    table.run_bots()
    return table


def run_sim(request: SimRequest, *, echo: Callable[[str], None], progress: bool = False) -> int:
    game = registry.get(request.game)
    seats = bot_seats(request.game, request.players, request.bots)
    wins_by_seat: Counter[int] = Counter()
    wins_by_bot: Counter[str] = Counter()
    seeds = range(request.seed, request.seed + request.games)
    bar = None
    if progress and request.games > 20:
        import click

        bar = click.progressbar(length=request.games, label="racing", file=None)
        bar.__enter__()
    try:
        for seed in seeds:
            table = play_one(request.game, seats, seed, request.options)
            result = table.result()
            assert result is not None
            events = sum(len(step.events) for step in table.history)
            winner = result.winner
            if winner is not None:
                wins_by_seat[winner] += 1
                wins_by_bot[seats[winner].bot or "?"] += 1
            saved: str | None = None
            if request.save is not None:
                from replays.store import save_finished_table

                saved = str(save_finished_table(table, request.save, verify=True))
            if request.as_json:
                echo(
                    json.dumps(
                        {
                            "game": game.id,
                            "seed": seed,
                            "events": events,
                            "steps": table.state_id,
                            "winner": None if winner is None else seats[winner].name,
                            "ranking": [seats[s].name for s in result.ranking],
                            "scores": result.scores,
                            "summary": result.summary,
                            "file": saved,
                        },
                        sort_keys=True,
                    )
                )
            elif bar is None:
                line = f"seed {seed}: {result.summary} ({events} events)"
                echo(line + (f" -> {saved}" if saved else ""))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if not request.as_json:
        echo(f"{game.title}: {request.games} game(s), {len(seats)} seats")
        for seat_index, seat in enumerate(seats):
            echo(f"  seat {seat_index + 1} {seat.name:<16} wins {wins_by_seat[seat_index]}")
        if len({s.bot for s in seats}) > 1:
            for bot, wins in sorted(wins_by_bot.items()):
                echo(f"  bot {bot:<20} wins {wins}")
    return 0
