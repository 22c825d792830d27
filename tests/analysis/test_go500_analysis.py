"""Go 500 analysis: exact option values, losses, the luck/skill identity, determinism, CLI."""

from __future__ import annotations

import io
import json

import pytest

from core.analysis import Settings, analyse, check_identity
from core.go500 import GAME
from core.go500.analysis import MILES, WIN, value_options
from core.go500.model import DIE_IDS, Roll, SaveAndRoll, Stop
from core.go500.optimal import context_for, policy
from replays.analysis import analyse_replay, cache_path, cached_or_analyse, load_cached, to_json
from replays.cli_commands import run_replay_command
from tests.analysis.helpers import bot_table, saved_replay, scripted_steps
from tests.go500.helpers import act, roll, table
from tests.go500.test_bots import TAB, _brute_value


def _brute(state, seat, action):
    """An independent value of one answer: stop's utility, or brute force over the dice."""
    turn = state.turns[seat]
    pol = policy(context_for(state, seat))
    if isinstance(action, Stop):
        return pol.u(turn.showing)
    keep = {DIE_IDS.index(d) for d in action.dice}
    to_roll = []
    saved = 0
    groove = not turn.removed[6]
    for i in range(1, 7):
        if turn.removed[i]:
            continue
        if turn.saved[i] or i in keep:
            saved += TAB.die_miles[i][turn.faces[i]]
            groove = groove and turn.faces[i] == TAB.circle[i]
        else:
            to_roll.append(i)
    return _brute_value(pol.ctx, pol, tuple(to_roll), saved, groove)


@pytest.mark.parametrize(
    ("totals", "unit", "scale"),
    [((0, 0), MILES, 1.0), ((380, 430), WIN, 100.0)],
    ids=["far-from-the-line", "near-the-line"],
)
def test_option_values_equal_brute_force(totals, unit, scale):
    s = table(list(totals), current=0)
    s, _ = act(s, 0, Roll(), roll("GREEN", [20, 15, 0, "C", "C"], 10))
    legal = GAME.legal(s, 0)
    options = value_options(s, 0, legal)
    assert len(options) == len(legal)
    checked = 0
    for action, option in zip(legal, options, strict=True):
        rolling = 6 - (len(action.dice) if isinstance(action, SaveAndRoll) else 6)
        if isinstance(action, Stop) or rolling <= 2:
            assert option.value == pytest.approx(scale * _brute(s, 0, action), abs=1e-7)
            checked += 1
    assert checked >= 8
    ctx = context_for(s, 0)
    assert (ctx.win is not None) == (unit == WIN)


def _script_stop_at_zero():
    s = table([0, 0], current=0)
    script = [(0, Roll(), roll("GREEN", [0, 0, 0, 0, 0], "FLAT")), (0, Stop(), [])]
    return s, script


def test_stopping_at_zero_under_green_far_from_the_line_is_a_costly_mistake():
    start, script = _script_stop_at_zero()
    steps, _ = scripted_steps(GAME, start, script)
    a = analyse("go500", start, steps, ["Ann", "Bob"], Settings(), 0)
    (d,) = a.decisions
    assert d.unit == MILES
    assert d.options[d.chosen].label == "stop at 0"
    assert d.chosen != d.best
    assert d.loss > 20  # rolling on is worth far more than nothing
    assert d.costly
    assert a.players[0].skill_loss == pytest.approx(d.loss, abs=1e-5)
    assert any(tp.step == 2 and tp.kind == "decision" for tp in a.turning_points)


def test_the_better_answer_in_the_same_spot_costs_nothing():
    start = table([0, 0], current=0)
    script = [
        (0, Roll(), roll("GREEN", [0, 0, 0, 0, 0], "FLAT")),
        (0, SaveAndRoll(dice=[]), [*roll("YELLOW", [0, 0, 0, 0, 0]), 3]),  # pit: 0 miles
    ]
    steps, _ = scripted_steps(GAME, start, script)
    a = analyse("go500", start, steps, ["Ann", "Bob"], Settings(), 0)
    (d,) = a.decisions
    assert d.loss == 0.0
    assert d.chosen == d.best
    assert d.luck < 0  # the yellow flag took the expected miles away
    assert check_identity(a) == []


