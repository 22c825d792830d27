"""Every Cthulhu 500 card: the deck data is validated, and each card's effect is exercised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cthulhu500.data import CARDS, DataError, load_cards
from core.cthulhu500.model import (
    AttemptPass,
    DActions,
    DDiscard,
    Discard,
    EndActions,
    Passed,
    PassResolved,
    PlayAction,
    RepairRolled,
    SponsorDiscard,
    TDrawPhase,
    TEndTurn,
)
from tests.cthulhu500.kit import CH, FE, OL, PU, SCV, Run, d, race

DATA = Path(__file__).resolve().parents[2] / "core" / "cthulhu500" / "data" / "cards.json"
TURN = (TEndTurn(0), TDrawPhase(0), DDiscard(0), DActions(0))


def test_deck_mix_matches_the_box():
    kinds: dict[str, int] = {}
    for c in CARDS.values():
        kinds[c.type] = kinds.get(c.type, 0) + 1
    assert kinds == {
        "vehicle": 16,
        "action": 26,
        "crew": 17,
        "mod": 18,
        "tires": 8,
        "reaction": 24,
        "flag": 1,
    }
    assert sorted(CARDS) == list(range(1, 111))
    assert sum(1 for c in CARDS.values() if c.spell) == 7
    assert sum(1 for c in CARDS.values() if c.sponsor) == 4
    assert all(c.text and c.name for c in CARDS.values())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"][0]["ids"].__setitem__(1, 3), "twice|pair"),
        (lambda d: d["cards"].pop(), "exactly 1 to"),
        (lambda d: d["cards"][20].__setitem__("effect", "explode"), "unknown"),
        (lambda d: d["cards"][10].__setitem__("tags", ["ghost"]), "unknown tag"),
        (lambda d: d["counts"].update(crew=18, action=25), "The deck needs"),
        (lambda d: d["cards"][0].__setitem__("colour", "red"), "malformed"),
    ],
)
def test_bad_card_data_is_refused_with_a_sentence(change, message):
    data = json.loads(DATA.read_text())
    change(data)
    with pytest.raises(DataError, match=message):
        load_cards(json.dumps(data).encode())


# --------------------------------------------------------------------------- vehicles

VEHICLES = [(m, CARDS[m]) for m in (1, 3, 5, 7, 9, 11, 13, 15)]


@pytest.mark.parametrize(("marker", "spec"), VEHICLES, ids=[s.name for _, s in VEHICLES])
@pytest.mark.parametrize("damaged", [False, True])
def test_vehicle_speed_sides(marker, spec, damaged):
    r = Run(race(marker, OL, pack=(1, 0), active=0, damaged=(0,) if damaged else ()))
    r.act(0, AttemptPass(), d(1, 6))
    if r.pending() == (0,) and marker == 5:  # Car of Cthulhu: re-roll asked
        from core.cthulhu500.model import KeepRoll

        r.act(0, KeepRoll())
    res = r.of(PassResolved)[0]
    assert res.attacker_total == 1 + (spec.speed_damaged if damaged else spec.speed)


@pytest.mark.parametrize(("marker", "spec"), VEHICLES, ids=[s.name for _, s in VEHICLES])
def test_vehicle_complexity_and_rush_job(marker, spec):
    """Rush Job: a repair test now; Complexity is the target."""
    r = Run(race(marker, OL, active=0, damaged=(0,), hands={0: (75,)}))
    r.act(0, PlayAction(card=75), d(6))
    roll = r.of(RepairRolled)[0]
    assert roll.need == spec.complexity
    assert roll.success == (spec.complexity <= 6)
    assert r.damaged(0) == (spec.complexity > 6)


# --------------------------------------------------------------------------- crew

CREW = sorted(c for c in CARDS if CARDS[c].type == "crew")


@pytest.mark.parametrize("cid", CREW, ids=[CARDS[c].name for c in CREW])
def test_crew_drive_counts_only_as_driver(cid):
    r = Run(race(SCV, OL, pack=(1, 0), active=0, driver={0: cid}))
    r.act(0, AttemptPass(), d(1, 6))
    assert r.of(PassResolved)[0].attacker_total == 1 + 2 + CARDS[cid].drive


@pytest.mark.parametrize("cid", CREW, ids=[CARDS[c].name for c in CREW])
def test_crew_fixit_counts_only_in_the_pit_crew(cid):
    r = Run(race(FE, OL, active=0, damaged=(0,), hands={0: (75,)}, crew={0: (cid,)}))
    r.act(0, PlayAction(card=75), d(1))
    assert r.of(RepairRolled)[0].total == 1 + CARDS[cid].fixit


# --------------------------------------------------------------------------- mods and tires

BONUS = [
    c
    for c in sorted(CARDS)
    if CARDS[c].type in ("mod", "tires") and (CARDS[c].atk or CARDS[c].def_)
]


@pytest.mark.parametrize("cid", BONUS, ids=[CARDS[c].name for c in BONUS])
def test_equipment_attack_and_defence(cid):
    spec = CARDS[cid]
    kw = {"mods": {0: (cid,)}} if spec.type == "mod" else {"tires": {0: cid}}
    attack = Run(race(SCV, OL, pack=(1, 0), active=0, **kw))
    attack.act(0, AttemptPass(), d(1, 6))
    assert attack.of(PassResolved)[0].attacker_total == 1 + 2 + spec.atk
    kw = {"mods": {1: (cid,)}} if spec.type == "mod" else {"tires": {1: cid}}
    defend = Run(race(SCV, OL, pack=(1, 0), active=0, **kw))
    defend.act(0, AttemptPass(), d(6, 1))
    assert defend.of(PassResolved)[0].defender_total == 1 + 2 + spec.def_


@pytest.mark.parametrize(("cid", "bonus"), [(47, 2), (50, 1)])
def test_repair_bonus_mods(cid, bonus):
    """Non-Euclidean Toolbox +2, Sponsor: Yuggoth Oil +1 to repair tests."""
    r = Run(race(FE, OL, active=0, damaged=(0,), hands={0: (75,)}, mods={0: (cid,)}))
    r.act(0, PlayAction(card=75), d(4))
    assert r.of(RepairRolled)[0].total == 4 + bonus


def test_spikey_bits_damages_the_passer():
    r = Run(race(FE, OL, pack=(1, 0), active=0, mods={1: (37,)}))
    r.act(0, AttemptPass(), d(6, 1))
    assert r.pack == (0, 1)
    assert r.damaged(0)


def test_sponsor_that_must_not_be_named_discards_at_end_of_turn():
    r = Run(
        race(FE, OL, active=0, hands={0: (92, 96)}, mods={0: (48,)}, stack=TURN, draw=(17, 18, 19))
    )
    r.act(0, EndActions())
    r.act(0, Discard(()))
    assert r.legal(0) == [SponsorDiscard(c) for c in (17, 18, 92, 96)]
    r.act(0, SponsorDiscard(96))
    assert r.state.hands[0] == (17, 18, 92)
    assert 96 in r.state.discard
    assert r.state.active == 1


def test_spacemeadweiser_draws_one_more():
    r = Run(race(FE, OL, active=0, mods={0: (49,)}, stack=TURN, draw=(17, 18, 19, 20)))
    r.act(0, EndActions())
    assert r.state.hands[0] == (17, 18, 19)


def test_miskatonic_alumni_fund_raises_the_hand_limit():
    r = Run(
        race(
            FE,
            OL,
            active=0,
            mods={0: (51,)},
            hands={0: (20, 21, 22, 23, 24)},
            stack=TURN,
            draw=(17, 18, 19),
        )
    )
    r.act(0, EndActions())
    r.act(0, Discard(()))
    assert len(r.state.hands[0]) == 6


# --------------------------------------------------------------------------- actions


def test_nitrous_injection_adds_up_and_lapses():
    r = Run(race(SCV, OL, pack=(1, 0), active=0, hands={0: (67, 68)}, actions=3))
    r.act(0, PlayAction(card=67))
    r.act(0, PlayAction(card=68))
    r.act(0, AttemptPass(), d(1, 6))
    assert r.of(PassResolved)[0].attacker_total == 1 + 2 + 6
    assert r.state.nitrous == 0


def test_sabotage_discards_tires_or_a_mod():
    r = Run(race(FE, OL, active=0, hands={0: (71,)}, tires={1: 58}))
    r.act(0, PlayAction(card=71, target_seat=1, target_card=58))
    assert r.state.vehicles[1].tires is None
    assert 58 in r.state.discard


def test_poach_a_mechanic_moves_pit_crew():
    r = Run(race(FE, OL, active=0, hands={0: (74,)}, crew={1: (27,)}))
    assert PlayAction(card=74, target_seat=1, target_card=27) in r.legal(0)
    r.act(0, PlayAction(card=74, target_seat=1, target_card=27))
    assert r.state.vehicles[0].crew == (27,)
    assert r.state.vehicles[1].crew == ()


def test_scavenge_takes_equipment_from_the_discard_pile():
    r = Run(race(FE, OL, active=0, hands={0: (77,)}, discard=(110, 43, 92)))
    assert [a.target_card for a in r.legal(0) if isinstance(a, PlayAction)] == [43]
    r.act(0, PlayAction(card=77, target_card=43))
    assert 43 in r.state.hands[0]
    assert 43 not in r.state.discard


def test_shrivelling_damages_ahead_then_behind():
    r = Run(race(CH, OL, SCV, PU, active=2, damaged=(1,), hands={2: (81,)}))
    r.act(2, PlayAction(card=81, target_seat=1, to_seat=3))
    assert r.pack == (0, 2, 1, 3)  # the damaged one ahead is passed with no test
    assert r.damaged(3)
    assert not r.of(Passed)


def test_gate_swaps_with_the_vehicle_two_ahead():
    r = Run(race(CH, OL, SCV, PU, active=3, hands={3: (83,)}))
    r.act(3, PlayAction(card=83, target_seat=1))
    assert r.pack == (0, 3, 2, 1)
    front = Run(race(CH, OL, SCV, active=1, hands={1: (83,)}))
    assert not any(isinstance(a, PlayAction) for a in front.legal(1))


def test_time_warp_grants_two_actions():
    r = Run(race(FE, OL, active=0, hands={0: (84,)}))
    r.act(0, PlayAction(card=84))
    assert r.state.actions_left == 3


def test_domination_moves_a_driver_and_the_replaced_one_joins_the_crew():
    r = Run(race(FE, OL, PU, active=0, hands={0: (85,)}, driver={1: 29, 2: 18}))
    r.act(0, PlayAction(card=85, target_seat=1, to_seat=2))
    assert r.state.vehicles[1].driver is None
    assert r.state.vehicles[2].driver == 29
    assert r.state.vehicles[2].crew == (18,)


def test_black_plague_discards_crew_and_jumps():
    r = Run(race(FE, OL, PU, active=0, hands={0: (62,)}, driver={1: 18}, crew={2: (31,)}))
    r.act(0, PlayAction(card=62, target_seat=1, target_card=18))
    assert r.state.vehicles[1].driver is None
    assert r.state.contagions[0].target == 31
    assert r.state.contagions[0].seat == 2


def test_dreamlands_shortcut_and_summon_are_covered_elsewhere():
    """Dreamlands Shortcut: test_rules auto pass; Summon: examples 5 and 6; Gremlins: ex 10;
    Drafting: ex 9; Ia! Ia!: ex 6; Black Flag: ex 9; Lucky Break: ex 7d; Tow Truck, Elder Sign,
    Hold the Line, Slingshot, Block the Pit Exit: test_rules; Checkered Flag: ex 13."""
    r = Run(race(FE, OL, PU, active=1, hands={1: (61,)}))
    r.act(1, PlayAction(card=61))
    assert r.pack == (1, 0, 2)
