"""Cthulhu 500: the card-driven race around a circular pack of eldritch vehicles.

Owns the `GAME` object the registry finds (`core.game.Game` contract) and wires the package's
modules together: `cards` (the deck as data), `model` (state and work stack), `actions`,
`events`, `board` (pure reckoning), `options` (who is asked what), `engine` (setup, step and
the loop), `ctx` (one step's working copy), `passing` (tests, damage, repairs), `effects`
(action cards, contagions), `fold` (evolve, view, redact), `describe` (events in words) and
`bots`.
Must not: hold rules of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.cthulhu500 import engine, fold, traits
from core.cthulhu500.actions import Action
from core.cthulhu500.bots import BOTS
from core.cthulhu500.describe import action_text, decision_text, describe
from core.cthulhu500.events import Event
from core.cthulhu500.model import Config, State
from core.game import BotFn, ConfigError, Result
from core.rng import Chance
from core.traits import GameTraits, Landmark, Progress

__all__ = ["GAME", "Cthulhu500"]


class Cthulhu500(GameTraits):
    id = "cthulhu500"
    title = "Cthulhu 500"
    rules_version = "cthulhu500/2"  # /2: passing tests carry their items (PassResolved sides)
    min_seats = 2
    max_seats = 8
    config_type = Config
    state_type = State
    action_type = Action
    event_type = Event

    def __init__(self) -> None:
        self.bots: dict[str, BotFn] = dict(BOTS)

    def default_config(self) -> Config:
        return Config()

    def check_config(self, config: Config, n_seats: int) -> None:
        if not self.min_seats <= n_seats <= self.max_seats:
            raise ConfigError(f"Cthulhu 500 seats 2 to 8 players, not {n_seats}.")
        if config.hand_limit < 0 or config.draw_per_turn < 0 or config.actions_per_turn < 0:
            raise ConfigError("Hand limit, draws and actions per turn cannot be negative.")
        if config.equipment_cap is not None and config.equipment_cap < 0:
            raise ConfigError("The equipment cap cannot be negative.")
        if config.round_limit is not None and config.round_limit < 1:
            raise ConfigError("The round limit must be at least 1.")

    def new_state(self, config: Config, n_seats: int) -> State:
        return engine.new_state(config, n_seats)

    def setup(self, config: Config, n_seats: int, rng: Chance) -> list[Any]:
        return engine.setup(config, n_seats, rng)

    def pending(self, state: State) -> tuple[int, ...]:
        return engine.pending(state)

    def legal(self, state: State, seat: int) -> list[Any]:
        return engine.legal(state, seat)

    def step(self, state: State, seat: int, action: Any, rng: Chance) -> list[Any]:
        return engine.step(state, seat, action, rng)

    def evolve(self, state: State, event: Any) -> State:
        return fold.evolve(state, event)

    def view(self, state: State, seat: int | None) -> State:
        return fold.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any | None:
        return fold.redact(event, seat)

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        laps = [v.laps for v in state.vehicles]
        ranking = list(state.ranking)
        return Result(
            ranking=ranking,
            scores=laps,
            summary=f"seat {ranking[0] + 1} wins with {laps[ranking[0]]} lap(s)",
        )

    def describe(self, event: Any, names: Sequence[str]) -> str | None:
        return describe(event, names)

    def describe_action(self, action: Any, names: Sequence[str]) -> str:
        """A menu label for a legal action (the TUI's `action_label` hook)."""
        return action_text(action, names)

    def describe_decision(self, view: State, seat: int | None, names: Sequence[str]) -> str:
        """What the table waits for, as ``seat`` may know it."""
        return decision_text(view, seat, names)

    def turn_started(self, event: Any) -> bool:
        return traits.turn_started(event)

    def landmark(self, event: Any) -> Landmark | None:
        return traits.landmark(event)

    def progress(self, state: Any) -> Progress:
        return traits.progress(state)


GAME = Cthulhu500()
