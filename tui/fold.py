"""One viewer's fold of a table: the state a screen renders, built only from hub updates.

Owns `TableFold`: it starts from a `Welcome` (game id, config, seats, past events redacted for
this viewer), folds every `StepUpdate` with ``game.new_state`` + ``game.evolve``, keeps the race
log in words (``game.describe``; its first line is the table's seed commitment, so players can
note it before any die is rolled) and answers what the screen needs (names, pending seats, the
legal actions of a seat, the result). Also `action_label`: an action in words for menus.

Viewers of one table from one perspective (a table's spectators, above all) fold the same
steps onto equal states: the step is folded and worded once per process (`_SHARED_STEPS`) and
every such viewer keeps the same state, events and log lines, so a table watched by a hundred
costs one fold and one log, not a hundred (issue 11: each spectator's own copy of the race
was most of what a server's memory grew by during a race). A viewer takes a shared step only
if its state before it is the one the step was folded onto (the same object, or equal).

Must not: import textual, draw chance, or change a table — it only reads what the hub sent;
change a state, an events list or a log line it was given (others hold them too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from core import registry
from core.game import Game, Result
from core.game import fold as fold_events
from core.traits import fields_words
from net.hub import StepUpdate, TableInfo, Welcome

__all__ = ["LogLine", "TableFold", "action_label", "commitment_line", "describe_events"]


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the race log: the step it belongs to and the words."""

    state_id: int
    seat: int | None
    text: str


def describe_events(
    game: Game, events: Sequence[Any], names: Sequence[str], state_id: int, seat: int | None
) -> list[LogLine]:
    """The race-log lines for one step's events (events the game leaves unsaid are skipped)."""
    lines: list[LogLine] = []
    for event in events:
        try:
            text = game.describe(event, names)
        except Exception:  # a describe bug must never take a screen down
            text = None
        if text:
            lines.append(LogLine(state_id, seat, text))
    return lines


def commitment_line(commitment: str) -> str:
    """The log's first line: the seed's commitment, to note now and check when it is revealed."""
    return (
        f"Fair dice: this table's seed is committed as SHA-256 {commitment}; the seed is "
        "revealed when the game ends (check it with `speedway replay FILE --verify`)."
    )


def action_label(game: Game, action: Any, names: Sequence[str], view: Any = None) -> str:
    """An action in the game's words (`Game.describe_action`); its fields in words if describing
    fails or says nothing (a describe bug must never take a screen down)."""
    try:
        text = game.describe_action(action, names, view)
    except Exception:
        text = ""
    return text or fields_words(action)


@dataclass
class TableFold:
    """What one viewer knows about one table, folded from the hub's updates."""

    game: Game
    table: TableInfo
    seat: int | None
    config: Any
    state: Any
    state_id: int
    log: list[LogLine] = field(default_factory=list)
    pending: tuple[int, ...] = ()
    last_events: list[Any] = field(default_factory=list)
    history: list[tuple[int, int | None, list[Any]]] = field(default_factory=list)

    @classmethod
    def from_welcome(cls, welcome: Welcome, game: Game | None = None) -> TableFold:
        game = game if game is not None else registry.get(welcome.table.game)
        config = welcome.config
        if not isinstance(config, game.config_type):
            config = msgspec.convert(config, game.config_type, strict=False)
        names = [s.name for s in welcome.table.seats]
        events = [_as_event(game, e) for e in welcome.events]
        state = fold_events(game, game.new_state(config, len(names)), events)
        fold = cls(
            game=game,
            table=welcome.table,
            seat=welcome.seat,
            config=config,
            state=state,
            state_id=welcome.state_id,
            last_events=events,
        )
        fold.history.append((welcome.state_id, None, events))
        fold.log = describe_events(game, events, names, welcome.state_id, None)
        if welcome.table.commitment:
            fold.log.insert(0, LogLine(0, None, commitment_line(welcome.table.commitment)))
        fold.pending = fold._pending()
        return fold

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.table.seats]

    def apply(self, update: StepUpdate) -> list[LogLine]:
        """Fold one accepted step; return its new log lines."""
        names = self.names
        key = (self.table.id, self.seat, self.state_id, update.state_id, tuple(names))
        step = _SHARED_STEPS.get(key)
        if step is None or not (step.before is self.state or step.before == self.state):
            events = [_as_event(self.game, e) for e in update.events]
            after = fold_events(self.game, self.state, events)
            lines = describe_events(self.game, events, names, update.state_id, update.seat)
            mine = _SharedStep(
                self.state,
                after,
                (update.state_id, update.seat, events),
                lines,
                self.game.result(after) is None,
            )
            if step is None:  # (one that differs does not push out the step the others take)
                _SHARED_STEPS[key] = mine
                if len(_SHARED_STEPS) > _SHARED_STEPS_KEPT:
                    del _SHARED_STEPS[next(iter(_SHARED_STEPS))]  # the oldest
            step = mine
        self.state = step.after
        self.state_id = update.state_id
        self.last_events = step.record[2]
        self.history.append(step.record)
        self.log.extend(step.lines)
        self.pending = tuple(update.pending) if step.running else ()
        return list(step.lines)

    def retable(self, table: TableInfo) -> None:
        self.table = table

    def result(self) -> Result | None:
        return self.game.result(self.state)

    def legal(self, seat: int) -> list[Any]:
        if seat not in self.pending:
            return []
        return self.game.legal(self.state, seat)

    def _pending(self) -> tuple[int, ...]:
        if self.game.result(self.state) is not None:
            return ()
        return tuple(self.game.pending(self.state))


@dataclass(frozen=True, slots=True)
class _SharedStep:
    """One step folded onto ``before``: what every viewer at that state takes from it."""

    before: Any
    after: Any
    record: tuple[int, int | None, list[Any]]  # a `TableFold.history` entry
    lines: list[LogLine]
    running: bool  # no result after it


_SHARED_STEPS: dict[tuple[Any, ...], _SharedStep] = {}
"""The last steps folded in this process, by (table, perspective, state before, state after,
names), oldest first: a table's viewers take a step within moments of each other, so keeping
the last `_SHARED_STEPS_KEPT` is plenty (a viewer that finds none folds the step itself)."""
_SHARED_STEPS_KEPT = 256


def _as_event(game: Game, event: Any) -> Any:
    """Events may arrive as structs (in process) or as builtins (decoded off a wire)."""
    if isinstance(event, dict):
        return msgspec.convert(event, game.event_type, strict=False)
    return event
