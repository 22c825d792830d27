"""What a board widget is handed (`BoardData`) and the generic board for any game.

Owns `BoardData` (the folded view a screen passes down: state, names, log, whose move, the legal
actions, UI selections) and `GenericBoard` (the view summary, the legal actions as a list and the
race log). Live table screens and the replay viewer both drive boards through `show()`; a board
posts `ActionChosen` up and never calls the hub or changes state.
"""

from __future__ import annotations

import pprint
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

import msgspec
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static
from typing_extensions import TypeVar

from core.game import Game, Result
from tui.fold import LogLine, action_label
from tui.widgets.common import ActionList, RaceLog
from tui.widgets.fastlines import FastLines

StateT = TypeVar("StateT", default=Any)
"""A game's state type: `BoardData[Go500State]` is what a Go 500 board draws (a bare
`BoardData` or `Board` is one of any game's)."""


@dataclass(frozen=True)
class BoardData(Generic[StateT]):
    """Everything a board draws, as this viewer may see it (``state``: the game's view)."""

    game: Game
    config: Any
    names: list[str]
    state: StateT
    perspective: int | None
    pending: tuple[int, ...]
    last_events: list[Any]
    result: Result | None
    acting: int | None = None
    legal: list[Any] = field(default_factory=list)
    selected: frozenset[str] = frozenset()
    history: Sequence[tuple[int, int | None, list[Any]]] = ()
    live: bool = True


class Board(FastLines, Widget, Generic[StateT]):
    """Base of every board: `show()` draws data; the log is part of the board's layout. A
    game's board is a `Board` of its state type (`Go500Board` is a `Board[Go500State]`)."""

    DEFAULT_CSS = """
    Board { height: 1fr; }
    """

    def show(self, data: BoardData[StateT]) -> None:
        raise NotImplementedError

    def set_log(self, lines: Sequence[LogLine]) -> None:
        self.query_one(RaceLog).set_lines(lines)

    def add_log(self, lines: Sequence[LogLine]) -> None:
        self.query_one(RaceLog).add_lines(lines)


def summarise(view: Any, names: list[str]) -> str:
    """A readable rendering of any game's view struct (per-seat lists get one line a seat)."""
    try:
        data = msgspec.to_builtins(view)
    except (TypeError, msgspec.EncodeError):
        return repr(view)
    if not isinstance(data, dict):
        return pprint.pformat(data, width=60, compact=True)
    lines = []
    for key, value in data.items():
        if key in ("config", "n") or value in (None, (), [], {}):
            continue
        label = key.replace("_", " ")
        if isinstance(value, list | tuple) and len(value) == len(names) and names:
            lines.append(f"{label}:")
            lines += [f"  {names[i]}: {_short(v)}" for i, v in enumerate(value)]
        else:
            lines.append(f"{label}: {_short(value)}")
    return "\n".join(lines)


def _short(value: Any) -> str:
    if isinstance(value, dict):
        parts = [
            f"{k.replace('_', ' ')} {_short(v)}"
            for k, v in value.items()
            if v not in (None, (), [], {}, False)
        ]
        text = ", ".join(parts) or "—"
    elif isinstance(value, list | tuple):
        sep = " | " if any(isinstance(v, dict) for v in value) else ", "
        text = sep.join(_short(v) for v in value) or "—"
    else:
        text = str(value)
    return text if len(text) <= 200 else text[:197] + "…"


class GenericBoard(Board[Any]):
    """Any game: the view summary, the legal actions and the race log."""

    DEFAULT_CSS = """
    GenericBoard #generic-view { width: 1fr; height: 1fr; overflow-y: auto;
        border: round $panel-lighten-2; padding: 0 1; }
    GenericBoard #generic-side { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static("", id="generic-view")
            with Vertical(id="generic-side"):
                yield ActionList(id="actions")
                yield RaceLog(id="race-log")

    def show(self, data: BoardData[Any]) -> None:
        seats = "  ".join(f"[{i + 1}] {n}" for i, n in enumerate(data.names))
        self.query_one("#generic-view", Static).update(
            f"Seats: {seats}\n\n" + summarise(data.state, data.names)
        )
        actions = self.query_one(ActionList)
        if not data.legal:
            actions.set_actions([])
            if data.result is not None:
                actions.border_title = "Game over"
            elif data.pending:
                actions.border_title = "Waiting for " + ", ".join(
                    data.names[s] for s in data.pending
                )
            else:
                actions.border_title = "—"
            return
        actions.border_title = "Your move (Enter to play)"
        actions.set_actions([(action_label(data.game, a, data.names), a) for a in data.legal])
        if data.live:
            actions.focus()
