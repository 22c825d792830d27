"""Cthulhu 500 rules, one or more tests per rule ID (docstrings name the IDs), scripted dice."""

from __future__ import annotations

import pytest

from core.cthulhu500.config import Config
from core.cthulhu500.data import DECK_IDS
from core.cthulhu500.fold import evolve
from core.cthulhu500.model import (
    AddCrew,
    AttemptPass,
    CardDealt,
    CardDrawn,
    CardTakenFromDiscard,
    ChainResolved,
    ChooseVehicle,
    DActions,
    DamageMove,
    DDiscard,
    DeckReshuffled,
    DeclineFreeTest,
    DieRerolled,
    Discard,
    DrawCount,
    DWindow,
    EffectFizzled,
    EndActions,
    KeepRoll,
    PassCancelled,
    PassDiceRolled,
    PassReaction,
    PassResolved,
    PitChoice,
    PitStop,
    PlayAction,
    PlayReaction,
    RaceEnded,
    RepairRolled,
    Reroll,
    SetupDiscard,
    SetupDiscardChosen,
    TakeFreeTest,
    TDrawPhase,
    TEndTurn,
    UseFlag,
)
from core.cthulhu500.rules.board import ahead, behind, dmove_line, pass_line
from core.cthulhu500.rules.engine import new_state, ranking, setup
from core.game import BreaksRule, NotYourTurn
from core.rng import ScriptedChance, fisher_yates_draws, shuffled
from tests.cthulhu500.kit import CAR, CH, FE, OL, PU, SCV, TRUCK, VM, Run, d, race

TURN = (TEndTurn(0), TDrawPhase(0), DDiscard(0), DActions(0))


def fold(config: Config, n: int, events) -> object:
    s = new_state(config, n)
    for e in events:
        s = evolve(s, e)
    return s


# --------------------------------------------------------------------------- setup


def test_vehicles_random_assignment_follows_the_shuffle():
    """C-VEHICLES, C-CHANCE: the 8 pairs shuffled in id order; seat s takes index s."""
    markers = [1, 3, 5, 7, 9, 11, 13, 15]
    wanted = [15, 5, 1, 3, 7, 9, 11, 13]
    chance = ScriptedChance(fisher_yates_draws(markers, wanted) + [0] * 92)
    state = fold(Config(), 3, setup(Config(), 3, chance))
    assert [v.marker for v in state.vehicles] == [15, 5, 1]
    assert state.set_aside == (3, 7, 9, 11, 13)


def test_vehicles_choose_asks_the_last_seat_first():
    """C-VEHICLES (choose): seats pick in reverse seat order; the last pick is automatic."""
    config = Config(vehicle_assignment="choose")
    events = setup(config, 2, ScriptedChance([]))
    r = Run(fold(config, 2, events))
    assert r.pending() == (1,)
    assert len(r.legal(1)) == 8
    r.act(1, ChooseVehicle(5))
    assert r.state.vehicles[1].marker == 5
    assert r.pending() == (0,)
    assert ChooseVehicle(5) not in r.legal(0)
    r.act(0, ChooseVehicle(1), [0] * 92)  # the deck is shuffled after the choices
    assert r.state.set_aside == (3, 7, 9, 11, 13, 15)


def test_chance_deck_shuffle_and_deal_round_by_round():
    """C-CHANCE, C-PACK-ORDER: deck 17-109 shuffled in canonical order; deal seat 0 first."""
    script = [0] * 7 + list(range(92, 0, -1))  # j = i: every swap a no-op
    events = setup(Config(), 3, ScriptedChance([min(v, i) for i, v in enumerate(script)]))
    state = fold(Config(), 3, events)
    order = shuffled(ScriptedChance([min(v, i) for i, v in enumerate(script)][7:]), list(DECK_IDS))
    assert state.hands[0] == tuple(sorted(order[0:15:3]))
    assert state.hands[1] == tuple(sorted(order[1:15:3]))
    assert state.discard == (110,)
    assert state.draw_size == 93 - 15
    dealt = [e for e in events if isinstance(e, CardDealt)]
    assert [e.seat for e in dealt[:4]] == [0, 1, 2, 0]


