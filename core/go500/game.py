"""The Go 500 `Game` object: the registry's entry point, gluing rules, fold, words and bots.

Owns the contract surface of `core.game.Game` for Go 500 (id ``go500``). Must not: hold rules
itself (`rules.py`), fold events (`fold.py`) or word them (`describe.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.game import BotFn, Result
from core.go500 import rules, traits, views
from core.go500.bots import BOTS
from core.go500.config import MODE_SEATS, Go500Config, check, option_applies
from core.go500.data import CUP_POINTS
from core.go500.describe import action_text, config_words, describe, option_label
from core.go500.fold import evolve, new_state
from core.go500.model import Action, Event, Go500State
from core.rng import Chance
from core.traits import GameTraits

__all__ = ["GAME", "Go500"]


class Go500(GameTraits):
    """Go 500 Racing Dice Game (rules/go500.md)."""

    id = "go500"
    title = "Go 500"
    rules_version = "go500/2"
    min_seats = 1
    max_seats = 12
    hidden_information = False  # spec §7: everything is on the table
    config_type = Go500Config
    state_type = Go500State
    action_type: Any = Action
    event_type: Any = Event

    def __init__(self) -> None:
        self.bots: Mapping[str, BotFn] = BOTS

    def default_config(self) -> Go500Config:
        return Go500Config()

    def check_config(self, config: Go500Config, n_seats: int) -> None:
        check(config, n_seats)

    def new_state(self, config: Go500Config, n_seats: int) -> Go500State:
        return new_state(config, n_seats)

    def setup(self, config: Go500Config, n_seats: int, rng: Chance) -> list[Any]:
        return rules.setup(config, new_state(config, n_seats), rng)

    def pending(self, state: Go500State) -> tuple[int, ...]:
        return rules.pending(state)

    def legal(self, state: Go500State, seat: int) -> list[Any]:
        return rules.legal(state, seat)

    def step(self, state: Go500State, seat: int, action: Any, rng: Chance) -> list[Any]:
        return rules.step(state, seat, action, rng)

    def resolve(
        self, state: Go500State, seat: int, action: Any, rng: Chance
    ) -> tuple[list[Any], Go500State]:
        return rules.resolve(state, seat, action, rng)

    def advance(
        self, state: Go500State, seat: int, action: Any, rng: Chance
    ) -> tuple[list[Any], Go500State, tuple[int, ...]]:
        return rules.advance(state, seat, action, rng)

    def evolve(self, state: Go500State, event: Any) -> Go500State:
        return evolve(state, event)

    def view(self, state: Go500State, seat: int | None) -> Go500State:
        return views.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any:
        return views.redact(event, seat)

    def result(self, state: Go500State) -> Result | None:
        if state.phase != "over":
            return None
        if state.config.mode == "cup":
            ranking = list(state.standings)
            scores = list(state.points)
            champ = ranking[0]
            summary = f"seat {champ + 1} is Cup Champion with {scores[champ]} points"
            return Result(ranking=ranking, scores=scores, summary=summary)
        ranking = list(state.ranking)
        scores = list(state.totals)
        first = ranking[0]
        summary = f"seat {first + 1} wins with {scores[first]} miles"
        return Result(ranking=ranking, scores=scores, summary=summary)

    def race_count(self, config: Go500Config) -> int:
        """A Cup Series runs its schedule; every other mode is one race."""
        return len(config.schedule) if config.mode == "cup" else 1

    def describe(self, event: Any, names: Sequence[str]) -> str | None:
        return describe(event, names)

    def config_words(self, config: Go500Config) -> str:
        return config_words(config)

    def describe_action(
        self, action: Any, names: Sequence[str], view: Go500State | None = None
    ) -> str:
        return action_text(action, names, view)

    def option_applies(self, name: str, options: Mapping[str, Any]) -> bool:
        return option_applies(name, options)

    def option_label(self, name: str) -> str:
        return option_label(name)

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """Per mode (spec §2): Oval and Cup 2-6, Multi-Game 2-12, Time Trials 1-12."""
        mode = options.get("mode", "oval")
        return MODE_SEATS.get(mode, (self.min_seats, self.max_seats))

    def option_choices(self, name: str) -> list[str] | None:
        """The Cup points tables of the data (`cup_points.json`); other options: None."""
        if name == "cup_points":
            return sorted(CUP_POINTS.by_name)
        return None

    # Declared traits (core.traits), answered by this game's traits module.
    turn_started = staticmethod(traits.turn_started)
    landmark = staticmethod(traits.landmark)
    progress = staticmethod(traits.progress)


GAME = Go500()
