"""The NASCAR Champions fold: ``evolve(state, event) -> state``.

Owns how every event changes the state, including the turn's task queue (an event that resolves
the head task pops it and pushes what follows from it). It accepts redacted events (hidden deck
orders, hidden Sponsor colours) so every seat's screen folds its own view.

Must not: draw chance, validate actions, or decide anything a player decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from core.champions.data import COMPONENTS
from core.champions.model import (
    CarBlocked,
    CardDrawn,
    CardResolved,
    CardTargetsChosen,
    CarFinished,
    CarLeftBackwards,
    CarMoved,
    CarOwned,
    CarsSelected,
    CarState,
    CarTurnedBackwards,
    CarTurnedForward,
    ChampionsState,
    DeckShuffled,
    DiceChosen,
    DiceRolled,
    DieResolved,
    DieTask,
    DrawTask,
    EndCardTask,
    GameEnded,
    GearsShifted,
    GridPlaced,
    HeldSponsor,
    LapCalled,
    LapEnded,
    LapStarted,
    LastCarChosen,
    LastCarTask,
    MoneyAwarded,
    MoveTask,
    NeighbourTask,
    RedLineCrossed,
    SponsorDealt,
    SponsorsRevealed,
    TargetTask,
    Task,
    TurnBackTask,
    TurnStarted,
)
from core.champions.track import neighbours
from core.resolution import fold_by_type

__all__ = ["HANDLERS", "card_tasks", "crash_neighbours", "evolve"]

FLAG_FACE = len(COMPONENTS.dice.faces) - 1


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(items)
    out[index] = value
    return tuple(out)


def _set_car(state: ChampionsState, colour: int, **changes: Any) -> ChampionsState:
    return replace(state, cars=_set(state.cars, colour, replace(state.cars[colour], **changes)))


def _pop(state: ChampionsState, *push: Task) -> ChampionsState:
    return replace(state, queue=(*push, *state.queue[1:]))


def card_tasks(card_id: int) -> tuple[Task, ...]:
    """What a drawn Checkered Flag card puts at the head of the queue (Sponsors: nothing)."""
    card = COMPONENTS.cards[card_id]
    if card.kind == "SPONSOR":
        return ()
    if card.kind == "BACK_BURNER":
        return (LastCarTask(card=card_id), EndCardTask(card=card_id))
    return (TargetTask(card=card_id), EndCardTask(card=card_id))


def crash_neighbours(state: ChampionsState, colour: int) -> list[int]:
    """N-CRASH: cars on the track in the up to 8 spaces around ``colour``'s car."""
    car = state.cars[colour]
    if car.space is None:
        return []
    by_space = {c.space: c.colour for c in state.cars if c.on_track and c.colour != colour}
    spaces = neighbours(COMPONENTS.track, car.space, [s for s in by_space if s is not None])
    return sorted(by_space[s] for s in spaces)


def _cars_selected(state: ChampionsState, e: CarsSelected) -> ChampionsState:
    cars = tuple(
        CarState(colour=colour, number=number, driver=COMPONENTS.car_def(colour, number).driver)
        for colour, number in enumerate(e.numbers)
    )
    n = state.n_seats
    uses = state.config.shift_gears_per_lap
    return replace(
        state,
        cars=cars,
        phase="choose_car",
        active=0,
        seat_car=(None,) * n,
        shift_gears=(uses,) * n,
        money=(0,) * n,
        sponsors=((),) * n,
    )


def _car_owned(state: ChampionsState, e: CarOwned) -> ChampionsState:
    seat_car = _set(state.seat_car, e.seat, e.car)
    nxt = next((s for s, c in enumerate(seat_car) if c is None), state.active)
    return replace(state, seat_car=seat_car, active=nxt)


def _deck_shuffled(state: ChampionsState, e: DeckShuffled) -> ChampionsState:
    if e.deck == "sponsor":
        return replace(state, sponsor_deck=e.order, sponsor_count=e.size)
    # a Checkered Flag shuffle takes every discarded card (N-DECK-EMPTY, N-LAP2-SETUP)
    return replace(state, flag_deck=e.order, flag_count=e.size, flag_discard=())


