"""NASCAR Champions: five colour dice, a three-wide oval, cards, sponsors and two laps of prize
money, registered as ``champions``.

The package has the shape of every game (docs/DESIGN.md "A game package"): the components as
data (`data/*.json`, read by `data.py`), the options (`config.py`), the types (`model.py`), the
rules (`rules.py`, with the oval's geometry in `track.py`), the fold (`fold.py`), what each seat
sees (`views.py`), the words (`describe.py`), the bots (`bots.py`, `lookahead.py`), the declared
traits (`traits.py`), replay analysis (`analysis.py`) and the `Game` object (`game.py`). Nothing
here does I/O beyond reading its own data files.
"""

from core.champions.game import GAME

__all__ = ["GAME"]
