"""Go 500 replay analysis: every stop/save decision valued by the exact turn solver.

Owns valuing a seat's options at a green flag (`value_options`), a Tradin' Paint target's
value (`paint_options`) and walking a game's steps into a `core.analysis.Analysis`. Each turn is
one segment of the luck/skill identity, valued in the optimal bot's own utility (see
`core.go500.optimal`): **miles** far from the line (BIG X costs ``OUT_COST`` miles) and **win %**
(the estimated chance of winning, in percentage points) once the line or a rival's finish is
within reach. A turn's expected value is the solver's value of a fresh roll; what it realised
is the utility of what the turn recorded (its miles, its own Big One roll, BIG X, the Groove).

Go 500 has no hidden information, so the deciding seat's view is the whole table.
Must not: draw chance, or value a decision with anything but the seat's view at that moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.analysis import Analysis, Chain, Option, Progress, Settings, Watch, finish
from core.go500 import GAME
from core.go500.describe import option_text
from core.go500.model import (
    FACES,
    BigOneRolled,
    ChoosePaintTarget,
    Go500State,
    InTheGroove,
    KnockedOut,
    MilesRecorded,
    RaceEnded,
    Roll,
    SaveAndRoll,
    Stop,
    TurnOver,
    TurnStarted,
)
from core.go500.optimal import Policy, _evaluate, context_for, finish_chance, policy
from core.go500.tables import tables_for

__all__ = [
    "MILES",
    "THRESHOLDS",
    "WIN",
    "analyse",
    "coach_words",
    "paint_options",
    "value_options",
]

MILES = "miles"
WIN = "win %"
THREAT = "rival finish %"
THRESHOLDS = {MILES: 5.0, WIN: 1.0, THREAT: 2.0}
"""A decision losing more than this (in its unit) is *costly*."""


def _unit(pol: Policy) -> str:
    return WIN if pol.ctx.win is not None else MILES


def _scale(pol: Policy) -> float:
    return 100.0 if pol.ctx.win is not None else 1.0


def value_options(
    view: Go500State, seat: int, legal: Sequence[Any], pol: Policy | None = None
) -> list[Option]:
    """Each stop/save answer's exact expected utility (in the unit of ``pol``'s context)."""
    pol = pol if pol is not None else policy(context_for(view, seat))
    turn = view.turns[seat]
    assert turn is not None
    scale = _scale(pol)
    return [
        Option(label=option_text(a, turn.showing), value=scale * _evaluate(view, seat, a, pol))
        for a in legal
    ]


def coach_words(view: Go500State, seat: int) -> str | None:
    """For coaching at a local table: the solver's "stop now" against the best "roll on".

    None unless ``seat`` is deciding at a green flag.
    """
    turn = view.turns[seat] if 0 <= seat < len(view.turns) else None
    if view.phase != "turn" or turn is None or turn.stage != "decide":
        return None
    legal = GAME.legal(view, seat)
    if not legal or not isinstance(legal[0], Stop):
        return None
    pol = policy(context_for(view, seat))
    options = value_options(view, seat, legal, pol)
    stop = options[0]
    rest = range(1, len(options))
    if not rest:
        return None
    best = max(rest, key=lambda i: (options[i].value, -i))
    unit = _unit(pol)
    verdict = "stop" if stop.value >= options[best].value else "roll on"
    return (
        f"Coach: stop now {stop.value:.1f} · roll on {options[best].value:.1f} "
        f"({options[best].label}) — {unit}; the solver would {verdict}."
    )


def paint_options(view: Go500State, seat: int, legal: Sequence[Any]) -> list[Option]:
    """Tradin' Paint targets by the threat each removes: the drop in that rival's chance to
    finish on their next turn, in expectation over the Crash Die they must roll (percent)."""
    cfg = view.config
    tab = tables_for(cfg.circle_values)
    out = []
    for action in legal:
        rival = action.driver
        total = view.totals[rival]
        before = finish_chance(cfg.circle_values, view.race_length - total)
        after = 0.0
        for face in range(FACES):
            if face == tab.crash_crash:
                left = view.race_length - total
            elif face == tab.crash_big_x:
                if cfg.big_x_in_big_one == "out":
                    continue  # behind the wall: no threat left
                left = view.race_length - max(0, total - 50)
            else:
                left = view.race_length - max(0, total + tab.crash_miles[face])
            after += finish_chance(cfg.circle_values, left) / FACES
        out.append(Option(label=option_text(action, 0), value=100.0 * (before - after)))
    return out


class _Turn:
    """The open turn of one seat: its policy and what it has recorded so far."""

    def __init__(self, pol: Policy) -> None:
        self.pol = pol
        self.miles: int | None = None
        self.total: int | None = None
        self.x = 0
        self.out = False
        self.groove = False

    def see(self, seat: int, event: Any) -> None:
        if isinstance(event, MilesRecorded) and event.seat == seat and self.miles is None:
            self.miles = event.miles
            self.x = event.miles
            self.total = event.total
        elif isinstance(event, BigOneRolled) and event.seat == seat and self.total is not None:
            self.x += event.total - self.total
            self.total = event.total
        elif isinstance(event, KnockedOut) and event.seat == seat:
            self.out = True
        elif isinstance(event, InTheGroove) and event.seat == seat:
            self.groove = True

    @property
    def recorded(self) -> bool:
        return self.miles is not None or self.out or self.groove

    def realised(self) -> float:
        pol = self.pol
        if self.out:
            value = pol.out_value
        elif self.groove:
            value = pol.groove
        else:
            x = min(max(self.x, pol.lo), 2 * pol.max_turn)
            value = pol.u(x)
        return _scale(pol) * value


def analyse(
    start: Go500State,
    steps: Sequence[Any],
    names: Sequence[str],
    settings: Settings,
    seed: int,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> Analysis:
    """Every decision of the game from each seat's view (no sampling: ``seed`` is unused)."""
    chain = Chain(THRESHOLDS, watch)
    turns: dict[int, _Turn] = {}
    state = start
    total_steps = len(steps)
    for k, step in enumerate(steps):
        seat = step.seat
        action = step.action
        if seat is not None and state.phase == "turn":
            if isinstance(action, Roll):
                turn = state.turns[seat]
                if turn is not None and turn.rolls == 0 and seat not in turns:
                    pol = policy(context_for(state, seat))
                    turns[seat] = _Turn(pol)
                    expected = _scale(pol) * pol.value(5, 0, 0, True)
                    what = "on the turn's first roll"
                    chain.open(seat, _unit(pol), step.state_id, expected, what=what)
            elif isinstance(action, Stop | SaveAndRoll) and seat in turns:
                legal = GAME.legal(state, seat)
                options = value_options(state, seat, legal, turns[seat].pol)
                chain.decide(seat, step.state_id, "stop or save", options, legal.index(action))
            elif isinstance(action, ChoosePaintTarget):
                legal = GAME.legal(state, seat)
                options = paint_options(state, seat, legal)
                chain.single(
                    seat, step.state_id, "paint target", THREAT, options, legal.index(action)
                )
        for event in step.events:
            for s, t in turns.items():
                t.see(s, event)
            if isinstance(event, TurnStarted | TurnOver | RaceEnded):
                for s in sorted(turns):
                    if turns[s].recorded and (not isinstance(event, TurnOver) or event.seat == s):
                        chain.close(s, step.state_id, turns.pop(s).realised())
            state = GAME.evolve(state, event)
        if progress is not None:
            progress(k + 1, total_steps)
    last = steps[-1].state_id if steps else 0
    chain.close_all(last, lambda s, _unit: turns[s].realised() if turns[s].recorded else None)
    notes = [
        "Values are the optimal bot's exact expected utility of the turn: miles far from the "
        "line (BIG X costs 250 miles), estimated win % near it; table chaos is not modelled.",
        "Luck includes the dice and everything rivals did between this seat's decisions.",
    ]
    return finish("go500", MILES, [MILES, WIN, THREAT], names, chain, settings, seed, notes)
