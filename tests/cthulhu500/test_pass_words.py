"""The passing test in words (issue 13): every item of both totals — die, Speed, Drive,
equipment with the cap shown, each bonus card — in the log sentence; the Car of Cthulhu re-roll
prompt shows the totals as they stand; the free test prompt says who tests whom and why.
Rule IDs: C-PASS-TEST, C-EQUIP-CAP, C-PIT-FREE-TEST."""

from __future__ import annotations

from core.cthulhu500.describe import decision_text, describe
from core.cthulhu500.model import AttemptPass, PassResolved, PitStop, PlayReaction
from core.cthulhu500.rules.passing import side_total
from tests.cthulhu500.kit import CAR, FE, OL, PU, Run, d, race

NAMES = ["Ann", "Bob", "Cy"]


def test_c_equip_cap_the_sentence_itemises_both_sides_and_shows_the_cap():
    r = Run(
        race(
            FE,
            PU,
            pack=(1, 0),
            active=0,
            mods={0: (38, 43), 1: (36, 41)},
            tires={0: 56, 1: 58},
            driver={0: 29, 1: 30},
        )
    )
    r.act(0, AttemptPass(), d(1, 4))
    res = r.of(PassResolved)[0]
    assert res.attacker_side is not None
    assert res.defender_side is not None
    assert side_total(res.attacker_side) == res.attacker_total == 12
    assert side_total(res.defender_side) == res.defender_total == 13
    words = describe(res, NAMES)
    assert words is not None
    att, dfd = words.split(" vs ")
    assert att.startswith("Ann die 1 + Speed ")
    assert " + Drive " in att
    assert att.endswith("= 12")
    assert f"equipment 4 ({res.attacker_side.equipment_sum}, cap 4)" in att
    assert dfd.startswith("Bob die 4 + Speed ")
    assert "= 13: the attacker fails." in dfd


def test_c_pass_test_each_bonus_card_is_named_with_its_value_on_its_side():
    r = Run(race(FE, OL, pack=(1, 0), active=0, hands={0: (96,), 1: (92,)}))
    r.act(0, AttemptPass())
    r.act(0, PlayReaction(96))
    r.act(1, PlayReaction(92), d(3, 3))
    res = r.of(PassResolved)[0]
    words = describe(res, NAMES)
    assert words is not None
    att, dfd = words.split(" vs ")
    assert att == "Ann die 3 + Speed 4 + Drive 0 + Slingshot 2 = 9"
    assert dfd == "Bob die 3 + Speed 2 + Drive 0 + Hold the Line 2 = 7: the attacker wins."


def test_c_pass_test_the_reroll_prompt_shows_both_totals():
    r = Run(race(CAR, OL, pack=(1, 0), active=0))
    r.act(0, AttemptPass(), d(1, 6))
    text = decision_text(r.state, 0, NAMES)
    assert "re-roll the Car of Cthulhu's die?" in text
    assert "Now Ann die 1 + Speed " in text
    assert " vs Bob die 6 + Speed " in text


def test_c_pit_free_test_prompt_says_who_tests_whom_and_why():
    r = Run(race(FE, OL, PU, active=1, hands={1: (56,)}))
    r.act(1, PitStop())
    assert r.pending() == (2,)
    text = decision_text(r.state, 2, NAMES)
    assert "Cy may take a free passing test on Bob because Bob makes a pit stop" in text
    assert "rule C-PIT-FREE-TEST" in text
