"""Test kit for Cthulhu 500 rule tests: build a race position by hand and step it with
scripted chance (dice given as values, `d(4, 2)`), folding the events like a Table does."""

from __future__ import annotations

from typing import Any

import msgspec

from core.cthulhu500.config import Config
from core.cthulhu500.data import DECK_IDS
from core.cthulhu500.fold import evolve
from core.cthulhu500.model import DActions, State, Vehicle
from core.cthulhu500.rules import engine
from core.rng import ScriptedChance

FE, VM, CAR, CH, SCV, TRUCK, OL, PU = 1, 3, 5, 7, 9, 11, 13, 15

replace = msgspec.structs.replace


def d(*values: int) -> list[int]:
    """Dice values 1-6 as the face indices chance answers."""
    return [v - 1 for v in values]


def race(
    *markers: int,
    pack: tuple[int, ...] | None = None,
    damaged: tuple[int, ...] = (),
    laps: dict[int, int] | None = None,
    hands: dict[int, tuple[int, ...]] | None = None,
    mods: dict[int, tuple[int, ...]] | None = None,
    tires: dict[int, int] | None = None,
    driver: dict[int, int] | None = None,
    crew: dict[int, tuple[int, ...]] | None = None,
    active: int | None = None,
    actions: int = 2,
    draw: tuple[int, ...] | None = None,
    discard: tuple[int, ...] = (110,),
    stack: tuple[Any, ...] | None = None,
    turn: int = 1,
    **options: Any,
) -> State:
    """A race in progress: seat i drives ``markers[i]``; by default the active seat is in its
    action phase with ``actions`` actions left; the draw pile holds every unused card."""
    n = len(markers)
    pack = tuple(range(n)) if pack is None else pack
    active = pack[-1] if active is None else active
    hands = hands or {}
    vehicles = tuple(
        Vehicle(
            marker=m,
            damaged=s in damaged,
            laps=(laps or {}).get(s, 0),
            mods=(mods or {}).get(s, ()),
            tires=(tires or {}).get(s),
            driver=(driver or {}).get(s),
            crew=(crew or {}).get(s, ()),
        )
        for s, m in enumerate(markers)
    )
    if draw is None:
        used: set[int] = set(discard)
        for h in hands.values():
            used.update(h)
        for v in vehicles:
            used.update((*v.mods, *v.crew))
            used.update(c for c in (v.tires, v.driver) if c is not None)
        draw = tuple(c for c in DECK_IDS if c not in used)
    return State(
        config=Config(**options),
        n=n,
        vehicles=vehicles,
        pack=pack,
        hands=tuple(tuple(sorted(hands.get(s, ()))) for s in range(n)),
        draw=draw,
        draw_size=len(draw),
        discard=discard,
        setup_done=(True,) * n,
        setup_choice=((),) * n,
        flag_used=(False,) * n,
        active=active,
        turn=turn,
        actions_left=actions,
        stack=(DActions(active),) if stack is None else stack,
    )


class Run:
    """A position plus everything that happened to it since."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Any] = []

    def act(self, seat: int, action: Any, chance: list[int] | tuple[int, ...] = ()) -> list[Any]:
        script = ScriptedChance(list(chance))
        events = engine.step(self.state, seat, action, script)
        assert script.remaining == 0, f"{script.remaining} scripted draws left unused"
        for event in events:
            self.state = evolve(self.state, event)
        self.events.extend(events)
        return events

    def pending(self) -> tuple[int, ...]:
        return engine.pending(self.state)

    def legal(self, seat: int) -> list[Any]:
        return engine.legal(self.state, seat)

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    @property
    def pack(self) -> tuple[int, ...]:
        return self.state.pack

    def damaged(self, seat: int) -> bool:
        return self.state.vehicles[seat].damaged

    def laps(self, seat: int) -> int:
        return self.state.vehicles[seat].laps
