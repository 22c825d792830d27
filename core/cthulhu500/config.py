"""Cthulhu 500 table options (spec §5): one frozen struct, its defaults and its checks.

Owns `Config` and `check_config` (options the rules cannot play, refused with one sentence).
Must not: know how a turn is played.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from core.game import ConfigError

__all__ = ["MAX_SEATS", "MIN_SEATS", "Config", "check_config"]

MIN_SEATS = 2
MAX_SEATS = 8


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table options (spec §5), with their defaults."""

    vehicle_assignment: Literal["random", "choose"] = "random"
    hand_limit: int = 5
    actions_per_turn: int = 2
    draw_per_turn: int = 2
    may_draw_fewer: bool = False
    free_test_may_decline: bool = True
    seam_damage_moves: Literal["blocked", "circle"] = "blocked"
    equipment_cap: int | None = 4
    reaction_prompt: Literal["holders", "everyone"] = "holders"
    exact_pile_counts: bool = False
    promo_flag: bool = False
    round_limit: int | None = None


def check_config(config: Config, n_seats: int) -> None:
    """Refuse options the rules cannot play, with one sentence."""
    if not MIN_SEATS <= n_seats <= MAX_SEATS:
        raise ConfigError(f"Cthulhu 500 seats {MIN_SEATS} to {MAX_SEATS} players, not {n_seats}.")
    if config.hand_limit < 0 or config.draw_per_turn < 0 or config.actions_per_turn < 0:
        raise ConfigError("Hand limit, draws and actions per turn cannot be negative.")
    if config.equipment_cap is not None and config.equipment_cap < 0:
        raise ConfigError("The equipment cap cannot be negative.")
    if config.round_limit is not None and config.round_limit < 1:
        raise ConfigError("The round limit must be at least 1.")
