"""NASCAR Champions types: options, state, pending tasks, actions and events.

Owns the frozen msgspec structs every other module speaks: ``ChampionsConfig`` (spec §5),
``ChampionsState`` (plain and readable: car positions, facing, places, money per seat, Sponsor
cards held, Shift Gears left, current and chosen dice, deck and discard counts, the queue of
things still to resolve this turn), the tagged ``Action`` and ``Event`` unions.

Must not: hold rule logic (see ``rules``, ``fold``) or draw chance.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from core.champions.config import ChampionsConfig

__all__ = [
    "Action",
    "CarState",
    "ChampionsState",
    "Event",
    "HeldSponsor",
    "Task",
]

Space = tuple[int, int]


# --------------------------------------------------------------------------- state


class CarState(msgspec.Struct, frozen=True, kw_only=True):
    """One raced car. ``row``/``lane`` are None off the track (before the grid, or finished)."""

    colour: int
    number: int
    driver: str
    row: int | None = None
    lane: int | None = None
    backwards: bool = False
    place: int | None = None

    @property
    def space(self) -> Space | None:
        if self.row is None or self.lane is None:
            return None
        return (self.row, self.lane)

    @property
    def on_track(self) -> bool:
        return self.row is not None and self.place is None


class HeldSponsor(msgspec.Struct, frozen=True, kw_only=True):
    """A Sponsor card in a player's hand; ``colour`` None = hidden from this viewer."""

    source: Literal["base", "deck"]
    colour: int | None


# Tasks: what is still to resolve in the current turn, head first (public).


class DieTask(msgspec.Struct, frozen=True, tag="die"):
    die: int


class MoveTask(msgspec.Struct, frozen=True, tag="move"):
    car: int
    steps: int
    card: int | None = None


class DrawTask(msgspec.Struct, frozen=True, tag="draw"):
    die: int


class TargetTask(msgspec.Struct, frozen=True, tag="targets"):
    card: int


class LastCarTask(msgspec.Struct, frozen=True, tag="last_car"):
    card: int


class TurnBackTask(msgspec.Struct, frozen=True, tag="turn_back"):
    car: int
    card: int


class NeighbourTask(msgspec.Struct, frozen=True, tag="neighbour"):
    car: int
    card: int


class EndCardTask(msgspec.Struct, frozen=True, tag="end_card"):
    card: int


Task = (
    DieTask
    | MoveTask
    | DrawTask
    | TargetTask
    | LastCarTask
    | TurnBackTask
    | NeighbourTask
    | EndCardTask
)

Phase = Literal["setup", "choose_car", "roll", "choose_dice", "resolve", "lap_over", "over"]


class ChampionsState(msgspec.Struct, frozen=True, kw_only=True):
    """The whole table. Hidden parts (deck orders, others' Sponsor colours) are None in views."""

    config: ChampionsConfig
    n_seats: int
    phase: Phase = "setup"
    lap: int = 1
    active: int = 0
    cars: tuple[CarState, ...] = ()
    seat_car: tuple[int | None, ...] = ()
    shift_gears: tuple[int, ...] = ()
    money: tuple[int, ...] = ()
    lap_money: tuple[tuple[int, ...], ...] = ()
    sponsors: tuple[tuple[HeldSponsor, ...], ...] = ()
    sponsors_revealed: bool = False
    sponsor_deck: tuple[int, ...] | None = None
    sponsor_count: int = 0
    flag_deck: tuple[int, ...] | None = None
    flag_count: int = 0
    flag_discard: tuple[int, ...] = ()
    card_in_play: int | None = None
    grid: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    chosen: tuple[int, ...] = ()
    shifted: bool = False
    queue: tuple[Task, ...] = ()
    red_line_crossed: bool = False
    places: tuple[int, ...] = ()
    lap_places: tuple[tuple[int, ...], ...] = ()
    turn: int = 0
    """Turns started in this lap."""

    def owner(self, colour: int) -> int | None:
        for seat, car in enumerate(self.seat_car):
            if car == colour:
                return seat
        return None

    def occupied(self, but: int | None = None) -> frozenset[Space]:
        """The spaces of the cars on the track (all but ``but``)."""
        return frozenset(
            [
                (c.row, c.lane)
                for c in self.cars
                if c.row is not None and c.lane is not None and c.place is None and c.colour != but
            ]
        )


# --------------------------------------------------------------------------- actions


class ChooseCar(msgspec.Struct, frozen=True, tag="choose_car"):
    car: int


class Roll(msgspec.Struct, frozen=True, tag="roll"):
    pass


class ShiftGears(msgspec.Struct, frozen=True, tag="shift_gears"):
    pass


class ChooseDice(msgspec.Struct, frozen=True, tag="choose_dice"):
    dice: tuple[int, ...]


class ChooseDestination(msgspec.Struct, frozen=True, tag="choose_destination"):
    """``end`` is a space (row, lane), or None for the finish line."""

    end: Space | None


class TurnForward(msgspec.Struct, frozen=True, tag="turn_forward"):
    pass


class LeaveBackwards(msgspec.Struct, frozen=True, tag="leave_backwards"):
    pass