def test_pack_order_most_discards_lead_and_the_setup_discard_is_secret():
    """C-PACK-ORDER: commit then reveal; other seats see no cards until the reveal."""
    from core.cthulhu500.views import redact, view

    events = setup(Config(), 2, ScriptedChance([0] * 99))
    r = Run(fold(Config(), 2, events))
    assert r.pending() == (0, 1)
    pick = next(a for a in r.legal(1) if len(a.cards) == 2)
    r.act(1, pick)
    chosen = r.of(SetupDiscardChosen)[0]
    assert redact(chosen, 0).cards is None
    assert view(r.state, 0).setup_choice[1] is None
    assert r.pending() == (0,)
    r.act(0, SetupDiscard(()))
    assert r.pack == (1, 0)
    assert r.state.active == 0
    assert set(pick.cards) <= set(r.state.discard)


# --------------------------------------------------------------------------- turns


def test_actions_two_then_discard_and_draw():
    """C-ACTIONS, C-DISCARD, C-DRAW: two actions, then discard any, then draw up to 2."""
    r = Run(race(FE, OL, PU, active=0, hands={0: (17, 18, 19)}, stack=TURN, draw=(20, 21, 22)))
    r.act(0, AddCrew(17, 0))
    r.act(0, AddCrew(18, 1))
    assert isinstance(r.state.stack[-1], DDiscard)
    r.act(0, Discard((19,)))
    assert r.state.hands[0] == (20, 21)
    assert r.state.active == 1
    assert r.state.vehicles[1].crew == (18,)


def test_end_actions_early_and_kinds_may_repeat():
    """C-ACTIONS: stop early with end_actions; one pass attempt may follow another."""
    r = Run(race(FE, OL, PU, active=2))
    r.act(2, AttemptPass(), d(1, 6))
    assert AttemptPass() in r.legal(2)
    r.act(2, EndActions())
    assert r.state.actions_left == 0


def test_promo_flag_gives_one_more_action_once():
    """C-ACTIONS (`promo_flag`): +1 action once per player per game."""
    r = Run(race(FE, OL, active=1, promo_flag=True))
    assert UseFlag() in r.legal(1)
    r.act(1, UseFlag())
    assert r.state.actions_left == 3
    assert UseFlag() not in r.legal(1)


def test_draw_respects_hand_limit_and_it_only_caps_drawing():
    """C-DRAW, C-HAND-LIMIT: draw min(2, limit - hand); nobody discards down to the limit."""
    hand = (17, 18, 19, 20, 21, 22)
    r = Run(race(FE, OL, active=0, hands={0: hand}, stack=TURN[:-1], draw=(23, 24)))
    r.act(0, Discard(()))
    assert r.state.hands[0] == hand
    assert not r.of(CardDrawn)
    r2 = Run(race(FE, OL, active=0, hands={0: (17, 18, 19, 20)}, stack=TURN[:-1], draw=(23, 24)))
    r2.act(0, Discard(()))
    assert len(r2.state.hands[0]) == 5


def test_may_draw_fewer_asks_the_count():
    """C-DRAW (`may_draw_fewer`): draw_count decision."""
    r = Run(
        race(
            FE, OL, active=0, hands={0: (17,)}, stack=TURN[:-1], draw=(23, 24), may_draw_fewer=True
        )
    )
    r.act(0, Discard(()))
    assert r.legal(0) == [DrawCount(0), DrawCount(1), DrawCount(2)]
    r.act(0, DrawCount(1))
    assert r.state.hands[0] == (17, 23)


def test_round_limit_ends_after_the_last_turn():
    """C-ROUND-LIMIT: the race ends after turn R*n's end-of-turn step."""
    r = Run(
        race(
            FE,
            OL,
            active=1,
            stack=(TEndTurn(1), TDrawPhase(1), DDiscard(1), DActions(1)),
            turn=2,
            round_limit=1,
        )
    )
    r.act(1, EndActions())
    assert r.state.over
    assert r.of(RaceEnded)[0].reason == "round_limit"


def test_rank_laps_then_pack_position():
    """C-RANK: most lap counters; ties go to the vehicle nearer the front."""
    state = race(FE, OL, PU, SCV, pack=(3, 2, 1, 0), laps={0: 2, 1: 1, 2: 1})
    assert ranking(state) == (0, 2, 1, 3)


