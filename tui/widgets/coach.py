"""The coaching line under a local table's status line (off unless the setting is on).

Owns showing one sentence of coaching the screen hands it (the words come from the game's
analysis module), and hiding itself when there is none. Must not compute advice or hold state.
"""

from __future__ import annotations

from textual.widgets import Static

__all__ = ["CoachLine"]


class CoachLine(Static):
    DEFAULT_CSS = """
    CoachLine { height: 1; padding: 0 1; background: $boost; color: $text-muted; display: none; }
    CoachLine.-shown { display: block; }
    """

    def coach(self, text: str | None) -> None:
        """Show ``text`` (one line), or hide the line when it is None."""
        if text == getattr(self, "_said", None):
            return
        self._said = text
        self.set_class(text is not None, "-shown")
        self.update(text or "")
