"""Golden playthroughs: one full seeded bot game per registered game, in words, committed.

Owns `GOLDEN_GAMES` (per game id: the seed and the seats of its playthrough) and `playthrough`,
which plays the game with `core.game.Table`, saves it as a replay and prints it with
`replays.export.transcript` — the same words as ``speedway replay FILE --print``. The committed
files are ``tests/golden/<game id>.txt``; `tests/conformance/test_golden.py` regenerates every
one and diffs. A diff is a rules (or bot, or wording) change: read it before accepting it.

Regenerate them all with one command::

    .venv/bin/python -m tests.golden

Must not: be imported by the game packages, or hold a game's rules.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from core import registry
from core.game import Seat, Table
from replays.export import transcript
from replays.reader import open_replay
from replays.store import save_finished_table

__all__ = ["GOLDEN_GAMES", "Golden", "golden_path", "playthrough"]

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Golden:
    """One game's golden playthrough: a seed, the seats as (name, bot) pairs, and sentences the
    game must say in it (how this race ends), so a transcript that lost them fails loudly."""

    seed: int
    seats: tuple[tuple[str, str], ...]
    says: tuple[str, ...]


GOLDEN_GAMES: dict[str, Golden] = {
    "go500": Golden(
        seed=1,
        seats=(
            ("Cautious-1", "cautious"),
            ("Bold-2", "bold"),
            ("Random-3", "random"),
            ("Cautious-4", "cautious"),
        ),
        says=("Checkered flag", "Result: seat 3 wins"),
    ),
    "cthulhu500": Golden(
        seed=7,
        seats=(("Ann", "shrewd"), ("Bob", "random"), ("Cy", "shrewd")),
        says=("Ann draws the Checkered Flag!", "The race is over. Final order: Ann 11"),
    ),
    "champions": Golden(
        seed=2026,
        seats=(
            ("Ava (promoter)", "promoter"),
            ("Ben (random)", "random"),
            ("Cy (promoter)", "promoter"),
        ),
        says=("Lap 2 grid", "NASCAR Champion"),
    ),
}


def golden_path(game_id: str) -> Path:
    return HERE / f"{game_id}.txt"


def playthrough(game_id: str) -> str:
    """The game's golden playthrough, played now, saved as a replay and printed in words."""
    spec = GOLDEN_GAMES[game_id]
    game = registry.get(game_id)
    seats = [Seat(name=name, bot=bot) for name, bot in spec.seats]
    table = Table(game, game.default_config(), seats, spec.seed)
    table.run_bots()
    with tempfile.TemporaryDirectory() as folder:
        replay = open_replay(save_finished_table(table, Path(folder), salt=bytes(16)), game)
        return transcript(replay)


def main() -> None:
    for game_id in registry.game_ids():
        path = golden_path(game_id)
        path.write_text(playthrough(game_id), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
