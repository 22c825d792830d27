"""NASCAR Champions board: the three-wide oval, the dice, the scoreboard, the choices and the log.

Owns drawing a Champions `BoardData`: the 24-row oval as a loop (front stretch along the bottom,
turns 1-2 up the right, the backstretch along the top, turns 3-4 down the left) with the red line
and the start/finish line marked; every car as its number on its colour (never colour alone),
backwards cars marked ``«``; destinations the player may pick shown as ``[n]`` on the board; the
five dice with number, colour word and FLAG; the scoreboard (cars, money, Sponsor cards — own
colours, others only counts —, Shift Gears left, places); the choices in words; the race log.
Clicking a die posts `ChampionsDieClicked`; clicking a `[n]` space or a car to pick posts that
choice as `ActionChosen` (as does the list); the screen decides.

The modules, each small:
- `words`: the palette and naming cars, money, places, dice faces and cards;
- `choices`: the choices in words and which choice a click on the oval makes;
- `dice`: what the dice show, the die toggles of the choice list, `ChampionsDieClicked`;
- `geometry`: where each (row, lane) of the oval is on screen;
- `canvas`: a grid of styled characters to draw on;
- `oval`: the `OvalTrack` widget (track, cars, infield dice and card);
- `scoreboard`: the `ChampionsScoreboard` players panel;
- `board`: `ChampionsBoard`, which puts them together with the choice list and the race log.

This file only re-exports their public names (the ones other modules import). Must not: hold
game state, change it, or talk to the hub; nor hold code of its own.
"""

from __future__ import annotations

from tui.theme import PICK, RED_LINE
from tui.widgets.champions.board import ChampionsBoard
from tui.widgets.champions.canvas import Canvas
from tui.widgets.champions.choices import (
    TargetFirst,
    candidate_cars,
    clicked_choice,
    destination_keys,
    first_target,
    labelled,
    moving_car,
    option_label,
    target_rows,
)
from tui.widgets.champions.dice import ChampionsDieClicked, DieToggle, dice_rows, dice_view
from tui.widgets.champions.geometry import ROWS, OvalGeometry
from tui.widgets.champions.oval import OvalTrack
from tui.widgets.champions.scoreboard import ChampionsScoreboard
from tui.widgets.champions.words import (
    CAR_STYLE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    DIM,
    FLAG,
    FLAG_DIE,
    LANE_WORDS,
    SHORT,
    car_chip,
    car_style,
    car_words,
    card_of,
    die_words,
    head_task,
    money_words,
    ordinal,
)

__all__ = [
    "CAR_STYLE",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "DIM",
    "FLAG",
    "FLAG_DIE",
    "LANE_WORDS",
    "PICK",
    "RED_LINE",
    "ROWS",
    "SHORT",
    "Canvas",
    "ChampionsBoard",
    "ChampionsDieClicked",
    "ChampionsScoreboard",
    "DieToggle",
    "OvalGeometry",
    "OvalTrack",
    "TargetFirst",
    "candidate_cars",
    "car_chip",
    "car_style",
    "car_words",
    "card_of",
    "clicked_choice",
    "destination_keys",
    "dice_rows",
    "dice_view",
    "die_words",
    "first_target",
    "head_task",
    "labelled",
    "money_words",
    "moving_car",
    "option_label",
    "ordinal",
    "target_rows",
]
