"""Folding Cthulhu 500 events into state: ``evolve(state, event) -> state``.

Owns `evolve` (pure; never draws chance; accepts redacted events), one handler per event class
(`core.resolution.fold_by_type`). Must not: decide anything (it applies what the rules decided)
or hide anything (`views`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from core.cthulhu500.model import (
    HIDDEN,
    ActionsEnded,
    ActionsGranted,
    ActionTaken,
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    CardTakenFromDiscard,
    ChainResolved,
    CheckeredFlagDrawn,
    Contagion,
    ContagionEnded,
    ContagionMarked,
    ContagionStruck,
    CrewAdded,
    CrewMoved,
    DamageAbsorbed,
    Damaged,
    DamageMove,
    DamagePrevented,
    DeckReshuffled,
    DeckShuffled,
    DieRerolled,
    DriverMoved,
    DriverSet,
    EffectFizzled,
    FlagPlaced,
    FlagUsed,
    Flow,
    FreeTestDeclined,
    InPlayDiscarded,
    ModAttached,
    NitrousAdded,
    PackFormed,
    PackTieRolled,
    PassCancelled,
    PassDeclared,
    PassDiceRolled,
    Passed,
    PassResolved,
    PitStopped,
    RaceEnded,
    RepairRolled,
    SetupDiscardChosen,
    SetupDiscardsRevealed,
    State,
    TiresAttached,
    TurnStarted,
    Vehicle,
    VehicleAssigned,
    VehicleCardDiscarded,
    VehiclesSetAside,
    VehiclesSwapped,
)
from core.resolution import fold_by_type

__all__ = ["HANDLERS", "evolve"]

replace = msgspec.structs.replace


def _take(cards: tuple[int, ...], gone: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Remove ``gone`` from a hand: each id if present, else one hidden placeholder."""
    out = list(cards)
    for cid in gone:
        if cid in out:
            out.remove(cid)
        elif HIDDEN in out:
            out.remove(HIDDEN)
    return tuple(out)


def _give(cards: tuple[int, ...], more: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(sorted((*cards, *more)))


def _set_hand(state: State, seat: int, hand: tuple[int, ...]) -> State:
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands))


def _set_vehicle(state: State, seat: int, **changes: Any) -> State:
    vehicles = list(state.vehicles)
    vehicles[seat] = replace(vehicles[seat], **changes)
    return replace(state, vehicles=tuple(vehicles))


def _strip(vehicle: Vehicle, cid: int) -> Vehicle:
    """The vehicle without card ``cid`` wherever it sits on it."""
    return replace(
        vehicle,
        driver=None if vehicle.driver == cid else vehicle.driver,
        crew=tuple(c for c in vehicle.crew if c != cid),
        mods=tuple(c for c in vehicle.mods if c != cid),
        tires=None if vehicle.tires == cid else vehicle.tires,
    )


def _strip_seat(state: State, seat: int, cid: int) -> State:
    vehicles = list(state.vehicles)
    vehicles[seat] = _strip(vehicles[seat], cid)
    return replace(state, vehicles=tuple(vehicles))


def _from_play(state: State, cid: int) -> State:
    return replace(state, in_play=tuple(c for c in state.in_play if c != cid))


def _flow(state: State, event: Any) -> State:
    return replace(state, stack=event.stack)


def _vehicle_assigned(state: State, event: Any) -> State:
    return _set_vehicle(state, event.seat, marker=event.marker)


def _vehicles_set_aside(state: State, event: Any) -> State:
    return replace(state, set_aside=event.markers)


def _flag_placed(state: State, event: Any) -> State:
    return replace(state, discard=(*state.discard, event.card))


def _deck_shuffled(state: State, event: Any) -> State:
    t = type(event)
    order = event.order if event.order is not None else ()
    discard = () if t is DeckReshuffled else state.discard
    return replace(state, draw=order, draw_size=event.count, discard=discard)


def _card_dealt(state: State, event: Any) -> State:
    cid = HIDDEN if event.card is None else event.card
    hands = list(state.hands)
    hands[event.seat] = _give(hands[event.seat], (cid,))
    return replace(state, draw=state.draw[1:], draw_size=state.draw_size - 1, hands=tuple(hands))