# --------------------------------------------------------------------------- pack


def test_pack_is_a_circle():
    """C-PACK: ahead of the leader is the rear; behind the rear is the leader."""
    pack = (4, 2, 0)
    assert ahead(pack, 4) == 0
    assert behind(pack, 0) == 4
    assert ahead(pack, 0) == 2
    assert behind(pack, 2) == 0


def test_lap_with_two_players_leaves_the_line_unchanged():
    """C-LAP: n = 2, the leader passing the rear gains a lap and the line stays."""
    assert pass_line((0, 1), 0) == ((0, 1), True)
    assert pass_line((0, 1, 2, 3), 2) == ((0, 2, 1, 3), False)
    assert pass_line((0, 1, 2, 3), 0) == ((1, 2, 0, 3), True)


def test_dmove_swaps_only_when_directly_behind():
    """C-DMOVE: swap when V is directly behind W; never a pass or a lap."""
    assert dmove_line((0, 1, 2), 2, 1, "blocked") == ((0, 2, 1), "swap")
    assert dmove_line((0, 1, 2), 2, 0, "blocked") == ((0, 1, 2), "not_adjacent")
    assert dmove_line((0, 1, 2), 0, 2, "blocked") == ((0, 1, 2), "seam_blocked")
    assert dmove_line((0, 1, 2), 0, 2, "circle") == ((1, 0, 2), "seam_circle")
    assert dmove_line((0, 1, 2), 0, 2, "blocked", seam_swap=True) == ((2, 1, 0), "seam_swap")


def test_damage_again_midpack_is_passed_by_the_vehicle_behind():
    """C-DAMAGE, C-DAMAGE-AGAIN: a damaged vehicle damaged again swaps with the one behind."""
    r = Run(race(FE, OL, PU, active=0, damaged=(1,), hands={0: (80,)}))
    r.act(0, PlayAction(card=80, target_seat=1))
    assert r.pack == (0, 2, 1)
    assert r.of(DamageMove)[0].outcome == "swap"


# --------------------------------------------------------------------------- passing


def test_pass_test_totals_speed_drive_and_damaged_speed():
    """C-PASS-TEST, C-NO-DRIVER: d6 + current Speed + Drive (0 without a driver)."""
    r = Run(race(VM, CH, pack=(1, 0), active=0, damaged=(0,), driver={1: 18}))
    r.act(0, AttemptPass(), d(5, 2))
    res = r.of(PassResolved)[0]
    assert (res.attacker_total, res.defender_total) == (5 + 2, 2 + 3 + 2)
    assert res.outcome == "tie"


def test_slingshot_and_hold_the_line_add_in_the_try_window():
    """C-PASS-TEST, C-REACT-WINDOW: attacker's Slingshot, defender's Hold the Line, in order."""
    r = Run(race(FE, OL, pack=(1, 0), active=0, hands={0: (96,), 1: (92,)}))
    r.act(0, AttemptPass())
    assert r.pending() == (0,)
    r.act(0, PlayReaction(96))
    assert r.pending() == (1,)
    r.act(1, PlayReaction(92), d(3, 3))  # nobody holds more: the window closes, dice roll
    res = r.of(PassResolved)[0]
    assert (res.attacker_total, res.defender_total) == (3 + 4 + 2, 3 + 2 + 2)


def test_slingshot_bonus_counts():
    """C-PASS-TEST: Slingshot +2 attacking (card 96-99)."""
    r = Run(race(FE, OL, pack=(1, 0), active=0, hands={0: (96,)}))
    r.act(0, AttemptPass())
    r.act(0, PlayReaction(96), d(1, 1))
    res = r.of(PassResolved)[0]
    assert (res.attacker_total, res.defender_total) == (1 + 4 + 2, 1 + 2)


def test_hold_the_line_bonus_counts():
    """C-PASS-TEST: Hold the Line +2 defending (cards 92-95)."""
    r = Run(race(OL, FE, pack=(1, 0), active=0, hands={1: (92,)}))
    r.act(0, AttemptPass())
    r.act(1, PlayReaction(92), d(3, 1))
    res = r.of(PassResolved)[0]
    assert (res.attacker_total, res.defender_total) == (3 + 2, 1 + 4 + 2)
    assert res.outcome == "lose"


