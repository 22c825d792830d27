"""NASCAR Champions components as data: roster, dice, track, money and the two card decks.

Owns decoding the JSON files in ``core/champions/data/`` into frozen msgspec structs and
validating them at load (one readable sentence per problem, ``DataError``). Every table carries
its FACT/PROPOSED tag (spec §1). Rule code reads ``COMPONENTS``; it never restates a face, a card
or an amount.

Must not: know any rule beyond the shape of the data, do I/O other than reading its own files.

>>> COMPONENTS.colour_names
('black', 'blue', 'red', 'green', 'yellow')
>>> [c.code for c in COMPONENTS.cards[:6]][-1], len(COMPONENTS.cards)
('BACK_BURNER', 25)
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, TypeVar

import msgspec

from core.game import DataError

__all__ = [
    "COMPONENTS",
    "CarDef",
    "Card",
    "Components",
    "DataError",
    "Money",
    "Track",
    "card_by_code",
    "load_components",
    "validate_money",
]

T = TypeVar("T")
MAX_COPIES = 50  # copies of one Checkered Flag card: the real deck has at most 4 (a data file
# saying 10**12 would otherwise build that many cards before any other check)
Tag = Literal["FACT", "PROPOSED", "RULING"]
CardKind = Literal["SPONSOR", "BACK_BURNER", "MOVE", "SPIN_OUT", "CRASH"]


class ColourDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: int
    name: str
    letter: str
    tag: Tag


class CarDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    driver: str
    colour: str
    number: int
    tag: Tag


class Roster(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tag: Tag
    colours: tuple[ColourDef, ...]
    cars: tuple[CarDef, ...]


class Dice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tag: Tag
    dice: tuple[int, ...]
    faces: tuple[str, ...]


class Section(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    first: int
    last: int


class Track(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tag: Tag
    lanes: tuple[int, ...]
    lanes_tag: Tag
    sections: tuple[Section, ...]
    red_line_row: int
    grid: tuple[tuple[int, int], ...]

    @property
    def rows(self) -> int:
        return len(self.lanes)

    def section(self, row: int) -> str:
        for sec in self.sections:
            if sec.first <= row <= sec.last:
                return sec.name
        return "track"


class Money(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Prize money: race prize per lap and place, and what Sponsor cards pay per place."""

    tag: Tag = "PROPOSED"
    race_prize: tuple[tuple[int, ...], ...] = ()
    base_sponsor: tuple[int, ...] = ()
    deck_sponsor: tuple[int, ...] = ()


class CardEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    code: str
    kind: CardKind
    name: str
    count: int
    tag: Tag
    text: str
    colour: str | None = None
    cars: int = 0
    steps: int = 0


class SponsorDeckDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    colours: tuple[str, ...]
    tag: Tag


class CardsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    sponsor_deck: SponsorDeckDef
    checkered_flag: tuple[CardEntry, ...]


class Card(msgspec.Struct, frozen=True):
    """One Checkered Flag card (ids in canonical order; a name and effect text for display)."""

    id: int
    code: str
    kind: CardKind
    name: str
    text: str
    tag: Tag
    colour: int | None = None
    cars: int = 0
    steps: int = 0


class Components(msgspec.Struct, frozen=True):
    roster: Roster
    dice: Dice
    track: Track
    money: Money
    cards: tuple[Card, ...]
    sponsor_colours: tuple[int, ...]

    @property
    def colour_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.roster.colours)

    @property
    def colour_letters(self) -> tuple[str, ...]:
        return tuple(c.letter for c in self.roster.colours)

    def car_def(self, colour: int, number: int) -> CarDef:
        name = self.colour_names[colour]
        for car in self.roster.cars:
            if car.colour == name and car.number == number:
                return car
        raise DataError(f"There is no {name} car number {number} in the roster.")

    def numbers_for(self, colour: int) -> tuple[int, ...]:
        name = self.colour_names[colour]
        return tuple(c.number for c in self.roster.cars if c.colour == name)


def _read(name: str) -> bytes:
    # (not importlib.resources: it imports tempfile, hence random, into core)
    return (Path(__file__).parent / "data" / name).read_bytes()


def _decode(name: str, data: bytes, kind: type[T]) -> T:
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError as err:
        raise DataError(f"The component file {name} is not valid: {err}.") from None
    except msgspec.DecodeError as err:
        raise DataError(f"The component file {name} is not JSON: {err}.") from None


def validate_money(money: Money, places: int = 5, laps: int = 2) -> None:
    """Refuse a money table that does not pay every place of every lap (or pays negative)."""
    if len(money.race_prize) != laps or any(len(row) != places for row in money.race_prize):
        raise DataError(f"The race prize table needs {laps} laps of {places} places each.")
    for row in (*money.race_prize, money.base_sponsor, money.deck_sponsor):
        if any(amount < 0 for amount in row):
            raise DataError("Prize money cannot be negative.")
    if len(money.base_sponsor) > places or len(money.deck_sponsor) > places:
        raise DataError(f"Sponsor cards can pay at most {places} places.")


