"""Go 500 rules, one or more tests per rule ID of rules/go500.md (dice scripted)."""

from __future__ import annotations

import pytest

from core.game import BreaksRule, NotYourTurn, Seat, Table
from core.go500 import GAME
from core.go500.config import Go500Config
from core.go500.model import (
    BigOneRolled,
    BigOneStarted,
    CautionCut,
    ChaosStruck,
    CheckeredFlag,
    ChoosePaintTarget,
    CrashDieRolled,
    DiceRolled,
    InTheGroove,
    MilesRecorded,
    PaintTraded,
    PitDieRolled,
    PoleWon,
    PowerDieRemoved,
    QualifyingRolled,
    RaceEnded,
    Roll,
    SaveAndRoll,
    Stop,
    TurnEnded,
    TurnStarted,
)
from core.go500.rules import cup_standings
from core.rng import Pcg32, ScriptedChance
from tests.go500.helpers import CRASH, PIT, act, kinds, of, roll, table

A, B, C, D = 0, 1, 2, 3
DULL = roll("GREEN", [0, 0, 0, 0, 0], 10)  # GREEN, 10 showing


# --------------------------------------------------------------------------- setup


def test_g_qualify_solo_skips_qualifying_and_first_roll_is_the_turn():
    events = GAME.setup(Go500Config(mode="time_trial"), 1, ScriptedChance([]))
    assert of(events, PoleWon) == [PoleWon(seat=0, order=(0,))]
    assert of(events, TurnStarted) == [TurnStarted(seat=0)]


def test_g_qualify_drivers_qualify_in_seat_order_and_only_with_a_roll():
    t = Table(GAME, Go500Config(), [Seat(name=n) for n in "AB"], 1, chance=ScriptedChance([5] * 5))
    assert t.pending() == (0,)
    with pytest.raises(NotYourTurn, match="G-QUALIFY"):
        GAME.step(t.state, 1, Roll(), ScriptedChance([]))
    with pytest.raises(BreaksRule, match="G-QUALIFY"):
        t.submit(0, Stop())
    t.submit(0, Roll())
    assert of(t.history[-1].events, QualifyingRolled)[0].score == 125
    assert t.pending() == (1,)


def test_g_qualify_turn_order_starts_at_pole_and_never_changes():
    draws = [0] * 5 + [0] * 5 + [4] * 5 + [0] * 5  # seat 3 (index 2) takes pole with 100
    t = Table(GAME, Go500Config(), [Seat(name=n) for n in "ABCD"], 1, chance=ScriptedChance(draws))
    for seat in range(4):
        t.submit(seat, Roll())
    assert t.state.order == (2, 3, 0, 1)
    assert t.pending() == (2,)


# --------------------------------------------------------------------------- the roll


def test_g_roll_order_flag_first_then_unsaved_dice_in_order():
    s = table([0, 0])
    s, events = act(s, A, Roll(), roll("GREEN", [5, 10, 15, 20, "C"], 40))
    assert of(events, DiceRolled)[0].dice == ("F", "T1", "T2", "T3", "T4", "T5", "P")
    s, events = act(s, A, SaveAndRoll(dice=["T2", "T5"]), roll("GREEN", [0, 0, 0], 10))
    assert of(events, DiceRolled)[0].dice == ("F", "T1", "T3", "T4", "P")
    assert s.turns[A].showing == 0 + 10 + 0 + 0 + 25 + 10


def test_g_auto_decision_every_turn_starts_with_roll():
    s = table([0, 0])
    with pytest.raises(BreaksRule, match="G-AUTO-DECISION"):
        GAME.step(s, A, SaveAndRoll(dice=[]), ScriptedChance([]))
    with pytest.raises(BreaksRule, match="G-AUTO-DECISION"):
        GAME.step(s, A, Stop(), ScriptedChance([]))
    assert GAME.legal(s, A) == [Roll()]


def test_g_auto_decision_groove_extra_turn_starts_with_roll_too():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("YELLOW", ["C"] * 5, "C"))
    assert s.current == A
    assert s.turns[A].extra
    assert GAME.legal(s, A) == [Roll()]


