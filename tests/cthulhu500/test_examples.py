"""The worked examples of the Cthulhu 500 spec (§8), one test each, with scripted dice."""

from __future__ import annotations

from core.cthulhu500.config import Config
from core.cthulhu500.describe import describe
from core.cthulhu500.fold import evolve
from core.cthulhu500.model import (
    AttemptPass,
    CardDrawn,
    ChainResolved,
    CheckeredFlagDrawn,
    ChooseContagionTarget,
    Contagion,
    ContagionEnded,
    DActions,
    DamageMove,
    DDiscard,
    DeckReshuffled,
    DeclineFreeTest,
    Discard,
    EndActions,
    PackTieRolled,
    PassCancelled,
    Passed,
    PassReaction,
    PassResolved,
    PitStop,
    PlayAction,
    PlayReaction,
    SetupDiscard,
    TakeFreeTest,
    TDrawPhase,
    TEndTurn,
    TurnStarted,
)
from core.cthulhu500.rules.engine import ranking, setup
from core.rng import ScriptedChance
from tests.cthulhu500.kit import CH, FE, OL, PU, SCV, Run, d, race


def test_example_1_c_lap_c_rank_leader_passes_the_rear():
    """C-LAP, C-RANK."""
    r = Run(race(FE, OL, PU, active=0))
    r.act(0, AttemptPass(), d(2, 3))
    assert r.of(PassResolved)[0].attacker_total == 6
    assert r.of(PassResolved)[0].defender_total == 5
    assert r.laps(0) == 1
    assert r.pack == (1, 0, 2)
    assert ranking(r.state) == (0, 1, 2)


def test_example_2_c_pass_tie_fresh_both_damaged_no_movement():
    """C-PASS-TIE-FRESH."""
    r = Run(race(CH, OL, SCV, PU, active=2))
    r.act(2, AttemptPass(), d(4, 4))
    assert r.damaged(2)
    assert r.damaged(1)
    assert r.pack == (0, 1, 2, 3)


def test_example_3_c_pass_tie_defender_damaged_passer_and_follower():
    """C-PASS-TIE-DEFENDER-DAMAGED."""
    r = Run(race(CH, OL, SCV, PU, active=2, damaged=(1,)))
    r.act(2, AttemptPass(), d(3, 4))
    assert r.damaged(2)
    assert r.pack == (0, 2, 3, 1)
    assert r.laps(2) == 0


def test_example_3_by_drafting_a_tie_is_no_win_and_offers_no_follow_up():
    r = Run(race(CH, OL, SCV, PU, active=2, damaged=(1,), hands={2: (64,)}))
    r.act(2, PlayAction(card=64), d(3, 4))
    assert r.pack == (0, 2, 3, 1)
    assert r.pending() == (2,)
    assert isinstance(r.state.stack[-1], DActions)
    assert TakeFreeTest() not in r.legal(2)


def test_example_4_c_pass_tie_attacker_damaged_follower_moves_ahead_of_both():
    """C-PASS-TIE-ATTACKER-DAMAGED."""
    r = Run(race(CH, OL, SCV, PU, active=2, damaged=(2,)))
    r.act(2, AttemptPass(), d(3, 3))
    assert r.damaged(1)
    assert r.pack == (0, 3, 1, 2)
    # The log says who moved which way: the follower moved *up* past both.
    names = ["Ann", "Bob", "Cy", "Dee"]
    lines = [describe(e, names) for e in r.of(DamageMove)]
    assert lines == [
        "Dee moves up past Cy: they swap places.",
        "Dee moves up past Bob: they swap places.",
    ]


def test_example_5_c_damage_again_spikey_bits_over_the_seam():
    """C-DAMAGE-AGAIN."""
    r = Run(race(FE, OL, PU, active=0, damaged=(0,), laps={0: 2}, mods={2: (37,)}))
    r.act(0, AttemptPass(), d(6, 1))
    assert r.laps(0) == 3
    assert [e.pack for e in r.of(Passed)] == [(1, 0, 2)]
    assert r.pack == (1, 2, 0)
    assert ranking(r.state) == (0, 1, 2)