def _sponsor_dealt(state: ChampionsState, e: SponsorDealt) -> ChampionsState:
    deck = state.sponsor_deck
    if deck is not None:
        deck = deck[1:]
    hand = (*state.sponsors[e.seat], HeldSponsor(source="base", colour=e.colour))
    return replace(
        state,
        sponsor_deck=deck,
        sponsor_count=state.sponsor_count - 1,
        sponsors=_set(state.sponsors, e.seat, hand),
    )


def _grid_placed(state: ChampionsState, e: GridPlaced) -> ChampionsState:
    cars = list(state.cars)
    for space_index, colour in enumerate(e.order):
        row, lane = COMPONENTS.track.grid[space_index]
        cars[colour] = replace(cars[colour], row=row, lane=lane, backwards=False, place=None)
    return replace(state, cars=tuple(cars), grid=e.order)


def _turn_started(state: ChampionsState, e: TurnStarted) -> ChampionsState:
    return replace(
        state,
        phase="roll",
        active=e.seat,
        dice=(),
        chosen=(),
        shifted=False,
        queue=(),
        turn=state.turn + 1,
    )


def _dice_rolled(state: ChampionsState, e: DiceRolled) -> ChampionsState:
    return replace(state, phase="choose_dice", dice=e.faces)


def _gears_shifted(state: ChampionsState, e: GearsShifted) -> ChampionsState:
    uses = _set(state.shift_gears, e.seat, state.shift_gears[e.seat] - 1)
    return replace(state, shift_gears=uses, shifted=True)


def _dice_chosen(state: ChampionsState, e: DiceChosen) -> ChampionsState:
    return replace(
        state,
        phase="resolve",
        chosen=e.dice,
        queue=tuple(DieTask(die=d) for d in e.dice),
    )


def _die_resolved(state: ChampionsState, e: DieResolved) -> ChampionsState:
    task: Task = DrawTask(die=e.die) if e.face == FLAG_FACE else MoveTask(car=e.face, steps=e.die)
    return _pop(state, task)


def _car_moved(state: ChampionsState, e: CarMoved) -> ChampionsState:
    row, lane = (None, None) if e.end is None else e.end
    car = replace(state.cars[e.car], row=row, lane=lane)
    return replace(state, queue=state.queue[1:], cars=_set(state.cars, e.car, car))


def _pop_only(state: ChampionsState, e: Any) -> ChampionsState:
    return _pop(state)


def _unchanged(state: ChampionsState, e: Any) -> ChampionsState:
    """An announcement only (LapCalled: the CarFinished events that follow place the cars)."""
    return state


def _car_turned_forward(state: ChampionsState, e: CarTurnedForward) -> ChampionsState:
    return _set_car(_pop(state), e.car, backwards=False)


def _car_turned_backwards(state: ChampionsState, e: CarTurnedBackwards) -> ChampionsState:
    head = state.queue[0] if state.queue else None
    state = _set_car(_pop(state), e.car, backwards=True)
    if (
        isinstance(head, TurnBackTask)
        and COMPONENTS.cards[head.card].kind == "CRASH"
        and state.config.crash_hits_neighbour
        and crash_neighbours(state, e.car)
    ):
        state = replace(state, queue=(NeighbourTask(car=e.car, card=e.card), *state.queue))
    return state


def _card_drawn(state: ChampionsState, e: CardDrawn) -> ChampionsState:
    deck = state.flag_deck
    if deck is not None:
        deck = deck[1:]
    state = replace(state, flag_deck=deck, flag_count=state.flag_count - 1)
    if e.sponsor:
        colour = None if e.card is None else COMPONENTS.cards[e.card].colour
        hand = (*state.sponsors[e.seat], HeldSponsor(source="deck", colour=colour))
        return _pop(replace(state, sponsors=_set(state.sponsors, e.seat, hand)))
    assert e.card is not None
    return _pop(replace(state, card_in_play=e.card), *card_tasks(e.card))


def _targets_chosen(state: ChampionsState, e: CardTargetsChosen) -> ChampionsState:
    card = COMPONENTS.cards[e.card]
    tasks: tuple[Task, ...]
    if card.kind in ("MOVE", "BACK_BURNER"):
        tasks = tuple(MoveTask(car=c, steps=card.steps, card=e.card) for c in e.cars)
    else:
        tasks = tuple(TurnBackTask(car=c, card=e.card) for c in e.cars)
    return _pop(state, *tasks)


