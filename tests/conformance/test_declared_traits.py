"""Every game declares its traits and hooks (core.traits.GameTraits) instead of leaving them to be
found with ``getattr``; every registered game has its row in the TUI's one game table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core import registry
from core.game import Game
from core.traits import GameTraits

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_game_declares_the_whole_interface(game_id: str) -> None:
    game = registry.get(game_id)
    assert isinstance(game, GameTraits)
    assert isinstance(game, Game)
    assert game.default_bot in game.bots
    assert isinstance(game.hidden_information, bool)
    config = game.default_config()
    assert isinstance(game.config_words(config), str)
    races, laps = game.race_count(config), game.lap_count(config)
    assert races is None or races >= 1
    assert laps is None or laps >= 1
    low, high = game.seat_range({})
    assert game.min_seats <= low <= high <= game.max_seats


def test_declared_values() -> None:
    go, ct, ch = (registry.get(g) for g in ("go500", "cthulhu500", "champions"))
    assert (go.hidden_information, ct.hidden_information, ch.hidden_information) == (
        False,
        True,
        True,
    )
    assert ch.lap_count(ch.default_config()) == 2  # from data/money.json's race prize rows
    cup = go.config_type(mode="cup")
    assert go.race_count(cup) == len(cup.schedule)
    assert go.race_count(go.default_config()) == 1


def test_every_registered_game_has_a_row_in_the_tui_game_table() -> None:
    from tui.games import GAME_UI, board_for, rules_text, table_screen_for

    assert set(GAME_UI) == set(registry.game_ids())
    for game_id in registry.game_ids():
        assert table_screen_for(game_id).__name__.endswith("TableScreen")
        assert board_for(game_id).__name__.endswith("Board")
        assert rules_text(game_id).startswith("#")


def test_the_tui_finds_no_game_hook_with_getattr() -> None:
    hooks = "|".join(
        [
            "config_words",
            "option_choices",
            "option_applies",
            "describe_action",
            "describe_decision",
            "hidden_information",
        ]
    )
    pattern = re.compile(rf"getattr\([^)]*\"({hooks})\"")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "tui").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert not found
