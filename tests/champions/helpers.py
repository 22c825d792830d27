"""Shared helpers for the NASCAR Champions tests: scripted chance, positions, a tiny player."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from msgspec.structs import replace

from core.champions import rules
from core.champions.config import ChampionsConfig
from core.champions.data import COMPONENTS, card_by_code
from core.champions.fold import evolve
from core.champions.model import ChampionsState
from core.rng import fisher_yates_draws

BLACK, BLUE, RED, GREEN, YELLOW, FLAG = range(6)
FACES = {"BLACK": 0, "BLUE": 1, "RED": 2, "GREEN": 3, "YELLOW": 4, "FLAG": 5}


def faces(*names: str) -> list[int]:
    return [FACES[n] for n in names]


class Feed:
    """Scripted chance that can be fed more values as a test goes on."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        self.values = list(values)
        self.pos = 0
        self.asked: list[int] = []

    def feed(self, values: Iterable[int]) -> None:
        self.values.extend(values)

    @property
    def remaining(self) -> int:
        return len(self.values) - self.pos

    def below(self, n: int) -> int:
        if self.pos >= len(self.values):
            raise AssertionError(f"unscripted draw below({n})")
        value = self.values[self.pos]
        assert 0 <= value < n, (value, n)
        self.pos += 1
        self.asked.append(n)
        return value

    def snapshot(self) -> tuple[int, int]:
        return (self.pos, 0)

    def restore(self, snap: tuple[int, int]) -> None:
        self.pos = snap[0]


def flag_ids(*codes: str) -> list[int]:
    """One card id per code (the lowest unused id with that code), in the given order."""
    used: list[int] = []
    for code in codes:
        used.append(next(i for i in card_by_code(code) if i not in used))
    return used


def flag_order_draws(*top_codes: str) -> list[int]:
    """Fisher–Yates draws that put these cards on top of the Checkered Flag deck (rest in id order)."""
    top = flag_ids(*top_codes)
    canonical = [c.id for c in COMPONENTS.cards]
    return fisher_yates_draws(canonical, [*top, *(c for c in canonical if c not in top)])


def sponsor_order_draws(*top: int) -> list[int]:
    canonical = list(COMPONENTS.sponsor_colours)
    return fisher_yates_draws(canonical, [*top, *(c for c in canonical if c not in top)])


def grid_draws(*order: int) -> list[int]:
    return fisher_yates_draws(list(range(5)), list(order))


def started(
    config: ChampionsConfig | None = None,
    cars: Sequence[int] = (RED, BLACK, GREEN),
    grid: Sequence[int] = (RED, GREEN, BLACK, BLUE, YELLOW),
    sponsor_top: Sequence[int] = (),
    flag_top: Sequence[str] = (),
) -> tuple[ChampionsState, Feed]:
    """A lap-1 start: seats choose ``cars``; decks and grid scripted through real chance."""
    config = config or ChampionsConfig()
    chance = Feed()
    state = rules.new_state(config, len(cars))
    for event in rules.setup(config, len(cars), chance):
        state = evolve(state, event)
    chance.feed(sponsor_order_draws(*sponsor_top))
    chance.feed(flag_order_draws(*flag_top))
    chance.feed(grid_draws(*grid))
    from core.champions.model import ChooseCar

    play = Player(state, chance)
    for car in cars:
        if play.state.phase == "choose_car":
            play.act(ChooseCar(car=car))
    assert chance.remaining == 0
    return play.state, chance


def position(
    state: ChampionsState,
    cars: dict[int, tuple[int, int] | tuple[int, int, str]],
    *,
    finished: Sequence[int] = (),
    active: int = 0,
    red_line: bool = False,
    flag_top: Sequence[str] = (),
    sponsor_top: Sequence[int] | None = None,
) -> ChampionsState:
    """A mid-lap position: ``cars`` maps colour to (row, lane[, "back"]); ``finished`` in order."""
    new_cars = list(state.cars)
    for colour, spec in cars.items():
        new_cars[colour] = replace(
            new_cars[colour],
            row=spec[0],
            lane=spec[1],
            backwards=len(spec) > 2,
            place=None,
        )
    for place, colour in enumerate(finished, start=1):
        new_cars[colour] = replace(new_cars[colour], row=None, lane=None, place=place)
    out = replace(
        state,
        cars=tuple(new_cars),
        places=tuple(finished),
        active=active,
        phase="roll",
        red_line_crossed=red_line,
    )
    if flag_top:
        top = flag_ids(*flag_top)
        deck = (*top, *(c for c in (out.flag_deck or ()) if c not in top))
        out = replace(out, flag_deck=deck, flag_count=len(deck))
    if sponsor_top is not None:
        deck = (*sponsor_top, *(c for c in (out.sponsor_deck or ()) if c not in sponsor_top))
        out = replace(out, sponsor_deck=deck, sponsor_count=len(deck))
    return out


class Player:
    """Plays actions for whoever is asked, keeping the events and the folded state."""

    def __init__(self, state: ChampionsState, chance: Feed | None = None) -> None:
        self.state = state
        self.chance = chance or Feed()
        self.events: list[Any] = []

    def act(self, action: Any, *draws: int) -> list[Any]:
        self.chance.feed(draws)
        (seat,) = rules.pending(self.state)
        events = rules.step(self.state, seat, action, self.chance)
        for event in events:
            self.state = evolve(self.state, event)
        self.events.extend(events)
        return events

    def roll(self, *names: str) -> list[Any]:
        from core.champions.model import Roll

        return self.act(Roll(), *faces(*names))

    def where(self, colour: int) -> tuple[int, int] | None:
        return self.state.cars[colour].space

    def legal(self) -> list[Any]:
        return rules.legal(self.state, self.state.active)


def of_type(events: Sequence[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