def test_car_of_cthulhu_reroll_is_always_asked():
    """C-PASS-TEST, C-AUTO-DECISION: the Car of Cthulhu's owner may re-roll its die once."""
    r = Run(race(CAR, OL, pack=(1, 0), active=0))
    r.act(0, AttemptPass(), d(1, 6))
    assert r.legal(0) == [Reroll(), KeepRoll()]
    r.act(0, Reroll(), d(6))
    res = r.of(PassResolved)[0]
    assert res.attacker_total == 6 + 3
    assert r.of(DieRerolled)[0].old == 1
    keep = Run(race(OL, CAR, pack=(1, 0), active=0))
    keep.act(0, AttemptPass(), d(6, 1))
    assert keep.pending() == (1,)
    keep.act(1, KeepRoll())
    assert keep.pack == (0, 1)


def test_pass_win_black_flag_cancels_everything():
    """C-PASS-WIN: Black Flag from the defender's owner cancels the pass."""
    r = Run(race(FE, OL, pack=(1, 0), active=0, hands={1: (104,)}))
    r.act(0, AttemptPass(), d(6, 1))
    r.act(1, PlayReaction(104))
    assert r.pack == (1, 0)
    assert r.state.discard[-1] == 104


def test_nuclear_option_damages_the_vehicle_passed():
    """C-PASS-WIN: Nuclear Option on the passer damages the vehicle it passes."""
    r = Run(race(FE, OL, PU, pack=(1, 0, 2), active=0, mods={0: (40,)}))
    r.act(0, AttemptPass(), d(6, 1))
    assert r.pack == (0, 1, 2)
    assert r.damaged(1)
    assert not r.damaged(0)


def test_auto_pass_dreamlands_shortcut_rolls_nothing():
    """C-AUTO-PASS: Dreamlands Shortcut passes the vehicle ahead with no roll; the leader laps."""
    r = Run(race(FE, OL, PU, active=0, hands={0: (60,)}))
    r.act(0, PlayAction(card=60))
    assert not r.of(PassDiceRolled)
    assert r.laps(0) == 1
    assert r.pack == (1, 0, 2)


def test_big_honkin_truck_is_never_hit_by_a_tie():
    """C-PASS-TIE: Big Honkin' Truck is never hit (only the other vehicle flips)."""
    r = Run(race(TRUCK, SCV, pack=(1, 0), active=0))
    r.act(0, AttemptPass(), d(3, 3))
    assert not r.damaged(0)
    assert r.damaged(1)


def test_roll_cage_is_discarded_instead_of_a_tie_hit():
    """C-PASS-TIE: an Eldritch Roll Cage is discarded instead of the hit."""
    r = Run(race(SCV, OL, pack=(1, 0), active=0, mods={0: (45, 46)}))
    r.act(0, AttemptPass(), d(3, 3))
    assert not r.damaged(0)
    assert r.state.vehicles[0].mods == (46,)
    assert r.damaged(1)


def test_tie_lucky_break_is_asked_for_attacker_then_defender():
    """C-PASS-TIE, C-REACT-WINDOW: X's hit is decided before Y's."""
    r = Run(race(SCV, OL, pack=(1, 0), active=0, hands={0: (100,), 1: (101,)}))
    r.act(0, AttemptPass(), d(3, 3))
    assert r.pending() == (0,)
    r.act(0, PassReaction())
    assert r.pending() == (1,)
    r.act(1, PlayReaction(101))
    assert r.damaged(0)
    assert not r.damaged(1)


# --------------------------------------------------------------------------- damage and reactions


def test_roll_cage_absorbs_spell_damage():
    """C-DAMAGE: Eldritch Roll Cage is discarded instead (lowest id first)."""
    r = Run(race(FE, OL, active=0, hands={0: (79,)}, mods={1: (46, 45)}))
    r.act(0, PlayAction(card=79, target_seat=1))
    assert not r.damaged(1)
    assert r.state.vehicles[1].mods == (46,)


