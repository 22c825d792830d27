"""The ``lookahead`` bot: tries every answer on a guessed copy of the table, to the end of its turn.

Owns one-turn lookahead for NASCAR Champions. From the seat's view it guesses the hidden parts
(deck orders, other players' Sponsor colours) with the bot's own chance, then for each legal
answer plays the rest of the turn on that copy (later answers by the ``promoter`` policy) and
scores the position it reaches. It never reads hidden information: the guess uses only the view.

Must not: draw from the game's chance, or look at anything but the view it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from core.champions import rules
from core.champions.bots import ROWS, car_weights, promoter_bot
from core.champions.data import COMPONENTS
from core.champions.fold import evolve
from core.champions.model import (
    ChampionsState,
    ChooseCar,
    HeldSponsor,
    Roll,
    ShiftGears,
)
from core.champions.track import can_step
from core.rng import Chance, shuffled

__all__ = ["lookahead_bot"]

REPLY_TURNS = 0
"""Other players' turns played out after the bot's own (0: only the rest of its own turn)."""
BACKWARDS = 1.5
BLOCKED = 1.0
"""What a car facing backwards, or boxed in, loses (in rows)."""
TRACK = COMPONENTS.track
SAMPLES = 3
"""Guessed tables per decision (answers are averaged over them)."""
SHIFT_COST = 1.0
"""What spending a Shift Gears use is worth (in rows of the bot's own car)."""


def _guess(view: ChampionsState, seat: int, chance: Chance) -> ChampionsState | None:
    """A full state consistent with ``view``: hidden decks and others' Sponsors filled in."""
    mine = view.sponsors[seat]
    base_known = [h.colour for h in mine if h.source == "base" and h.colour is not None]
    deck_known = [h.colour for h in mine if h.source == "deck" and h.colour is not None]
    base_pool = shuffled(chance, [c for c in COMPONENTS.sponsor_colours if c not in base_known])
    flag_sponsors = [c.id for c in COMPONENTS.cards if c.kind == "SPONSOR"]
    flag_sponsor_pool = shuffled(
        chance,
        [
            i
            for i in flag_sponsors
            if COMPONENTS.cards[i].colour not in deck_known and i not in view.flag_discard
        ],
    )
    hands: list[tuple[HeldSponsor, ...]] = []
    for other, hand in enumerate(view.sponsors):
        filled = []
        for held in hand:
            if held.colour is not None or other == seat:
                filled.append(held)
            elif held.source == "base":
                if not base_pool:
                    return None
                filled.append(HeldSponsor(source="base", colour=base_pool.pop()))
            else:
                if not flag_sponsor_pool:
                    return None
                card = flag_sponsor_pool.pop()
                filled.append(HeldSponsor(source="deck", colour=COMPONENTS.cards[card].colour))
        hands.append(tuple(filled))
    held_flag = {
        next(c.id for c in COMPONENTS.cards if c.kind == "SPONSOR" and c.colour == h.colour)
        for hand in hands
        for h in hand
        if h.source == "deck"
    }
    out_of_deck = set(view.flag_discard) | held_flag
    if view.card_in_play is not None:
        out_of_deck.add(view.card_in_play)
    flag_pool = [c.id for c in COMPONENTS.cards if c.id not in out_of_deck]
    if len(flag_pool) != view.flag_count or len(base_pool) != view.sponsor_count:
        return None
    return replace(
        view,
        sponsors=tuple(hands),
        sponsor_deck=tuple(base_pool),
        flag_deck=tuple(shuffled(chance, flag_pool)),
    )


def _progress(state: ChampionsState, colour: int, lap: int) -> float:
    if state.lap != lap and state.lap_places:
        place = state.lap_places[lap - 1].index(colour) + 1
        return ROWS + 3.0 * (5 - place)
    car = state.cars[colour]
    if car.place is not None:
        return ROWS + 3.0 * (5 - car.place)
    return float(car.row) if car.row is not None else 0.0


def _score(state: ChampionsState, seat: int, weights: list[float], lap: int) -> float:
    score = sum(w * _progress(state, c, lap) for c, w in enumerate(weights))
    # a car of ours facing backwards has lost a move; a rival's is held back
    if state.lap == lap:
        occupied = state.occupied()
        for car in state.cars:
            if not car.on_track or car.space is None:
                continue
            if car.backwards:
                score -= BACKWARDS * weights[car.colour]
            elif not can_step(TRACK, car.space, occupied - {car.space}):
                score -= BLOCKED * weights[car.colour]
    return score


def _play_on(state: ChampionsState, seat: int, chance: Chance) -> ChampionsState:
    """Finish ``seat``'s turn (and ``REPLY_TURNS`` more turns) with the promoter policy."""
    start_turn, lap = state.turn, state.lap
    for _ in range(200):
        if state.phase not in rules.ASKING or state.lap != lap:
            return state
        if state.turn > start_turn + REPLY_TURNS:
            return state
        (active,) = rules.pending(state)
        legal = rules.legal(state, active)
        if state.phase == "choose_dice":
            legal = [a for a in legal if not isinstance(a, ShiftGears)]
        action = promoter_bot(state, active, legal, chance)
        for event in rules.step(state, active, action, chance):
            state = evolve(state, event)
    return state


def _try(
    guess: ChampionsState, seat: int, action: Any, chance: Chance, weights: list[float]
) -> float:
    state = guess
    for event in rules.step(guess, seat, action, chance):
        state = evolve(state, event)
    state = _play_on(state, seat, chance)
    if state.lap == guess.lap:
        weights = car_weights(state, seat)  # Sponsors drawn this turn count too
    return _score(state, seat, weights, guess.lap)


def lookahead_bot(view: ChampionsState, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    """Best answer by one-turn lookahead on a guessed table (promoter for the rest)."""
    if len(legal) == 1 or isinstance(legal[0], (ChooseCar, Roll)):
        return promoter_bot(view, seat, legal, chance)
    guesses = [g for _ in range(SAMPLES) if (g := _guess(view, seat, chance)) is not None]
    if not guesses:  # pragma: no cover - a view that cannot be completed
        return promoter_bot(view, seat, legal, chance)
    weights = car_weights(view, seat)
    best: tuple[float, int] | None = None
    choice: Any = legal[0]
    for index, action in enumerate(legal):
        values = [_try(g, seat, action, chance, weights) for g in guesses]
        value = sum(values) / len(values)
        if isinstance(action, ShiftGears):
            value -= SHIFT_COST
        key = (value, -index)
        if best is None or key > best:
            best, choice = key, action
    return choice
