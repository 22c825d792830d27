"""The game registry: every game is found by its id, and only through here.

Owns the list of game packages and lazy loading of them. The TUI, hub, replays, CLI and bench
look games up by id (``get("go500")``); nothing else names a game package. Each game package
exposes a module-level ``GAME`` object implementing ``core.game.Game``.

Must not: import a game package before it is asked for, or know any game's rules.
"""

from __future__ import annotations

import importlib

from core.game import Game

__all__ = ["UnknownGame", "all_games", "game_ids", "get"]

# id -> module holding GAME. One line per game; keep them apart so branches merge cleanly.
_PACKAGES: dict[str, str] = {
    "go500": "core.go500",
    "cthulhu500": "core.cthulhu500",
    "champions": "core.champions",
}

_loaded: dict[str, Game] = {}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        known = ", ".join(sorted(_PACKAGES))
        return f"There is no game called {self.args[0]!r}; the games are: {known}."


def game_ids() -> list[str]:
    """Registered game ids, in menu order."""
    return list(_PACKAGES)


def get(game_id: str) -> Game:
    """The game registered as ``game_id``."""
    cached = _loaded.get(game_id)
    if cached is not None:
        return cached
    module_name = _PACKAGES.get(game_id)
    if module_name is None:
        raise UnknownGame(game_id)
    game: Game = importlib.import_module(module_name).GAME
    if game.id != game_id:
        raise RuntimeError(f"{module_name}.GAME has id {game.id!r}, registered as {game_id!r}")
    _loaded[game_id] = game
    return game


def all_games() -> list[Game]:
    return [get(game_id) for game_id in _PACKAGES]