def test_lucky_break_settles_the_window_at_once():
    """C-CONTRADICT: after a Lucky Break took effect nobody else is asked."""
    r = Run(race(FE, OL, active=0, hands={0: (79,), 1: (100, 101)}))
    r.act(0, PlayAction(card=79, target_seat=1))
    r.act(1, PlayReaction(100))
    assert not r.damaged(1)
    assert 101 in r.state.hands[1]
    assert isinstance(r.state.stack[-1], DActions)


def test_tow_truck_repairs_at_once_and_a_failed_one_may_be_followed():
    """C-CONTRADICT, C-REPAIR: Tow Truck repair; a failed one leaves the window open."""
    r = Run(race(FE, PU, active=0, hands={0: (79,), 1: (105, 106)}))
    r.act(0, PlayAction(card=79, target_seat=1))
    assert r.damaged(1)
    assert r.pending() == (1,)
    r.act(1, PlayReaction(105), d(1))  # 1 + 0 Fixit < Complexity 2
    assert r.damaged(1)
    assert r.pending() == (1,)
    r.act(1, PlayReaction(106), d(2))
    assert not r.damaged(1)
    assert [e.success for e in r.of(RepairRolled)] == [False, True]


def test_elder_sign_cancels_a_spell_and_cannot_be_cancelled():
    """C-CHAIN: Elder Sign only directly on a Spell; nothing may go on it."""
    r = Run(race(FE, OL, active=0, hands={0: (79, 86), 1: (90,)}))
    r.act(0, PlayAction(card=79, target_seat=1))
    r.act(0, PassReaction())
    assert PlayReaction(90) in r.legal(1)
    r.act(1, PlayReaction(90))
    assert r.pending() == (0,)
    assert isinstance(r.state.stack[-1], DActions)
    assert not r.damaged(1)
    assert r.of(ChainResolved)[0].cancelled == (True, False)


def test_elder_sign_is_not_playable_on_a_non_spell():
    """C-CHAIN: Elder Sign answers only Spells."""
    r = Run(race(FE, OL, PU, active=0, hands={0: (70,), 1: (90,)}, mods={2: (34,)}))
    r.act(0, PlayAction(card=70, target_seat=2, target_card=34))
    assert r.pending() == (0,)
    assert 34 in r.state.discard


def test_ia_ia_cancels_a_reaction_card():
    """C-CHAIN: a Reaction played in a window opens a chain; Ia! Ia! cancels it."""
    r = Run(race(FE, OL, pack=(1, 0), active=0, hands={0: (96,), 1: (86,)}))
    r.act(0, AttemptPass())
    r.act(0, PlayReaction(96))
    assert r.pending() == (1,)
    r.act(1, PlayReaction(86), d(1, 1))
    res = r.of(PassResolved)[0]
    assert res.attacker_total == 1 + 4


def test_everyone_mode_asks_named_seats_even_without_cards():
    """C-REACT-WINDOW, C-AUTO-DECISION (`reaction_prompt = everyone`)."""
    r = Run(race(FE, OL, pack=(1, 0), active=0, reaction_prompt="everyone"))
    r.act(0, AttemptPass())
    assert r.pending() == (0,)
    assert r.legal(0) == [PassReaction()]
    r.act(0, PassReaction())
    assert r.pending() == (1,)
    r.act(1, PassReaction(), d(6, 1))
    assert r.pending() == (1,)  # the win window asks the defender's owner
    assert isinstance(r.state.stack[-1], DWindow)


def test_holders_mode_skips_seats_without_a_fitting_card():
    """C-REACT-WINDOW (holders): a seat holding only unrelated reactions is not asked."""
    r = Run(race(FE, OL, pack=(1, 0), active=0, hands={1: (100,)}))
    r.act(0, AttemptPass(), d(6, 1))
    assert r.pack == (0, 1)


def test_block_the_pit_exit_cancels_the_free_test():
    """C-PIT-FREE-TEST: Block the Pit Exit cancels the pit-stop free test."""
    r = Run(race(FE, OL, PU, active=2, hands={2: (56, 107)}))
    r.act(2, PitStop())
    r.act(0, TakeFreeTest())
    assert r.pending() == (2,)
    r.act(2, PlayReaction(107))
    assert r.of(PassCancelled)
    assert not r.of(PassDiceRolled)
    assert r.state.vehicles[2].tires == 56


