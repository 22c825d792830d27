"""Cthulhu 500 replay analysis: exact passing chances, and action choices by rollouts.

Owns `pass_chances` (win / tie / lose for two d6 and the two sides' modifiers), `tie_row`
(which row of C-PASS-TIE a tie would apply, from whether each vehicle is already damaged),
`guess_table` (a full table consistent with one seat's view: the cards it cannot see dealt at
random into the other hands and the draw pile, the Checkered Flag anywhere in the pile if it is
not in sight), `value_options` (each answer to the turn's action choice valued by seeded
``shrewd`` rollouts for one round from guessed tables) and walking a game's steps into a
`core.analysis.Analysis`. The modifiers are read
back from the recorded test (each side's total minus its die: speed, drive, equipment and every
bonus played into the test), i.e. what everyone at the table could see. Each attempt is a
chance node and one segment per side of the identity, valued in **passes**: the attacker
expected ``P(win)`` passes and got 1 or 0; the defender expected to stop ``1 - P(win)``.

Action choices (the C-ACTIONS decision: play a card, add crew, try to pass, pit, end) are a
second unit, **standing**: laps plus a share of a lap for the place in the pack (C-RANK), after
one round of ``shrewd`` play by everyone; a segment is one seat's turn of actions, from its
first choice to the next time that seat chooses (the realised value is then read off the real
table the same way).

Must not: draw from the game's chance, or use anything but the deciding seat's view (the
rollouts) and the public facts of a test (the chances).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from core.analysis import (
    Analysis,
    Chain,
    ChanceNode,
    Option,
    Progress,
    Settings,
    Watch,
    finish,
    played,
    rollout_chance,
    rollout_option,
)
from core.cthulhu500.bots import shrewd_bot
from core.cthulhu500.data import CHECKERED_FLAG, DECK_IDS
from core.cthulhu500.describe import action_text
from core.cthulhu500.fold import evolve
from core.cthulhu500.model import HIDDEN, DActions, DieRerolled, PassDiceRolled, PassResolved, State
from core.cthulhu500.rules import engine
from core.cthulhu500.rules.board import ahead, attack_equipment, defend_equipment, drive, speed
from core.cthulhu500.views import view
from core.rng import Pcg32, shuffled

__all__ = [
    "PASS",
    "STANDING",
    "analyse",
    "coach_words",
    "guess_table",
    "pass_chances",
    "standing",
    "tie_row",
    "value_options",
]

PASS = "passes"
STANDING = "standing"
SIDES = 6
STEP_LIMIT = 3000
MAX_OPTIONS = 24
"""Action choices with more answers than this are not valued (rare; keeps rollouts bounded)."""


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


def coach_words(v: State, seat: int) -> str | None:
    """For coaching at a local table: the chance a pass tried now succeeds (public stats).

    None unless ``seat`` is choosing its actions. Reactions played into the test are not known
    yet, so they are not counted.
    """
    top = v.stack[-1] if v.stack else None
    if not isinstance(top, DActions) or top.seat != seat or seat not in v.pack or v.n < 2:
        return None
    defender = ahead(v.pack, seat)
    cap = v.config.equipment_cap
    mine, theirs = v.vehicles[seat], v.vehicles[defender]
    nitrous = v.nitrous if v.active == seat else 0
    a = speed(mine) + drive(mine) + attack_equipment(mine, cap) + nitrous
    d = speed(theirs) + drive(theirs) + defend_equipment(theirs, cap)
    win, tie, lose = pass_chances(a, d)
    row = tie_row(mine.damaged, theirs.damaged).split(" (")[0]
    return (
        f"Coach: a pass now wins {100 * win:.0f}%, ties {100 * tie:.0f}% ({row}), "
        f"fails {100 * lose:.0f}% (before reactions)."
    )


def tie_row(attacker_damaged: bool, defender_damaged: bool) -> str:
    """The C-PASS-TIE row a tie would apply (before any reaction prevents a hit)."""
    if not attacker_damaged and not defender_damaged:
        return "both flip to damaged (C-PASS-TIE-FRESH)"
    if attacker_damaged and defender_damaged:
        return "both damaged: a damage move (C-PASS-TIE-BOTH-DAMAGED)"
    if attacker_damaged:
        return "defender flips, the attacker drops back (C-PASS-TIE-ATTACKER-DAMAGED)"
    return "attacker flips but passes (C-PASS-TIE-DEFENDER-DAMAGED)"


def _seen(v: State, seat: int) -> list[int]:
    """Every card id ``seat`` can see (its hand, the discard, cards in play and on vehicles)."""
    out = [c for c in v.hands[seat] if c != HIDDEN]
    out += list(v.discard) + list(v.in_play) + [m.card for m in v.contagions]
    for vehicle in v.vehicles:
        out += list(vehicle.crew) + list(vehicle.mods)
        out += [c for c in (vehicle.driver, vehicle.tires) if c is not None]
    return out


def guess_table(v: State, seat: int, chance: Pcg32) -> State | None:
    """A full table consistent with ``v`` (what ``seat`` sees), or None if it cannot be.

    The unseen cards are the deck's cards (and the Checkered Flag) that ``seat`` cannot see;
    they fill the other hands (hidden placeholders, sizes public) and the draw pile
    (``draw_size``). Only the view is read.
    """
    if not all(v.setup_done):
        return None
    seen = set(_seen(v, seat))
    unseen = [c for c in (*DECK_IDS, CHECKERED_FLAG) if c not in seen]
    flag = CHECKERED_FLAG in unseen
    cards = shuffled(chance, [c for c in unseen if c != CHECKERED_FLAG])
    hidden = [sum(1 for c in hand if c == HIDDEN) for hand in v.hands]
    if len(cards) + flag != sum(hidden) + v.draw_size:
        return None
    hands = []
    for other, hand in enumerate(v.hands):
        known = tuple(c for c in hand if c != HIDDEN)
        take = hidden[other]
        hands.append(tuple(sorted((*known, *cards[:take]))))
        cards = cards[take:]
    draw = list(cards)
    if flag:
        draw.insert(chance.below(len(draw) + 1), CHECKERED_FLAG)
    return replace(v, hands=tuple(hands), draw=tuple(draw))


def standing(state: State, seat: int) -> float:
    """Laps, plus the share of a lap that the place in C-RANK is worth (last place: 0)."""
    order = engine.ranking(state)
    place = order.index(seat) if seat in order else state.n - 1
    return state.vehicles[seat].laps + (state.n - 1 - place) / state.n


def _rollout(state: State, seat: int, until_turn: int, chance: Pcg32) -> float:
    for _ in range(STEP_LIMIT):
        if state.over or state.turn >= until_turn:
            break
        pending = engine.pending(state)
        if not pending:
            break
        active = pending[0]
        legal = engine.legal(state, active)
        action = shrewd_bot(state, active, legal, chance)
        for event in engine.step(state, active, action, chance):
            state = evolve(state, event)
    return standing(state, seat)


def value_options(
    state: State,
    seat: int,
    legal: Sequence[Any],
    rollouts: int,
    seed: int,
    step: int,
    names: Sequence[str] = (),
    horizon: int = 1,
) -> list[Option] | None:
    """Each answer's mean standing after ``horizon`` rounds of ``shrewd`` play, or None.

    Only ``view(state, seat)`` is used. None when no table fits the view.
    """
    v = view(state, seat)
    guesses = []
    for r in range(rollouts):
        guess = guess_table(v, seat, rollout_chance(seed, step, 2 * r))
        if guess is None:
            return None
        guesses.append(guess)
    until = v.turn + v.n * max(1, horizon)
    labels = list(names) or [f"seat {i + 1}" for i in range(v.n)]
    out = []
    for action in legal:
        values = []
        for r, guess in enumerate(guesses):
            chance = rollout_chance(seed, step, 2 * r + 1)
            after = guess
            for event in engine.step(guess, seat, action, chance):
                after = evolve(after, event)
            values.append(_rollout(after, seat, until, chance))
        out.append(rollout_option(action_text(action, labels), values))
    return out


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
    watch: Watch | None = None,
) -> Analysis:
    """Every passing test of the game with its exact chances; luck per side in pass %."""
    chain = Chain({PASS: 1.0, STANDING: 0.2}, watch)
    rollouts, horizon = played(settings)
    chances: list[ChanceNode] = []
    state = start
    total = len(steps)
    test: _Test | None = None  # a test's dice and its result may come in different steps
    opened: dict[int, int] = {}  # the turn in which each seat's open segment began
    for k, step in enumerate(steps):
        seat = step.seat
        top = state.stack[-1] if state.stack else None
        if seat is not None and isinstance(top, DActions) and top.seat == seat:
            if chain.is_open(seat) and opened.get(seat) != state.turn:
                chain.close(seat, step.state_id, standing(state, seat))
            legal = engine.legal(state, seat)
            if 2 <= len(legal) <= MAX_OPTIONS and step.action in legal:
                options = value_options(
                    state,
                    seat,
                    legal,
                    rollouts,
                    seed,
                    step.state_id,
                    names,
                    horizon,
                )
                if options is not None:
                    if not chain.is_open(seat):
                        chain.open(seat, STANDING, step.state_id, None)
                        opened[seat] = state.turn
                    chain.decide(seat, step.state_id, "action", options, legal.index(step.action))
        for event in step.events:
            if isinstance(event, PassDiceRolled):
                x = state.vehicles[event.attacker].damaged
                y = state.vehicles[event.defender].damaged
                test = _Test(
                    step.state_id,
                    event.attacker,
                    event.defender,
                    (event.attacker_die, event.defender_die),
                    tie_row(x, y),
                )
            elif isinstance(event, DieRerolled) and test is not None:
                side = 0 if event.seat == test.attacker else 1
                test.dice[side] = event.new
                test.rerolled = True
            elif isinstance(event, PassResolved) and test is not None:
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
                    chain.single_chance(seat, PASS, test.step, expected, realised, "in a pass test")
                test = None
            state = evolve(state, event)
        if progress is not None:
            progress(k + 1, total)
    last = steps[-1].state_id if steps else 0
    chain.close_all(last, lambda s, _unit: standing(state, s))
    notes = [
        "Every passing test's exact chance from two d6 and the modifiers on the table; luck is "
        "passes (or stops) the dice gave beyond that chance; the defender's is the attacker's, "
        "negated.",
        f"Action choices are valued in standing (laps, plus a share of a lap for the place) "
        f"after {max(1, horizon)} round(s) of shrewd play by everyone, from "
        f"{rollouts} tables guessed from the chooser's view; spread is the standard "
        "error. Other choices (reactions, discards) are not valued.",
    ]
    return finish(
        "cthulhu500",
        STANDING,
        [STANDING, PASS],
        names,
        chain,
        settings,
        seed,
        notes,
        chances,
        sampled=True,
    )


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
