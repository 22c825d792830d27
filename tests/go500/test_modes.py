"""Go 500 modes end to end: Time Trials, Multi-Game, Cup; and the generic suite in every mode."""

from __future__ import annotations

import msgspec
import pytest

from core import registry
from core.game import NotYourTurn, Seat, Table
from core.go500 import GAME
from core.go500.config import Go500Config
from core.go500.model import (
    BigOneRolled,
    CautionCut,
    ChoosePaintTarget,
    DriverFinished,
    EffectQueued,
    PaintTargetNeeded,
    PaintTraded,
    RaceEnded,
    Roll,
    RoundEnded,
    RoundStarted,
    SaveAndRoll,
    Stop,
    TurnStarted,
)
from core.rng import ScriptedChance
from tests.go500.helpers import CRASH, PIT, act, of, roll, table

A, B, C = 0, 1, 2
DULL = roll("GREEN", [0] * 5, 10)
SEED = 1


def test_g_time_trial_lasts_hours_rounds_with_no_finish_line():
    s = table([0, 0], mode="time_trial", hours=2)
    for _ in range(2):
        for seat in (A, B):
            assert s.phase == "turn"
            s, _ = act(s, seat, Roll(), roll("GREEN", ["C"] * 4 + [20], 40))
            s, _ = act(s, seat, SaveAndRoll(dice=[]), [*roll("YELLOW", [0] * 5, 40), PIT[20]])
    assert s.phase == "over"
    assert s.totals == (120, 120)
    assert not any(s.finished)


def test_g_time_trial_ends_when_nobody_is_still_racing():
    s = table([50], mode="time_trial", hours=6)
    s, _events = act(s, A, Roll(), [*roll("RED", [0] * 5, 10), CRASH["BIG_X"]])
    assert s.phase == "over"
    assert GAME.result(s).ranking == [A]


def test_g_multi_game_legal_offers_every_driver_whose_turn_is_not_over():
    s = table([0, 0, 0], mode="multi_game")
    assert GAME.pending(s) == (A, B, C)
    s, _ = act(s, C, Roll(), DULL)  # out of turn order is fine
    assert GAME.legal(s, C)[0] == Stop()
    s, _ = act(s, A, Roll(), DULL)
    s, _ = act(s, A, Stop())
    assert GAME.pending(s) == (C, B)  # C's turn is under way, so C should act first
    with pytest.raises(NotYourTurn, match="G-MULTI-GAME"):
        GAME.step(s, A, Roll(), ScriptedChance([]))
    s, _ = act(s, C, Stop())
    s, events = act(s, B, Roll(), roll("BLACK", [0] * 5, 10))
    assert of(events, RoundEnded)[0].round == 1
    assert of(events, RoundStarted)[0] == RoundStarted(round=2, drivers=(A, B, C))
    assert GAME.pending(s) == (A, B, C)


def test_g_multi_game_pending_lists_drivers_in_turn_order():
    s = table([0, 0, 0], order=(B, C, A), mode="multi_game")
    assert GAME.pending(s) == (B, C, A)
    s, _ = act(s, A, Roll(), DULL)  # a turn under way comes first
    assert GAME.pending(s) == (A, B, C)
    s, _ = act(s, A, Stop())
    assert GAME.pending(s) == (B, C)


def test_g_multi_game_bots_act_in_turn_order_each_finishing_its_turn():
    game = registry.get("go500")
    config = Go500Config(mode="multi_game")
    table_ = Table(game, config, [Seat(name=f"b{i}", bot="cautious") for i in range(4)], SEED)
    table_.run_bots()
    state = table_.state
    assert state.phase == "over"
    assert state.order[0] != 0  # the pole is not seat 1, so seat order would differ
    rounds: list[list[int]] = []
    for step in table_.history:
        names = [type(e).__name__ for e in step.events]
        if "PoleWon" in names:
            rounds.append([])
            continue
        if not rounds or step.seat is None:
            continue
        if not rounds[-1] or rounds[-1][-1] != step.seat:
            rounds[-1].append(step.seat)  # a new run of one driver's actions
        if "RoundEnded" in names:
            rounds.append([])
    rounds = [r for r in rounds if r]
    assert len(rounds) > 3
    for actors in rounds:
        assert len(actors) == len(set(actors)), actors  # each turn finished before the next
        assert actors == [seat for seat in state.order if seat in actors]