def test_block_the_pit_exit_is_not_playable_on_a_normal_pass():
    """C-REACT-WINDOW: Block the Pit Exit only answers a pit-stop free test."""
    r = Run(race(FE, OL, pack=(1, 0), active=0, hands={1: (107,)}))
    r.act(0, AttemptPass(), d(1, 6))
    assert r.pack == (1, 0)


# --------------------------------------------------------------------------- pit, crew, cards


def test_pit_stop_needs_a_possible_choice():
    """C-PIT-STOP: legal only if a Mod, Tires, driver or repair is possible."""
    r = Run(race(FE, OL, active=0))
    assert PitStop() not in r.legal(0)
    r2 = Run(race(FE, OL, active=0, damaged=(0,)))
    assert PitStop() in r2.legal(0)


def test_pit_free_test_may_be_declined_or_forced():
    """C-PIT-FREE-TEST (`free_test_may_decline`)."""
    r = Run(race(FE, OL, PU, active=1, hands={1: (56,)}))
    r.act(1, PitStop())
    assert r.pending() == (2,)
    r.act(2, DeclineFreeTest())
    assert r.state.vehicles[1].tires == 56
    forced = Run(race(FE, OL, PU, active=1, hands={1: (56,)}, free_test_may_decline=False))
    forced.act(1, PitStop(), d(1, 6))
    assert forced.of(PassDiceRolled)


def test_pit_mod_with_two_attached_replaces_one():
    """C-PIT-MOD: at most 2 Mods (Sponsors included); the replaced one is discarded."""
    r = Run(race(FE, OL, active=0, hands={0: (43, 56)}, mods={0: (34, 49)}))
    r.act(0, PitStop())
    r.act(1, DeclineFreeTest())
    options = r.legal(0)
    assert PitChoice(kind="mod", card=43, replace=34) in options
    assert PitChoice(kind="mod", card=43) not in options
    r.act(0, PitChoice(kind="mod", card=43, replace=49))
    assert r.state.vehicles[0].mods == (34, 43)
    assert 49 in r.state.discard


def test_pit_tires_replace_the_old_set():
    """C-PIT-TIRES: a new set replaces the old one."""
    r = Run(race(FE, OL, active=0, hands={0: (54, 34)}, tires={0: 52}))
    r.act(0, PitStop())
    r.act(1, DeclineFreeTest())
    r.act(0, PitChoice(kind="tires", card=54))
    assert r.state.vehicles[0].tires == 54
    assert 52 in r.state.discard


def test_pit_driver_from_hand_or_pit_crew():
    """C-PIT-DRIVER: a crew card from hand or pit crew drives; the old driver joins the crew."""
    r = Run(race(FE, OL, active=0, hands={0: (29, 56)}, crew={0: (31,)}, driver={0: 18}))
    r.act(0, PitStop())
    r.act(1, DeclineFreeTest())
    assert PitChoice(kind="driver", card=31) in r.legal(0)
    r.act(0, PitChoice(kind="driver", card=29))
    assert r.state.vehicles[0].driver == 29
    assert set(r.state.vehicles[0].crew) == {31, 18}


def test_repair_d6_plus_fixit_against_complexity():
    """C-REPAIR: d6 + pit crew Fixit + bonuses >= Complexity flips to undamaged."""
    r = Run(race(FE, OL, active=0, damaged=(0,), crew={0: (27,)}, hands={0: (56,)}))
    r.act(0, PitStop())
    r.act(1, DeclineFreeTest())
    r.act(0, PitChoice(kind="repair"), d(2))  # 2 + 3 < 6
    assert r.damaged(0)
    r2 = Run(race(FE, OL, active=0, damaged=(0,), crew={0: (27,)}))
    r2.act(0, PitStop())
    r2.act(1, DeclineFreeTest())
    r2.act(0, PitChoice(kind="repair"), d(3))  # 3 + 3 >= 6
    assert not r2.damaged(0)
    assert r2.of(RepairRolled)[0].need == 6


def test_add_crew_into_another_players_pit_crew():
    """C-ADD-CREW: a crew card from hand into any player's pit crew (no size limit)."""
    r = Run(race(FE, OL, active=0, hands={0: (33,)}, crew={1: (17, 18, 19, 20, 21)}))
    assert AddCrew(33, 1) in r.legal(0)
    r.act(0, AddCrew(33, 1))
    assert r.state.vehicles[1].crew[-1] == 33


