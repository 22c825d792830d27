"""`TabBar`: one line of tab names, the chosen one marked, switched with ←/→ or a click.

Owns showing which of a few pages is chosen and saying when another is. It is one widget where
Textual's ``TabbedContent`` is a tab strip, a tab per page, an animated underline, a content
switcher and a pane per page; opening the rules page over SSH (three games) cost that much on
the event loop every session shares. Must not know what the pages hold.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from tui.widgets.shared_lines import SharedLines

__all__ = ["TabBar"]

_GAP = 3  # cells between two names


class TabBar(SharedLines, Widget):
    """Tabs ``(label, id)``; ``active`` is the chosen tab's id."""

    DEFAULT_CSS = """
    TabBar { height: 2; width: 1fr; padding: 0 1; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = set()

    class Changed(Message):
        """Another tab was chosen."""

        def __init__(self, bar: TabBar, active: str) -> None:
            super().__init__()
            self.bar = bar
            self.active = active

        @property
        def control(self) -> TabBar:
            return self.bar

    def __init__(
        self, tabs: Sequence[tuple[str, str]], active: str, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        if not tabs:
            raise ValueError("A tab bar needs at least one tab.")
        self.tabs = list(tabs)
        ids = [tab_id for _, tab_id in self.tabs]
        self._index = ids.index(active) if active in ids else 0

    @property
    def active(self) -> str:
        return self.tabs[self._index][1]

    @active.setter
    def active(self, tab_id: str) -> None:
        ids = [t for _, t in self.tabs]
        if tab_id not in ids:
            raise ValueError(f"{tab_id!r} is not a tab.")
        self._choose(ids.index(tab_id))

    def _choose(self, index: int) -> None:
        if index != self._index:
            self._index = index
            self.refresh()
            self.post_message(self.Changed(self, self.active))

    def step(self, delta: int) -> None:
        """The next (``delta`` 1) or previous (-1) tab, round the end."""
        self._choose((self._index + delta) % len(self.tabs))

    def _spans(self) -> list[tuple[int, int]]:
        """Where each name sits on the line: (first cell, one past the last)."""
        out, x = [], 0
        for label, _ in self.tabs:
            out.append((x, x + len(label)))
            x += len(label) + _GAP
        return out

    def on_click(self, event: events.Click) -> None:
        x = event.x - self.styles.padding.left
        for index, (start, end) in enumerate(self._spans()):
            if start <= x < end:
                self._choose(index)
                return

    def shared_key(self) -> Hashable:
        """What `render` draws (`tui.widgets.shared_lines`)."""
        return (tuple(self.tabs), self._index, self.app.theme)

    def render(self) -> Text:
        names, marks = Text(), Text()
        accent = self.app.theme_variables.get("accent", "")
        for index, ((label, _), (start, end)) in enumerate(
            zip(self.tabs, self._spans(), strict=True)
        ):
            chosen = index == self._index
            names.append(label, style="bold" if chosen else "dim")
            marks.append(("━" if chosen else " ") * (end - start), style=f"bold {accent}".strip())
            if index < len(self.tabs) - 1:
                names.append(" " * _GAP)
                marks.append(" " * _GAP)
        names.append("\n")
        names.append_text(marks)
        return names
