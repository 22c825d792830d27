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


def test_option_applies_hides_what_the_chosen_mode_and_chaos_do_not_use():
    oval = {"mode": "oval", "table_chaos": False}
    assert GAME.option_applies("race_length", oval)
    assert not GAME.option_applies("hours", oval)
    assert not GAME.option_applies("cup_points", oval)
    assert not GAME.option_applies("lost_wheel_bp", oval)
    assert GAME.option_applies("lost_wheel_bp", {**oval, "table_chaos": True})
    assert GAME.option_applies("tradin_paint", oval)  # every mode
    trial = {"mode": "time_trial"}
    assert GAME.option_applies("hours", trial)
    assert not GAME.option_applies("race_length", trial)
    assert not GAME.option_applies("auto_stop", trial)  # G-AUTO-STOP: never in Time Trials
    assert not GAME.option_applies("final_round", {"mode": "multi_game"})  # G-MULTI-GAME
    cup = {"mode": "cup"}
    assert GAME.option_applies("lead_bonus", cup)
    assert not GAME.option_applies("race_length", cup)  # a Cup race's length is its schedule's
