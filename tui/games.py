"""Which screen, board and rules page each game uses in the TUI.

Owns the mapping from a registered game id to its rich table screen (falling back to the generic
screen), its board widget for the replay viewer, its rules page and what the replay viewer shows
between races. Must not import a game
package at import time (games load through `core.registry`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen

RULES = Path(__file__).parent / "rules"

RULES_PAGES: dict[str, str] = {
    "go500": "go500.md",
    "cthulhu500": "cthulhu500.md",
    "champions": "champions.md",
}


def table_screen_for(game_id: str | None) -> type:
    from tui.screens.table import GenericTableScreen

    if game_id == "go500":
        from tui.screens.go500 import Go500TableScreen

        return Go500TableScreen
    if game_id == "champions":
        from tui.screens.champions import ChampionsTableScreen

        return ChampionsTableScreen
    if game_id == "cthulhu500":
        from tui.screens.cthulhu500 import CthulhuTableScreen

        return CthulhuTableScreen
    return GenericTableScreen


def rules_text(game_id: str) -> str:
    page = RULES_PAGES.get(game_id)
    if page is None:
        return f"# {game_id}\n\nNo rules page yet for this game."
    return (RULES / page).read_text(encoding="utf-8")


def board_for(game_id: str) -> type:
    """The board widget class that draws ``game_id`` (live tables and the replay viewer)."""
    if game_id == "go500":
        from tui.widgets.go500 import Go500Board

        return Go500Board
    if game_id == "champions":
        from tui.widgets.champions import ChampionsBoard

        return ChampionsBoard
    if game_id == "cthulhu500":
        from tui.widgets.cthulhu500 import CthulhuBoard

        return CthulhuBoard
    from tui.widgets.board import GenericBoard

    return GenericBoard


def interlude_for(game_id: str, names: list[str], events: list[Any]) -> Screen[None] | None:
    """What the replay viewer shows when it steps past the end of a race (a modal), if anything:
    Go 500's Cup standings after each race of a Cup Series."""
    if game_id == "go500":
        from core.go500.model import CupPointsAwarded, SeasonEnded
        from tui.screens.go500 import CupStandings

        final = any(isinstance(e, SeasonEnded) for e in events)
        for event in events:
            if isinstance(event, CupPointsAwarded):
                return CupStandings(names, event, final)
    return None
