"""What each Go 500 seat may see: everything (spec §7, no hidden information).

Owns `view` and `redact` of the contract, which pass state and events through unchanged; the
game declares ``hidden_information = False``. Must not: change what happened.
"""

from __future__ import annotations

from typing import Any

from core.go500.model import Go500State

__all__ = ["redact", "view"]


def view(state: Go500State, seat: int | None) -> Go500State:
    """Every seat and spectator sees the whole table."""
    return state


def redact(event: Any, seat: int | None) -> Any:
    """Every event is public."""
    return event