def test_the_optimal_bots_own_choices_have_zero_loss():
    random_loss = 0.0
    for seed in (1, 2, 3):
        t = bot_table("go500", ["optimal", "optimal", "random", "optimal"], seed)
        a = analyse("go500", GAME.new_state(t.config, 4), t.history, t.names, Settings(), seed)
        mine = [d for d in a.decisions if d.seat != 2 and d.kind == "stop or save"]
        assert mine
        assert all(d.loss == 0.0 for d in mine), [d for d in mine if d.loss]
        random_loss += sum(d.loss for d in a.decisions if d.seat == 2)
    assert random_loss > 0  # the random seat does make mistakes the analysis sees


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize("mode", ["oval", "cup", "multi_game"])
def test_luck_minus_skill_equals_got_minus_expected(seed, mode):
    options = {"mode": mode, "tradin_paint": True}
    if mode == "cup":
        options["schedule"] = '[["Short", 400], ["Long", 400]]'
    t = bot_table("go500", ["random", "cautious", "bold"], seed, **options)
    a = analyse("go500", GAME.new_state(t.config, 3), t.history, t.names, Settings(), seed)
    assert check_identity(a) == []
    for p in a.players:
        for u in p.by_unit:
            segs = [s for s in a.segments if s.seat == p.seat and s.unit == u.unit]
            decs = [d for d in a.decisions if d.seat == p.seat and d.unit == u.unit]
            got = sum(s.realised - s.expected for s in segs)
            luck = sum(d.luck for d in decs) + sum(s.opening_luck for s in segs)
            skill = sum(d.loss for d in decs)
            assert got == pytest.approx(luck - skill, abs=1e-4)
    assert any(p.luck != 0 for p in a.players)


def test_same_game_gives_the_same_bytes_from_two_files(tmp_path):
    one = saved_replay(tmp_path / "a", "go500", ["optimal", "cautious", "bold", "random"], 7)
    two = saved_replay(tmp_path / "b", "go500", ["optimal", "cautious", "bold", "random"], 7)
    assert one.salt != two.salt
    assert to_json(analyse_replay(one)) == to_json(analyse_replay(two))
    other = saved_replay(tmp_path / "c", "go500", ["optimal", "cautious", "bold", "random"], 8)
    assert to_json(analyse_replay(other)) != to_json(analyse_replay(one))


def test_the_cache_beside_the_replay_is_used_and_keyed_by_settings(tmp_path):
    replay = saved_replay(tmp_path, "go500", ["optimal", "random"], 9)
    assert load_cached(replay, Settings()) is None
    first = cached_or_analyse(replay, Settings())
    assert cache_path(replay.path).exists()
    assert not list(tmp_path.glob("*.tmp"))  # written atomically, nothing left behind
    assert load_cached(replay, Settings()) == first
    assert load_cached(replay, Settings(rollouts=3)) is None
    cache_path(replay.path).write_bytes(b"{not json")
    assert load_cached(replay, Settings()) is None
    assert cached_or_analyse(replay, Settings()) == first


def test_cli_analyse_prints_summary_and_json(tmp_path):
    replay = saved_replay(tmp_path, "go500", ["optimal", "cautious", "bold", "random"], 11)
    out, err = io.StringIO(), io.StringIO()
    assert run_replay_command(replay.path, analyse=True, out=out, err=err) == 0
    text = out.getvalue()
    assert "Turning points" in text
    assert "optimal-1" in text
    out = io.StringIO()
    assert run_replay_command(replay.path, analyse=True, as_json=True, out=out, err=err) == 0
    doc = json.loads(out.getvalue())
    assert doc["unit"] == "miles"
    assert [p["seat"] for p in doc["players"]] == [0, 1, 2, 3]
    for p in doc["players"]:
        assert {"name", "skill_loss", "luck", "decisions"} <= p.keys()
    for d in doc["decisions"]:
        assert {"step", "seat", "options", "chosen", "best", "loss"} <= d.keys()
        assert d["loss"] == pytest.approx(
            d["options"][d["best"]]["value"] - d["options"][d["chosen"]]["value"], abs=1e-5
        )


def test_cli_analyse_refuses_a_bad_file_with_one_line(tmp_path):
    bad = tmp_path / "bad.replay"
    bad.write_bytes(b"not a replay at all")
    out, err = io.StringIO(), io.StringIO()
    assert run_replay_command(bad, analyse=True, out=out, err=err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().count("\n") == 1
    assert err.getvalue().startswith("speedway: ")
    replay = saved_replay(tmp_path, "go500", ["random", "random"], 1)
    for kwargs in (
        {"as_json": True},
        {"analyse": True, "rollouts": 0},
        {"analyse": True, "horizon": -1},
    ):
        err = io.StringIO()
        assert run_replay_command(replay.path, out=out, err=err, **kwargs) == 2
        assert err.getvalue().count("\n") == 1


def test_coach_words_give_the_solvers_stop_and_best_roll_on():
    from core.go500.analysis import coach_words

    s = table([0, 0], current=0)
    assert coach_words(s, 0) is None  # not deciding yet
    s, _ = act(s, 0, Roll(), roll("GREEN", [0, 0, 0, 0, 0], "FLAT"))
    options = value_options(s, 0, GAME.legal(s, 0))
    best = max(options[1:], key=lambda o: o.value)
    words = coach_words(s, 0)
    assert words is not None
    assert f"stop now {options[0].value:.1f}" in words
    assert f"roll on {best.value:.1f}" in words
    assert words.endswith("would roll on.")
