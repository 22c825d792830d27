"""NASCAR Champions bots: ``random`` (the default) and ``promoter``.

Owns choosing one legal action from a seat's view. ``promoter`` keeps its own colour, keeps low
numbers for rivals, takes flags, blocks and spins the leaders and pushes the cars it sponsors.

Must not: read hidden information (it gets only its seat's view) or draw from the game's chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from core.champions.data import COMPONENTS
from core.champions.fold import FLAG_FACE
from core.champions.model import (
    ChampionsState,
    ChooseCar,
    ChooseCrashNeighbour,
    ChooseDestination,
    ChooseDice,
    ChooseLastCar,
    ChooseTargets,
    HeldSponsor,
    LeaveBackwards,
    MoveTask,
    ShiftGears,
    TurnForward,
)
from core.champions.track import can_step, move_ends
from core.rng import Chance

__all__ = ["BOTS", "car_weights", "promoter_bot", "random_bot"]

TRACK = COMPONENTS.track
ROWS = TRACK.rows


def random_bot(view: ChampionsState, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    """Any legal action, uniformly."""
    return legal[chance.below(len(legal))]


# --------------------------------------------------------------------------- promoter


STALL_TURNS = 60
"""After this many turns in a lap the promoter pushes every car on, so bot laps stay short.

