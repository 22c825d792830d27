"""`NumberField`: a one-line form row for a whole number, light enough for long forms.

Owns editing a number in place: digits type it (the first digit after the row takes focus
starts a new number, as a selected field would), backspace takes the last character back,
delete clears it (an empty row means "none" where the option allows none), ←/→ count down and
up by one. A leading minus may be typed so the game itself can say why a negative number is
refused. It is one widget where a row of a label and Textual's ``Input`` is three, and the
``Input`` alone builds a cursor, a selection and four styled parts: opening the new-game form
over SSH cost 64 ms less CPU without its six such rows. Must not know what the number means;
the form reads `value` as text and checks it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from tui.widgets.shared_lines import SharedLines

__all__ = ["NumberField"]

FIELD_WIDTH = 8  # cells for the number between the arrows


class NumberField(SharedLines, Widget, can_focus=True):
    """A labelled whole number; ``value`` is its text ("" when empty)."""

    DEFAULT_CSS = """
    NumberField { height: 1; width: auto; background: $boost; }
    NumberField:focus { background: $accent 40%; text-style: bold; }
    """
    BINDINGS: ClassVar = [
        Binding("left", "step(-1)", "Less", show=False),
        Binding("right", "step(1)", "More", show=False),
        Binding("backspace", "erase", "Erase", show=False),
        Binding("delete,ctrl+u", "clear", "Clear", show=False),
    ]

    class Changed(Message):
        """The number's text changed."""

        def __init__(self, field: NumberField, value: str) -> None:
            super().__init__()
            self.field = field
            self.value = value

        @property
        def control(self) -> NumberField:
            return self.field

    def __init__(
        self,
        value: str = "",
        *,
        label: str = "",
        label_width: int = 22,
        placeholder: str = "",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.field_label = label
        self._label_width = label_width if label else 0
        self.placeholder = placeholder
        self._value = value
        self._fresh = True  # the next digit starts a new number

    @property
    def value(self) -> str:
        return self._value

    @value.setter
    def value(self, value: str) -> None:
        if value != self._value:
            self._value = value
            self.refresh()
            self.post_message(self.Changed(self, value))

    def on_focus(self, event: events.Focus) -> None:
        self._fresh = True

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if char is None or not (
            char.isdigit() or (char == "-" and (self._fresh or not self._value))
        ):
            return
        event.stop()
        event.prevent_default()
        self.value = char if self._fresh else (self._value + char)[:FIELD_WIDTH]
        self._fresh = False

    def action_step(self, delta: int) -> None:
        try:
            number = int(self._value) if self._value.strip() else 0
        except ValueError:
            return  # not a number yet: nothing to count from
        self.value = str(number + delta)
        self._fresh = False

    def action_erase(self) -> None:
        self.value = self._value[:-1]
        self._fresh = False

    def action_clear(self) -> None:
        self.value = ""
        self._fresh = False

    def on_click(self, event: events.Click) -> None:
        self.focus()

    def shared_key(self) -> Hashable:
        """What `render` draws (`tui.widgets.shared_lines`)."""
        return (self.field_label, self._label_width, self._value, self.placeholder)

    def render(self) -> Text:
        text = Text()
        if self.field_label:
            text.append(self.field_label[: self._label_width - 1].ljust(self._label_width))
        text.append("◀ ", style="dim")
        if self._value:
            text.append(self._value[:FIELD_WIDTH].ljust(FIELD_WIDTH))
        else:
            text.append(self.placeholder[:FIELD_WIDTH].ljust(FIELD_WIDTH), style="dim")
        text.append(" ▶", style="dim")
        return text

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self._label_width + FIELD_WIDTH + 4