def _validate(roster: Roster, dice: Dice, track: Track, cards_file: CardsFile) -> None:
    names = [c.name for c in roster.colours]
    if [c.id for c in roster.colours] != list(range(len(names))) or len(set(names)) != len(names):
        raise DataError("Colours must have ids 0, 1, 2, … in order and distinct names.")
    if len(names) != 5:
        raise DataError("Exactly five colours race in NASCAR Champions.")
    for car in roster.cars:
        if car.colour not in names:
            raise DataError(f"Car #{car.number} has unknown colour {car.colour!r}.")
    for name in names:
        if not any(c.colour == name for c in roster.cars):
            raise DataError(f"No car in the roster is {name}.")
    numbers = [c.number for c in roster.cars]
    if len(set(numbers)) != len(numbers):
        raise DataError("Car numbers must be distinct.")
    if list(dice.dice) != list(range(1, len(dice.dice) + 1)) or len(dice.dice) != 5:
        raise DataError("The dice must be numbered 1 to 5.")
    if list(dice.faces) != [*names, "flag"]:
        raise DataError("Die faces must be the five colours in colour order, then the flag.")
    if len(track.lanes) < 2 or any(n < 1 for n in track.lanes):
        raise DataError("The track needs at least two rows, each with at least one lane.")
    if not 0 < track.red_line_row < len(track.lanes):
        raise DataError("The red line must be on a row of the track after row 0.")
    if len(track.grid) != 5 or len(set(track.grid)) != 5:
        raise DataError("The start grid needs five different spaces.")
    for row, lane in track.grid:
        if not (0 <= row < len(track.lanes) and 0 <= lane < track.lanes[row]):
            raise DataError(f"Grid space ({row}, {lane}) is not on the track.")
    if sorted(cards_file.sponsor_deck.colours) != sorted(names):
        raise DataError("The Sponsor deck needs exactly one card per colour.")
    for entry in cards_file.checkered_flag:
        if entry.count < 1:
            raise DataError(f"Card {entry.code} must appear at least once.")
        if entry.count > MAX_COPIES:
            raise DataError(f"Card {entry.code} appears {entry.count} times; at most {MAX_COPIES}.")
        if entry.kind == "SPONSOR":
            if entry.colour not in names or entry.count != 1:
                raise DataError(f"Sponsor card {entry.code} needs one colour and count 1.")
        elif entry.kind in ("MOVE", "BACK_BURNER"):
            if not (1 <= entry.cars <= 2 and entry.steps >= 1):
                raise DataError(f"Card {entry.code} must move 1 or 2 cars at least 1 space.")
        elif entry.cars != 1:
            raise DataError(f"Card {entry.code} names exactly one car.")


def _expand(cards_file: CardsFile, names: list[str]) -> tuple[Card, ...]:
    cards: list[Card] = []
    for entry in cards_file.checkered_flag:
        for _ in range(entry.count):
            cards.append(
                Card(
                    id=len(cards),
                    code=entry.code,
                    kind=entry.kind,
                    name=entry.name,
                    text=entry.text,
                    tag=entry.tag,
                    colour=None if entry.colour is None else names.index(entry.colour),
                    cars=entry.cars,
                    steps=entry.steps,
                )
            )
    sponsor_ids = [c.colour for c in cards if c.kind == "SPONSOR"]
    if sponsor_ids != list(range(len(names))):
        raise DataError("Checkered Flag Sponsor cards must come first, one per colour in order.")
    return tuple(cards)


def load_components() -> Components:
    """Decode and validate every component file."""
    roster = _decode("roster.json", _read("roster.json"), Roster)
    dice = _decode("dice.json", _read("dice.json"), Dice)
    track = _decode("track.json", _read("track.json"), Track)
    money = _decode("money.json", _read("money.json"), Money)
    cards_file = _decode("cards.json", _read("cards.json"), CardsFile)
    _validate(roster, dice, track, cards_file)
    validate_money(money)
    names = [c.name for c in roster.colours]
    return Components(
        roster=roster,
        dice=dice,
        track=track,
        money=money,
        cards=_expand(cards_file, names),
        sponsor_colours=tuple(sorted(names.index(c) for c in cards_file.sponsor_deck.colours)),
    )


COMPONENTS = load_components()


def card_by_code(code: str) -> list[int]:
    """Ids of every Checkered Flag card with this code (ascending)."""
    return [c.id for c in COMPONENTS.cards if c.code == code]