def test_g_green_offers_stop_or_save_and_roll_and_refuses_plain_roll():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), DULL)
    legal = GAME.legal(s, A)
    assert legal[0] == Stop()
    assert SaveAndRoll(dice=[]) in legal
    assert SaveAndRoll(dice=["T1", "T2", "T3", "T4", "T5"]) in legal
    assert SaveAndRoll(dice=["T1", "T2", "T3", "T4", "T5", "P"]) not in legal
    assert len(legal) == 1 + 63
    with pytest.raises(BreaksRule, match="G-GREEN"):
        GAME.step(s, A, Roll(), ScriptedChance([]))


def test_g_save_refuses_bad_saves_with_a_sentence():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), DULL)
    for dice, rule in [
        (["F"], "G-SAVE"),
        (["T9"], "G-SAVE"),
        (["T1", "T1"], "G-SAVE"),
        (["T1", "T2", "T3", "T4", "T5", "P"], "G-SAVE"),
    ]:
        with pytest.raises(BreaksRule, match=rule) as err:
            GAME.step(s, A, SaveAndRoll(dice=dice), ScriptedChance([]))
        assert str(err.value).endswith(f"(rule {rule})")
    s, _ = act(s, A, SaveAndRoll(dice=["T1"]), DULL[:1] + DULL[2:])
    with pytest.raises(BreaksRule, match="already saved"):
        GAME.step(s, A, SaveAndRoll(dice=["T1"]), ScriptedChance([]))


def test_g_save_saved_dice_stay_saved_for_the_turn():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", [20, 0, 0, 0, 0], 10))
    s, _ = act(s, A, SaveAndRoll(dice=["T1"]), roll("GREEN", [0, 0, 0, 0], 10))
    s, events = act(s, A, SaveAndRoll(dice=["P"]), roll("GREEN", [5, 5, 5, 5]))
    assert "T1" not in of(events, DiceRolled)[0].dice
    assert s.turns[A].saved == (False, True, False, False, False, False, True)
    assert s.turns[A].showing == 20 + 20 + 10


def test_g_flat_removes_power_die_and_it_cannot_be_saved():
    s = table([0, 0])
    s, events = act(s, A, Roll(), roll("GREEN", [5, 5, 5, 5, 5], "FLAT"))
    assert of(events, PowerDieRemoved)[0].reason == "flat"
    assert s.turns[A].removed[6]
    with pytest.raises(BreaksRule, match="G-FLAT"):
        GAME.step(s, A, SaveAndRoll(dice=["P"]), ScriptedChance([]))
    s, events = act(s, A, SaveAndRoll(dice=[]), roll("GREEN", [5, 5, 5, 5, 5]))
    assert "P" not in of(events, DiceRolled)[0].dice


def test_g_groove_counts_saved_dice_and_overrides_red():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", ["C", "C", "C", "C", 0], "C"))
    s, events = act(s, A, SaveAndRoll(dice=["T1", "T2", "T3", "T4", "P"]), roll("RED", ["C"]))
    assert of(events, InTheGroove)
    assert not of(events, CrashDieRolled)
    assert of(events, MilesRecorded)[0].miles == 175
    assert of(events, TurnStarted)[-1] == TurnStarted(seat=A, extra=True)


def test_g_groove_impossible_once_power_die_removed():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", ["C", "C", "C", "C", "C"], "FLAT"))
    assert s.turns[A].stage == "decide"
    assert not s.turns[A].groove


def test_g_groove_no_extra_turn_for_a_driver_who_finished():
    s = table([400, 0])
    s, events = act(s, A, Roll(), roll("BLACK", ["C"] * 5, "C"))
    assert s.finished[A]
    assert of(events, TurnStarted) == [TurnStarted(seat=B, final=True)]


# --------------------------------------------------------------------------- endings