def test_example_5_variant_c_seam_blocked_and_circle():
    """C-SEAM."""
    blocked = Run(race(FE, OL, PU, pack=(1, 0, 2), active=0, damaged=(2,), hands={0: (79,)}))
    blocked.act(0, PlayAction(card=79, target_seat=2))
    assert blocked.of(DamageMove)[0].outcome == "seam_blocked"
    assert blocked.pack == (1, 0, 2)
    circle = Run(
        race(
            FE,
            OL,
            PU,
            pack=(1, 0, 2),
            active=0,
            damaged=(2,),
            hands={0: (79,)},
            seam_damage_moves="circle",
        )
    )
    circle.act(0, PlayAction(card=79, target_seat=2))
    assert circle.pack == (0, 1, 2)
    assert circle.laps(0) == circle.laps(1) == 0


def test_example_6_c_chain_c_react_window_ia_ia_chain():
    """C-CHAIN, C-REACT-WINDOW."""
    r = Run(race(FE, OL, pack=(0, 1), active=0, hands={0: (79, 86, 87), 1: (88, 89)}))
    r.act(0, PlayAction(card=79, target_seat=1))
    asked = []
    for seat, answer in [
        (0, PassReaction()),
        (1, PlayReaction(88)),
        (0, PlayReaction(86)),
        (1, PassReaction()),
        (0, PassReaction()),
    ]:
        asked.append(r.pending())
        r.act(seat, answer)
    assert asked == [(0,), (1,), (0,), (1,), (0,)]
    assert r.of(ChainResolved)[0].cancelled == (False, True, False)
    assert r.damaged(1)
    assert set(r.state.discard) >= {79, 86, 88}
    assert r.state.in_play == ()
    assert r.state.actions_left == 1


def test_example_7a_c_seam_swap_both_damaged_at_the_seam():
    """C-SEAM-SWAP."""
    r = Run(race(FE, OL, PU, active=0, damaged=(0, 2)))
    r.act(0, AttemptPass(), d(3, 4))
    assert r.pack == (2, 1, 0)
    assert r.laps(0) == 0


def test_example_7b_attacker_damaged_leader_follower_blocked_at_seam():
    r = Run(race(FE, OL, PU, active=0, damaged=(0,)))
    r.act(0, AttemptPass(), d(3, 2))
    assert r.damaged(2)
    assert r.pack == (1, 0, 2)
    c = Run(race(FE, OL, PU, active=0, damaged=(0,), seam_damage_moves="circle"))
    c.act(0, AttemptPass(), d(3, 2))
    assert c.pack == (0, 1, 2)


def test_example_7c_rear_attacker_damaged_nothing_moves():
    r = Run(race(FE, OL, PU, active=2, damaged=(2,)))
    r.act(2, AttemptPass(), d(5, 3))
    assert r.damaged(1)
    assert [e.outcome for e in r.of(DamageMove)] == ["seam_blocked", "not_adjacent"]
    assert r.pack == (0, 1, 2)


def test_example_7d_c_pass_tie_one_hit_two_players_and_lucky_break():
    """C-PASS-TIE-ONE-HIT."""
    r = Run(race(PU, OL, active=0, damaged=(0,)))
    r.act(0, AttemptPass(), d(5, 3))
    assert r.damaged(1)
    assert r.pack == (1, 0)
    assert r.laps(0) == r.laps(1) == 0
    lucky = Run(race(PU, OL, active=0, damaged=(0,), hands={1: (100,)}))
    lucky.act(0, AttemptPass(), d(5, 3))
    assert lucky.pending() == (1,)
    lucky.act(1, PlayReaction(100))
    assert not lucky.damaged(1)
    assert lucky.pack == (1, 0)


def test_example_8_c_pit_free_test_c_auto_decision_rear_pits():
    """C-PIT-FREE-TEST, C-AUTO-DECISION."""
    r = Run(race(FE, OL, PU, active=2, hands={2: (56,)}))
    r.act(2, PitStop())
    assert r.pending() == (0,)
    assert r.legal(0) == [TakeFreeTest(), DeclineFreeTest()]
    r.act(0, TakeFreeTest(), d(3, 2))
    assert r.laps(0) == 1
    assert r.pack == (1, 0, 2)
    assert r.state.vehicles[2].tires == 56
    assert r.pending() == (2,)
    assert isinstance(r.state.stack[-1], DActions)


def test_example_9_c_free_pass_drafting_follow_up():
    """C-FREE-PASS."""
    r = Run(race(CH, OL, SCV, PU, active=2, hands={2: (64,)}))
    r.act(2, PlayAction(card=64), d(6, 1))
    assert r.pack == (0, 2, 1, 3)
    assert r.legal(2) == [TakeFreeTest(), DeclineFreeTest()]
    r.act(2, TakeFreeTest(), d(2, 4))
    total = r.of(PassResolved)[-1]
    assert (total.attacker_total, total.defender_total) == (4, 7)
    assert r.pack == (0, 2, 1, 3)
    assert r.state.actions_left == 1


