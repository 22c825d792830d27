"""Cthulhu 500 replay analysis: the exact chance of every passing attempt (C-PASS-TEST).

Owns `pass_chances` (win / tie / lose for two d6 and the two sides' modifiers) and
`tie_row` (which row of C-PASS-TIE a tie would apply, from whether each vehicle is already
damaged), and walking a game's steps into a `core.analysis.Analysis`. The modifiers are read
back from the recorded test (each side's total minus its die: speed, drive, equipment and every
bonus played into the test), i.e. what everyone at the table could see. Each attempt is a
chance node and one segment per side of the identity, valued in **passes**: the attacker
expected ``P(win)`` passes and got 1 or 0; the defender expected to stop ``1 - P(win)``.

Not yet: valuing action choices (equip, play, pass or not) by determinised ``shrewd``
rollouts; skill loss is therefore 0 for every player (the analysis says so in its notes).
Must not: draw chance, or use anything but public facts of the test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.analysis import Analysis, Chain, ChanceNode, Option, Progress, Settings, finish
from core.cthulhu500 import events as ev
from core.cthulhu500.fold import evolve
from core.cthulhu500.model import State

__all__ = ["PASS", "analyse", "pass_chances", "tie_row"]

PASS = "passes"
SIDES = 6


def pass_chances(attacker_mod: int, defender_mod: int) -> tuple[float, float, float]:
    """Exact (win, tie, lose) for d6 + ``attacker_mod`` against d6 + ``defender_mod``.

    >>> pass_chances(0, 0)[1] == 6 / 36
    True
    """
    win = tie = 0
    for a in range(1, SIDES + 1):
        for d in range(1, SIDES + 1):
            diff = (a + attacker_mod) - (d + defender_mod)
            if diff > 0:
                win += 1
            elif diff == 0:
                tie += 1
    n = SIDES * SIDES
    return win / n, tie / n, (n - win - tie) / n


def tie_row(attacker_damaged: bool, defender_damaged: bool) -> str:
    """The C-PASS-TIE row a tie would apply (before any reaction prevents a hit)."""
    if not attacker_damaged and not defender_damaged:
        return "both flip to damaged (C-PASS-TIE-FRESH)"
    if attacker_damaged and defender_damaged:
        return "both damaged: a damage move (C-PASS-TIE-BOTH-DAMAGED)"
    if attacker_damaged:
        return "defender flips, the attacker drops back (C-PASS-TIE-ATTACKER-DAMAGED)"
    return "attacker flips but passes (C-PASS-TIE-DEFENDER-DAMAGED)"


class _Test:
    def __init__(self, step: int, attacker: int, defender: int, dice: tuple[int, int], row: str):
        self.step = step
        self.attacker = attacker
        self.defender = defender
        self.dice = list(dice)
        self.rerolled = False
        self.row = row


def analyse(
    start: State,
    steps: Sequence[Any],
    names: Sequence[str],
    settings: Settings,
    seed: int,
    progress: Progress | None = None,
) -> Analysis:
    """Every passing test of the game with its exact chances; luck per side in pass %."""
    chain = Chain({PASS: 1.0})
    chances: list[ChanceNode] = []
    state = start
    total = len(steps)
    test: _Test | None = None  # a test's dice and its result may come in different steps
    for k, step in enumerate(steps):
        for event in step.events:
            if isinstance(event, ev.PassDiceRolled):
                x = state.vehicles[event.attacker].damaged
                y = state.vehicles[event.defender].damaged
                test = _Test(
                    step.state_id,
                    event.attacker,
                    event.defender,
                    (event.attacker_die, event.defender_die),
                    tie_row(x, y),
                )
            elif isinstance(event, ev.DieRerolled) and test is not None:
                side = 0 if event.seat == test.attacker else 1
                test.dice[side] = event.new
                test.rerolled = True
            elif isinstance(event, ev.PassResolved) and test is not None:
                a_mod = event.attacker_total - test.dice[0]
                d_mod = event.defender_total - test.dice[1]
                win, tie, lose = pass_chances(a_mod, d_mod)
                happened = {"win": 0, "tie": 1, "lose": 2}.get(event.outcome, 2)
                note = f"modifiers {a_mod:+d} against {d_mod:+d}"
                if test.rerolled:
                    note += "; a die was re-rolled (the chance is the one before it)"
                chances.append(
                    ChanceNode(
                        step=test.step,
                        seat=test.attacker,
                        kind=f"pass test against {_name(names, test.defender)}",
                        outcomes=[
                            Option(label="pass", value=100 * win),
                            Option(label=f"tie: {test.row}", value=100 * tie),
                            Option(label="fail", value=100 * lose),
                        ],
                        happened=happened,
                        note=note,
                    )
                )
                passed = 1.0 if happened == 0 else 0.0
                for seat, expected, realised in (
                    (test.attacker, win, passed),
                    (test.defender, 1 - win, 1.0 - passed),
                ):
                    chain.open(seat, PASS, test.step, expected, what="in a pass test")
                    chain.close(seat, test.step, realised)
                test = None
            state = evolve(state, event)
        if progress is not None:
            progress(k + 1, total)
    notes = [
        "Every passing test's exact chance from two d6 and the modifiers on the table; luck is "
        "passes (or stops) the dice gave beyond that chance; the defender's is the attacker's, "
        "negated.",
        "Action choices are not valued yet, so skill loss is 0 for everyone.",
    ]
    return finish("cthulhu500", PASS, [PASS], names, chain, settings, seed, notes, chances)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
