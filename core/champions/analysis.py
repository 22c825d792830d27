"""NASCAR Champions replay analysis: each real choice valued by seeded ``promoter`` rollouts.

Owns `value_options` (every legal answer of the deciding seat, valued from a determinised copy
of *that seat's view*: hidden Sponsors and deck orders sampled with `lookahead._guess`, which
reads only the view) and walking a game's steps into a `core.analysis.Analysis`. A rollout
plays the option, then every seat by the ``promoter`` bot to the end of the lap (the default,
``Settings.horizon`` 0) or for ``horizon`` rounds; its value is the money the deciding seat wins
in the lap (in thousands of dollars, ``$k``): at the lap's scoring, or as if the lap were called
in track order when a rollout stops earlier. Every option uses the same guessed tables and the
same rollout dice (common random numbers), so their differences are far less noisy than their
values; ``spread`` is the standard error of the mean. Rollouts step by `rules.play` (the state
only: no events folded a second time, no re-check of an answer the bot took from ``legal``).

A segment of the identity is one seat's lap, from its first real choice to the lap's scoring:
expected = the first choice's best value, realised = the money the seat actually won.

Must not: look at anything but the deciding seat's view, or draw from the game's chance (all
sampling comes from a `Pcg32` seeded by the analysis seed, the step and the rollout index).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.analysis import (
    Analysis,
    Chain,
    Option,
    Progress,
    Settings,
    Watch,
    finish,
    played,
    rollout_chance,
    rollout_option,
)
from core.champions import rules
from core.champions.bots import promoter_bot
from core.champions.config import money_table
from core.champions.describe import action_label, face_name
from core.champions.fold import evolve
from core.champions.lookahead import _guess
from core.champions.model import ChampionsState, ChooseCar, ChooseDice, Roll
from core.champions.views import view as seat_view
from core.rng import Pcg32

__all__ = ["MONEY", "THRESHOLDS", "analyse", "guess_table", "label", "value_options"]

MONEY = "$k"
THRESHOLDS = {MONEY: 5.0}
"""A choice losing more than $5k of expected lap-end money is *costly*."""
STEP_LIMIT = 4000
"""Steps a rollout may take before it is cut (the engine calls every lap well before)."""


def label(state: ChampionsState, action: Any) -> str:
    """The menu label, with the dice faces for a choice of dice."""
    text = action_label(action, state)
    if isinstance(action, ChooseDice) and state.dice:
        faces = ", ".join(face_name(state.dice[d - 1]) for d in action.dice)
        text = f"{text} ({faces})"
    return text


def guess_table(view: ChampionsState, seat: int, chance: Pcg32) -> ChampionsState | None:
    """A full table consistent with ``view`` (what ``seat`` sees), sampled from ``chance``."""
    return _guess(view, seat, chance)


def projected_money(state: ChampionsState, seat: int) -> float:
    """The seat's money if the lap were called now in track order (N-LAP-LIMIT), in $k.

    Uses only the seat's own Sponsors (which it sees) and the cars' positions.
    """
    if state.phase == "over":
        return state.money[seat] / 1000
    colour = state.seat_car[seat]
    places = list(state.places) + [c for c in rules.track_order(state) if c not in state.places]
    money = money_table(state.config)
    total = state.money[seat]
    if colour is not None and colour in places:
        place = places.index(colour)
        prizes = money.race_prize[state.lap - 1]
        total += prizes[place] if place < len(prizes) else 0
    for held in state.sponsors[seat]:
        if held.colour is None or held.colour not in places:
            continue
        pays = money.base_sponsor if held.source == "base" else money.deck_sponsor
        held_place = places.index(held.colour)
        if held_place < len(pays):
            total += pays[held_place]
    return total / 1000


def _rollout(state: ChampionsState, seat: int, lap: int, until_turn: int, chance: Pcg32) -> float:
    """Promoter plays every seat until lap ``lap`` is scored or turn ``until_turn`` begins;
    the seat's money then, or its projected money if the lap is still running ($k)."""
    for _ in range(STEP_LIMIT):
        if state.phase not in rules.ASKING or state.lap != lap:
            return state.money[seat] / 1000
        if until_turn and state.turn >= until_turn:
            break
        active = state.active  # the one seat asked (rules.pending)
        legal = rules.legal(state, active)
        # promoter takes a lone answer without a look (a roll, a forced move)
        action = legal[0] if len(legal) == 1 else promoter_bot(state, active, legal, chance)
        state = rules.play(state, active, action, chance)
    return projected_money(state, seat)