def test_play_action_cancelled_is_still_spent_and_targets_must_be_legal():
    """C-PLAY-ACTION: a cancelled action is spent; a card without a legal target is unplayable."""
    r = Run(race(FE, OL, active=0, hands={0: (79, 75), 1: (86,)}))
    assert not any(isinstance(a, PlayAction) and a.card == 75 for a in r.legal(0))
    r.act(0, PlayAction(card=79, target_seat=1))
    r.act(1, PlayReaction(86))
    assert not r.damaged(1)
    assert r.state.actions_left == 1
    with pytest.raises(BreaksRule, match="rule C-PLAY-ACTION"):
        r.act(0, PlayAction(card=75))


def test_not_your_turn_is_refused():
    """C-ACTIONS: only the asked seat may act."""
    r = Run(race(FE, OL, active=0))
    with pytest.raises(NotYourTurn):
        r.act(1, AttemptPass())


def test_fungi_synergy_and_herbert_west_zombies():
    """C-FUNGI: a Fungi with another Fungi +1 Fixit; Herbert West +1 per Zombie."""
    from core.cthulhu500.model import Vehicle
    from core.cthulhu500.rules.board import fixit

    assert fixit(Vehicle(marker=1, crew=(19,))) == 1
    assert fixit(Vehicle(marker=1, crew=(19, 21))) == 1 + 2 + 2
    assert fixit(Vehicle(marker=1, crew=(17, 23, 26))) == (1 + 2) + 2 + 0
    assert fixit(Vehicle(marker=1, crew=(33,))) == -1


def test_zombies_cannot_be_chosen_by_black_plague():
    """C-ZOMBIE, C-CONTAGION: Black Plague never targets a Zombie."""
    r = Run(race(FE, OL, active=0, hands={0: (62,)}, crew={1: (23, 26)}, driver={1: 18}))
    plays = [a for a in r.legal(0) if isinstance(a, PlayAction) and a.card == 62]
    assert plays == [PlayAction(card=62, target_seat=1, target_card=18)]


def test_contagion_ends_when_the_marked_card_leaves():
    """C-CONTAGION: the contagion ends at once when its marked card leaves the vehicle."""
    r = Run(
        race(FE, OL, PU, active=0, hands={0: (62, 73)}, crew={1: (27,), 2: (31,)}, pack=(0, 1, 2))
    )
    r.act(0, PlayAction(card=62, target_seat=1, target_card=27))
    assert r.state.contagions[0].target == 31
    r.act(0, PlayAction(card=73, target_seat=2, target_card=31))
    assert r.state.contagions == ()
    assert 62 in r.state.discard
    assert r.state.vehicles[0].crew == (31,)


def test_reshuffle_leaves_contagion_cards_out():
    """C-RESHUFFLE, C-CONTAGION: a contagion card beside a vehicle is not reshuffled."""
    r = Run(
        race(FE, OL, PU, active=0, hands={0: (63,)}, mods={1: (34,), 2: (35,)}, stack=TURN, draw=())
    )
    r.act(0, PlayAction(card=63, target_seat=1, target_card=34))
    assert r.state.contagions[0].card == 63
    r.act(0, EndActions(), [1])
    assert r.of(DeckReshuffled)[0].order == (34, 110)
    assert [e.card for e in r.of(CardDrawn)] == [34]
    assert r.state.over
    assert r.state.contagions[0].card == 63


def test_both_damaged_tie_midpack_swaps_them():
    """C-PASS-TIE-BOTH-DAMAGED: two damaged vehicles hit again swap places (no lap)."""
    r = Run(race(CH, OL, SCV, PU, active=2, damaged=(1, 2)))
    r.act(2, AttemptPass(), d(4, 5))
    assert r.of(PassResolved)[0].outcome == "tie"
    assert r.pack == (0, 2, 1, 3)
    assert r.laps(2) == 0


def test_copies_of_a_card_are_one_answer():
    """C-AUTO-DECISION: copies of one card in one place count once (lowest id)."""
    r = Run(race(FE, OL, active=0, hands={0: (79,), 1: (88, 86, 87)}))
    r.act(0, PlayAction(card=79, target_seat=1))
    assert r.legal(1) == [PlayReaction(86), PassReaction()]


