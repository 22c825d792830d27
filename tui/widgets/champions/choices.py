"""NASCAR Champions choices in words, and which choice a click on the oval makes.

Owns labelling the legal actions (destinations, card targets, cars, turning), the option number
each destination shows on the board, the cars the player is asked to pick among, the car that is
moving, naming a two-car card in two steps (`TargetFirst` rows, UI only) and turning a clicked
space into a legal choice. Must not: draw, post messages, or hold or change game state; the screen
decides what a choice does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tui.fold import action_label
from tui.widgets.board import BoardData
from tui.widgets.champions.words import LANE_WORDS, car_words, card_of, head_task
from tui.widgets.common import tag_of


def option_label(data: BoardData, action: Any, *, short: bool = False) -> str:
    """A Champions choice in words (destinations, targets, cars, turning)."""
    state = data.state
    tag = tag_of(action)
    task = head_task(state)
    if tag == "choose_destination":
        car = car_words(state, task.car) if task is not None and hasattr(task, "car") else "car"
        if action.end is None:
            return "cross the finish line" if short else f"{car} crosses the finish line"
        row, lane = action.end
        where = f"row {row} {LANE_WORDS[lane] if lane < 3 else lane}"
        return where if short else f"{car} to {where} lane"
    if tag == "choose_card_targets":
        cars = ", then ".join(car_words(state, c) for c in action.cars)
        card = card_of(getattr(task, "card", None))
        return cars if short or card is None else f"{card.name}: {cars}"
    if tag == "choose_last_car":
        return f"Back Burner: {car_words(state, action.car)}"
    if tag == "choose_crash_neighbour":
        return f"Crash also hits {car_words(state, action.car)}"
    if tag == "turn_forward":
        car = car_words(state, task.car) if task is not None and hasattr(task, "car") else "car"
        return f"Turn {car} forward (f)"
    if tag == "leave_backwards":
        car = car_words(state, task.car) if task is not None and hasattr(task, "car") else "car"
        return f"Leave {car} backwards (b)"
    if tag == "choose_car":
        return f"Drive {car_words(state, action.car)} — {state.cars[action.car].driver}"
    if tag == "roll":
        return "Roll the five dice (r)"
    if tag == "shift_gears":
        return "Shift Gears: roll all five again (g)"
    if tag == "choose_dice":
        return "Keep dice " + ", ".join(str(d) for d in action.dice)
    return action_label(data.game, action, data.names)


def destination_keys(data: BoardData) -> dict[Any, int]:
    """Where each legal destination is (a space, or None = finish) -> its option number."""
    out: dict[Any, int] = {}
    for i, action in enumerate(data.legal):
        if tag_of(action) == "choose_destination":
            out[None if action.end is None else tuple(action.end)] = i + 1
    return out


def candidate_cars(data: BoardData) -> set[int]:
    """Cars the player is asked to pick among (card targets, last car, crash neighbour)."""
    cars: set[int] = set()
    for action in data.legal:
        tag = tag_of(action)
        if tag == "choose_card_targets":
            cars.update(action.cars)
        elif tag in ("choose_last_car", "choose_crash_neighbour"):
            cars.add(action.car)
    return cars


def clicked_choice(data: BoardData, space: tuple[int, int]) -> Any:
    """The legal choice a click on ``space`` makes: a destination there, or the one-car choice
    of the car standing there (None when the click picks nothing)."""
    cars = getattr(data.state, "cars", ())
    here = [c.colour for c in cars if c.row is not None and (c.row, c.lane) == space]
    if here and target_rows(data) is not None:
        first = first_target(data)
        if first is None:
            return TargetFirst(here[0])
        for action in data.legal:
            if tag_of(action) == "choose_card_targets" and tuple(action.cars) == (first, here[0]):
                return action
        return None
    for action in data.legal:
        tag = tag_of(action)
        if tag == "choose_destination" and action.end is not None and tuple(action.end) == space:
            return action
        if here and tag == "choose_card_targets" and tuple(action.cars) == (here[0],):
            return action
        if here and tag in ("choose_last_car", "choose_crash_neighbour") and action.car == here[0]:
            return action
    return None


def moving_car(data: BoardData) -> int | None:
    task = head_task(data.state)
    if task is not None and tag_of(task) in ("move", "turn_back") and data.pending:
        return int(task.car)
    return None


@dataclass(frozen=True)
class TargetFirst:
    """A row that picks the first car of a two-car card (None: pick it again); UI only."""

    car: int | None


def first_target(data: BoardData) -> int | None:
    for item in data.selected:
        if item.startswith("t") and item[1:].isdigit():
            return int(item[1:])
    return None


def target_rows(data: BoardData) -> list[tuple[str, Any]] | None:
    """A two-car card is named in two steps: the first car, then the second (None: not one)."""
    pairs = [a for a in data.legal if tag_of(a) == "choose_card_targets" and len(a.cars) == 2]
    if not pairs:
        return None
    state = data.state
    first = first_target(data)
    if first is None or not any(a.cars[0] == first for a in pairs):
        firsts: list[int] = []
        for action in pairs:
            if action.cars[0] not in firsts:
                firsts.append(action.cars[0])
        return [(f"{car_words(state, c)} first", TargetFirst(c)) for c in firsts]
    rows: list[tuple[str, Any]] = [
        (f"{car_words(state, first)}, then {car_words(state, a.cars[1])}", a)
        for a in pairs
        if a.cars[0] == first
    ]
    rows.append(("Back: pick another first car", TargetFirst(None)))
    return rows


def labelled(data: BoardData, actions: Sequence[Any]) -> list[str]:
    return [option_label(data, a) for a in actions]