def value_options(
    state: ChampionsState,
    seat: int,
    legal: Sequence[Any],
    rollouts: int,
    seed: int,
    step: int,
    horizon: int = 0,
) -> list[Option]:
    """Each legal answer's mean money won in this lap over ``rollouts`` guessed tables ($k).

    Every seat is played by ``promoter`` to the lap's scoring (``horizon`` 0) or for ``horizon``
    rounds. Money won: at the lap's scoring if the rollout gets there, else as if the lap were
    called when it stops (`projected_money`), less the money held before the lap. Only
    ``view(state, seat)`` is used: the true hidden cards never reach a rollout.
    """
    view = seat_view(state, seat)
    lap = view.lap
    before = view.money[seat] / 1000  # money changes only when a lap is scored
    until = view.turn + view.n_seats * horizon if horizon > 0 else 0
    guesses: list[ChampionsState] = []
    for r in range(rollouts):
        guess = guess_table(view, seat, rollout_chance(seed, step, 2 * r))
        guesses.append(guess if guess is not None else view)
    out = []
    # answers that reach one table with the dice where they were play out alike: once each
    done: dict[tuple[int, ChampionsState, tuple[int, int]], float] = {}
    for action in legal:
        values = []
        for r, guess in enumerate(guesses):
            chance = rollout_chance(seed, step, 2 * r + 1)
            after = rules.play(guess, seat, action, chance)
            key = (r, after, chance.snapshot())
            value = done.get(key)
            if value is None:
                value = done[key] = _rollout(after, seat, lap, until, chance) - before
            values.append(value)
        out.append(rollout_option(label(view, action), values))
    return out


def analyse(
    start: ChampionsState,
    steps: Sequence[Any],
    names: Sequence[str],
    settings: Settings,
    seed: int,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> Analysis:
    """Every real choice of the game (two or more legal answers), valued by rollouts."""
    chain = Chain(THRESHOLDS, watch)
    rollouts, horizon = played(settings)
    state = start
    total = len(steps)
    held: dict[int, float] = {}  # each open segment's money before its lap ($k)
    for k, step in enumerate(steps):
        seat = step.seat
        action = step.action
        if (
            seat is not None
            and state.phase in rules.ASKING
            and not isinstance(action, ChooseCar | Roll)
        ):
            legal = rules.legal(state, seat)
            if len(legal) >= 2 and action in legal:
                if not chain.is_open(seat):
                    chain.open(seat, MONEY, step.state_id, None)
                    held[seat] = state.money[seat] / 1000
                options = value_options(state, seat, legal, rollouts, seed, step.state_id, horizon)
                chain.decide(seat, step.state_id, state.phase, options, legal.index(action))
        lap = state.lap
        for event in step.events:
            state = evolve(state, event)
        if state.lap != lap or state.phase == "over":
            for s in range(state.n_seats):
                if chain.is_open(s):
                    chain.close(s, step.state_id, state.money[s] / 1000 - held[s])
        if progress is not None:
            progress(k + 1, total)
    chain.close_all(steps[-1].state_id if steps else 0, lambda _seat, _unit: None)
    played_out = (
        "to the lap's scoring"
        if horizon == 0
        else f"for {horizon} round(s) (then valued as if the lap were called in track order)"
    )
    notes = [
        f"Values are the chooser's mean money won in the lap over {rollouts} rollouts from "
        f"tables guessed from the chooser's view, promoter playing every seat {played_out}; "
        "spread is the standard error. Differences smaller than about twice it are noise.",
        "Luck includes the dice, the cards and every rival's choice.",
    ]
    return finish("champions", MONEY, [MONEY], names, chain, settings, seed, notes, sampled=True)
