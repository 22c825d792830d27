"""Folding Cthulhu 500 events into state, and what each seat may see (spec §7).

Owns `evolve` (pure; never draws chance; accepts redacted events), `view` and `redact`. Hidden:
other seats' hands (shown as `HIDDEN` placeholders, sizes public), the draw pile order (nobody;
`draw_size` is public, the TUI rounds it), shuffled orders, and setup discards until the reveal.
The invariant the conformance suite checks: folding `redact(e, seat)` over the events gives
exactly `view(state, seat)`.

Must not: decide anything; it applies what the engine decided.
"""

from __future__ import annotations

from typing import Any

import msgspec

from core.cthulhu500 import events as ev
from core.cthulhu500.model import HIDDEN, Contagion, State, Vehicle

__all__ = ["evolve", "redact", "view"]

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


def evolve(state: State, event: Any) -> State:
    """Apply one event (possibly redacted) to a state."""
    t = type(event)
    if t is ev.Flow:
        return replace(state, stack=event.stack)
    if t is ev.VehicleAssigned:
        return _set_vehicle(state, event.seat, marker=event.marker)
    if t is ev.VehiclesSetAside:
        return replace(state, set_aside=event.markers)
    if t is ev.FlagPlaced:
        return replace(state, discard=(*state.discard, event.card))
    if t is ev.DeckShuffled or t is ev.DeckReshuffled:
        order = event.order if event.order is not None else ()
        discard = () if t is ev.DeckReshuffled else state.discard
        return replace(state, draw=order, draw_size=event.count, discard=discard)
    if t is ev.CardDealt or t is ev.CardDrawn:
        cid = HIDDEN if event.card is None else event.card
        state = replace(state, draw=state.draw[1:], draw_size=state.draw_size - 1)
        return _set_hand(state, event.seat, _give(state.hands[event.seat], [cid]))
    if t is ev.SetupDiscardChosen:
        done = list(state.setup_done)
        done[event.seat] = True
        choice = list(state.setup_choice)
        choice[event.seat] = event.cards
        return replace(state, setup_done=tuple(done), setup_choice=tuple(choice))
    if t is ev.SetupDiscardsRevealed:
        hands = tuple(_take(h, c) for h, c in zip(state.hands, event.cards, strict=True))
        pile = [cid for cards in event.cards for cid in cards]
        return replace(
            state,
            hands=hands,
            discard=(*state.discard, *pile),
            setup_choice=event.cards,
        )
    if t is ev.PackFormed or t is ev.DamageMove or t is ev.VehiclesSwapped:
        return replace(state, pack=event.pack)
    if t is ev.Passed:
        if event.lap:
            laps = state.vehicles[event.attacker].laps + 1
            state = _set_vehicle(state, event.attacker, laps=laps)
        return replace(state, pack=event.pack)
    if t is ev.TurnStarted:
        return replace(
            state, active=event.seat, turn=event.turn, actions_left=event.actions, nitrous=0
        )
    if t is ev.ActionTaken:
        return replace(state, actions_left=event.left)
    if t is ev.FlagUsed:
        used = list(state.flag_used)
        used[event.seat] = True
        return replace(state, flag_used=tuple(used), actions_left=state.actions_left + 1)
    if t is ev.ActionsGranted:
        return replace(state, actions_left=state.actions_left + event.count)
    if t is ev.ActionsEnded:
        return replace(state, actions_left=0)
    if t is ev.NitrousAdded:
        return replace(state, nitrous=state.nitrous + event.bonus)
    if t is ev.CardPlayed:
        state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
        return replace(state, in_play=(*state.in_play, event.card))
    if t is ev.InPlayDiscarded:
        kept = tuple(c for c in state.in_play if c not in event.cards)
        return replace(state, in_play=kept, discard=(*state.discard, *event.cards))
    if t is ev.CrewAdded:
        state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
        crew = (*state.vehicles[event.to_seat].crew, event.card)
        return _set_vehicle(state, event.to_seat, crew=crew)
    if t is ev.CrewMoved:
        state = _strip_seat(state, event.from_seat, event.card)
        return _set_vehicle(
            state, event.to_seat, crew=(*state.vehicles[event.to_seat].crew, event.card)
        )
    if t is ev.DriverMoved:
        state = _strip_seat(state, event.from_seat, event.card)
        target = state.vehicles[event.to_seat]
        crew = target.crew if event.replaced is None else (*target.crew, event.replaced)
        return _set_vehicle(state, event.to_seat, driver=event.card, crew=crew)
    if t is ev.DriverSet:
        vehicle = state.vehicles[event.seat]
        if event.card in vehicle.crew:
            vehicle = _strip(vehicle, event.card)
        else:
            state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
        crew = vehicle.crew if event.old is None else (*vehicle.crew, event.old)
        return _set_vehicle(state, event.seat, driver=event.card, crew=crew)
    if t is ev.PassResolved:
        if event.nitrous:
            return replace(state, nitrous=0)
        return state
    if t is ev.Damaged:
        return _set_vehicle(state, event.seat, damaged=True)
    if t is ev.RepairRolled:
        if event.success:
            return _set_vehicle(state, event.seat, damaged=False)
        return state
    if t is ev.DamageAbsorbed or t is ev.VehicleCardDiscarded:
        state = _strip_seat(state, event.seat, event.card)
        return replace(state, discard=(*state.discard, event.card))
    if t is ev.ModAttached or t is ev.TiresAttached:
        state = _set_hand(state, event.seat, _take(state.hands[event.seat], [event.card]))
        vehicle = state.vehicles[event.seat]
        if event.replaced is not None:
            vehicle = _strip(vehicle, event.replaced)
            state = replace(state, discard=(*state.discard, event.replaced))
        if t is ev.ModAttached:
            vehicle = replace(vehicle, mods=(*vehicle.mods, event.card))
        else:
            vehicle = replace(vehicle, tires=event.card)
        vehicles = list(state.vehicles)
        vehicles[event.seat] = vehicle
        return replace(state, vehicles=tuple(vehicles))
    if t is ev.CardTakenFromDiscard:
        pile = list(state.discard)
        pile.remove(event.card)
        state = replace(state, discard=tuple(pile))
        held = HIDDEN if event.hand_card is None else event.hand_card
        return _set_hand(state, event.seat, _give(state.hands[event.seat], [held]))
    if t is ev.ContagionMarked:
        state = _from_play(state, event.card)
        mark = Contagion(
            card=event.card,
            caster=event.caster,
            seat=event.seat,
            target=event.target,
            turn=event.turn,
        )
        return replace(state, contagions=(*state.contagions, mark))
    if t is ev.ContagionStruck:
        marks = tuple(m for m in state.contagions if m.card != event.card)
        state = _strip_seat(state, event.seat, event.target)
        return replace(
            state,
            contagions=marks,
            in_play=(*state.in_play, event.card),
            discard=(*state.discard, event.target),
        )
    if t is ev.ContagionEnded:
        marks = tuple(m for m in state.contagions if m.card != event.card)
        state = _from_play(state, event.card)
        return replace(state, contagions=marks, discard=(*state.discard, event.card))
    if t is ev.CardsDiscarded:
        state = _set_hand(state, event.seat, _take(state.hands[event.seat], event.cards))
        return replace(state, discard=(*state.discard, *event.cards))
    if t is ev.CheckeredFlagDrawn:
        return replace(
            state, draw=state.draw[1:], draw_size=state.draw_size - 1, discard=(*state.discard, 110)
        )
    if t is ev.RaceEnded:
        return replace(state, over=True, ranking=event.ranking, stack=())
    # Announcements that change nothing: dice, declarations, chain results, prevented damage.
    return state


def view(state: State, seat: int | None) -> State:
    """The state as ``seat`` (``None``: a spectator) may see it."""
    hands = tuple(
        hand if i == seat else (HIDDEN,) * len(hand) for i, hand in enumerate(state.hands)
    )
    choice = state.setup_choice
    if not all(state.setup_done):  # hidden until the common reveal
        choice = tuple(c if i == seat else None for i, c in enumerate(choice))
    return replace(state, hands=hands, draw=(), setup_choice=choice)


def redact(event: Any, seat: int | None) -> Any:
    """The event as ``seat`` may see it."""
    t = type(event)
    if t is ev.DeckShuffled or t is ev.DeckReshuffled:
        return replace(event, order=None)
    if (t is ev.CardDealt or t is ev.CardDrawn) and event.seat != seat:
        return replace(event, card=None)
    if t is ev.CardTakenFromDiscard and event.seat != seat:
        return replace(event, hand_card=None)
    if t is ev.SetupDiscardChosen and event.seat != seat:
        return replace(event, cards=None)
    return event
