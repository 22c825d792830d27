"""Helpers for the analysis tests: bot games saved as real replay files, scripted steps."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core import registry
from core.game import Seat, Step, Table
from core.rng import ScriptedChance
from replays.reader import Replay, open_replay
from replays.store import save_finished_table


def bot_table(game_id: str, bots: Sequence[str], seed: int, **options: Any) -> Table:
    """A finished bot game of ``game_id``, one seat per bot name."""
    game = registry.get(game_id)
    config = game.default_config()
    if options:
        from core.game import config_from_options

        config = config_from_options(game, options)
    seats = [Seat(name=f"{bot}-{i + 1}", bot=bot) for i, bot in enumerate(bots)]
    table = Table(game, config, seats, seed)
    table.run_bots()
    assert table.result() is not None
    return table


def saved_replay(
    folder: Path, game_id: str, bots: Sequence[str], seed: int, **options: Any
) -> Replay:
    """The same bot game, written to a replay file in ``folder`` and read back."""
    folder.mkdir(parents=True, exist_ok=True)
    path = save_finished_table(bot_table(game_id, bots, seed, **options), folder)
    return open_replay(path)


def scripted_steps(
    game: Any, state: Any, script: Sequence[tuple[int, Any, Sequence[int]]]
) -> tuple[list[Step], Any]:
    """Steps (setup first, empty) playing ``(seat, action, draws)`` with exactly those draws."""
    steps = [Step(state_id=0, seat=None, action=None, events=[])]
    for k, (seat, action, draws) in enumerate(script, start=1):
        chance = ScriptedChance(draws)
        events = game.step(state, seat, action, chance)
        assert chance.remaining == 0, f"{chance.remaining} scripted draws left unused"
        for event in events:
            state = game.evolve(state, event)
        steps.append(Step(state_id=k, seat=seat, action=action, events=events))
    return steps, state
