"""The worked examples of rules/go500.md §8, each a test (dice scripted through real chance)."""

from __future__ import annotations

from core.game import Seat, Table
from core.go500 import GAME
from core.go500.config import Go500Config
from core.go500.data import CUP_POINTS, points_for_place
from core.go500.model import (
    BigOneRolled,
    CautionCut,
    CheckeredFlag,
    DriverFinished,
    EffectQueued,
    InTheGroove,
    KnockedOut,
    RaceEnded,
    Roll,
    RoundEnded,
    SaveAndRoll,
    Stop,
    TurnEnded,
    TurnStarted,
)
from core.go500.rules import cup_standings, lead_bonuses
from core.rng import ScriptedChance
from tests.go500.helpers import CRASH, PIT, TRACK, act, of, roll, table

A, B, C, D = 0, 1, 2, 3


def test_example_1_save_and_stop_g_save_g_green():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", [15, 20, 5, 0, "C"], 30))
    assert s.turns[A].showing == 95
    s, _ = act(s, A, SaveAndRoll(dice=["T2", "T5", "P"]), roll("GREEN", [10, 15, 20]))
    assert s.turns[A].showing == 10 + 20 + 15 + 20 + 25 + 30 == 120
    s, _ = act(s, A, Stop())
    assert s.totals[A] == 120
    assert s.current == B


def test_example_1_variant_nothing_left_to_roll_is_a_green_stop_g_auto_decision():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", [15, 20, 5, 0, "C"], 30))
    s, events = act(
        s, A, SaveAndRoll(dice=["T1", "T2", "T3", "T4", "T5"]), roll("GREEN", [], "FLAT")
    )
    assert of(events, TurnEnded)[0].kind == "green_stop"
    assert s.totals[A] == 65
    assert s.current == B
    assert GAME.legal(s, A) == []


def test_example_2_caution_cuts_the_sole_leader_g_caution():
    s = table([300, 250, 180], current=C)
    s, events = act(s, C, Roll(), [*roll("YELLOW", [20, 20, 10, 0, 5], 10), PIT["CAUTION"]])
    assert s.totals == (250, 250, 245)
    assert of(events, CautionCut)[0].cut == A


def test_example_2_variant_shared_lead_nobody_cut_g_caution():
    s = table([300, 300, 180], current=C)
    s, events = act(s, C, Roll(), [*roll("YELLOW", [20, 20, 10, 0, 5], 10), PIT["CAUTION"]])
    assert s.totals == (300, 300, 245)
    assert of(events, CautionCut)[0].cut is None


EX3 = [*roll("RED", [15, 10, 5, 0, 0], 40), CRASH["CRASH"], CRASH[-20], CRASH["BIG_X"], CRASH[-50]]


def test_example_3_big_one_g_big_one_g_behind_wall_g_stall():
    s = table([100, 200, 30])
    s, events = act(s, A, Roll(), EX3)
    assert s.totals == (150, 200, 0)
    assert s.out == (False, True, False)
    assert [e.seat for e in of(events, BigOneRolled)] == [A, B, C]
    assert of(events, BigOneRolled)[-1].stalled


def test_example_3_variant_big_x_minus_50_g_big_one():
    s = table([100, 200, 30], big_x_in_big_one="minus_50")
    s, _ = act(s, A, Roll(), EX3)
    assert s.totals == (150, 150, 0)
    assert s.out == (False, False, False)


EX4 = [*roll("YELLOW", [10, 10, 0, 0, 0], 20), PIT["CAUTION"]]


def test_example_4_finish_before_caution_and_final_round_g_finish_g_final_round_g_rank_tie():
    s = table([470, 300, 260])
    s, events = act(s, A, Roll(), EX4)
    assert of(events, CheckeredFlag)[0].seat == A
    assert s.totals == (510, 260, 260)
    assert s.current == B
    s, _ = act(s, B, Roll(), roll("GREEN", [20, 20, 10, 0, 0], 20))
    s, _ = act(s, B, Stop())
    assert s.totals[B] == 330
    s, _ = act(s, C, Roll(), roll("GREEN", [10, 10, 0, 0, 0], 10))
    s, events = act(s, C, Stop())
    assert s.totals == (510, 330, 290)
    assert of(events, RaceEnded)[0].ranking == (A, B, C)
    assert GAME.result(s).ranking == [A, B, C]


def test_example_4_variant_no_final_round_g_final_round_g_rank_tie():
    s = table([470, 300, 260], final_round=False)
    s, events = act(s, A, Roll(), EX4)
    assert of(events, RaceEnded)[0].ranking == (A, B, C)
    assert s.totals == (510, 260, 260)
    assert s.phase == "over"


