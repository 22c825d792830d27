"""NASCAR Champions events in words, for the race log and ``replay --print``.

Owns one readable English sentence per event, the prompt for the decision being asked and a
short label per action (for menus). A redacted event never reveals what it hides: a
Sponsor card dealt to someone else is "a Sponsor card", a hidden deck order is not shown.

Must not: change state or read anything but the event, the seat names and the component data.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

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
    CarTurnedBackwards,
    CarTurnedForward,
    ChampionsState,
    ChooseCar,
    ChooseCrashNeighbour,
    ChooseDestination,
    ChooseDice,
    ChooseLastCar,
    ChooseTargets,
    DeckShuffled,
    DiceChosen,
    DiceRolled,
    DieResolved,
    GameEnded,
    GearsShifted,
    GridPlaced,
    LapCalled,
    LapEnded,
    LapStarted,
    LastCarChosen,
    LastCarTask,
    LeaveBackwards,
    MoneyAwarded,
    MoveTask,
    NeighbourTask,
    RedLineCrossed,
    Roll,
    ShiftGears,
    SponsorDealt,
    SponsorsRevealed,
    TargetTask,
    TurnBackTask,
    TurnForward,
    TurnStarted,
)

__all__ = [
    "action_label",
    "car_name",
    "describe",
    "face_name",
    "money_words",
    "ordinal",
    "prompt",
    "space_name",
    "tiebreak_text",
]

LANES = ("inside", "middle", "outside")


def car_name(colour: int, number: int | None = None) -> str:
    """``Red`` or ``Red #24``."""
    name = COMPONENTS.colour_names[colour].capitalize()
    return name if number is None else f"{name} #{number}"


def face_name(face: int) -> str:
    faces = COMPONENTS.dice.faces
    return "FLAG" if face == len(faces) - 1 else faces[face].upper()


def ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"


def space_name(space: tuple[int, int] | None) -> str:
    if space is None:
        return "the finish line"
    row, lane = space
    lane_name = LANES[lane] if lane < len(LANES) else f"lane {lane}"
    return f"row {row}, {lane_name} lane"


def money_words(amount: int) -> str:
    """Money the one way it is written everywhere: ``$325,000``."""
    return f"${amount:,}"


_money = money_words


def tiebreak_text(ranking: Sequence[int], state: ChampionsState, names: Sequence[str]) -> list[str]:
    """N-TIEBREAK in words, one sentence for each pair of neighbours in ``ranking`` with equal
    money: the player whose car finished nearer first in lap 2 ranks higher."""
    last = state.lap_places[-1] if state.lap_places else ()
    out = []
    for a, b in itertools.pairwise(ranking):
        if state.money[a] != state.money[b]:
            continue
        car_a, car_b = state.seat_car[a], state.seat_car[b]
        if car_a is None or car_b is None or car_a not in last or car_b not in last:
            continue
        out.append(
            f"{_seat(names, a)} and {_seat(names, b)} both have {_money(state.money[a])}: "
            f"{_seat(names, a)} ranks higher, {car_name(car_a)} finished "
            f"{ordinal(last.index(car_a) + 1)} in lap 2 and {car_name(car_b)} "
            f"{ordinal(last.index(car_b) + 1)} (rule N-TIEBREAK)."
        )
    return out


