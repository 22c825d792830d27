"""Component data: decoded, validated, tagged, and matching the spec's tables (§1)."""

from __future__ import annotations

import msgspec
import pytest

from core.champions import data
from core.champions.data import COMPONENTS, DataError, Money, validate_money


def test_roster_has_seven_cars_in_five_colours_with_tags():
    cars = COMPONENTS.roster.cars
    assert len(cars) == 7
    assert {(c.colour, c.number) for c in cars} >= {("black", 3), ("black", 22), ("blue", 88)}
    assert COMPONENTS.numbers_for(0) == (3, 22)
    assert COMPONENTS.numbers_for(1) == (31, 88)
    assert all(c.tag == "FACT" for c in cars)


def test_dice_are_numbered_one_to_five_with_colour_faces_then_flag():
    assert COMPONENTS.dice.dice == (1, 2, 3, 4, 5)
    assert COMPONENTS.dice.faces == ("black", "blue", "red", "green", "yellow", "flag")


def test_track_is_24_rows_three_wide_with_grid_and_red_line():
    track = COMPONENTS.track
    assert track.rows == 24
    assert set(track.lanes) == {3}
    assert track.red_line_row == 9
    assert track.grid == ((3, 0), (3, 1), (2, 0), (2, 1), (0, 0))
    assert track.section(0) == "front stretch"
    assert track.section(10) == "backstretch"


def test_checkered_flag_deck_matches_spec_ids_and_counts():
    cards = COMPONENTS.cards
    assert len(cards) == 25
    expected = {
        "SPONSOR": 5,
        "BACK_BURNER": 2,
        "MOVE_2x3": 2,
        "MOVE_2x2": 3,
        "MOVE_1x2": 4,
        "MOVE_1x3": 2,
        "MOVE_1x4": 1,
        "MOVE_1x5": 1,
        "SPIN_OUT": 3,
        "CRASH": 2,
    }
    counts: dict[str, int] = {}
    for card in cards:
        key = "SPONSOR" if card.kind == "SPONSOR" else card.code
        counts[key] = counts.get(key, 0) + 1
        assert card.name
        assert card.text
        assert card.tag in ("FACT", "PROPOSED")
    assert counts == expected
    assert [c.colour for c in cards[:5]] == [0, 1, 2, 3, 4]
    assert data.card_by_code("SPIN_OUT") == [20, 21, 22]
    assert data.card_by_code("CRASH") == [23, 24]


def test_money_table_matches_spec():
    money = COMPONENTS.money
    assert money.race_prize[0] == (100000, 60000, 40000, 25000, 15000)
    assert money.base_sponsor == (50000, 30000, 20000)
    assert money.deck_sponsor == (25000, 15000, 10000)


def test_bad_money_table_is_refused_with_a_sentence():
    with pytest.raises(DataError, match="race prize table"):
        validate_money(Money(race_prize=((1, 2),)))
    with pytest.raises(DataError, match="negative"):
        validate_money(Money(race_prize=((1, 2, 3, 4, -5),) * 2))


def test_broken_component_file_gives_one_sentence(monkeypatch):
    real = data._read

    def fake(name: str) -> bytes:
        if name == "dice.json":
            return msgspec.json.encode({"tag": "FACT", "dice": [1, 2, 3, 4, 5], "faces": ["x"]})
        return real(name)

    monkeypatch.setattr(data, "_read", fake)
    with pytest.raises(DataError, match="Die faces"):
        data.load_components()

    def not_json(name: str) -> bytes:
        return b"{" if name == "track.json" else real(name)

    monkeypatch.setattr(data, "_read", not_json)
    with pytest.raises(DataError, match=r"track\.json"):
        data.load_components()


def test_a_card_count_out_of_all_proportion_is_refused_before_the_deck_is_built(monkeypatch):
    """A cards file saying a card appears 10**12 times used to build that many cards (the
    fuzz test's worker was killed at 24 GB); it is refused with a sentence instead."""
    real = data._read
    doc = msgspec.json.decode(real("cards.json"))
    doc["checkered_flag"][-1]["count"] = 10**12

    monkeypatch.setattr(
        data, "_read", lambda n: msgspec.json.encode(doc) if n == "cards.json" else real(n)
    )
    with pytest.raises(DataError, match="at most 50"):
        data.load_components()