def test_pile_label_rounds_unless_exact_counts():
    """§7 hidden information: the draw pile is shown about, unless `exact_pile_counts`."""
    from core.cthulhu500.rules.board import pile_label

    assert pile_label(race(FE, OL, draw=tuple(range(17, 40)))) == "about 20"
    assert pile_label(race(FE, OL, draw=(17, 18))) == "fewer than 5"
    assert pile_label(race(FE, OL, draw=(17, 18), exact_pile_counts=True)) == "2"


def test_bad_config_is_refused_with_a_sentence():
    from core import registry
    from core.game import ConfigError, config_from_options

    game = registry.get("cthulhu500")
    with pytest.raises(ConfigError, match="cannot be negative"):
        game.check_config(Config(hand_limit=-1), 3)
    with pytest.raises(
        ConfigError, match="option seam_damage_moves takes blocked or circle, not sideways"
    ):
        config_from_options(game, {"seam_damage_moves": "sideways"})
    assert config_from_options(game, {"round_limit": "4"}).round_limit == 4


def test_refusals_name_the_players_mistake():
    """C-PLAY-ACTION, C-DISCARD: bad input gets one readable sentence, never a traceback."""
    r = Run(race(FE, OL, active=0, hands={0: (79, 75)}))
    with pytest.raises(BreaksRule, match="You do not hold Spell: Gate"):
        r.act(0, PlayAction(card=83))
    with pytest.raises(BreaksRule, match="Rush Job cannot be played like that now"):
        r.act(0, PlayAction(card=75))
    with pytest.raises(BreaksRule, match="rule C-ACTIONS"):
        r.act(0, TakeFreeTest())
    d_ = Run(race(FE, OL, active=0, hands={0: (17,)}, stack=TURN[:-1]))
    with pytest.raises(BreaksRule, match="only discard cards that are in your hand"):
        d_.act(0, Discard((18,)))


def test_ruling_scavenged_card_stays_hidden_in_other_views():
    """C-PLAY-ACTION (Scavenge) and §7: hands are owner-only even when the card is known."""
    from core.cthulhu500.model import HIDDEN
    from core.cthulhu500.views import redact, view

    r = Run(race(FE, OL, active=0, hands={0: (77,)}, discard=(110, 43)))
    r.act(0, PlayAction(card=77, target_card=43))
    taken = r.of(CardTakenFromDiscard)[0]
    assert redact(taken, 1).hand_card is None
    assert redact(taken, 1).card == 43
    assert view(r.state, 1).hands[0] == (HIDDEN,)
    assert view(r.state, 0).hands[0] == (43,)


def test_ruling_a_vanished_target_fizzles():
    """C-PLAY-ACTION: an effect whose target is gone fizzles (the card is still spent)."""
    from core.cthulhu500.model import DFreeTest, TEffect

    stack = (
        DActions(0),
        TEffect(card=71, seat=0, target_seat=1, target_card=58),
        DFreeTest(seat=0, kind="pit"),
    )
    r = Run(race(FE, OL, active=0, stack=stack))
    r.act(0, DeclineFreeTest())
    assert r.of(EffectFizzled)[0].card == 71


def test_ruling_nitrous_does_not_help_a_defender():
    """C-PASS-TEST: Nitrous counts only when your own vehicle attacks."""
    r = Run(race(FE, OL, PU, active=1, hands={1: (67, 56)}))
    r.act(1, PlayAction(card=67))
    r.act(1, PitStop())
    r.act(2, TakeFreeTest(), d(3, 3))
    res = r.of(PassResolved)[0]
    assert res.defender_total == 3 + 2
    assert res.nitrous == 0
    assert r.state.nitrous == 3


def test_ruling_the_drawn_flag_keeps_a_place():
    """C-CHECKERED-FLAG: the drawn Flag lies on the discard pile when the race ends."""
    turn = (TEndTurn(0), TDrawPhase(0), DDiscard(0))
    r = Run(race(FE, OL, active=0, hands={0: (60,)}, stack=turn, draw=(110,), discard=()))
    r.act(0, Discard(()))
    assert r.state.over
    assert r.state.discard == (110,)
