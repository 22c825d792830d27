"""Go 500 Racing Dice Game: the rules engine (rules/go500.md), registered as ``go500``.

The package holds the components as data (`dice.json`, `cup_points.json`, `schedule.json`,
read by `data.py`), the options (`config.py`), the types (`model.py`), the fold (`fold.py`),
the rules (`rules.py`), the words (`describe.py`), the bots (`bots.py`, `optimal.py`) and the
`Game` object (`game.py`). Nothing here does I/O beyond reading its own data files.
"""

from core.go500.game import GAME

__all__ = ["GAME"]
