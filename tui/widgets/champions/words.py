"""NASCAR Champions in words and colours: cars, money, places, dice faces, cards.

Owns the Champions names of the theme's styles (`tui.theme`: a style per car colour, in the
colour-blind-safe palette when the player's setting asks, the FLAG die, the pick highlight, the
red line; dim text) and the small helpers that name things: a car as ``Red #24`` or as a chip with its number on
its colour (never colour alone), money, a place, a die face, a card by id, the task at the head of
the queue. Must not: draw a widget, post a message, or hold or change game state.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from core.champions.model import ChampionsState
from tui.theme import CHAMPIONS_CAR_STYLES, CHAMPIONS_FLAG_DIE, champions_car_styles

COLOUR_NAMES = ("black", "blue", "red", "green", "yellow")
COLOUR_LETTERS = ("K", "B", "R", "G", "Y")
SHORT = ("BLK", "BLU", "RED", "GRN", "YEL")
FLAG = 5
CAR_STYLE = CHAMPIONS_CAR_STYLES
FLAG_DIE = CHAMPIONS_FLAG_DIE
DIM = Style(dim=True)
LANE_WORDS = ("inside", "middle", "outside")


def car_style(colour: int, colour_blind: bool = False) -> Style:
    """A car colour's style: the theme's palette, its colour-blind-safe one when asked."""
    styles = champions_car_styles(colour_blind)
    return styles[colour % len(styles)]


def car_words(state: ChampionsState, colour: int) -> str:
    """``Red #24``: colour word and number."""
    number = _number(state, colour)
    return f"{COLOUR_NAMES[colour].capitalize()} #{number}" if number else COLOUR_NAMES[colour]


def _number(state: ChampionsState, colour: int) -> int | None:
    cars = state.cars
    return int(cars[colour].number) if 0 <= colour < len(cars) else None


def car_chip(
    state: ChampionsState, colour: int, *, letter: bool = False, colour_blind: bool = False
) -> Text:
    """A car as its number on its colour, ``24R`` with ``letter`` (colour is never alone)."""
    number = _number(state, colour)
    label = f"{number}" if number is not None else "?"
    if letter:
        label += COLOUR_LETTERS[colour]
    return Text(label, style=car_style(colour, colour_blind))


def money_words(amount: int) -> str:
    """Money as core writes it, everywhere: ``$325,000`` (never ``$325k``)."""
    from core.champions.describe import money_words as words

    return words(amount)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def die_words(face: int, *, short: bool) -> str:
    if face == FLAG:
        return "FLAG"
    return SHORT[face] if short else COLOUR_NAMES[face].upper()


def card_of(card_id: int | None) -> Any:
    if card_id is None:
        return None
    from core.champions.data import COMPONENTS

    return COMPONENTS.cards[card_id]


def head_task(state: ChampionsState) -> Any:
    queue = state.queue
    return queue[0] if queue else None
