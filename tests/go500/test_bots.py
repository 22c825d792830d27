"""Go 500 bots: every bot answers legally in every mode; the optimal bot's values are exact."""

from __future__ import annotations

from itertools import pairwise, product

import pytest

from core.game import Seat, Table
from core.go500 import GAME
from core.go500.config import Go500Config
from core.go500.model import Roll, SaveAndRoll, Stop
from core.go500.optimal import Context, Policy, choose
from core.go500.tables import tables_for
from tests.go500.helpers import act, roll, table

TAB = tables_for((25, 50))


@pytest.mark.parametrize("bot", ["random", "cautious", "bold", "optimal"])
@pytest.mark.parametrize("mode", ["oval", "time_trial", "multi_game", "cup"])
def test_bots_play_every_mode_to_the_end(bot, mode):
    schedule = (("Short", 400),) if mode == "cup" else Go500Config().schedule
    config = Go500Config(mode=mode, tradin_paint=True, schedule=schedule, hours=3)
    t = Table(GAME, config, [Seat(name=f"{bot}{i}", bot=bot) for i in range(3)], 4)
    t.run_bots()  # Table.submit refuses anything illegal
    assert t.result() is not None


def _brute_value(ctx: Context, pol: Policy, to_roll: tuple[int, ...], saved: int, groove: bool):
    """Value of rolling the dice ``to_roll`` (1-5 Track, 6 Power) by plain enumeration.

    An independent restatement of the turn: every ordered outcome of F and each die, every
    subset of the rolled dice to save; the "save nothing" loop solved by value iteration.
    """
    memo: dict = {}

    def value(dice: tuple[int, ...], saved: int, groove: bool) -> float:
        key = (dice, saved, groove)
        if key in memo:
            return memo[key]
        w = 0.0
        for _ in range(200):
            w_new = bellman(dice, saved, groove, w)
            if abs(w_new - w) < 1e-12:
                break
            w = w_new
        memo[key] = w_new
        return w_new

    def bellman(dice, saved, groove, w):
        total = 0.0
        outcomes = list(product(range(6), repeat=len(dice)))
        for flag in range(6):
            for faces in outcomes:
                prob = 1 / 6 / len(outcomes)
                miles = [TAB.die_miles[d][f] for d, f in zip(dice, faces, strict=True)]
                showing = saved + sum(miles)
                circles = all(f == TAB.circle[d] for d, f in zip(dice, faces, strict=True))
                flat = any(d == 6 and f == TAB.flat for d, f in zip(dice, faces, strict=True))
                if groove and circles and not flat:
                    total += prob * pol.groove
                    continue
                kind = TAB.flag_kind[flag]
                if kind == "yellow":
                    total += prob * pol.yellow[min(showing, 175)]
                elif kind == "red":
                    total += prob * pol.red[min(showing, 175)]
                elif kind == "black":
                    total += prob * pol.u(0)
                else:
                    best = pol.u(showing)
                    if not pol.forced_stop(showing):
                        live = [
                            (d, f, m)
                            for d, f, m in zip(dice, faces, miles, strict=True)
                            if not (d == 6 and f == TAB.flat)
                        ]
                        for mask in product((False, True), repeat=len(live)):
                            keep = [x for x, k in zip(live, mask, strict=True) if k]
                            rest = tuple(x[0] for x, k in zip(live, mask, strict=True) if not k)
                            if not rest:
                                continue
                            add = sum(m for _, _, m in keep)
                            g = groove and not flat and all(f == TAB.circle[d] for d, f, _ in keep)
                            if rest == dice and not flat:
                                best = max(best, w)
                            else:
                                best = max(best, value(rest, saved + add, g))
                    total += prob * best
        return total

    return value(to_roll, saved, groove)


@pytest.mark.parametrize(
    "ctx",
    [
        Context(circle_values=(25, 50), auto_stop=True, big_x_minus_50=False),
        Context(
            circle_values=(25, 50), auto_stop=True, big_x_minus_50=True, distance=60, bonus=150
        ),
        Context(
            circle_values=(25, 50),
            auto_stop=True,
            big_x_minus_50=False,
            distance=40,
            win=tuple(range(1000, 0, -20)),
        ),
    ],
)
def test_optimal_value_function_is_the_exact_expectation(ctx):
    pol = Policy(ctx)
    # one Track Die and the Power Die to roll, 100 saved miles, groove still possible
    assert pol.value(1, 0, 100, True) == pytest.approx(
        _brute_value(ctx, pol, (5, 6), 100, True), abs=1e-9
    )
    # two Track Dice, the Power Die gone
    assert pol.value(2, 2, 35, False) == pytest.approx(
        _brute_value(ctx, pol, (4, 5), 35, False), abs=1e-9
    )


def test_optimal_stops_on_a_big_showing_and_rolls_on_a_small_one():
    s = table([0, 0], current=0)
    s, _ = act(s, 0, Roll(), roll("GREEN", ["C"] * 4 + [20], 40))  # 160 showing
    legal = GAME.legal(s, 0)
    assert choose(s, 0, legal) == Stop()
    s = table([0, 0], current=0)
    s, _ = act(s, 0, Roll(), roll("GREEN", [0, 0, 0, 5, "C"], 10))  # 40 showing
    action = choose(s, 0, GAME.legal(s, 0))
    assert isinstance(action, SaveAndRoll)
    assert "T5" in action.dice  # the circle is worth keeping


def test_optimal_pushes_for_the_line_when_a_rival_is_about_to_finish():
    # 60 showing, 90 to go. With the rival far away, banking 60 is worth more than risking it;
    # with a rival 10 miles from the line, only finishing now keeps a real chance.
    calm = table([410, 100], current=0)
    calm, _ = act(calm, 0, Roll(), roll("GREEN", [20, 20, 20, 0, 0], "FLAT"))
    tense = table([410, 490], current=0)
    tense, _ = act(tense, 0, Roll(), roll("GREEN", [20, 20, 20, 0, 0], "FLAT"))
    assert choose(calm, 0, GAME.legal(calm, 0)) == Stop()
    assert isinstance(choose(tense, 0, GAME.legal(tense, 0)), SaveAndRoll)


def test_shipped_finish_chances_match_a_fresh_computation():
    from core.go500.optimal import _finish_chance_data, compute_finish_chance

    shipped = _finish_chance_data()[(25, 50)]
    assert len(shipped) == 35
    for distance in (5, 60, 125, 175):
        assert shipped[distance // 5 - 1] == pytest.approx(
            compute_finish_chance((25, 50), distance), abs=1e-11
        )
    assert all(a >= b for a, b in pairwise(shipped))
