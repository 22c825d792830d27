"""NASCAR Champions table options (spec §5): one frozen struct, its defaults and its checks.

Owns `ChampionsConfig`, `check_config` (a bad combination refused with one sentence) and
`money_table` (the table's prize money: its own, or the data's). Must not: know how a turn is
played.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from core.champions.data import COMPONENTS, Money, validate_money
from core.game import ConfigError, DataError

__all__ = ["LAPS", "N_CARS", "ChampionsConfig", "check_config", "money_table"]

N_CARS = len(COMPONENTS.colour_names)
LAPS = len(COMPONENTS.money.race_prize)
"""Laps in a race: one row of race prize money per lap (`data/money.json`; the spec's two)."""


class ChampionsConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table options (spec §5), with the recommended defaults."""

    black_car: int = 3
    blue_car: int = 31
    car_assignment: Literal["choose", "random"] = "choose"
    partial_moves: bool = True
    dead_end_steering: bool = True
    turn_forward_optional: bool = True
    crash_hits_neighbour: bool = True
    two_player_sponsor: bool = True
    bonus_sponsor_again_lap2: bool = True
    first_sponsor_drawer: Literal["car_owner", "active_player"] = "car_owner"
    shift_gears_per_lap: int = 1
    lap_turn_limit: int = 100
    """N-LAP-LIMIT: turns after which a lap is called (0 = no limit)."""
    money: Money | None = None


def money_table(config: ChampionsConfig) -> Money:
    return config.money if config.money is not None else COMPONENTS.money


def check_config(config: ChampionsConfig, n_seats: int) -> None:
    """Refuse options the rules cannot play, with one sentence."""
    black, blue = COMPONENTS.numbers_for(0), COMPONENTS.numbers_for(1)
    if config.black_car not in black:
        raise ConfigError(f"The black car must be one of {', '.join(map(str, black))}.")
    if config.blue_car not in blue:
        raise ConfigError(f"The blue car must be one of {', '.join(map(str, blue))}.")
    if config.shift_gears_per_lap < 0:
        raise ConfigError("Shift Gears uses per lap cannot be negative.")
    if config.lap_turn_limit < 0:
        raise ConfigError("The lap turn limit cannot be negative (0 means no limit).")
    if not 1 <= n_seats <= N_CARS:
        raise ConfigError(f"NASCAR Champions seats 1 to {N_CARS} players, not {n_seats}.")
    if config.money is not None:
        try:
            validate_money(config.money, laps=LAPS)
        except DataError as err:
            raise ConfigError(str(err)) from None