def test_example_4_variant_after_track_event_g_finish():
    s = table([470, 300, 260], finish_check="after_track_event")
    s, events = act(s, A, Roll(), EX4)
    assert s.totals == (300, 300, 260)
    assert not of(events, DriverFinished)
    assert s.current == B
    assert s.phase == "turn"


def test_example_5_groove_over_black_then_auto_stop_g_groove_g_auto_stop():
    s = table([200, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", ["C", "C", 10, "C", 5], "C"))
    s, events = act(s, A, SaveAndRoll(dice=["T1", "T2", "T4", "P"]), roll("BLACK", ["C", "C"]))
    assert of(events, InTheGroove)
    assert s.totals[A] == 375
    assert of(events, TurnStarted)[-1] == TurnStarted(seat=A, extra=True)
    s, events = act(s, A, Roll(), roll("GREEN", ["C", 20, 15, 20, 20], 40))
    assert of(events, TurnEnded)[0].kind == "green_stop"
    assert s.totals[A] == 515
    assert of(events, CheckeredFlag)[0].seat == A


def test_example_6_cup_points_g_cup_g_cup_standings():
    config = Go500Config(mode="cup")
    table_ = CUP_POINTS.by_name["winston_1975"]
    ranking = (B, C, A, D)
    led = [2, 4, 0, 0]  # rounds 1-2 A, rounds 3-6 B
    bonus = lead_bonuses(config, led)
    points = [0] * 4
    for place, seat in enumerate(ranking, 1):
        points[seat] = points_for_place(table_, place) + bonus[seat]
    assert points == [170, 185, 170, 160]
    assert cup_standings(points, [ranking], 4) == (B, C, A, D)


def test_example_7_qualifying_with_tie_rerolls_g_qualify():
    config = Go500Config()
    draws = [
        *[TRACK[v] for v in (20, 15, 10, 5, 0)],
        *[TRACK[v] for v in ("C", 5, 10, 5, 5)],
        *[TRACK[v] for v in (0, 0, 0, 0, 0)],
        *[TRACK[10]] * 5,
        *[TRACK[20]] * 5,
    ]
    chance = ScriptedChance(draws)
    t = Table(GAME, config, [Seat(name=n) for n in "ABC"], 1, chance=chance)
    for seat in (0, 1, 2):
        t.submit(seat, Roll())
    assert chance.remaining == 0
    assert len(chance.asked) == 25
    assert t.state.order == (1, 2, 0)
    assert t.state.pole == 1
    assert t.state.current == 1


def test_g_qualify_a_tie_reroll_only_orders_the_tied_drivers():
    """A and B tie on 50, C has 45; both re-roll low (0 and 10): B takes the pole, not C."""
    draws = [
        *[TRACK[v] for v in (20, 15, 10, 5, 0)],
        *[TRACK[v] for v in ("C", 5, 10, 5, 5)],
        *[TRACK[v] for v in (20, 15, 10, 0, 0)],
        *[TRACK[0]] * 5,
        *[TRACK[v] for v in (10, 0, 0, 0, 0)],
    ]
    chance = ScriptedChance(draws)
    t = Table(GAME, Go500Config(), [Seat(name=n) for n in "ABC"], 1, chance=chance)
    for seat in (0, 1, 2):
        t.submit(seat, Roll())
    assert chance.remaining == 0
    assert t.state.qual_scores == (0, 10, 45)
    assert t.state.pole == 1
    assert t.state.order == (1, 2, 0)


def test_g_qualify_tied_again_among_the_tied_rerolls_only_those():
    """A, B, C tie on 50; the re-roll ties A and C on 10 (B 0): only A and C roll a third time."""
    draws = [
        *[TRACK[v] for v in (20, 15, 10, 5, 0)] * 3,
        *[TRACK[v] for v in (10, 0, 0, 0, 0)],
        *[TRACK[0]] * 5,
        *[TRACK[v] for v in (5, 5, 0, 0, 0)],
        *[TRACK[0]] * 5,
        *[TRACK[v] for v in (5, 0, 0, 0, 0)],
    ]
    chance = ScriptedChance(draws)
    t = Table(GAME, Go500Config(), [Seat(name=n) for n in "ABC"], 1, chance=chance)
    for seat in (0, 1, 2):
        t.submit(seat, Roll())
    assert chance.remaining == 0
    assert len(chance.asked) == 40
    assert t.state.pole == 2


def test_example_8_trigger_already_finished_does_not_roll_g_big_one_g_finish():
    s = table([480, 300, 200])
    draws = [*roll("RED", [5, 5, 0, 0, 0], 20), CRASH["CRASH"], CRASH[-10], CRASH["CRASH"]]
    s, events = act(s, A, Roll(), draws)
    assert s.totals == (510, 290, 200)
    assert [e.seat for e in of(events, BigOneRolled)] == [B, C]
    assert s.finished[A]


def test_example_8_variant_after_track_event_g_big_one_g_finish():
    s = table([480, 300, 200], finish_check="after_track_event")
    draws = [
        *roll("RED", [5, 5, 0, 0, 0], 20),
        CRASH["CRASH"],
        CRASH[-20],
        CRASH[-10],
        CRASH["CRASH"],
    ]
    s, _ = act(s, A, Roll(), draws)
    assert s.totals == (490, 290, 200)
    assert not s.finished[A]


def test_example_9_cup_rounds_and_last_one_running_g_cup_g_last_running_g_behind_wall():
    s = table([0, 0, 0], mode="cup", schedule=(("Race 1", 500),))
    s, _ = act(s, A, Roll(), [*roll("RED", [10, 0, 0, 0, 0], 10), CRASH["BIG_X"]])
    assert s.out[A]
    s, _ = act(s, B, Roll(), roll("GREEN", [10, 10, 0, 0, 0], 10))
    s, _ = act(s, B, Stop())
    s, _ = act(s, C, Roll(), roll("GREEN", [10, 0, 0, 0, 0], 10))
    s, events = act(s, C, Stop())
    assert of(events, RoundEnded) == [RoundEnded(round=1, leaders=(B,))]
    assert s.current == B
    draws = [*roll("RED", [5, 0, 0, 0, 0], 10), CRASH["CRASH"], CRASH["BIG_X"], CRASH[-10]]
    s, events = act(s, B, Roll(), draws)
    assert of(events, RoundEnded) == [RoundEnded(round=2, leaders=(C,))]
    assert of(events, KnockedOut) == [KnockedOut(seat=B)]
    assert of(events, RaceEnded)[0].ranking == (C, B, A)
    assert s.race_points == ((165, 180, 185),)
    assert s.phase == "over"
    assert GAME.result(s).ranking == [C, B, A]


def test_example_10_multi_game_round_g_multi_game():
    s = table([450, 480, 100], mode="multi_game")
    s, events = act(s, A, Roll(), [*roll("YELLOW", [20, 20, 0, 0, 0], 20), PIT["CAUTION"]])
    assert s.totals[A] == 510
    assert s.finished[A]
    assert of(events, EffectQueued) == [EffectQueued(seat=A, effect="caution")]
    s, _ = act(s, B, Roll(), roll("GREEN", [10, 10, 0, 0, 0], 20))
    s, _ = act(s, B, Stop())
    assert s.totals[B] == 520
    assert s.finished[B]
    draws = [*roll("RED", [5, 5, 0, 0, 0], 10), CRASH["CRASH"], CRASH[-10]]
    s, events = act(s, C, Roll(), draws)
    # Only C is still racing when the queued caution resolves: nobody to cut (G-CAUTION).
    assert of(events, CautionCut) == [CautionCut(trigger=A, cut=None, total=0, alone=True)]
    assert [(e.seat, e.total) for e in of(events, BigOneRolled)] == [(C, 110)]
    assert of(events, RaceEnded)[0].ranking == (B, A, C)
    assert s.totals == (510, 520, 110)


def test_example_11_table_chaos_g_chaos():
    s = table([0, 0], table_chaos=True)
    draws = [4, 40, 0, 4, 5000, 3, 5000, 5, 5000, 2, 250, 4, 0, 5000]
    s, _events = act(s, A, Roll(), draws)
    assert len(draws) == 14
    t = s.turns[A]
    assert t.removed[6]
    assert t.showing == 80
    s, _ = act(s, A, Stop())
    assert s.totals[A] == 80


def test_example_12_time_trial_groove_g_time_trial_g_groove():
    s = table([0], mode="time_trial", hours=1)
    s, _ = act(s, A, Roll(), roll("GREEN", ["C"] * 5, "C"))
    assert s.totals[A] == 175
    assert s.phase == "turn"
    draws = [*roll("RED", [10, 0, 0, 0, 0], 10), CRASH["CRASH"], CRASH[-30]]
    s, _events = act(s, A, Roll(), draws)
    assert s.totals[A] == 165
    assert s.phase == "over"
    assert GAME.result(s).scores == [165]


def test_example_13_turn_cap_g_max_turn():
    s = table([100, 0])
    s, _events = act(s, A, Roll(), [*roll("YELLOW", ["C", "C", "C", "C", 20], "C"), PIT[20]])
    assert s.totals[A] == 275
