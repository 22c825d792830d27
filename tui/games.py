"""Which screen, board and rules page each game uses in the TUI: one table, one row per game.

Owns `GAME_UI` (game id -> `GameUI`: its rich table screen, its board widget for live tables and
the replay viewer, its rules page and what the replay viewer shows between races) and the small
look-ups over it. A game without a row gets the generic screen and board and a "no rules page"
note. Screens and widgets are named as ``"module:Name"`` and imported on first use, so this
module never imports a game package or a screen at import time (games load through
`core.registry`). Titles come from the game itself (``game.title``).

Must not: know any rule, or branch on a game id anywhere but in this table.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import registry

if TYPE_CHECKING:
    from textual.screen import Screen

__all__ = [
    "GAME_UI",
    "GameUI",
    "board_for",
    "interlude_for",
    "rules_game_ids",
    "rules_text",
    "table_screen_for",
    "title_for",
]

RULES = Path(__file__).parent / "rules"


@dataclass(frozen=True)
class GameUI:
    """One game's pieces of the TUI, each ``"module:Name"`` (imported when first asked for)."""

    screen: str
    board: str
    rules_page: str
    interlude: str | None = None
    """``(names, events) -> modal screen | None``: shown when the replay viewer steps past the end
    of a race (Go 500's Cup standings)."""


GAME_UI: dict[str, GameUI] = {
    "go500": GameUI(
        screen="tui.screens.go500:Go500TableScreen",
        board="tui.widgets.go500:Go500Board",
        rules_page="go500.md",
        interlude="tui.screens.go500:cup_interlude",
    ),
    "cthulhu500": GameUI(
        screen="tui.screens.cthulhu500:CthulhuTableScreen",
        board="tui.widgets.cthulhu500:CthulhuBoard",
        rules_page="cthulhu500.md",
    ),
    "champions": GameUI(
        screen="tui.screens.champions:ChampionsTableScreen",
        board="tui.widgets.champions:ChampionsBoard",
        rules_page="champions.md",
    ),
}

_GENERIC = GameUI(
    screen="tui.screens.table:GenericTableScreen",
    board="tui.widgets.board:GenericBoard",
    rules_page="",
)


def _load(ref: str) -> Any:
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def _ui(game_id: str | None) -> GameUI:
    return GAME_UI.get(game_id or "", _GENERIC)


def table_screen_for(game_id: str | None) -> type:
    """The table screen class for ``game_id`` (the generic one for a game without a row)."""
    screen: type = _load(_ui(game_id).screen)
    return screen


def board_for(game_id: str) -> type:
    """The board widget class that draws ``game_id`` (live tables and the replay viewer)."""
    board: type = _load(_ui(game_id).board)
    return board


def rules_game_ids() -> list[str]:
    """The games with a rules page, in the table's order."""
    return [game_id for game_id, ui in GAME_UI.items() if ui.rules_page]


def rules_text(game_id: str) -> str:
    """A game's rules page as Markdown (a short note for a game without one)."""
    page = _ui(game_id).rules_page
    if not page:
        return f"# {game_id}\n\nNo rules page yet for this game."
    return (RULES / page).read_text(encoding="utf-8")


def title_for(game_id: str) -> str:
    """The game's own title ("NASCAR Champions"); the id for a game the registry lacks."""
    try:
        return registry.get(game_id).title
    except registry.UnknownGame:
        return game_id


def interlude_for(game_id: str, names: list[str], events: list[Any]) -> Screen[None] | None:
    """What the replay viewer shows when it steps past the end of a race (a modal), if anything."""
    ref = _ui(game_id).interlude
    if ref is None:
        return None
    interlude: Callable[[list[str], list[Any]], Screen[None] | None] = _load(ref)
    return interlude(names, events)
