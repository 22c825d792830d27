"""What a game may declare beyond the core contract, each with its default, in one small base.

Owns `GameTraits` (the base every game class derives from) and `Progress`/`Measure` (what a race
chart plots). A screen or the replay viewer asks a game these questions instead of guessing from
event class names (STYLE #18):

* ``turn_started(event)`` — does this event begin a turn of the game (the "turn" of the replay
  viewer's turn count, ``g N`` and ``[``/``]``)? Default: no event does.
* ``landmark(event)`` — ``"race"`` for a race's (or lap's) end or start, ``"event"`` for a flag or
  another happening worth jumping to in a replay, ``None`` otherwise (the default).
* ``progress(state)`` — per measure ("miles", "laps", "money", …) one number per seat, for the
  race chart; a new ``race`` number (Cup Series) starts the chart afresh. Default: nothing to plot.
* ``option_label(name)`` — an option's name in words for forms ("Tradin' Paint"). Default: the
  field name with spaces.
* ``seat_range(options)`` — how many players the options as chosen seat (Go 500's modes).
  Default: ``min_seats`` to ``max_seats``.

Must not: import anything of ours, or know any game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

__all__ = ["GameTraits", "Landmark", "Measure", "Progress"]

Landmark = Literal["race", "event"]


class Measure(msgspec.Struct, frozen=True, kw_only=True):
    """One plotted quantity: its name (the chart's axis label), one value per seat, and an
    optional goal line (Go 500's race length). ``lower_is_better`` for places."""

    name: str
    values: tuple[int, ...]
    goal: int | None = None
    lower_is_better: bool = False


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """What a race chart plots for a state; ``race`` changes when a new race begins."""

    measures: tuple[Measure, ...] = ()
    race: int = 0


class GameTraits:
    """The declared traits with their defaults; each game class derives from this."""

    min_seats: int = 1
    max_seats: int = 1

    def turn_started(self, event: Any) -> bool:
        """True if ``event`` begins a turn of the game."""
        return False

    def landmark(self, event: Any) -> Landmark | None:
        """ "race" / "event" for events a replay can jump to; None for the rest."""
        return None

    def progress(self, state: Any) -> Progress:
        """What the race chart plots now."""
        return Progress()

    def option_label(self, name: str) -> str:
        """Option ``name`` in words, for forms."""
        return name.replace("_", " ").capitalize()

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """(fewest, most) players with these options."""
        return (self.min_seats, self.max_seats)
