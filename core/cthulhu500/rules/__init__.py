"""The Cthulhu 500 rules (spec §2–§9): setup, who is asked what, and resolving an answer.

`engine` runs a step (the resolution stack and its loop), `options` says who is asked what and
what they may answer, `passing` resolves passing tests, damage and repairs, `effects` the Action
cards and contagions, `board` reckons the pack (who is ahead, speeds, equipment) and `ctx` is one
step's working copy (a `core.resolution.Resolution` with the stack). Must not: fold events or
hide them (`fold`, `views`).
"""

from core.cthulhu500.rules.engine import legal, new_state, pending, ranking, setup, step

__all__ = ["legal", "new_state", "pending", "ranking", "setup", "step"]