def _setup_discard_chosen(state: State, event: Any) -> State:
    done = list(state.setup_done)
    done[event.seat] = True
    choice = list(state.setup_choice)
    choice[event.seat] = event.cards
    return replace(state, setup_done=tuple(done), setup_choice=tuple(choice))


def _setup_discards_revealed(state: State, event: Any) -> State:
    hands = tuple(_take(h, c) for h, c in zip(state.hands, event.cards, strict=True))
    pile = [cid for cards in event.cards for cid in cards]
    return replace(
        state,
        hands=hands,
        discard=(*state.discard, *pile),
        setup_choice=event.cards,
    )


def _pack_formed(state: State, event: Any) -> State:
    return replace(state, pack=event.pack)


def _passed(state: State, event: Any) -> State:
    if event.lap:
        laps = state.vehicles[event.attacker].laps + 1
        state = _set_vehicle(state, event.attacker, laps=laps)
    return replace(state, pack=event.pack)


def _turn_started(state: State, event: Any) -> State:
    return replace(state, active=event.seat, turn=event.turn, actions_left=event.actions, nitrous=0)


def _action_taken(state: State, event: Any) -> State:
    return replace(state, actions_left=event.left)


def _flag_used(state: State, event: Any) -> State:
    used = list(state.flag_used)
    used[event.seat] = True
    return replace(state, flag_used=tuple(used), actions_left=state.actions_left + 1)


def _actions_granted(state: State, event: Any) -> State:
    return replace(state, actions_left=state.actions_left + event.count)


def _actions_ended(state: State, event: Any) -> State:
    return replace(state, actions_left=0)


def _nitrous_added(state: State, event: Any) -> State:
    return replace(state, nitrous=state.nitrous + event.bonus)


def _card_played(state: State, event: Any) -> State:
    state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
    return replace(state, in_play=(*state.in_play, event.card))


def _in_play_discarded(state: State, event: Any) -> State:
    kept = tuple(c for c in state.in_play if c not in event.cards)
    return replace(state, in_play=kept, discard=(*state.discard, *event.cards))


def _crew_added(state: State, event: Any) -> State:
    state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
    crew = (*state.vehicles[event.to_seat].crew, event.card)
    return _set_vehicle(state, event.to_seat, crew=crew)


def _crew_moved(state: State, event: Any) -> State:
    state = _strip_seat(state, event.from_seat, event.card)
    return _set_vehicle(
        state, event.to_seat, crew=(*state.vehicles[event.to_seat].crew, event.card)
    )


def _driver_moved(state: State, event: Any) -> State:
    state = _strip_seat(state, event.from_seat, event.card)
    target = state.vehicles[event.to_seat]
    crew = target.crew if event.replaced is None else (*target.crew, event.replaced)
    return _set_vehicle(state, event.to_seat, driver=event.card, crew=crew)


def _driver_set(state: State, event: Any) -> State:
    vehicle = state.vehicles[event.seat]
    if event.card in vehicle.crew:
        vehicle = _strip(vehicle, event.card)
    else:
        state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
    crew = vehicle.crew if event.old is None else (*vehicle.crew, event.old)
    return _set_vehicle(state, event.seat, driver=event.card, crew=crew)


def _pass_resolved(state: State, event: Any) -> State:
    if event.nitrous:
        return replace(state, nitrous=0)
    return state


def _damaged(state: State, event: Any) -> State:
    return _set_vehicle(state, event.seat, damaged=True)


def _repair_rolled(state: State, event: Any) -> State:
    if event.success:
        return _set_vehicle(state, event.seat, damaged=False)
    return state


def _damage_absorbed(state: State, event: Any) -> State:
    state = _strip_seat(state, event.seat, event.card)
    return replace(state, discard=(*state.discard, event.card))


def _mod_attached(state: State, event: Any) -> State:
    t = type(event)
    state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
    vehicle = state.vehicles[event.seat]
    if event.replaced is not None:
        vehicle = _strip(vehicle, event.replaced)
        state = replace(state, discard=(*state.discard, event.replaced))
    if t is ModAttached:
        vehicle = replace(vehicle, mods=(*vehicle.mods, event.card))
    else:
        vehicle = replace(vehicle, tires=event.card)
    vehicles = list(state.vehicles)
    vehicles[event.seat] = vehicle
    return replace(state, vehicles=tuple(vehicles))


