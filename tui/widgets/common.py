"""Small reusable widgets: the race log, the legal-action list, the status line.

Owns widgets that take data from their screen and post `ActionChosen` upward; none of them holds
game state or talks to the hub (STYLE #10). Must not import a game package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from tui.fold import LogLine


def tag_of(obj: Any) -> str:
    """An action's or task's msgspec tag (``"roll"``), else its class name."""
    config = getattr(type(obj), "__struct_config__", None)
    tag = getattr(config, "tag", None) if config is not None else None
    return str(tag) if isinstance(tag, str) else type(obj).__name__


class ActionChosen(Message):
    """A player picked an action (from a list, a key or a click)."""

    def __init__(self, action: Any) -> None:
        super().__init__()
        self.action = action


class RaceLog(RichLog):
    """The race log in words, newest at the bottom."""

    DEFAULT_CSS = """
    RaceLog { height: 1fr; border: round $panel-lighten-2; padding: 0 1; scrollbar-size: 1 1; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id,
            classes=classes,
            wrap=True,
            markup=False,
            highlight=False,
            max_lines=2000,
            min_width=20,
        )
        self.border_title = "Race log"
        self.can_focus = False

    def add_lines(self, lines: Sequence[LogLine], names: Sequence[str] = ()) -> None:
        for line in lines:
            self.write(Text(line.text))

    def set_lines(self, lines: Sequence[LogLine]) -> None:
        self.clear()
        self.add_lines(lines)


class ActionList(OptionList):
    """The legal actions as a list; Enter or a click posts `ActionChosen`."""

    DEFAULT_CSS = """
    ActionList { height: 1fr; border: round $accent; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.border_title = "Your move"
        self._actions: list[Any] = []
        self._shown_key: list[tuple[str, str]] | None = None

    def set_actions(self, labelled: Sequence[tuple[str, Any]]) -> None:
        self._actions = [action for _, action in labelled]
        self.clear_options()
        self.add_options(
            Option(f"{i + 1}. {label}" if i < 9 else label, id=str(i))
            for i, (label, _) in enumerate(labelled)
        )
        if labelled:
            self.highlighted = 0

    def keep_actions(self, labelled: Sequence[tuple[str, Any]]) -> None:
        """`set_actions` only when the rows change (keeps the highlight while others play)."""
        key = [(label, repr(action)) for label, action in labelled]
        if key == self._shown_key:
            return
        self._shown_key = key
        self.set_actions(labelled)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = int(event.option_id or 0)
        if 0 <= index < len(self._actions):
            self.post_message(ActionChosen(self._actions[index]))

    def choose(self, index: int) -> None:
        if 0 <= index < len(self._actions):
            self.post_message(ActionChosen(self._actions[index]))


class StatusLine(Static):
    """One line: whose turn it is, or the sentence of a refused action."""

    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; background: $boost; }
    StatusLine.-error { background: $error 30%; text-style: bold; }
    """

    def say(self, text: str, *, error: bool = False) -> None:
        self.update(text)
        self.set_class(error, "-error")
