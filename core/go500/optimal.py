"""The ``optimal`` Go 500 bot: stop/continue and which dice to save by exact expected value.

Owns a memoised value function over the turn, computed exactly from the dice data: a
pre-roll position is (Track Dice left to roll, Power Die to roll / saved / gone, miles saved,
whether every saved die is a circle). Its value is the exact expectation over the Flag Die,
every multiset of Track faces and the Power face, of the best continuation: stop, or save some
dice and roll again (the "save nothing" choice returns to the same position: an exact fixed
point of a convex piecewise-linear equation). Pit, Crash, Big One and Groove endings are valued
from the same face tables.

The race situation enters through the utility of a recorded turn. Far from the line (and in
Time Trials) it is the miles, with BIG X (behind the wall) costing ``OUT_COST`` miles: one
cached table serves every such turn. In Oval and Cup races, once the line is within one turn's
reach, or a rival may finish before this driver's next turn, it is an estimated chance of
winning: 1 for reaching the line, 0 behind the wall, otherwise a race-to-the-line model built
from the exact one-turn finish chances (`finish_chance`, shipped in ``finish_chance.json``)
of this driver and the rivals still racing. Those tables are cached per (distance, threat).

Must not: draw chance, read anything but the seat's view, or know rules beyond the face tables.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from math import exp, factorial
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from core.go500.bots import paint_target
from core.go500.config import uses_auto_stop
from core.go500.data import DICE
from core.go500.model import (
    DIE_IDS,
    FACES,
    POWER_DIE,
    RACING_DICE,
    TRACK_DICE,
    ChoosePaintTarget,
    Go500State,
    SaveAndRoll,
    Stop,
)
from core.go500.tables import Tables, tables_for

__all__ = ["Context", "Policy", "choose", "context_for", "policy"]

FIN_BONUS = 150
"""Utility of reaching the finish line, in miles."""
OUT_COST = 250
"""Utility lost by going behind the wall (BIG X), in miles."""
GROOVE_EXTRA = 60
"""Value of the extra turn In the Groove (about one turn's expected miles)."""
FAR = 0
"""``Context.distance`` for a turn that cannot reach the line."""
RISK = 0
"""Risk attitude far from the line (1/10000 per mile; 0 = plain expected miles)."""
FAR_LIMIT = 330
"""Furthest distance from the line at which a rival's threat switches to the win estimate."""
WIN_MODE = 1
"""1: use the win estimate near the line (Oval, Cup); 0: miles plus ``FIN_BONUS`` there too."""


class Context(msgspec.Struct, frozen=True):
    """What the value function depends on (hashable, so tables are cached per context).

    Two utilities of a recorded turn: *miles* (``win is None``: miles count, BIG X costs
    ``out_cost``; near the line, reaching it adds ``bonus``) and *win* (``win`` = the estimated
    chance of winning after a turn ending at each distance to the line, in thousandths, index
    ``distance // 5``; reaching the line is 1000, BIG X is 0).
    """

    circle_values: tuple[int, int]
    auto_stop: bool
    big_x_minus_50: bool
    distance: int = FAR
    """Miles to the line if one turn can reach it, else ``FAR`` (0)."""
    bonus: int = 0
    out_cost: int = OUT_COST
    cap_at_line: bool = True
    win: tuple[int, ...] | None = None
    risk: int = 0


class _Outcome(msgspec.Struct, frozen=True, array_like=True):
    prob: float
    total: int
    all_circle: bool
    prefix: tuple[int, ...]
    prefix_circle: tuple[bool, ...]


@lru_cache(maxsize=8)
def _track_outcomes(circle_values: tuple[int, int]) -> tuple[tuple[_Outcome, ...], ...]:
    """Per count m of Track Dice: every multiset of faces with its exact probability."""
    tab = tables_for(circle_values)
    miles = tab.die_miles[TRACK_DICE[0]]
    circle = tab.circle[TRACK_DICE[0]]
    out: list[tuple[_Outcome, ...]] = []
    for m in range(len(TRACK_DICE) + 1):
        rows = []
        for combo in combinations_with_replacement(range(FACES), m):
            ways = factorial(m)
            for face in set(combo):
                ways //= factorial(combo.count(face))
            ordered = sorted(combo, key=lambda f: (f == circle, miles[f]), reverse=True)
            prefix = [0]
            prefix_c = [True]
            for f in ordered:
                prefix.append(prefix[-1] + miles[f])
                prefix_c.append(prefix_c[-1] and f == circle)
            rows.append(
                _Outcome(
                    prob=ways / FACES**m,
                    total=prefix[-1],
                    all_circle=prefix_c[-1],
                    prefix=tuple(prefix),
                    prefix_circle=tuple(prefix_c),
                )
            )
        out.append(tuple(rows))
    return tuple(out)


class Policy:
    """The value tables of one context, filled lazily and kept."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        tab: Tables = tables_for(ctx.circle_values)
        self.tab = tab
        self.outcomes = _track_outcomes(ctx.circle_values)
        self.memo: dict[tuple[int, int, int, bool], float] = {}
        self.max_turn = tab.max_turn
        lo = -200
        self.lo = lo
        top = 2 * tab.max_turn + 1  # saved miles may be an offset (see `finish_chance`)
        self.u_table = [self._u(x) for x in range(lo, top)]
        self.out_value = 0.0 if ctx.win is not None else -float(ctx.out_cost)
        self.yellow = [self._yellow(x) for x in range(top)]
        self.red = [self._red(x) for x in range(top)]
        if ctx.win is not None or self.finishes(tab.max_turn):
            self.groove = self.u(tab.max_turn)
        else:
            self.groove = self.u(tab.max_turn) + GROOVE_EXTRA
        black = self.u(0)
        self.endings = [(self.yellow[x] + self.red[x] + black) / FACES for x in range(top)]
        """Utility of the Pit, Crash and Penalty endings together, weighted by the Flag Die."""
        auto_stop = ctx.auto_stop and ctx.distance != FAR
        self.stop_at = ctx.distance if auto_stop else 10**9
        """Showing at which G-AUTO-STOP ends the turn."""
        p_flat = tab.flat
        p_circle = tab.circle[POWER_DIE]
        power = tab.die_miles[POWER_DIE]
        self.power = tuple((power[f], f == p_circle, f == p_flat) for f in range(FACES))

    def finishes(self, miles: int) -> bool:
        return self.ctx.distance != FAR and miles >= self.ctx.distance

    def _u(self, x: int) -> float:
        ctx = self.ctx
        if ctx.win is not None:
            if ctx.distance != FAR and x >= ctx.distance:
                return 1.0
            left = ctx.distance - x
            index = min(len(ctx.win) - 1, max(0, left // 5))
            return ctx.win[index] / 1000
        if ctx.distance != FAR and x >= ctx.distance:
            base = ctx.distance if ctx.cap_at_line else x
            return self._risk(base) + ctx.bonus
        return self._risk(x)

    def _risk(self, x: int) -> float:
        """Miles through the risk attitude: linear, or convex (risk-seeking) for ``risk`` > 0."""
        a = self.ctx.risk / 10000
        if a == 0:
            return float(x)
        return (exp(a * x) - 1) / a

    def u(self, x: int) -> float:
        return self.u_table[x - self.lo]

    def _yellow(self, x: int) -> float:
        cap = self.max_turn
        return sum(self.u(min(cap, x + v)) for v in self.tab.pit_miles) / FACES

    def _crash_roll(self, x: int) -> float:
        """Expected utility after the driver's own Crash Die roll in a Big One."""
        tab = self.tab
        total = 0.0
        for face in range(FACES):
            if face == tab.crash_crash:
                total += self.u(x)
            elif face == tab.crash_big_x:
                total += self.u(x - 50) if self.ctx.big_x_minus_50 else self.out_value
            else:
                total += self.u(x + tab.crash_miles[face])
        return total / FACES

    def _red(self, x: int) -> float:
        tab = self.tab
        total = 0.0
        for face in range(FACES):
            if face == tab.crash_big_x:
                total += self.out_value
            elif face == tab.crash_crash:
                total += self.u(x) if self.finishes(x) else self._crash_roll(x)
            else:
                total += self.u(x + tab.crash_miles[face])
        return total / FACES

    def stop_value(self, showing: int) -> float:
        return self.u(showing)

    def forced_stop(self, showing: int) -> bool:
        """G-AUTO-STOP ends the turn at this showing."""
        return showing >= self.stop_at

    # ------------------------------------------------------------------ the value function

    def value(self, m: int, pr: int, saved: int, groove: bool) -> float:
        """Expected utility of rolling now: ``m`` Track Dice, the Power Die if ``pr == 0``.

        ``pr``: 0 = P rolls, 1 = P saved (its miles are in ``saved``), 2 = P gone.
        ``groove``: every saved die shows a circle and P is not gone.
        """
        key = (m, pr, saved, groove)
        got = self.memo.get(key)
        if got is None:
            got = self._solve(m, pr, saved, groove)
            self.memo[key] = got
        return got

    def _solve(self, m: int, pr: int, saved: int, groove: bool) -> float:
        """Solve w = F(w) exactly, where w is this position's value (the "save nothing" choice).

        F(w) = const + sum of half_prob * max(best_other, w) over the green outcomes that may
        save nothing: convex and piecewise linear with slope < 1, so the fixed point is found by
        scanning the breakpoints in order.
        """
        const = 0.0
        items: list[tuple[float, float]] = []
        endings = self.endings
        u = self.u
        memo = self.memo
        value = self.value
        powers = self.power if pr == 0 else ((0, pr == 1, False),)
        p_weight = 1 / FACES if pr == 0 else 1.0
        stop_at = self.stop_at
        groove_value = self.groove
        for o in self.outcomes[m]:
            prefix = o.prefix
            prefix_circle = o.prefix_circle
            # The best save of Track Dice alone does not depend on the Power face: once per o.
            shared: dict[int, float] = {}
            for pv, pc, pflat in powers:
                prob = o.prob * p_weight
                showing = saved + o.total + pv
                if groove and o.all_circle and pc and not pflat:
                    const += prob * groove_value
                    continue
                const += prob * endings[showing]
                best = u(showing)
                may_repeat = False
                if showing < stop_at:
                    pr2 = 2 if pflat else pr
                    other = shared.get(pr2)
                    if other is None:
                        other = float("-inf")
                        p_rolls = 1 if pr2 == 0 else 0
                        g_base = groove and pr2 != 2
                        for j in range(1, m + 1):
                            if m - j + p_rolls < 1:
                                break
                            key = (m - j, pr2, saved + prefix[j], g_base and prefix_circle[j])
                            v = memo.get(key)
                            if v is None:
                                v = value(*key)
                            if v > other:
                                other = v
                        if pr2 != pr and m >= 1:  # P just went flat: saving nothing is new
                            v = value(m, pr2, saved, False)
                            if v > other:
                                other = v
                        shared[pr2] = other
                    may_repeat = pr2 == pr
                    if other > best:
                        best = other
                    if pr == 0 and not pflat:  # save P (and some Track Dice)
                        g_base = groove and pc
                        base = saved + pv
                        for j in range(m + 1):
                            if m - j < 1:
                                break
                            key = (m - j, 1, base + prefix[j], g_base and prefix_circle[j])
                            v = memo.get(key)
                            if v is None:
                                v = value(*key)
                            if v > best:
                                best = v
                if may_repeat:
                    items.append((0.5 * prob, best))
                else:
                    const += 0.5 * prob * best
        if not items:
            return const
        items.sort(key=lambda item: item[1])
        # Above every breakpoint k: w = (const + sum_{i>=k} hp*b) / (1 - sum_{i<k} hp).
        tail = sum(hp * b for hp, b in items)
        low_weight = 0.0
        w = const + tail
        for k in range(len(items) + 1):
            w = (const + tail) / (1 - low_weight)
            below = items[k - 1][1] if k > 0 else float("-inf")
            above = items[k][1] if k < len(items) else float("inf")
            if below <= w <= above:
                return w
            if k < len(items):
                hp, b = items[k]
                tail -= hp * b
                low_weight += hp
        return w


@lru_cache(maxsize=256)
def policy(ctx: Context) -> Policy:
    """The (cached) value tables for one context."""
    return Policy(ctx)


MU = 55
"""Rough miles a driver gains in a turn that does not reach the line (the win estimate)."""
HAZARD = 0.05
"""Rough chance per turn of going behind the wall (the win estimate)."""
ROUNDS = 12
BUCKET = 25
"""Distances beyond one turn's reach are rounded up to this many miles (shared tables)."""
THREAT_STEPS = 3
"""Rivals' threat is rounded to thirds, so win tables and value tables are shared."""


def _finish_chance_data() -> dict[tuple[int, int], tuple[float, ...]]:
    """The shipped table of `finish_chance` (``finish_chance.json``) if it fits the dice data."""
    try:
        raw = (Path(__file__).resolve().parent / "data" / "finish_chance.json").read_bytes()
        data = msgspec.json.decode(raw, type=FinishChanceData)
    except (OSError, msgspec.DecodeError):
        return {}
    if data.dice != dice_fingerprint():
        return {}
    return {row.circle_values: row.chance for row in data.tables}


class FinishChanceRow(msgspec.Struct, frozen=True, kw_only=True):
    circle_values: tuple[int, int]
    chance: tuple[float, ...]
    """Index ``distance // 5 - 1`` for distance 5, 10, … ``max_turn``."""


class FinishChanceData(msgspec.Struct, frozen=True, kw_only=True):
    tag: str
    note: str
    dice: str
    tables: tuple[FinishChanceRow, ...]


def dice_fingerprint() -> str:
    """A digest of the dice data the shipped finish chances were computed from."""
    return hashlib.sha256(msgspec.json.encode(DICE)).hexdigest()[:16]


_SHIPPED: dict[tuple[int, int], tuple[float, ...]] | None = None


def compute_finish_chance(circle_values: tuple[int, int], distance: int) -> float:
    """`finish_chance` from scratch: the value function playing only to reach the line."""
    ctx = Context(
        circle_values=circle_values,
        auto_stop=True,
        big_x_minus_50=False,
        distance=distance,
        win=(0,),
    )
    return Policy(ctx).value(5, 0, 0, True)


@lru_cache(maxsize=1024)
def finish_chance(circle_values: tuple[int, int], distance: int) -> float:
    """Exact chance of reaching ``distance`` miles within one fresh turn, playing for it."""
    global _SHIPPED
    if distance <= 0:
        return 1.0
    if distance > tables_for(circle_values).max_turn:
        return 0.0
    if _SHIPPED is None:
        _SHIPPED = _finish_chance_data()
    shipped = _SHIPPED.get(circle_values)
    if shipped is not None and distance % 5 == 0:
        return shipped[distance // 5 - 1]
    return compute_finish_chance(circle_values, distance)


@lru_cache(maxsize=4096)
def win_table(
    circle_values: tuple[int, int], distance: int, threat: tuple[int, int]
) -> tuple[int, ...]:
    """Estimated chance (thousandths) of winning after a turn ending ``d`` miles from the line.

    Index ``d // 5`` for d = 0 … ``distance`` + 200. ``threat`` = the chance (in steps of
    1/``THREAT_STEPS``) that some
    rival finishes in the next round, and in each round after it. Between rounds this driver
    gains ``MU`` miles and survives with chance 1 − ``HAZARD``.
    """
    p1 = finish_chance
    first, later = threat[0] / THREAT_STEPS, threat[1] / THREAT_STEPS
    out = []
    for index in range((distance + 200) // 5 + 1):
        left = max(5, index * 5)
        chance = 0.0
        nobody = 1.0
        still = 1.0
        for k in range(ROUNDS):
            nobody *= 1 - (first if k == 0 else later)
            mine = p1(circle_values, left - k * MU)
            chance += nobody * still * mine
            still *= (1 - mine) * (1 - HAZARD)
            if nobody * still < 1e-4:
                break
        out.append(round(1000 * chance))
    return tuple(out)


def _threat(circle_values: tuple[int, int], rivals: Sequence[int], later: int) -> int:
    """Chance in steps of 1/THREAT_STEPS that one of ``rivals`` finishes in their next turn."""
    nobody = 1.0
    for rival in rivals:
        nobody *= 1 - finish_chance(circle_values, rival - later)
    return round(THREAT_STEPS * (1 - nobody))


def context_for(view: Go500State, seat: int) -> Context:
    """The race situation of ``seat`` as the value function sees it."""
    cfg = view.config
    tab = tables_for(cfg.circle_values)
    total = view.totals[seat]
    base = Context(
        circle_values=cfg.circle_values,
        auto_stop=uses_auto_stop(cfg),
        big_x_minus_50=cfg.big_x_in_big_one == "minus_50",
    )
    if cfg.mode == "time_trial":
        return base
    to_go = view.race_length - total
    if WIN_MODE and cfg.mode in ("oval", "cup") and view.checkered is None:
        rivals = [
            view.race_length - view.totals[d] for d in range(view.n) if d != seat and view.racing(d)
        ]
        threat = (
            _threat(cfg.circle_values, rivals, 0),
            _threat(cfg.circle_values, rivals, MU),
        )
        if to_go <= tab.max_turn or (threat[0] > 0 and to_go <= FAR_LIMIT):
            distance = max(to_go, 5)
            if distance > tab.max_turn:
                distance = -(-distance // BUCKET) * BUCKET
            win = win_table(cfg.circle_values, distance, threat)
            return replace(base, distance=distance, win=win)
    if to_go > tab.max_turn:
        return replace(base, risk=RISK)
    return replace(
        base,
        distance=max(to_go, 1),
        bonus=FIN_BONUS,
        cap_at_line=cfg.mode != "multi_game",
    )


def _evaluate(view: Go500State, seat: int, action: Any, pol: Policy) -> float:
    turn = view.turns[seat]
    assert turn is not None
    tab = pol.tab
    if isinstance(action, Stop):
        return pol.stop_value(turn.showing)
    keep = {DIE_IDS.index(d) for d in action.dice}
    m = 0
    saved = 0
    groove = not turn.removed[POWER_DIE]
    for i in RACING_DICE:
        if turn.removed[i]:
            continue
        face = turn.faces[i]
        if turn.saved[i] or i in keep:
            assert face is not None
            saved += tab.die_miles[i][face]
            groove = groove and face == tab.circle[i]
        elif i != POWER_DIE:
            m += 1
    if turn.removed[POWER_DIE]:
        pr = 2
    elif turn.saved[POWER_DIE] or POWER_DIE in keep:
        pr = 1
    else:
        pr = 0
    return pol.value(m, pr, saved, groove)


def _candidates(view: Go500State, seat: int, tab: Tables) -> list[Any]:
    """Stop, and for each count of Track Dice (best first) with or without P, a save."""
    turn = view.turns[seat]
    assert turn is not None
    saveable = [
        i for i in TRACK_DICE if not turn.saved[i] and not turn.removed[i] and not turn.lost[i]
    ]
    miles = tab.die_miles[TRACK_DICE[0]]
    circle = tab.circle[TRACK_DICE[0]]
    saveable.sort(key=lambda i: (turn.faces[i] == circle, miles[turn.faces[i] or 0]), reverse=True)
    rolling = sum(1 for i in RACING_DICE if not turn.saved[i] and not turn.removed[i])
    p_options = [False]
    if not turn.saved[POWER_DIE] and not turn.removed[POWER_DIE] and not turn.lost[POWER_DIE]:
        p_options.append(True)
    out: list[Any] = [Stop()]
    for keep_p in p_options:
        for j in range(len(saveable) + 1):
            if rolling - j - keep_p < 1:
                break
            chosen = sorted(saveable[:j] + ([POWER_DIE] if keep_p else []))
            out.append(SaveAndRoll(dice=[DIE_IDS[i] for i in chosen]))
    return out


def choose(view: Go500State, seat: int, legal: Sequence[Any]) -> Any:
    """The action with the highest expected utility (first on a tie)."""
    first = legal[0]
    if isinstance(first, ChoosePaintTarget):
        return paint_target(view, legal)
    if not isinstance(first, Stop):
        return first
    pol = policy(context_for(view, seat))
    best = first
    best_value = float("-inf")
    for action in _candidates(view, seat, pol.tab):
        v = _evaluate(view, seat, action, pol)
        if v > best_value + 1e-9:
            best, best_value = action, v
    if best not in legal:  # pragma: no cover - the candidates are legal by construction
        raise AssertionError(f"optimal bot built an illegal action {best!r}")
    return best
