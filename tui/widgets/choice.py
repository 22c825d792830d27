"""`Choice`: a one-line picker for a short list of values, light enough for long forms.

Owns showing the current choice between arrows and stepping through the list with ←/→ (or
enter/space, or a click). It is one widget where Textual's ``Select`` is several (with an
overlay list), which matters on a form of twenty pickers over SSH, where every session shares
one event loop. Must not know what the values mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from tui.widgets.shared_lines import SharedLines


class Choice(SharedLines, Widget, can_focus=True):
    """Pick one of ``options`` (label, value); ``value`` is the chosen value."""

    DEFAULT_CSS = """
    Choice { height: 1; width: auto; background: $boost; }
    Choice:focus { background: $accent 40%; text-style: bold; }
    """
    BINDINGS: ClassVar = [
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right,enter,space", "step(1)", "Next", show=False),
    ]

    class Changed(Message):
        """The choice moved to another value."""

        def __init__(self, choice: Choice, value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(
        self,
        options: Sequence[tuple[str, Any]],
        value: Any,
        *,
        id: str | None = None,
        classes: str | None = None,
        label: str = "",
        label_width: int = 22,
    ) -> None:
        super().__init__(id=id, classes=classes)
        # A labelled choice is a whole form row in one widget (a row of a label and a picker
        # would be three widgets to build and style, for every row of a long form).
        self.field_label = label
        self._label_width = label_width if label else 0
        if not options:
            raise ValueError("A choice needs at least one option.")
        self.options = list(options)
        values = [v for _, v in self.options]
        self._index = values.index(value) if value in values else 0
        self._width = max(len(label) for label, _ in self.options)

    @property
    def value(self) -> Any:
        return self.options[self._index][1]

    @value.setter
    def value(self, value: Any) -> None:
        values = [v for _, v in self.options]
        if value not in values:
            raise ValueError(f"{value!r} is not one of the choices.")
        self._select(values.index(value))

    @property
    def label(self) -> str:
        return self.options[self._index][0]

    def _select(self, index: int) -> None:
        if index != self._index:
            self._index = index
            self.refresh()
            self.post_message(self.Changed(self, self.value))

    def action_step(self, delta: int) -> None:
        self._select((self._index + delta) % len(self.options))

    def on_click(self, event: events.Click) -> None:
        self.focus()
        self.action_step(1)

    def shared_key(self) -> tuple[str, int, str, int, bool]:
        """What `render` draws (`tui.widgets.shared_lines`: every form's rows are drawn once)."""
        return (self.field_label, self._label_width, self.label, self._width, len(self.options) > 1)

    def render(self) -> Text:
        many = len(self.options) > 1
        text = Text()
        if self.field_label:
            text.append(self.field_label[: self._label_width - 1].ljust(self._label_width))
        text.append("◀ " if many else "  ", style="dim")
        text.append(self.label.ljust(self._width))
        text.append(" ▶" if many else "  ", style="dim")
        return text

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self._label_width + self._width + 4