The engine ends every lap anyway (N-LAP-LIMIT calls it at ``lap_turn_limit`` turns, 100 by
default); this guard only keeps a promoter-only table (e.g. solo) well under that.
"""


def car_weights(view: ChampionsState, seat: int) -> list[float]:
    """How much ``seat`` wants each car to go forward (negative: hold it back)."""
    if view.turn > STALL_TURNS:
        return [1.0] * len(view.cars)
    return list(_weights(len(view.cars), view.seat_car, seat, view.sponsors[seat]))


@lru_cache(maxsize=1024)
def _weights(
    n_cars: int, seat_car: tuple[int | None, ...], seat: int, held: tuple[HeldSponsor, ...]
) -> tuple[float, ...]:
    """`car_weights` before the stall: a pure function of who drives what and ``held``."""
    mine = seat_car[seat]
    out = []
    for colour in range(n_cars):
        if colour == mine:
            w = 1.0
        elif colour in seat_car:
            w = -0.55
        else:
            w = -0.35
        for sponsor in held:
            if sponsor.colour == colour:
                w += 0.6 if sponsor.source == "base" else 0.3
        out.append(w)
    return tuple(out)


def _progress(view: ChampionsState, colour: int) -> float:
    car = view.cars[colour]
    if car.place is not None:
        return ROWS + 6 - car.place
    if car.row is None:
        return ROWS
    return float(car.row)


def _ends(view: ChampionsState, colour: int, steps: int) -> list[Any]:
    car = view.cars[colour]
    if not car.on_track or car.backwards or car.space is None:
        return []
    return move_ends(
        TRACK,
        car.space,
        steps,
        view.occupied(but=colour),
        partial_moves=view.config.partial_moves,
        dead_end_steering=view.config.dead_end_steering,
    )


def _end_row(end: Any) -> float:
    return ROWS + 1.0 if end is None else float(end[0])


def _move_value(view: ChampionsState, weights: list[float], colour: int, steps: int) -> float:
    """The best value ``seat`` can make of moving ``colour`` ``steps`` (choosing the end)."""
    car = view.cars[colour]
    w = weights[colour]
    if not car.on_track:
        return 0.0
    if car.backwards:
        # we may turn it forward (worth a little for friends) or leave it
        return max(0.0, w * 1.5)
    ends = _ends(view, colour, steps)
    row = car.row
    if not ends or row is None:
        return 0.0
    return max([w * (_end_row(e) - row) for e in ends])


def _leader_bonus(view: ChampionsState, weights: list[float], colour: int) -> float:
    """How much holding ``colour`` back is worth: rivals near the finish matter most."""
    return -weights[colour] * (1.0 + _progress(view, colour) / ROWS)


def _choose_dice(view: ChampionsState, seat: int, legal: Sequence[Any]) -> Any:
    weights = car_weights(view, seat)
    # each die's worth once (a choice of three adds three of them, in die order)
    worth = [
        1.8 if face == FLAG_FACE else _move_value(view, weights, face, die)
        for die, face in enumerate(view.dice, start=1)
    ]
    best: tuple[float, int] | None = None
    best_action: Any = None
    for index, action in enumerate(legal):
        if not isinstance(action, ChooseDice):
            continue
        value = 0.0
        for die in action.dice:
            value += worth[die - 1]
        key = (value, -index)
        if best is None or key > best:
            best, best_action = key, action
    shift = next((a for a in legal if isinstance(a, ShiftGears)), None)
    if shift is not None and best is not None and best[0] < 0.5:
        return shift
    return best_action


def _choose_destination(view: ChampionsState, seat: int, legal: Sequence[Any]) -> Any:
    head = view.queue[0]
    assert isinstance(head, MoveTask)
    weights = car_weights(view, seat)
    w = weights[head.car]
    occupied = view.occupied(but=head.car)

    def score(action: ChooseDestination) -> tuple[float, float]:
        row = _end_row(action.end)
        # a space that blocks more rivals behind it is a small bonus for our own car
        blocks = 0.0
        if action.end is not None:
            after = occupied | {action.end}
            for car in view.cars:
                if (
                    car.on_track
                    and car.space is not None
                    and car.colour != head.car
                    and car.row == action.end[0] - 1
                    and not can_step(TRACK, car.space, after)
                ):
                    blocks -= weights[car.colour]
        return (w * row + 0.3 * blocks, -row if w < 0 else row)

    return max(legal, key=score)


def _choose_targets(view: ChampionsState, seat: int, legal: Sequence[Any]) -> Any:
    head = view.queue[0]
    card = COMPONENTS.cards[getattr(head, "card", 0)]
    weights = car_weights(view, seat)
    if card.kind in ("SPIN_OUT", "CRASH"):
        return max(
            legal,
            key=lambda a: (
                _leader_bonus(view, weights, a.cars[0])
                - (2.0 if view.cars[a.cars[0]].backwards else 0.0)
            ),
        )

    worth: dict[int, float] = {}  # each car's move value, once (the choices pair them up)

    def value(action: ChooseTargets) -> float:
        total = 0.0
        for c in action.cars:
            if c not in worth:
                worth[c] = _move_value(view, weights, c, card.steps)
            total += worth[c]
        return total

    return max(legal, key=value)


def _choose_last(view: ChampionsState, seat: int, legal: Sequence[Any]) -> Any:
    weights = car_weights(view, seat)
    return max(legal, key=lambda a: _move_value(view, weights, a.car, 7))


def _choose_neighbour(view: ChampionsState, seat: int, legal: Sequence[Any]) -> Any:
    weights = car_weights(view, seat)
    return max(legal, key=lambda a: _leader_bonus(view, weights, a.car))


def promoter_bot(view: ChampionsState, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    """A sensible player: own car forward, rivals held back, sponsors pushed, leaders spun."""
    first = legal[0]
    if len(legal) == 1:
        return first
    if isinstance(first, ChooseCar):
        return legal[chance.below(len(legal))]
    if isinstance(first, ChooseDice):
        return _choose_dice(view, seat, legal)
    if isinstance(first, ChooseDestination):
        return _choose_destination(view, seat, legal)
    if isinstance(first, (TurnForward, LeaveBackwards)):
        head = view.queue[0]
        assert isinstance(head, MoveTask)
        forward = car_weights(view, seat)[head.car] > 0
        return TurnForward() if forward else LeaveBackwards()
    if isinstance(first, ChooseTargets):
        return _choose_targets(view, seat, legal)
    if isinstance(first, ChooseLastCar):
        return _choose_last(view, seat, legal)
    if isinstance(first, ChooseCrashNeighbour):
        return _choose_neighbour(view, seat, legal)
    return first


BOTS = {"random": random_bot, "promoter": promoter_bot}