def _last_car_chosen(state: ChampionsState, e: LastCarChosen) -> ChampionsState:
    steps = COMPONENTS.cards[e.card].steps
    return _pop(state, MoveTask(car=e.car, steps=steps, card=e.card))


def _card_resolved(state: ChampionsState, e: CardResolved) -> ChampionsState:
    return replace(_pop(state), card_in_play=None, flag_discard=(*state.flag_discard, e.card))


def _red_line(state: ChampionsState, e: RedLineCrossed) -> ChampionsState:
    return replace(state, red_line_crossed=True)


def _car_finished(state: ChampionsState, e: CarFinished) -> ChampionsState:
    state = _set_car(state, e.car, row=None, lane=None, place=e.place, backwards=False)
    return replace(state, places=(*state.places, e.car))


def _lap_ended(state: ChampionsState, e: LapEnded) -> ChampionsState:
    discard = state.flag_discard
    if state.card_in_play is not None:
        discard = (*discard, state.card_in_play)
    return replace(
        state,
        phase="lap_over",
        queue=(),
        card_in_play=None,
        flag_discard=discard,
        lap_places=(*state.lap_places, e.places),
    )


def _sponsors_revealed(state: ChampionsState, e: SponsorsRevealed) -> ChampionsState:
    return replace(state, sponsors=e.hands, sponsors_revealed=True)


def _money_awarded(state: ChampionsState, e: MoneyAwarded) -> ChampionsState:
    total = e.prize + e.sponsor
    lap_money = list(state.lap_money)
    while len(lap_money) < e.lap:
        lap_money.append((0,) * state.n_seats)
    lap_money[e.lap - 1] = _set(lap_money[e.lap - 1], e.seat, total)
    return replace(
        state,
        money=_set(state.money, e.seat, state.money[e.seat] + total),
        lap_money=tuple(lap_money),
    )


def _lap_started(state: ChampionsState, e: LapStarted) -> ChampionsState:
    n = state.n_seats
    cars = tuple(replace(c, row=None, lane=None, backwards=False, place=None) for c in state.cars)
    return replace(
        state,
        lap=e.lap,
        phase="setup",
        cars=cars,
        shift_gears=(state.config.shift_gears_per_lap,) * n,
        sponsors=((),) * n,
        sponsors_revealed=False,
        sponsor_deck=None,
        sponsor_count=0,
        flag_deck=None,
        flag_count=0,
        flag_discard=(),
        card_in_play=None,
        dice=(),
        chosen=(),
        shifted=False,
        queue=(),
        red_line_crossed=False,
        places=(),
        turn=0,
    )


def _game_ended(state: ChampionsState, e: GameEnded) -> ChampionsState:
    return replace(state, phase="over", queue=(), dice=(), chosen=())


# One handler per event class: `evolve` folds by it, and so does a step as it emits.
HANDLERS: dict[type[Any], Callable[[ChampionsState, Any], ChampionsState]] = {
    CarsSelected: _cars_selected,
    CarOwned: _car_owned,
    DeckShuffled: _deck_shuffled,
    SponsorDealt: _sponsor_dealt,
    GridPlaced: _grid_placed,
    TurnStarted: _turn_started,
    DiceRolled: _dice_rolled,
    GearsShifted: _gears_shifted,
    DiceChosen: _dice_chosen,
    DieResolved: _die_resolved,
    CarMoved: _car_moved,
    CarBlocked: _pop_only,
    CarTurnedForward: _car_turned_forward,
    CarLeftBackwards: _pop_only,
    CarTurnedBackwards: _car_turned_backwards,
    CardDrawn: _card_drawn,
    CardTargetsChosen: _targets_chosen,
    LastCarChosen: _last_car_chosen,
    CardResolved: _card_resolved,
    RedLineCrossed: _red_line,
    CarFinished: _car_finished,
    LapCalled: _unchanged,
    LapEnded: _lap_ended,
    SponsorsRevealed: _sponsors_revealed,
    MoneyAwarded: _money_awarded,
    LapStarted: _lap_started,
    GameEnded: _game_ended,
}

evolve = fold_by_type("NASCAR Champions", HANDLERS)
"""Fold one event onto the state (pure; never draws chance)."""