def _seat(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _cars(cars: Sequence[int]) -> str:
    return " then ".join(car_name(c) for c in cars)


def describe(event: Any, names: Sequence[str]) -> str | None:
    """One sentence for ``event`` (``names`` are the seat names)."""
    e = event
    if isinstance(e, CarsSelected):
        cars = ", ".join(car_name(c, n) for c, n in enumerate(e.numbers))
        return f"The race cars are {cars}."
    if isinstance(e, CarOwned):
        return f"{_seat(names, e.seat)} drives the {car_name(e.car)} car."
    if isinstance(e, DeckShuffled):
        deck = "Sponsor" if e.deck == "sponsor" else "Checkered Flag"
        return f"The {deck} deck is shuffled ({e.size} cards)."
    if isinstance(e, SponsorDealt):
        what = "a Sponsor card" if e.colour is None else f"Sponsor: {car_name(e.colour)}"
        why = "as a bonus" if e.reason == "bonus" else "at the red line"
        return f"{_seat(names, e.seat)} draws {what} {why}."
    if isinstance(e, GridPlaced):
        grid = ", ".join(f"{k + 1}. {car_name(c)}" for k, c in enumerate(e.order))
        return f"Lap {e.lap} grid: {grid}."
    if isinstance(e, TurnStarted):
        return f"{_seat(names, e.seat)}'s turn (lap {e.lap})."
    if isinstance(e, DiceRolled):
        dice = ", ".join(f"D{k + 1} {face_name(f)}" for k, f in enumerate(e.faces))
        return f"{_seat(names, e.seat)} rolls {dice}."
    if isinstance(e, GearsShifted):
        return f"{_seat(names, e.seat)} shifts gears and rolls again."
    if isinstance(e, DiceChosen):
        return f"{_seat(names, e.seat)} keeps dice {', '.join(map(str, e.dice))}."
    if isinstance(e, DieResolved):
        return f"Die {e.die}: {face_name(e.face)}."
    if isinstance(e, CarMoved):
        where = space_name(e.end)
        return f"{car_name(e.car)} moves {len(e.path) + (e.end is None)} of {e.steps} to {where}."
    if isinstance(e, CarBlocked):
        why = {
            "finished": "has finished and cannot move",
            "blocked": "is blocked and does not move",
            "no_end": "cannot make its full move and stays put",
        }[e.reason]
        return f"{car_name(e.car)} {why}."
    if isinstance(e, CarTurnedForward):
        return f"{car_name(e.car)} is turned forward."
    if isinstance(e, CarLeftBackwards):
        return f"{car_name(e.car)} is left facing backwards."
    if isinstance(e, CarTurnedBackwards):
        card = COMPONENTS.cards[e.card].name
        return f"{card}: {car_name(e.car)} now faces backwards."
    if isinstance(e, CardDrawn):
        who = _seat(names, e.seat)
        if e.card is None:
            return f"{who} draws a Sponsor card and keeps it face down."
        drawn = COMPONENTS.cards[e.card]
        if e.sponsor:
            return f"{who} draws {drawn.name} and keeps it face down."
        return f"{who} draws {drawn.name}: {drawn.text}"
    if isinstance(e, CardTargetsChosen):
        card = COMPONENTS.cards[e.card].name
        if not e.cars:
            return f"{card} has no car to act on."
        return f"{card}: {_cars(e.cars)}."
    if isinstance(e, LastCarChosen):
        return f"Back Burner: the last car is {car_name(e.car)}."
    if isinstance(e, CardResolved):
        return f"{COMPONENTS.cards[e.card].name} is discarded."
    if isinstance(e, RedLineCrossed):
        return f"{car_name(e.car)} is first across the red line: every player draws a Sponsor."
    if isinstance(e, CarFinished):
        return f"{car_name(e.car)} finishes {ordinal(e.place)}."
    if isinstance(e, LapCalled):
        return (
            f"Lap {e.lap} is called after {e.turns} turns: "
            "the cars still racing finish in track order."
        )
    if isinstance(e, LapEnded):
        return f"Lap {e.lap} is over: {', '.join(car_name(c) for c in e.places)}."
    if isinstance(e, SponsorsRevealed):
        parts = []
        for seat, hand in enumerate(e.hands):
            cards = [
                f"{car_name(h.colour) if h.colour is not None else '?'} ({h.source})" for h in hand
            ]
            parts.append(f"{_seat(names, seat)}: {', '.join(cards) or 'none'}")
        return f"Sponsors revealed. {'; '.join(parts)}."
    if isinstance(e, MoneyAwarded):
        total = e.prize + e.sponsor
        return (
            f"{_seat(names, e.seat)} earns {_money(total)} for lap {e.lap} "
            f"({_money(e.prize)} prize, {_money(e.sponsor)} sponsors)."
        )
    if isinstance(e, LapStarted):
        return f"Lap {e.lap} begins: decks reshuffled, Shift Gears refreshed."
    if isinstance(e, GameEnded):
        if len(e.ranking) == 1:
            return f"The game is over: {_seat(names, e.ranking[0])} banks {_money(e.money[0])}."
        top = e.ranking[0]
        return f"The game is over: {_seat(names, top)} is the NASCAR Champion with {_money(e.money[top])}."
    return None


def prompt(state: ChampionsState) -> str:
    """The decision the active player faces now, in words ("" when nobody is asked)."""
    phase = state.phase
    if phase == "choose_car":
        return "Choose the car you will drive."
    if phase == "roll":
        return "Roll the five dice."
    if phase == "choose_dice":
        if state.shift_gears[state.active] > 0 and not state.shifted:
            return "Choose three dice to play, or shift gears to roll again."
        return "Choose three dice to play."
    if phase != "resolve" or not state.queue:
        return ""
    head = state.queue[0]
    if isinstance(head, MoveTask):
        car = car_name(head.car)
        if state.cars[head.car].backwards:
            return f"{car} faces backwards: turn it forward, or leave it."
        return f"Choose where {car} ends its {head.steps}-space move."
    if isinstance(head, TargetTask):
        card = COMPONENTS.cards[head.card]
        what = "one car" if card.cars == 1 else "two different cars, in order"
        return f"{card.name}: name {what}."
    if isinstance(head, LastCarTask):
        return "Back Burner: choose which of the last cars moves."
    if isinstance(head, NeighbourTask):
        return f"Crash: choose a car next to {car_name(head.car)} to turn backwards."
    return ""


def action_label(action: Any, state: ChampionsState, *, short: bool = False) -> str:
    """A menu label for a legal action, offered in ``state``: the one wording of the screen, the
    replay analysis and tests (screens add key hints only). ``short`` leaves out what the screen
    shows beside it (the moving car, the card).

    >>> from core.champions import GAME
    >>> from core.rng import Pcg32
    >>> state = GAME.new_state(GAME.default_config(), 2)
    >>> for event in GAME.setup(GAME.default_config(), 2, Pcg32(1)):
    ...     state = GAME.evolve(state, event)
    >>> action_label(GAME.legal(state, state.active)[0], state)
    'Drive Black #3 — Dale Earnhardt'
    """
    head = state.queue[0] if state.queue else None

    def car(colour: int) -> str:
        number = state.cars[colour].number if 0 <= colour < len(state.cars) else None
        return car_name(colour, number) if number else COMPONENTS.colour_names[colour]

    with_car = (MoveTask, TurnBackTask, NeighbourTask)
    moving = car(head.car) if isinstance(head, with_car) else "car"
    if isinstance(action, ChooseDestination):
        if action.end is None:
            return "cross the finish line" if short else f"{moving} crosses the finish line"
        row, lane = action.end
        where = f"row {row} {LANES[lane] if lane < len(LANES) else lane}"
        return where if short else f"{moving} to {where} lane"
    if isinstance(action, ChooseTargets):
        cars = ", then ".join(car(c) for c in action.cars)
        if short or not isinstance(head, TargetTask):
            return cars
        return f"{COMPONENTS.cards[head.card].name}: {cars}"
    if isinstance(action, ChooseLastCar):
        return f"Back Burner: {car(action.car)}"
    if isinstance(action, ChooseCrashNeighbour):
        return f"Crash also hits {car(action.car)}"
    if isinstance(action, TurnForward):
        return f"Turn {moving} forward"
    if isinstance(action, LeaveBackwards):
        return f"Leave {moving} backwards"
    if isinstance(action, ChooseCar):
        return f"Drive {car(action.car)} — {state.cars[action.car].driver}"
    if isinstance(action, Roll):
        return "Roll the five dice"
    if isinstance(action, ShiftGears):
        return "Shift Gears: roll all five again"
    if isinstance(action, ChooseDice):
        return f"Keep dice {', '.join(map(str, action.dice))}"
    return type(action).__name__
