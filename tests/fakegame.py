"""A tiny test-only game ("Dash") that exercises the whole core contract.

Each seat is dealt one secret card (0-9) from a shuffled deck; seats take turns to `roll` a die
(face index + 1 steps) or `stop`; the first to 10 steps ends the race; score = steps + card.
It exists only so the contract, Table and replay format are tested before and beside the real
games; it is never registered for players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from core.game import BreaksRule, Result
from core.rng import Chance, shuffled
from core.traits import GameTraits


class DashConfig(msgspec.Struct, frozen=True, kw_only=True):
    goal: int = 10


class Roll(msgspec.Struct, frozen=True, tag="roll"):
    pass


class Stop(msgspec.Struct, frozen=True, tag="stop"):
    pass


DashAction = Roll | Stop


class Dealt(msgspec.Struct, frozen=True, tag="dealt"):
    seat: int
    card: int | None


class Rolled(msgspec.Struct, frozen=True, tag="rolled"):
    seat: int
    face: int


class Stopped(msgspec.Struct, frozen=True, tag="stopped"):
    seat: int


class Ended(msgspec.Struct, frozen=True, tag="ended"):
    pass


DashEvent = Dealt | Rolled | Stopped | Ended


class DashState(msgspec.Struct, frozen=True, kw_only=True):
    goal: int
    steps: tuple[int, ...]
    cards: tuple[int | None, ...]
    stopped: tuple[bool, ...]
    turn: int = 0
    over: bool = False


class Dash(GameTraits):
    id = "dash"
    title = "Dash"
    rules_version = "dash/1"
    min_seats = 1
    max_seats = 4
    hidden_information = True  # each seat's dealt card
    config_type = DashConfig
    state_type = DashState
    action_type = DashAction
    event_type = DashEvent

    def __init__(self) -> None:
        self.bots = {"random": self._random_bot, "steady": self._steady_bot}

    def default_config(self) -> DashConfig:
        return DashConfig()

    def check_config(self, config: DashConfig, n_seats: int) -> None:
        pass

    def new_state(self, config: DashConfig, n_seats: int) -> DashState:
        return DashState(
            goal=config.goal,
            steps=(0,) * n_seats,
            cards=(None,) * n_seats,
            stopped=(False,) * n_seats,
        )

    def setup(self, config: DashConfig, n_seats: int, rng: Chance) -> list[Any]:
        deck = shuffled(rng, list(range(10)))
        return [Dealt(seat=s, card=deck[s]) for s in range(n_seats)]

    def pending(self, state: DashState) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def legal(self, state: DashState, seat: int) -> list[Any]:
        if state.over or seat != state.turn:
            return []
        return [Roll(), Stop()]

    def step(self, state: DashState, seat: int, action: Any, rng: Chance) -> list[Any]:
        if isinstance(action, Stop):
            events: list[Any] = [Stopped(seat=seat)]
        elif isinstance(action, Roll):
            events = [Rolled(seat=seat, face=rng.below(6))]
        else:
            raise BreaksRule("You can only roll or stop in Dash.", "DASH-1")
        after = state
        for event in events:
            after = self.evolve(after, event)
        if all(after.stopped) or max(after.steps) >= after.goal:
            events.append(Ended())
        return events

    def evolve(self, state: DashState, event: Any) -> DashState:
        n = len(state.steps)
        if isinstance(event, Dealt):
            cards = list(state.cards)
            cards[event.seat] = event.card
            return msgspec.structs.replace(state, cards=tuple(cards))
        if isinstance(event, Ended):
            return msgspec.structs.replace(state, over=True)
        steps = list(state.steps)
        stopped = list(state.stopped)
        if isinstance(event, Rolled):
            steps[event.seat] += event.face + 1
        elif isinstance(event, Stopped):
            stopped[event.seat] = True
        turn = state.turn
        for k in range(1, n + 1):
            nxt = (event.seat + k) % n
            if not stopped[nxt]:
                turn = nxt
                break
        return msgspec.structs.replace(state, steps=tuple(steps), stopped=tuple(stopped), turn=turn)

    def view(self, state: DashState, seat: int | None) -> DashState:
        cards = tuple(c if i == seat else None for i, c in enumerate(state.cards))
        return msgspec.structs.replace(state, cards=cards)

    def redact(self, event: Any, seat: int | None) -> Any:
        if isinstance(event, Dealt) and event.seat != seat:
            return Dealt(seat=event.seat, card=None)
        return event

    def result(self, state: DashState) -> Result | None:
        if not state.over:
            return None
        scores = [s + (c or 0) for s, c in zip(state.steps, state.cards, strict=True)]
        ranking = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        return Result(
            ranking=ranking, scores=scores, summary=f"seat {ranking[0] + 1} wins with {max(scores)}"
        )

    def describe(self, event: Any, names: Sequence[str]) -> str | None:
        if isinstance(event, Rolled):
            return f"{names[event.seat]} rolls {event.face + 1}."
        if isinstance(event, Stopped):
            return f"{names[event.seat]} stops."
        if isinstance(event, Ended):
            return "The race is over."
        return f"{names[event.seat]} is dealt a card."

    @staticmethod
    def _random_bot(view: DashState, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
        return legal[chance.below(len(legal))]

    @staticmethod
    def _steady_bot(view: DashState, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
        return Roll() if view.steps[seat] < 7 else Stop()


GAME = Dash()
