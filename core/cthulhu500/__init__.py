"""Cthulhu 500: the card-driven race around a circular pack of eldritch vehicles, registered as
``cthulhu500``.

The package has the shape of every game (docs/DESIGN.md "A game package"): the deck as data
(`data/cards.json`, read by `data.py`), the options (`config.py`), the types (`model.py`), the
rules (`rules/`), the fold (`fold.py`), what each seat sees (`views.py`), the words
(`describe.py`), the bots (`bots.py`), the declared traits (`traits.py`), replay analysis
(`analysis.py`) and the `Game` object (`game.py`). Nothing here does I/O beyond reading its own
data file.
"""

from core.cthulhu500.game import GAME

__all__ = ["GAME"]
