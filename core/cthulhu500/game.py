"""The Cthulhu 500 `Game` object: the registry's entry point, gluing rules, fold, words and bots.

Owns the contract surface of `core.game.Game` for Cthulhu 500 (id ``cthulhu500``). Must not:
hold rules itself (`rules/`), fold events (`fold.py`), hide them (`views.py`) or word them
(`describe.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.cthulhu500 import fold, traits, views
from core.cthulhu500.bots import BOTS
from core.cthulhu500.config import MAX_SEATS, MIN_SEATS, Config, check_config
from core.cthulhu500.describe import action_text, decision_text, describe
from core.cthulhu500.model import Action, Event, State
from core.cthulhu500.rules import engine
from core.game import BotFn, Result
from core.rng import Chance
from core.traits import GameTraits

__all__ = ["GAME", "Cthulhu500"]


class Cthulhu500(GameTraits):
    id = "cthulhu500"
    title = "Cthulhu 500"
    rules_version = "cthulhu500/2"  # /2: passing tests carry their items (PassResolved sides)
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    hidden_information = True  # hands, the draw pile, setup discards until the reveal
    config_type = Config
    state_type = State
    action_type = Action
    event_type = Event

    def __init__(self) -> None:
        self.bots: dict[str, BotFn] = dict(BOTS)

    def default_config(self) -> Config:
        return Config()

    def check_config(self, config: Config, n_seats: int) -> None:
        check_config(config, n_seats)

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

    def resolve(self, state: State, seat: int, action: Any, rng: Chance) -> tuple[list[Any], State]:
        return engine.resolve(state, seat, action, rng)

    def advance(
        self, state: State, seat: int, action: Any, rng: Chance
    ) -> tuple[list[Any], State, tuple[int, ...]]:
        return engine.advance(state, seat, action, rng)

    def evolve(self, state: State, event: Any) -> State:
        return fold.evolve(state, event)

    def view(self, state: State, seat: int | None) -> State:
        return views.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any | None:
        return views.redact(event, seat)

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

    def describe_action(self, action: Any, names: Sequence[str], view: State | None = None) -> str:
        """A menu label for a legal action (``describe.action_text``)."""
        return action_text(action, names, view)

    def describe_decision(self, view: State, seat: int | None, names: Sequence[str]) -> str:
        """What the table waits for, as ``seat`` may know it."""
        return decision_text(view, seat, names)

    # Declared traits (core.traits), answered by this game's traits module.
    turn_started = staticmethod(traits.turn_started)
    landmark = staticmethod(traits.landmark)
    progress = staticmethod(traits.progress)


GAME = Cthulhu500()