class ChooseTargets(msgspec.Struct, frozen=True, tag="choose_card_targets"):
    cars: tuple[int, ...]


class ChooseLastCar(msgspec.Struct, frozen=True, tag="choose_last_car"):
    car: int


class ChooseCrashNeighbour(msgspec.Struct, frozen=True, tag="choose_crash_neighbour"):
    car: int


Action = (
    ChooseCar
    | Roll
    | ShiftGears
    | ChooseDice
    | ChooseDestination
    | TurnForward
    | LeaveBackwards
    | ChooseTargets
    | ChooseLastCar
    | ChooseCrashNeighbour
)


# --------------------------------------------------------------------------- events


class CarsSelected(msgspec.Struct, frozen=True, tag="cars_selected"):
    numbers: tuple[int, ...]


class CarOwned(msgspec.Struct, frozen=True, tag="car_owned"):
    seat: int
    car: int


class DeckShuffled(msgspec.Struct, frozen=True, tag="deck_shuffled"):
    """``order`` (top first) is None for every seat and spectator."""

    deck: Literal["sponsor", "flag"]
    size: int
    order: tuple[int, ...] | None = None


class SponsorDealt(msgspec.Struct, frozen=True, tag="sponsor_dealt"):
    """A card from the Sponsor deck; ``colour`` is None for everyone but the holder."""

    seat: int
    colour: int | None
    reason: Literal["bonus", "red_line"]


class GridPlaced(msgspec.Struct, frozen=True, tag="grid_placed"):
    lap: int
    order: tuple[int, ...]


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    seat: int
    lap: int


class DiceRolled(msgspec.Struct, frozen=True, tag="dice_rolled"):
    seat: int
    faces: tuple[int, ...]


class GearsShifted(msgspec.Struct, frozen=True, tag="gears_shifted"):
    seat: int


class DiceChosen(msgspec.Struct, frozen=True, tag="dice_chosen"):
    seat: int
    dice: tuple[int, ...]


class DieResolved(msgspec.Struct, frozen=True, tag="die_resolved"):
    die: int
    face: int


class CarMoved(msgspec.Struct, frozen=True, tag="car_moved"):
    """``path`` lists the spaces entered; ``end`` None = the car crossed the finish line."""

    car: int
    start: Space
    path: tuple[Space, ...]
    end: Space | None
    steps: int


class CarBlocked(msgspec.Struct, frozen=True, tag="car_blocked"):
    car: int
    reason: Literal["blocked", "finished", "no_end"]


class CarTurnedForward(msgspec.Struct, frozen=True, tag="car_turned_forward"):
    car: int


class CarLeftBackwards(msgspec.Struct, frozen=True, tag="car_left_backwards"):
    car: int


class CarTurnedBackwards(msgspec.Struct, frozen=True, tag="car_turned_backwards"):
    car: int
    card: int


class CardDrawn(msgspec.Struct, frozen=True, tag="card_drawn"):
    """A Checkered Flag card; a Sponsor card shows as ``sponsor=True, card=None`` to others."""

    seat: int
    card: int | None
    sponsor: bool


class CardTargetsChosen(msgspec.Struct, frozen=True, tag="card_targets_chosen"):
    card: int
    cars: tuple[int, ...]


class LastCarChosen(msgspec.Struct, frozen=True, tag="last_car_chosen"):
    card: int
    car: int


class CardResolved(msgspec.Struct, frozen=True, tag="card_resolved"):
    card: int


class RedLineCrossed(msgspec.Struct, frozen=True, tag="red_line_crossed"):
    car: int


class CarFinished(msgspec.Struct, frozen=True, tag="car_finished"):
    car: int
    place: int


class LapCalled(msgspec.Struct, frozen=True, tag="lap_called"):
    """N-LAP-LIMIT: the lap reached its turn limit; the cars on the track finish in track order."""

    lap: int
    turns: int


class LapEnded(msgspec.Struct, frozen=True, tag="lap_ended"):
    lap: int
    places: tuple[int, ...]


class SponsorsRevealed(msgspec.Struct, frozen=True, tag="sponsors_revealed"):
    hands: tuple[tuple[HeldSponsor, ...], ...]


class MoneyAwarded(msgspec.Struct, frozen=True, tag="money_awarded"):
    seat: int
    lap: int
    prize: int
    sponsor: int


class LapStarted(msgspec.Struct, frozen=True, tag="lap_started"):
    lap: int


class GameEnded(msgspec.Struct, frozen=True, tag="game_ended"):
    ranking: tuple[int, ...]
    money: tuple[int, ...]


Event = (
    CarsSelected
    | CarOwned
    | DeckShuffled
    | SponsorDealt
    | GridPlaced
    | TurnStarted
    | DiceRolled
    | GearsShifted
    | DiceChosen
    | DieResolved
    | CarMoved
    | CarBlocked
    | CarTurnedForward
    | CarLeftBackwards
    | CarTurnedBackwards
    | CardDrawn
    | CardTargetsChosen
    | LastCarChosen
    | CardResolved
    | RedLineCrossed
    | CarFinished
    | LapCalled
    | LapEnded
    | SponsorsRevealed
    | MoneyAwarded
    | LapStarted
    | GameEnded
)