def test_g_end_green_stop_records_showing():
    s = table([10, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", [5, 5, 5, 5, 5], 20))
    s, events = act(s, A, Stop())
    assert of(events, TurnEnded)[0].kind == "green_stop"
    assert s.totals[A] == 55


def test_g_pit_adds_the_pit_die_and_a_yellow_flag_ends_the_turn():
    s = table([10, 0])
    s, events = act(s, A, Roll(), [*roll("YELLOW", [5, 5, 5, 5, 5], 20), PIT[-10]])
    assert of(events, PitDieRolled)[0].face == PIT[-10]
    assert s.totals[A] == 10 + 45 - 10
    assert s.current == B
    with pytest.raises(NotYourTurn, match="G-PIT") as err:
        GAME.step(s, A, SaveAndRoll(dice=["T1"]), ScriptedChance([]))
    assert "yellow flag" in str(err.value)


def test_g_crash_adds_the_crash_die_value():
    s = table([10, 0])
    s, events = act(s, A, Roll(), [*roll("RED", [5, 5, 5, 5, 5], 20), CRASH[-30]])
    assert of(events, TurnEnded)[0].kind == "crash"
    assert s.totals[A] == 10 + 45 - 30
    with pytest.raises(NotYourTurn, match="G-CRASH"):
        GAME.step(s, A, Stop(), ScriptedChance([]))


def test_g_black_flag_records_zero_and_loses_a_finish():
    s = table([450, 0])
    s, events = act(s, A, Roll(), roll("BLACK", ["C"] * 4 + [20], 40))
    assert of(events, MilesRecorded)[0].miles == 0
    assert s.totals[A] == 450
    assert not s.finished[A]
    with pytest.raises(NotYourTurn, match="G-BLACK-FLAG"):
        GAME.step(s, A, Roll(), ScriptedChance([]))


def test_g_behind_wall_big_x_records_nothing_and_the_driver_never_races_again():
    s = table([100, 50, 20])
    s, events = act(s, A, Roll(), [*roll("RED", [20] * 5, 40), CRASH["BIG_X"]])
    assert not of(events, MilesRecorded)
    assert s.out[A]
    assert s.totals[A] == 100
    s, _ = act(s, B, Roll(), DULL)
    s, _ = act(s, B, Stop())
    s, _ = act(s, C, Roll(), DULL)
    s, events = act(s, C, Stop())
    assert s.current == B  # A is skipped
    # A caution now ignores A (out) although A has the highest total.
    s, events = act(s, B, Roll(), [*roll("YELLOW", [0] * 5, 10), PIT["CAUTION"]])
    assert of(events, CautionCut)[0].cut == B  # B 70 is the sole leader among those racing


def test_g_behind_wall_ranks_out_drivers_last_later_knockout_higher():
    s = table([100, 200, 30, 0])
    draws = [
        *roll("RED", [0] * 5, 10),
        CRASH["CRASH"],
        CRASH["BIG_X"],  # A out first
        CRASH["BIG_X"],  # then B
        CRASH[-10],
        CRASH[-10],
    ]
    s, _ = act(s, A, Roll(), draws)
    assert s.out_order == (A, B)
    # Only C and D left; C stops for 10, then D crashes out: last one running is C.
    s, _ = act(s, C, Roll(), DULL)
    s, _ = act(s, C, Stop())
    s, events = act(s, D, Roll(), [*roll("RED", [0] * 5, 10), CRASH["BIG_X"]])
    assert of(events, RaceEnded)[0].ranking == (C, D, B, A)


def test_g_max_turn_negative_turns_are_not_capped_but_recorded():
    s = table([100, 0])
    s, events = act(s, A, Roll(), [*roll("RED", [0] * 5, 10), CRASH[-50]])
    assert of(events, MilesRecorded)[0].miles == -40
    assert s.totals[A] == 60


def test_g_stall_total_never_below_zero():
    s = table([20, 0])
    s, events = act(s, A, Roll(), [*roll("RED", [0] * 5, 10), CRASH[-50]])
    assert of(events, MilesRecorded)[0] == MilesRecorded(seat=A, miles=-40, total=0, stalled=True)


# --------------------------------------------------------------------------- track events


def test_g_caution_the_rolling_driver_may_be_the_one_cut():
    s = table([300, 100, 50])
    s, events = act(s, A, Roll(), [*roll("YELLOW", [0] * 5, 10), PIT["CAUTION"]])
    assert of(events, CautionCut)[0] == CautionCut(trigger=A, cut=A, total=100)
    assert s.totals[A] == 100


def test_g_caution_single_driver_racing_is_not_cut():
    s = table([0], mode="time_trial")
    s, events = act(s, A, Roll(), [*roll("YELLOW", [0] * 5, 10), PIT["CAUTION"]])
    assert of(events, CautionCut)[0].cut is None
    assert s.totals[A] == 10


def test_g_big_one_crash_face_in_the_big_one_starts_no_new_big_one():
    s = table([100, 100, 100])
    draws = [*roll("RED", [0] * 5, 10), CRASH["CRASH"], CRASH["CRASH"], CRASH["CRASH"], CRASH[-10]]
    s, events = act(s, A, Roll(), draws)
    assert len(of(events, BigOneStarted)) == 1
    assert [e.seat for e in of(events, BigOneRolled)] == [A, B, C]
    assert s.totals == (110, 100, 90)


def test_g_big_one_rolls_in_turn_order_from_the_trigger():
    s = table([100, 100, 100], order=(1, 2, 0), current=2)
    draws = [*roll("RED", [0] * 5, 10), CRASH["CRASH"], CRASH[-10], CRASH[-20], CRASH[-30]]
    s, events = act(s, C, Roll(), draws)
    assert [(e.seat, e.total) for e in of(events, BigOneRolled)] == [(C, 100), (A, 80), (B, 70)]


def test_g_tradin_paint_trigger_chooses_among_two_or_more():
    s = table([100, 200, 150], tradin_paint=True)
    s, events = act(s, A, Roll(), [*roll("RED", [0] * 5, 10), CRASH["CRASH"]])
    assert s.current == A
    assert s.turns[A].stage == "paint"
    assert GAME.legal(s, A) == [ChoosePaintTarget(driver=B), ChoosePaintTarget(driver=C)]
    with pytest.raises(BreaksRule, match="G-TRADIN-PAINT"):
        GAME.step(s, A, ChoosePaintTarget(driver=A), ScriptedChance([]))
    with pytest.raises(BreaksRule, match="G-TRADIN-PAINT"):
        GAME.step(s, A, Stop(), ScriptedChance([]))
    s, events = act(s, A, ChoosePaintTarget(driver=B), [CRASH[-10], CRASH[-50]])
    assert of(events, PaintTraded) == [PaintTraded(seat=A, target=B)]
    assert s.totals == (100, 150, 150)
    assert not of(events, BigOneStarted)
    assert s.current == B


def test_g_tradin_paint_one_candidate_is_automatic_and_big_x_follows_the_option():
    s = table([100, 200], tradin_paint=True, big_x_in_big_one="minus_50")
    s, events = act(
        s, A, Roll(), [*roll("RED", [0] * 5, 10), CRASH["CRASH"], CRASH["BIG_X"], CRASH["BIG_X"]]
    )
    assert of(events, PaintTraded) == [PaintTraded(seat=A, target=B)]
    assert s.totals == (60, 150)


def test_g_tradin_paint_no_candidate_trigger_still_rolls():
    s = table([0], mode="time_trial", tradin_paint=True)
    s, events = act(s, A, Roll(), [*roll("RED", [20] * 5, 10), CRASH["CRASH"], CRASH[-10]])
    assert of(events, PaintTraded) == [PaintTraded(seat=A, target=None)]
    assert s.totals[A] == 100


# --------------------------------------------------------------------------- finishing


def test_g_finish_and_g_checkered_first_to_finish_wins_even_with_fewer_miles():
    s = table([480, 400, 0])
    s, events = act(s, A, Roll(), roll("GREEN", [5, 5, 5, 5, 0], 10))  # auto-stop at 510
    assert of(events, CheckeredFlag) == [CheckeredFlag(seat=A)]
    s, _ = act(s, B, Roll(), roll("GREEN", ["C"] * 4 + [20], 40))  # 560, auto-stop
    assert s.finished[B]
    s, events = act(s, C, Roll(), DULL)
    s, events = act(s, C, Stop())
    assert of(events, RaceEnded)[0].ranking == (A, B, C)
    assert s.totals[B] > s.totals[A]


def test_g_final_round_finishers_rank_in_the_order_they_finished():
    s = table([490, 480, 495])
    s, _ = act(s, A, Roll(), DULL)  # 500: finishes, wins
    s, _ = act(s, B, Roll(), roll("GREEN", [20] * 5, 40))  # 620
    s, events = act(s, C, Roll(), roll("GREEN", [0] * 5, 10))  # 505
    assert of(events, RaceEnded)[0].ranking == (A, B, C)


def test_g_final_round_groove_extra_turns_are_included():
    s = table([490, 100, 100])
    s, _ = act(s, A, Roll(), DULL)
    s, events = act(s, B, Roll(), roll("GREEN", ["C"] * 5, "C"))
    assert of(events, TurnStarted)[-1] == TurnStarted(seat=B, extra=True, final=True)
    s, _ = act(s, B, Roll(), roll("BLACK", [0] * 5, 10))
    assert s.current == C


def test_g_last_running_race_ends_when_nobody_is_still_racing():
    s = table([490, 100], final_round=True)
    s, _ = act(s, A, Roll(), DULL)
    s, events = act(s, B, Roll(), [*roll("RED", [0] * 5, 10), CRASH["BIG_X"]])
    assert of(events, RaceEnded)[0].ranking == (A, B)


def test_g_last_running_not_used_in_time_trials():
    s = table([0, 0], mode="time_trial", hours=3)
    s, _ = act(s, A, Roll(), [*roll("RED", [0] * 5, 10), CRASH["BIG_X"]])
    assert s.phase == "turn"
    assert s.current == B


def test_g_auto_stop_on_green_at_race_length_unless_the_option_is_off():
    s = table([450, 0])
    s, events = act(s, A, Roll(), roll("GREEN", [10] * 5, 10))
    assert of(events, TurnEnded)[0].kind == "green_stop"
    s = table([450, 0], auto_stop=False)
    s, _ = act(s, A, Roll(), roll("GREEN", [10] * 5, 10))
    assert s.turns[A].stage == "decide"
    assert GAME.legal(s, A)[0] == Stop()


def test_g_auto_stop_default_off_in_multi_game():
    s = table([450, 0], mode="multi_game")
    s, _ = act(s, A, Roll(), roll("GREEN", [10] * 5, 10))
    assert s.turns[A].stage == "decide"


def test_g_rank_tie_equal_totals_rank_by_turn_order():
    s = table([0, 0, 0], order=(2, 0, 1), current=2, mode="time_trial", hours=1)
    for seat in (2, 0, 1):
        s, _ = act(s, seat, Roll(), roll("BLACK", [0] * 5, 10))
    assert GAME.result(s).ranking == [2, 0, 1]


# --------------------------------------------------------------------------- table chaos


def chaos_table(**options):
    return table([0, 0], table_chaos=True, **options)


def test_g_chaos_draws_even_when_all_chances_are_zero():
    s = chaos_table(lost_wheel_bp=0, rubbin_bp=0, debris_bp=0)
    draws = [0, 0, *[v for f in (1, 1, 1, 1, 1, 1) for v in (f, 0)]]
    s, events = act(s, A, Roll(), draws)
    assert not of(events, ChaosStruck)
    assert s.turns[A].showing == 25 + 10


def test_g_chaos_rubbin_removes_a_track_die_for_the_turn():
    s = chaos_table()
    draws = [0, 9999, 4, 150, 4, 9999, 4, 9999, 4, 9999, 4, 9999, 1, 9999]
    s, events = act(s, A, Roll(), draws)
    assert of(events, ChaosStruck)[0].kind == "rubbin"
    assert s.turns[A].removed[1]
    assert s.turns[A].showing == 80 + 10
    with pytest.raises(BreaksRule, match="G-CHAOS"):
        GAME.step(s, A, SaveAndRoll(dice=["T1"]), ScriptedChance([]))
    s, events = act(s, A, SaveAndRoll(dice=["T2", "T3", "T4", "T5"]), [0, 9999, 5, 9999])
    assert of(events, DiceRolled)[0].dice == ("F", "P")


def test_g_chaos_lost_wheel_die_has_no_face_cannot_be_saved_and_rolls_again():
    s = chaos_table()
    draws = [0, 9999, 4, 50, 4, 9999, 4, 9999, 4, 9999, 4, 9999, 1, 9999]
    s, events = act(s, A, Roll(), draws)
    t = s.turns[A]
    assert t.lost[1]
    assert t.faces[1] is None
    assert t.showing == 80 + 10
    with pytest.raises(BreaksRule, match="Lost Wheel"):
        GAME.step(s, A, SaveAndRoll(dice=["T1"]), ScriptedChance([]))
    assert SaveAndRoll(dice=["T2", "T3", "T4", "T5", "P"]) in GAME.legal(s, A)
    s, events = act(s, A, SaveAndRoll(dice=["T2", "T3", "T4", "T5", "P"]), [0, 9999, 4, 9999])
    assert of(events, DiceRolled)[0].dice == ("F", "T1")
    assert s.turns[A].showing == 100 + 10


def test_g_chaos_rubbin_on_flag_removes_even_a_saved_power_die():
    s = chaos_table()
    draws = [0, 9999, *[v for _ in range(5) for v in (0, 9999)], 4, 9999]
    s, _ = act(s, A, Roll(), draws)
    assert s.turns[A].showing == 40
    s, events = act(
        s, A, SaveAndRoll(dice=["P"]), [0, 150, 0, *[v for _ in range(5) for v in (1, 9999)]]
    )
    assert of(events, PowerDieRemoved)[0].reason == "rubbin"
    assert s.turns[A].showing == 25


def test_g_chaos_off_by_default_no_chance_draws():
    s = table([0, 0])
    chance = ScriptedChance(roll("GREEN", [0] * 5, 10))
    GAME.step(s, A, Roll(), chance)
    assert chance.asked == [6] * 7


# --------------------------------------------------------------------------- Cup


def test_g_cup_standings_ties_break_on_places_then_the_latest_race():
    # Seats 0 and 1 tie on points and on place counts; seat 1 was better in the last race.
    results = [(0, 1, 2), (1, 0, 2)]
    assert cup_standings([10, 10, 3], results, 3) == (1, 0, 2)
    # Equal 1sts: the most 2nd places ranks higher.
    results = [(0, 2, 1), (1, 2, 0), (2, 0, 1)]
    assert cup_standings([5, 5, 5], results, 3) == (2, 0, 1)


def test_g_cup_a_season_is_one_game_with_standings_after_each_race():
    config = Go500Config(mode="cup")
    t = Table(GAME, config, [Seat(name=f"b{i}", bot="cautious") for i in range(3)], 5)
    t.run_bots()
    events = [e for step in t.history for e in step.events]
    assert [e.race for e in of(events, RaceEnded)] == [0, 1, 2, 3]
    assert t.state.phase == "over"
    result = GAME.result(t.state)
    assert result.ranking == list(t.state.standings)
    assert sum(result.scores) == sum(sum(p) for p in t.state.race_points)
    assert len(t.state.race_points) == 4


class _Recorder:
    def __init__(self, seed: int) -> None:
        self.rng = Pcg32(seed)
        self.calls: list[tuple[int, int]] = []

    def below(self, n: int) -> int:
        value = self.rng.below(n)
        self.calls.append((n, value))
        return value

    def snapshot(self):
        return self.rng.snapshot()

    def restore(self, snap):
        self.rng.restore(snap)


def test_g_cup_rng_races_continue_one_generator_without_reseeding():
    rec = _Recorder(11)
    config = Go500Config(mode="cup", schedule=(("One", 400), ("Two", 400)))
    t = Table(GAME, config, [Seat(name=f"b{i}", bot="bold") for i in range(2)], 11, chance=rec)
    t.run_bots()
    fresh = Pcg32(11)
    assert [fresh.below(n) for n, _ in rec.calls] == [v for _, v in rec.calls]
    events = [e for step in t.history for e in step.events]
    ended = next(i for i, e in enumerate(events) if isinstance(e, RaceEnded))
    second_qual = next(e for e in events[ended:] if isinstance(e, QualifyingRolled))
    draws_before = sum(1 for n, _ in rec.calls if n == 6)
    assert draws_before > 5
    assert second_qual.faces


def test_g_cup_standings_tie_break_on_first_places_beats_seconds():
    results = [(0, 1, 2), (0, 1, 2), (1, 2, 0)]
    # seat 0: two 1sts; seat 1: one 1st; both 20 points.
    assert cup_standings([20, 20, 0], results, 3)[:2] == (0, 1)


def test_refused_actions_draw_no_chance_and_name_the_rule():
    s = table([0, 0])
    chance = ScriptedChance([])
    with pytest.raises(NotYourTurn):
        GAME.step(s, B, Roll(), chance)
    assert chance.asked == []
    assert kinds(GAME.step(s, A, Roll(), ScriptedChance(DULL)))[0] == "DiceRolled"