def _card_taken_from_discard(state: State, event: Any) -> State:
    pile = list(state.discard)
    pile.remove(event.card)
    state = replace(state, discard=tuple(pile))
    held = HIDDEN if event.hand_card is None else event.hand_card
    return _set_hand(state, event.seat, _give(state.hands[event.seat], [held]))


def _contagion_marked(state: State, event: Any) -> State:
    state = _from_play(state, event.card)
    mark = Contagion(
        card=event.card,
        caster=event.caster,
        seat=event.seat,
        target=event.target,
        turn=event.turn,
    )
    return replace(state, contagions=(*state.contagions, mark))


def _contagion_struck(state: State, event: Any) -> State:
    marks = tuple(m for m in state.contagions if m.card != event.card)
    state = _strip_seat(state, event.seat, event.target)
    return replace(
        state,
        contagions=marks,
        in_play=(*state.in_play, event.card),
        discard=(*state.discard, event.target),
    )


def _contagion_ended(state: State, event: Any) -> State:
    marks = tuple(m for m in state.contagions if m.card != event.card)
    state = _from_play(state, event.card)
    return replace(state, contagions=marks, discard=(*state.discard, event.card))


def _cards_discarded(state: State, event: Any) -> State:
    state = _set_hand(state, event.seat, _take(state.hands[event.seat], event.cards))
    return replace(state, discard=(*state.discard, *event.cards))


def _checkered_flag_drawn(state: State, event: Any) -> State:
    return replace(
        state, draw=state.draw[1:], draw_size=state.draw_size - 1, discard=(*state.discard, 110)
    )


def _race_ended(state: State, event: Any) -> State:
    return replace(state, over=True, ranking=event.ranking, stack=())


def _unchanged(state: State, event: Any) -> State:
    """Announcements that change nothing: dice, declarations, chain results, prevented damage."""
    return state


# One handler per event class: `evolve` folds by it, and so does a step as it emits.
HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    VehicleAssigned: _vehicle_assigned,
    VehiclesSetAside: _vehicles_set_aside,
    FlagPlaced: _flag_placed,
    DeckShuffled: _deck_shuffled,
    CardDealt: _card_dealt,
    SetupDiscardChosen: _setup_discard_chosen,
    SetupDiscardsRevealed: _setup_discards_revealed,
    PackTieRolled: _unchanged,
    PackFormed: _pack_formed,
    TurnStarted: _turn_started,
    ActionTaken: _action_taken,
    FlagUsed: _flag_used,
    ActionsGranted: _actions_granted,
    ActionsEnded: _actions_ended,
    NitrousAdded: _nitrous_added,
    CardPlayed: _card_played,
    ChainResolved: _unchanged,
    InPlayDiscarded: _in_play_discarded,
    EffectFizzled: _unchanged,
    CrewAdded: _crew_added,
    CrewMoved: _crew_moved,
    DriverMoved: _driver_moved,
    DriverSet: _driver_set,
    PassDeclared: _unchanged,
    PassCancelled: _unchanged,
    PassDiceRolled: _unchanged,
    DieRerolled: _unchanged,
    PassResolved: _pass_resolved,
    Passed: _passed,
    DamageMove: _pack_formed,
    VehiclesSwapped: _pack_formed,
    Damaged: _damaged,
    DamagePrevented: _unchanged,
    DamageAbsorbed: _damage_absorbed,
    PitStopped: _unchanged,
    FreeTestDeclined: _unchanged,
    ModAttached: _mod_attached,
    TiresAttached: _mod_attached,
    RepairRolled: _repair_rolled,
    VehicleCardDiscarded: _damage_absorbed,
    CardTakenFromDiscard: _card_taken_from_discard,
    ContagionMarked: _contagion_marked,
    ContagionStruck: _contagion_struck,
    ContagionEnded: _contagion_ended,
    CardsDiscarded: _cards_discarded,
    CardDrawn: _card_dealt,
    DeckReshuffled: _deck_shuffled,
    CheckeredFlagDrawn: _checkered_flag_drawn,
    RaceEnded: _race_ended,
    Flow: _flow,
}

evolve = fold_by_type("Cthulhu 500", HANDLERS)
"""Apply one event (possibly redacted) to a state (pure; never draws chance)."""
