"""Go 500 Racing Dice Game: the rules engine (rules/go500.md), registered as ``go500``.

The package has the shape of every game (docs/DESIGN.md "A game package"): the components as
data (`data/dice.json`, `cup_points.json`, `schedule.json`, `finish_chance.json`, read by
`data.py`), the options (`config.py`), the types (`model.py`), the rules (`rules.py`, with the
dice tables of `tables.py`), the fold (`fold.py`), what each seat sees (`views.py`), the words
(`describe.py`), the bots (`bots.py`, `optimal.py`), the declared traits (`traits.py`), replay
analysis (`analysis.py`) and the `Game` object (`game.py`). Nothing here does I/O beyond
reading its own data files.
"""

from core.go500.game import GAME

__all__ = ["GAME"]