def test_g_multi_game_groove_extra_turn_is_played_in_the_same_round():
    s = table([0, 0], mode="multi_game")
    s, events = act(s, A, Roll(), roll("GREEN", ["C"] * 5, "C"))
    assert of(events, TurnStarted) == [TurnStarted(seat=A, extra=True)]
    s, _ = act(s, B, Roll(), roll("BLACK", [0] * 5, 10))
    assert GAME.pending(s) == (A,)
    s, events = act(s, A, Roll(), roll("BLACK", [0] * 5, 10))
    assert of(events, RoundEnded)


def test_g_multi_game_with_after_track_event_a_groove_past_the_line_still_earns_the_extra_turn():
    s = table([400, 0], mode="multi_game", finish_check="after_track_event")
    s, events = act(s, A, Roll(), roll("GREEN", ["C"] * 5, "C"))
    assert s.totals[A] == 575
    assert not s.finished[A]
    assert of(events, TurnStarted) == [TurnStarted(seat=A, extra=True)]
    s, _ = act(s, A, Roll(), roll("BLACK", [0] * 5, 10))
    s, events = act(s, B, Roll(), roll("BLACK", [0] * 5, 10))
    assert of(events, DriverFinished) == [DriverFinished(seat=A, total=575)]
    assert of(events, RaceEnded)[0].ranking == (A, B)


def test_g_multi_game_queued_effects_resolve_in_trigger_turn_order():
    s = table([100, 300, 200], order=(1, 2, 0), mode="multi_game")
    # A (last in turn order) queues a caution first; C (second) queues a Big One later.
    s, _ = act(s, A, Roll(), [*roll("YELLOW", [0] * 5, 10), PIT["CAUTION"]])
    s, _ = act(s, C, Roll(), [*roll("RED", [0] * 5, 10), CRASH["CRASH"]])
    assert [q.effect for q in s.queued] == ["caution", "big_one"]
    draws = [*roll("BLACK", [0] * 5, 10), CRASH[-10], CRASH[-10], CRASH[-10]]
    s, events = act(s, B, Roll(), draws)
    # C's Big One (C, A, B roll) before A's caution; then the caution cuts sole leader B.
    assert [e.seat for e in of(events, BigOneRolled)] == [C, A, B]
    assert of(events, CautionCut)[0] == CautionCut(trigger=A, cut=B, total=200)
    idx_big = events.index(of(events, BigOneRolled)[0])
    idx_caution = events.index(of(events, CautionCut)[0])
    assert idx_big < idx_caution


def test_g_multi_game_paint_target_is_chosen_when_queued():
    s = table([100, 200, 300], mode="multi_game", tradin_paint=True)
    s, events = act(s, A, Roll(), [*roll("RED", [0] * 5, 10), CRASH["CRASH"]])
    assert of(events, PaintTargetNeeded) == [PaintTargetNeeded(seat=A, candidates=(B, C))]
    assert GAME.legal(s, A) == [ChoosePaintTarget(driver=B), ChoosePaintTarget(driver=C)]
    s, events = act(s, A, ChoosePaintTarget(driver=C))
    assert of(events, EffectQueued) == [EffectQueued(seat=A, effect="paint", target=C)]
    assert GAME.pending(s) == (B, C)
    s, _ = act(s, B, Roll(), roll("BLACK", [0] * 5, 10))
    s, events = act(s, C, Roll(), [*roll("BLACK", [0] * 5, 10), CRASH[-10], CRASH[-20]])
    assert of(events, PaintTraded) == [PaintTraded(seat=A, target=C)]
    assert s.totals == (100, 200, 280)


def test_g_multi_game_race_ends_at_round_end_and_ranks_finishers_by_total():
    s = table([450, 480, 0], mode="multi_game")
    s, _ = act(s, A, Roll(), roll("GREEN", [20] * 5, 40))
    s, _ = act(s, A, Stop())
    assert s.finished[A]
    assert s.phase == "turn"
    s, _ = act(s, B, Roll(), DULL)
    s, _ = act(s, B, Stop())
    s, events = act(s, C, Roll(), roll("BLACK", [0] * 5, 10))
    assert of(events, RaceEnded)[0].ranking == (A, B, C)  # 590 beats 490 although B is earlier


