"""Go 500 table options (rules/go500.md §5): one frozen struct, its defaults and its checks.

Owns the option names (they are the spec's names, so `-o key=value` and `speedway sim go500
--mode X --length N --hours H` map straight onto them) and `check`, which refuses a bad
combination with one sentence. Must not: know how a turn is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from core.game import ConfigError
from core.go500.data import (
    CUP_POINTS,
    DEFAULT_SCHEDULE,
    DICE,
    RACE_LENGTHS,
    DataError,
    check_schedule,
)

__all__ = ["MODE_SEATS", "Go500Config", "Mode", "check", "uses_auto_stop"]

Mode = Literal["oval", "time_trial", "multi_game", "cup"]

MODE_SEATS: dict[str, tuple[int, int]] = {
    "oval": (2, 6),
    "cup": (2, 6),
    "multi_game": (2, 12),
    "time_trial": (1, 12),
}
"""Seats per mode (spec §2.1; the caps above 6 are PROPOSED)."""

MODE_TITLES: dict[str, str] = {
    "oval": "Oval race",
    "cup": "Cup Series",
    "multi_game": "Multi-Game race",
    "time_trial": "Time Trial",
}


class Go500Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every option of spec §5 with its default.

    ``auto_stop = None`` means the mode's default: on, except off in Multi-Game (and never used
    in Time Trials).
    """

    mode: Mode = "oval"
    race_length: Literal[400, 500, 600] = 500
    hours: int = 6
    auto_stop: bool | None = None
    finish_check: Literal["before_track_event", "after_track_event"] = "before_track_event"
    final_round: bool = True
    big_x_in_big_one: Literal["out", "minus_50"] = "out"
    tradin_paint: bool = False
    table_chaos: bool = False
    lost_wheel_bp: int = 100
    rubbin_bp: int = 100
    debris_bp: int = 100
    cup_points: str = "winston_1975"
    lead_bonus: int = CUP_POINTS.lead_bonus.led_one_round
    most_led_bonus: int = CUP_POINTS.lead_bonus.led_most_rounds
    schedule: tuple[tuple[str, int], ...] = DEFAULT_SCHEDULE
    circle_values: tuple[int, int] = (DICE.circle_values.track, DICE.circle_values.power)


def uses_auto_stop(config: Go500Config) -> bool:
    """G-AUTO-STOP applies: the option, or the mode's default; never in Time Trials."""
    if config.mode == "time_trial":
        return False
    if config.auto_stop is None:
        return config.mode != "multi_game"
    return config.auto_stop


def check(config: Go500Config, n_seats: int) -> None:
    """Refuse a configuration that cannot seat ``n_seats`` drivers, with one sentence."""
    low, high = MODE_SEATS[config.mode]
    if not low <= n_seats <= high:
        raise ConfigError(
            f"A Go 500 {MODE_TITLES[config.mode]} seats {low} to {high} drivers, not {n_seats}."
        )
    if config.race_length not in RACE_LENGTHS:
        raise ConfigError("A Go 500 race is 400, 500 or 600 miles long.")
    if not 1 <= config.hours <= 50:
        raise ConfigError(f"A Time Trial lasts 1 to 50 hours, not {config.hours}.")
    chances = (config.lost_wheel_bp, config.rubbin_bp, config.debris_bp)
    if any(not 0 <= bp <= 10000 for bp in chances):
        raise ConfigError("Table chaos chances are basis points from 0 to 10000.")
    if sum(chances) > 10000:
        raise ConfigError(
            f"Table chaos chances add up to {sum(chances)} basis points; at most 10000 allowed."
        )
    if config.cup_points not in CUP_POINTS.by_name:
        known = ", ".join(sorted(CUP_POINTS.by_name))
        raise ConfigError(f"There is no Cup points table {config.cup_points!r}; use {known}.")
    if config.lead_bonus < 0 or config.most_led_bonus < 0:
        raise ConfigError("Lead bonuses cannot be negative.")
    try:
        check_schedule(config.schedule)
    except DataError as err:
        raise ConfigError(str(err)) from None
    track, power = config.circle_values
    if track < 0 or power < 0:
        raise ConfigError("Circle faces cannot be worth negative miles.")


_MODES_USING: dict[str, tuple[str, ...]] = {
    "hours": ("time_trial",),
    "race_length": ("oval", "multi_game"),  # a Cup race's length comes from its schedule
    "auto_stop": ("oval", "multi_game", "cup"),
    "finish_check": ("oval", "multi_game", "cup"),
    "final_round": ("oval", "cup"),
    "cup_points": ("cup",),
    "lead_bonus": ("cup",),
    "most_led_bonus": ("cup",),
    "schedule": ("cup",),
}
_CHAOS_CHANCES = ("lost_wheel_bp", "rubbin_bp", "debris_bp")


def option_applies(name: str, options: Mapping[str, Any]) -> bool:
    """Whether option ``name`` changes anything with the other ``options`` as chosen (§4, §5):
    e.g. ``hours`` only in Time Trials, the chaos chances only with ``table_chaos``."""
    mode = options.get("mode", "oval")
    if name in _MODES_USING:
        return mode in _MODES_USING[name]
    if name in _CHAOS_CHANCES:
        return bool(options.get("table_chaos", False))
    return True
