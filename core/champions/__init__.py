"""NASCAR Champions: five colour dice, a three-wide oval, cards, sponsors and two laps of prize
money. ``GAME`` is what the registry finds; see ``game.py`` for the wiring."""

from core.champions.game import GAME

__all__ = ["GAME"]