def test_example_9_black_flag_cancels_and_no_follow_up():
    r = Run(race(CH, OL, SCV, PU, active=2, hands={2: (64,), 1: (103,)}))
    r.act(2, PlayAction(card=64), d(6, 1))
    assert r.pending() == (1,)
    r.act(1, PlayReaction(103))
    assert r.of(PassCancelled)
    assert r.pack == (0, 1, 2, 3)
    assert isinstance(r.state.stack[-1], DActions)


def test_example_10_c_contagion_gremlins_jumps_and_ends_at_the_caster():
    """C-CONTAGION."""
    turn = (TEndTurn(0), TDrawPhase(0), DDiscard(0), DActions(0))
    r = Run(
        race(
            FE,
            CH,
            SCV,
            OL,
            active=0,
            hands={0: (63,)},
            stack=turn,
            mods={1: (43,), 2: (34, 45), 3: (38,)},
            draw=tuple(range(17, 33)),
        )
    )
    r.act(0, PlayAction(card=63, target_seat=1, target_card=43))
    assert 43 in r.state.discard
    assert r.pending() == (1,)
    assert r.legal(1) == [ChooseContagionTarget(34), ChooseContagionTarget(45)]
    r.act(1, ChooseContagionTarget(34))
    assert r.state.contagions == (Contagion(card=63, caster=0, seat=2, target=34, turn=1),)
    assert 63 not in r.state.discard
    r.act(0, EndActions())
    for seat in (1, 2):  # empty hands: the discard step asks nobody (C-AUTO-DECISION)
        r.act(seat, EndActions())
    # end of seat 2's turn: Engine discarded; D's only Mod marked with no prompt
    assert 34 in r.state.discard
    assert r.state.contagions[0].seat == 3
    assert r.state.contagions[0].target == 38
    r.act(3, EndActions())
    assert 38 in r.state.discard
    assert r.state.contagions == ()
    assert 63 in r.state.discard
    assert r.of(ContagionEnded)[0].reason == "caster"


def test_example_11_c_pack_order_c_chance_ties_by_dice():
    """C-PACK-ORDER, C-CHANCE."""
    chance = ScriptedChance([0] * 7 + [0] * 92)
    events = setup(Config(), 4, chance)
    state = Run.__new__(Run)
    state.state = _fold(events)
    state.events = list(events)
    discards = {0: 3, 1: 0, 2: 3, 3: 0}
    for seat in range(4):
        pick = next(a for a in state.legal(seat) if len(a.cards) == discards[seat])
        assert isinstance(pick, SetupDiscard)
        state.act(seat, pick, d(2, 5, 4, 4, 1, 6) if seat == 3 else ())
    assert [(e.seat, e.value) for e in state.of(PackTieRolled)] == [
        (0, 2),
        (2, 5),
        (1, 4),
        (3, 4),
        (1, 1),
        (3, 6),
    ]
    assert state.pack == (2, 0, 3, 1)
    assert state.state.active == 1
    assert state.pending() == (1,)


def _fold(events):
    from core.cthulhu500.rules.engine import new_state

    s = new_state(Config(), 4)
    for e in events:
        s = evolve(s, e)
    return s


def test_example_12_c_equip_cap_caps_attack_and_defence():
    """C-EQUIP-CAP."""
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
    assert (res.attacker_total, res.defender_total, res.outcome) == (12, 13, "lose")
    assert r.pack == (1, 0)


def test_example_13_c_reshuffle_c_checkered_flag_flag_as_second_draw():
    """C-RESHUFFLE, C-CHECKERED-FLAG."""
    turn = (TEndTurn(0), TDrawPhase(0), DDiscard(0))
    r = Run(
        race(
            FE,
            OL,
            active=0,
            hands={0: (60,)},
            stack=turn,
            draw=(67,),
            discard=(31, 70, 92, 96, 110),
        )
    )
    r.act(0, Discard(()), [0, 3, 2, 1])
    assert [e.card for e in r.of(CardDrawn)] == [67]
    assert r.of(DeckReshuffled)[0].order == (110, 70, 92, 96, 31)
    assert r.of(CheckeredFlagDrawn)
    assert r.state.over
    assert not r.of(TurnStarted)
    assert r.pending() == ()
