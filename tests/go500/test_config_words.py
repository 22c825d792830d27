"""The lobby's words for a Go 500 table's options (`Go500.config_words`)."""

from __future__ import annotations

from msgspec.structs import replace

from core.go500.config import Go500Config
from core.go500.game import GAME


def test_default_table_reads_as_its_mode_and_length():
    assert GAME.config_words(Go500Config()) == "Oval, 500 miles"


def test_each_mode_names_its_own_length():
    base = Go500Config()
    assert GAME.config_words(replace(base, mode="time_trial", hours=3)) == "Time Trials, 3 hours"
    assert GAME.config_words(replace(base, mode="cup")) == "Cup Series, 4 races"
    assert GAME.config_words(replace(base, mode="multi_game", race_length=400)) == (
        "Multi-Game, 400 miles"
    )


def test_options_that_differ_from_the_defaults_follow_in_words():
    config = replace(Go500Config(), race_length=600, tradin_paint=True, big_x_in_big_one="minus_50")
    assert GAME.config_words(config) == (
        "Oval, 600 miles · big x in big one minus 50 · tradin paint on"
    )
