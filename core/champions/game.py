"""The NASCAR Champions ``Game`` object the registry finds (``core.champions.GAME``).

Owns wiring the contract (``core.game.Game``) to this package's modules: types, setup, rules,
fold, views, result, describe and bots.

Must not: hold rules itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.champions import bots, describe, fold, lookahead, rules, traits, views
from core.champions.config import LAPS, N_CARS, ChampionsConfig, check_config
from core.champions.model import Action, ChampionsState, Event
from core.game import Result
from core.rng import Chance
from core.traits import GameTraits

__all__ = ["GAME", "Champions"]


class Champions(GameTraits):
    id = "champions"
    title = "NASCAR Champions"
    rules_version = "champions/2"
    min_seats = 1
    max_seats = N_CARS
    hidden_information = True  # secret Sponsor cards, the deck order
    config_type = ChampionsConfig
    state_type = ChampionsState
    action_type = Action
    event_type = Event

    def __init__(self) -> None:
        self.bots = {**bots.BOTS, "lookahead": lookahead.lookahead_bot}

    def default_config(self) -> ChampionsConfig:
        return ChampionsConfig()

    def check_config(self, config: ChampionsConfig, n_seats: int) -> None:
        check_config(config, n_seats)

    def new_state(self, config: ChampionsConfig, n_seats: int) -> ChampionsState:
        return rules.new_state(config, n_seats)

    def setup(self, config: ChampionsConfig, n_seats: int, rng: Chance) -> list[Any]:
        return list(rules.setup(config, n_seats, rng))

    def pending(self, state: ChampionsState) -> tuple[int, ...]:
        return rules.pending(state)

    def legal(self, state: ChampionsState, seat: int) -> list[Any]:
        return rules.legal(state, seat)

    def step(self, state: ChampionsState, seat: int, action: Any, rng: Chance) -> list[Any]:
        return list(rules.step(state, seat, action, rng))

    def resolve(
        self, state: ChampionsState, seat: int, action: Any, rng: Chance
    ) -> tuple[list[Any], ChampionsState]:
        events, after = rules.resolve(state, seat, action, rng)
        return list(events), after

    def advance(
        self, state: ChampionsState, seat: int, action: Any, rng: Chance
    ) -> tuple[list[Any], ChampionsState, tuple[int, ...]]:
        events, after, asked = rules.advance(state, seat, action, rng)
        return list(events), after, asked

    def evolve(self, state: ChampionsState, event: Any) -> ChampionsState:
        return fold.evolve(state, event)

    def view(self, state: ChampionsState, seat: int | None) -> ChampionsState:
        return views.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any:
        return views.redact(event, seat)

    def result(self, state: ChampionsState) -> Result | None:
        if state.phase != "over":
            return None
        ranking = rules.ranking(state)
        scores = list(state.money)
        if state.n_seats == 1:
            summary = f"solo game: seat 1 banks ${scores[0]:,}"
        else:
            top = ranking[0]
            summary = f"seat {top + 1} is the NASCAR Champion with ${scores[top]:,}"
        return Result(ranking=ranking, scores=scores, summary=summary)

    def describe(self, event: Any, names: Sequence[str]) -> str | None:
        return describe.describe(event, names)

    def lap_count(self, config: ChampionsConfig) -> int:
        return LAPS

    def describe_action(
        self, action: Any, names: Sequence[str], view: ChampionsState | None = None
    ) -> str:
        """A menu label (``describe.action_label``; it needs the state it is offered in)."""
        if view is None:
            return super().describe_action(action, names)
        return describe.action_label(action, view)

    # Declared traits (core.traits), answered by this game's traits module.
    turn_started = staticmethod(traits.turn_started)
    landmark = staticmethod(traits.landmark)
    progress = staticmethod(traits.progress)


GAME = Champions()