def test_g_cup_each_race_starts_with_its_own_qualifying():
    s = table([0, 0], mode="cup", schedule=(("One", 400), ("Two", 600)))
    s, _ = act(s, A, Roll(), roll("GREEN", ["C"] * 5, "C"))  # 175, extra turn
    s, _ = act(s, A, Roll(), roll("GREEN", ["C"] * 5, "C"))  # 350, extra turn
    s, events = act(s, A, Roll(), roll("GREEN", [20] * 5, 40))  # 490: finishes (400)
    s, events = act(s, B, Roll(), roll("BLACK", [0] * 5, 10))  # final round
    assert of(events, RaceEnded)[0].ranking == (A, B)
    assert s.phase == "qualifying"
    assert s.race == 1
    assert s.race_length == 600
    assert GAME.pending(s) == (A,)
    assert s.points == (175 + 10, 170)


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"mode": "time_trial", "hours": 3}, 1),
        ({"mode": "time_trial", "tradin_paint": True}, 3),
        ({"mode": "multi_game"}, 5),
        ({"mode": "multi_game", "tradin_paint": True, "finish_check": "after_track_event"}, 4),
        ({"mode": "cup", "cup_points": "nascar_2017"}, 3),
        ({"mode": "oval", "table_chaos": True, "lost_wheel_bp": 2000, "rubbin_bp": 2000}, 4),
        ({"mode": "oval", "tradin_paint": True, "final_round": False, "race_length": 400}, 6),
    ],
)
def test_every_mode_folds_round_trips_and_finishes(options, players):
    game = registry.get("go500")
    config = msgspec.convert({**msgspec.to_builtins(game.default_config()), **options}, Go500Config)
    for seed in (1, 2, 3):
        t = Table(game, config, [Seat(name=f"p{i}", bot="random") for i in range(players)], seed)
        for _ in range(20000):
            pending = t.pending()
            if not pending:
                break
            for seat in range(players):
                assert bool(game.legal(t.state, seat)) == (seat in pending)
            seat = pending[-1]  # not always the first asked
            t.submit(seat, t.bot_action(seat))
        assert t.result() is not None
        state = game.new_state(config, players)
        for step in t.history:
            for event in step.events:
                data = msgspec.msgpack.encode(event)
                assert msgspec.msgpack.decode(data, type=game.event_type) == event
                assert game.describe(event, t.names) is None or event
                state = game.evolve(state, event)
        assert state == t.state


def test_describe_gives_a_sentence_for_every_kind_of_event():
    from typing import get_args

    from core.go500.model import Event

    seen: dict[str, str] = {}
    for options, players in [
        ({"mode": "cup", "tradin_paint": True, "table_chaos": True, "rubbin_bp": 900}, 3),
        ({"mode": "multi_game", "tradin_paint": True}, 4),
        ({"mode": "multi_game"}, 3),
        ({"mode": "oval", "table_chaos": True, "lost_wheel_bp": 900, "debris_bp": 900}, 3),
    ]:
        config = msgspec.convert({**msgspec.to_builtins(Go500Config()), **options}, Go500Config)
        for seed in range(1, 6):
            t = Table(
                GAME, config, [Seat(name=f"D{i}", bot="random") for i in range(players)], seed
            )
            t.run_bots()
            for step in t.history:
                for event in step.events:
                    text = GAME.describe(event, t.names)
                    assert isinstance(text, str), event
                    assert text[-1] in ".!", (event, text)
                    seen[type(event).__name__] = text
    from core.go500.model import InTheGroove

    seen["InTheGroove"] = GAME.describe(InTheGroove(seat=0), ["Ann"])  # one roll in 46,656
    assert seen["InTheGroove"] == "Ann is In the Groove: every die shows a circle!"
    missing = {cls.__name__ for cls in get_args(Event)} - set(seen)
    assert missing == set(), missing
