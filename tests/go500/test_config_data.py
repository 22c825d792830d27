"""Go 500 options (spec §5), component data (§1) and rule-ID coverage of the test suite."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from core import registry
from core.game import ConfigError, Seat, Table, config_from_options
from core.go500 import GAME
from core.go500.config import Go500Config, uses_auto_stop
from core.go500.data import (
    CUP_POINTS,
    DEFAULT_SCHEDULE,
    DICE,
    DataError,
    DiceSet,
    _check_dice,
    load_json,
    points_for_place,
)

SPEC = Path("/work/shared/rules/go500.md")
HERE = Path(__file__).parent


def test_defaults_are_the_spec_defaults():
    c = GAME.default_config()
    assert (c.mode, c.race_length, c.hours, c.auto_stop) == ("oval", 500, 6, None)
    assert c.finish_check == "before_track_event"
    assert c.final_round is True
    assert c.big_x_in_big_one == "out"
    assert not c.tradin_paint
    assert not c.table_chaos
    assert (c.lost_wheel_bp, c.rubbin_bp, c.debris_bp) == (100, 100, 100)
    assert (c.cup_points, c.lead_bonus, c.most_led_bonus) == ("winston_1975", 5, 5)
    assert c.schedule == (("Race 1", 500), ("Race 2", 400), ("Race 3", 600), ("Race 4", 500))
    assert c.circle_values == (25, 50)


def test_auto_stop_mode_default():
    assert uses_auto_stop(Go500Config())
    assert not uses_auto_stop(Go500Config(mode="multi_game"))
    assert uses_auto_stop(Go500Config(mode="multi_game", auto_stop=True))
    assert not uses_auto_stop(Go500Config(mode="time_trial", auto_stop=True))


def test_cli_style_options_convert():
    game = registry.get("go500")
    config = config_from_options(
        game, {"mode": "time_trial", "race_length": "600", "hours": "3", "auto_stop": "false"}
    )
    assert (config.mode, config.race_length, config.hours, config.auto_stop) == (
        "time_trial",
        600,
        3,
        False,
    )


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            {"mode": "drag"},
            "Go 500 option mode takes cup, multi_game, oval or time_trial, not drag.",
        ),
        ({"race_length": "450"}, "Go 500 option race_length takes 400, 500 or 600, not 450."),
        ({"nonsense": 1}, "Go 500 has no option nonsense; its options are mode, race_length, "),
        ({"hours": "many"}, "Go 500 option hours takes a whole number, not many."),
    ],
)
def test_bad_options_are_refused_with_a_sentence_naming_what_is_allowed(options, words):
    with pytest.raises(ConfigError) as refused:
        config_from_options(GAME, options)
    assert str(refused.value).startswith(words)
    assert "$." not in str(refused.value)


@pytest.mark.parametrize(
    ("config", "n", "words"),
    [
        (Go500Config(), 1, "seats 2 to 6"),
        (Go500Config(), 7, "seats 2 to 6"),
        (Go500Config(mode="multi_game"), 13, "seats 2 to 12"),
        (Go500Config(mode="time_trial", hours=0), 1, "1 to 50 hours"),
        (Go500Config(lost_wheel_bp=5000, rubbin_bp=5000, debris_bp=1), 2, "at most 10000"),
        (Go500Config(debris_bp=-1), 2, "basis points"),
        (Go500Config(cup_points="f1"), 2, "no Cup points table"),
        (Go500Config(mode="cup", schedule=()), 2, "at least one race"),
        (Go500Config(mode="cup", schedule=(("Daytona", 450),)), 2, "400, 500 or 600"),
        (Go500Config(lead_bonus=-5), 2, "cannot be negative"),
    ],
)
def test_check_config_refuses(config, n, words):
    with pytest.raises(ConfigError, match=words):
        GAME.check_config(config, n)
    with pytest.raises(ConfigError):
        Table(GAME, config, [Seat(name=str(i)) for i in range(n)], 1)


def test_donut_circle_values_option_b():
    from core.go500.model import Roll
    from tests.go500.helpers import act, roll, table

    s = table([0, 0], circle_values=(0, 0))
    s, _ = act(s, 0, Roll(), roll("GREEN", ["C", "C", 10, 0, 0], "C"))
    assert s.turns[0].showing == 10


def test_dice_data_carry_tags_and_match_spec_faces():
    labels = {d.id: [f.label for f in d.faces] for d in DICE.dice}
    assert labels["F"] == ["GREEN", "GREEN", "GREEN", "YELLOW", "RED", "BLACK"]
    assert labels["T"] == ["0", "5", "10", "15", "20", "CIRCLE"]
    assert labels["P"] == ["FLAT", "10", "20", "30", "40", "CIRCLE"]
    assert labels["PIT"] == ["CAUTION", "-20", "-10", "0", "+10", "+20"]
    assert labels["CR"] == ["CRASH", "BIG X", "-10", "-20", "-30", "-50"]
    for die in DICE.dice:
        assert die.tag in ("FACT", "PROPOSED", "RULING")
        assert all(f.tag in ("FACT", "PROPOSED", "RULING") for f in die.faces)
    assert DICE.max_turn.miles == 175
    assert DICE.max_turn.tag == "FACT"


def test_cup_points_tables_match_spec():
    w = CUP_POINTS.by_name["winston_1975"]
    assert [points_for_place(w, p) for p in (1, 2, 11, 12, 43)] == [175, 170, 130, 127, 34]
    n = CUP_POINTS.by_name["nascar_2017"]
    assert [points_for_place(n, p) for p in (1, 2, 3, 4, 36, 37, 60)] == [40, 35, 34, 33, 1, 1, 1]
    assert w.tag == n.tag == "FACT"
    assert CUP_POINTS.lead_bonus.tag == "PROPOSED"
    assert DEFAULT_SCHEDULE == (("Race 1", 500), ("Race 2", 400), ("Race 3", 600), ("Race 4", 500))


def test_bad_dice_data_is_refused_at_load():
    raw = msgspec.to_builtins(DICE)
    raw["dice"][0]["faces"] = raw["dice"][0]["faces"][:5]
    with pytest.raises(DataError, match="6 faces"):
        _check_dice(msgspec.convert(raw, DiceSet))
    raw = msgspec.to_builtins(DICE)
    raw["dice"][2]["faces"][0]["kind"] = "miles"
    raw["dice"][2]["faces"][0]["miles"] = 0
    with pytest.raises(DataError, match="flat"):
        _check_dice(msgspec.convert(raw, DiceSet))
    with pytest.raises(FileNotFoundError):
        load_json("missing.json", DiceSet)


RULE_IDS = [
    "G-AUTO-DECISION",
    "G-AUTO-STOP",
    "G-BEHIND-WALL",
    "G-BIG-ONE",
    "G-BLACK-FLAG",
    "G-CAUTION",
    "G-CHAOS",
    "G-CHECKERED",
    "G-CRASH",
    "G-CUP",
    "G-CUP-RNG",
    "G-CUP-STANDINGS",
    "G-END",
    "G-FINAL-ROUND",
    "G-FINISH",
    "G-FLAT",
    "G-GREEN",
    "G-GROOVE",
    "G-LAST-RUNNING",
    "G-MAX-TURN",
    "G-MULTI-GAME",
    "G-PIT",
    "G-QUALIFY",
    "G-RANK-TIE",
    "G-ROLL-ORDER",
    "G-SAVE",
    "G-STALL",
    "G-TIME-TRIAL",
    "G-TRADIN-PAINT",
]


def test_every_rule_id_of_the_spec_has_a_test():
    ids = set(RULE_IDS)
    if SPEC.exists():  # the shared rules folder sits beside the repository in the workspace
        assert set(re.findall(r"G-[A-Z]+(?:-[A-Z]+)*", SPEC.read_text())) == ids
    text = "\n".join(p.read_text() for p in HERE.glob("test_*.py"))
    missing = sorted(i for i in ids if i.replace("-", "_").lower() not in text.lower())
    assert missing == []
