"""Cthulhu 500 analysis: exact passing chances, the tie row, luck that sums to the identity."""

from __future__ import annotations

import pytest

from core.analysis import Settings, analyse, check_identity
from core.cthulhu500 import GAME
from core.cthulhu500 import events as ev
from core.cthulhu500.analysis import PASS, pass_chances, tie_row
from replays.analysis import analyse_replay, to_json
from tests.analysis.helpers import bot_table, saved_replay


@pytest.mark.parametrize(("a", "d"), [(0, 0), (3, 1), (1, 4), (7, 0), (0, 6), (2, 2)])
def test_pass_chances_equal_the_distribution_of_two_dice(a, d):
    # the difference of two d6 is k with chance (6 - |k|) / 36
    need = d - a  # attacker die - defender die must beat this
    win = sum(6 - abs(k) for k in range(-5, 6) if k > need) / 36
    tie = (6 - abs(need)) / 36 if abs(need) <= 5 else 0.0
    got = pass_chances(a, d)
    assert got == pytest.approx((win, tie, 1 - win - tie))
    assert sum(got) == pytest.approx(1)


def test_tie_rows_follow_the_damage_table():
    assert "FRESH" in tie_row(False, False)
    assert "BOTH-DAMAGED" in tie_row(True, True)
    assert "ATTACKER-DAMAGED" in tie_row(True, False)
    assert "DEFENDER-DAMAGED" in tie_row(False, True)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_pass_test_is_found_and_luck_sums_to_the_identity(seed):
    t = bot_table("cthulhu500", ["shrewd", "random", "shrewd"], seed)
    a = analyse("cthulhu500", GAME.new_state(t.config, 3), t.history, t.names, Settings(), 0)
    resolved = [e for s in t.history for e in s.events if isinstance(e, ev.PassResolved)]
    assert len(a.chances) == len(resolved) > 0
    for node, event in zip(a.chances, resolved, strict=True):
        assert sum(o.value for o in node.outcomes) == pytest.approx(100, abs=1e-4)
        assert node.outcomes[node.happened].value > 0  # what happened was possible
        assert ["win", "tie", "lose"][node.happened] == event.outcome
    assert check_identity(a) == []
    # each test's luck is zero-sum between its two sides
    assert sum(p.luck for p in a.players) == pytest.approx(0, abs=1e-4)
    assert all(p.skill_loss == 0 for p in a.players)
    assert a.unit == PASS


def test_cthulhu_replay_analysis_repeats_byte_for_byte(tmp_path):
    one = saved_replay(tmp_path / "a", "cthulhu500", ["shrewd", "random"], 3)
    two = saved_replay(tmp_path / "b", "cthulhu500", ["shrewd", "random"], 3)
    assert to_json(analyse_replay(one)) == to_json(analyse_replay(two))
