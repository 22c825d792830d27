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

from core.champions.describe import action_label
from core.champions.model import (
    ChampionsState,
    ChooseCrashNeighbour,
    ChooseDestination,
    ChooseLastCar,
    ChooseTargets,
    LeaveBackwards,
    MoveTask,
    Roll,
    ShiftGears,
    TurnBackTask,
    TurnForward,
)
from tui.widgets.board import BoardData
from tui.widgets.champions.words import car_words, head_task

KEY_HINTS: dict[type, str] = {TurnForward: "f", LeaveBackwards: "b", Roll: "r", ShiftGears: "g"}
"""Choices that have a key of their own on the Champions screen (the label says which)."""


def option_label(data: BoardData[ChampionsState], action: Any, *, short: bool = False) -> str:
    """A Champions choice in core's words (`describe.action_label`), with its key if it has one."""
    text = action_label(action, data.state, short=short)
    key = KEY_HINTS.get(type(action))
    return f"{text} ({key})" if key else text


def destination_keys(data: BoardData[ChampionsState]) -> dict[Any, int]:
    """Where each legal destination is (a space, or None = finish) -> its option number."""
    out: dict[Any, int] = {}
    for i, action in enumerate(data.legal):
        if isinstance(action, ChooseDestination):
            out[None if action.end is None else tuple(action.end)] = i + 1
    return out


def candidate_cars(data: BoardData[ChampionsState]) -> set[int]:
    """Cars the player is asked to pick among (card targets, last car, crash neighbour)."""
    cars: set[int] = set()
    for action in data.legal:
        if isinstance(action, ChooseTargets):
            cars.update(action.cars)
        elif isinstance(action, ChooseLastCar | ChooseCrashNeighbour):
            cars.add(action.car)
    return cars


def clicked_choice(data: BoardData[ChampionsState], space: tuple[int, int]) -> Any:
    """The legal choice a click on ``space`` makes: a destination there, or the one-car choice
    of the car standing there (None when the click picks nothing)."""
    cars = data.state.cars
    here = [c.colour for c in cars if c.row is not None and (c.row, c.lane) == space]
    if here and target_rows(data) is not None:
        first = first_target(data)
        if first is None:
            return TargetFirst(here[0])
        for action in data.legal:
            if isinstance(action, ChooseTargets) and tuple(action.cars) == (first, here[0]):
                return action
        return None
    for action in data.legal:
        match action:
            case ChooseDestination(end=end) if end is not None and tuple(end) == space:
                return action
            case ChooseTargets(cars=chosen) if here and tuple(chosen) == (here[0],):
                return action
            case ChooseLastCar(car=car) | ChooseCrashNeighbour(car=car) if here and car == here[0]:
                return action
    return None


def moving_car(data: BoardData[ChampionsState]) -> int | None:
    task = head_task(data.state)
    if isinstance(task, MoveTask | TurnBackTask) and data.pending:
        return task.car
    return None


@dataclass(frozen=True)
class TargetFirst:
    """A row that picks the first car of a two-car card (None: pick it again); UI only."""

    car: int | None


def first_target(data: BoardData[ChampionsState]) -> int | None:
    for item in data.selected:
        if item.startswith("t") and item[1:].isdigit():
            return int(item[1:])
    return None


def target_rows(data: BoardData[ChampionsState]) -> list[tuple[str, Any]] | None:
    """A two-car card is named in two steps: the first car, then the second (None: not one)."""
    pairs = [a for a in data.legal if isinstance(a, ChooseTargets) and len(a.cars) == 2]
    if not pairs:
        return None
    state: ChampionsState = data.state
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


def labelled(data: BoardData[ChampionsState], actions: Sequence[Any]) -> list[str]:
    return [option_label(data, a) for a in actions]
