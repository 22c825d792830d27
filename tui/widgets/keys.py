"""`KeyFooter`: the screen's keys in one drawn line, cheap to open and to keep.

Owns `KeyFooter`, used by every Speedway screen instead of Textual's `Footer`. Textual's footer
is a container of one widget per key that it removes and mounts again every time the bindings
change (a screen opening, the focus moving): with many sessions in one process that is CPU every
other player waits for. This one is a single `LineBox`: it writes "key description" pairs for the
bindings the screen shows (one per action, as `Footer` does; a binding the screen reports as
disabled is dimmed, one it hides is left out) and repaints only when that line changes; keys that
do not fit one row wrap onto a second (the height changes only then). On a modal screen it is
as tall as the footer of the screen underneath, so that footer's keys (which do nothing while the
modal is open) never show below the modal's. A click on a key presses it.

Must not: decide what a key does (that is each screen's `BINDINGS` and `check_action`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import ModalScreen

from tui.widgets.common import LineBox

__all__ = ["KeyFooter"]


class KeyFooter(LineBox):
    """One line of the keys this screen offers (see the module docstring)."""

    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom; height: 1; width: 1fr;
        color: $footer-foreground; background: $footer-background;
    }
    KeyFooter > .key-footer--key { color: $footer-key-foreground; background: $footer-key-background; text-style: bold; }
    KeyFooter > .key-footer--description { color: $footer-description-foreground; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-footer--key", "key-footer--description"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        # (row, x from, x to, key, description)
        self._spots: list[tuple[int, int, int, str, str]] = []
        self._drawn: tuple[Any, ...] | None = None  # what the line was drawn from (`draw`)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self.draw)

    def on_resize(self) -> None:
        super().on_resize()
        if self.is_attached:
            self.draw()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: Any) -> None:
        if self.is_attached:
            self.draw()

    def draw(self) -> None:
        """Write the keys line from the screen's active bindings (nothing to do when they, the
        width and the styles are as last drawn: a screen opening or the focus moving signals
        new bindings several times in a row, about 20 times for a spectator's login)."""
        active = list(self.screen.active_bindings.values())
        bindings = [
            (node is self.app, binding.key, binding.action, binding.description, binding.show,
             enabled)
            for node, binding, enabled, _tooltip in active
        ]  # fmt: skip
        drawn = (tuple(bindings), self.size, self._rows_below(), self.app.theme, self.app.classes)
        if drawn == self._drawn:
            return
        self._drawn = drawn
        key_style = self.get_component_rich_style("key-footer--key")
        text_style = self.get_component_rich_style("key-footer--description")
        dim = Style(dim=True)
        seen: set[str] = set()
        width = self.size.width - self.gutter.width
        lines = [Text(no_wrap=True, overflow="crop")]
        spots: list[tuple[int, int, int, str, str]] = []
        words: set[str] = set()
        for node, binding, enabled, _tooltip in active:
            if not binding.show or binding.action in seen:
                continue
            if node is self.app and binding.description in words:
                continue  # the app's ctrl+q "Quit" when the screen's own q already says it
            seen.add(binding.action)
            words.add(binding.description)
            key = self.app.get_key_display(binding)
            size = len(key) + len(binding.description) + 3
            line = lines[-1]
            if line.cell_len and width > 0 and line.cell_len + size > width and len(lines) < 2:
                line = Text(no_wrap=True, overflow="crop")  # the keys wrap onto a second row
                lines.append(line)
            start = line.cell_len
            line.append(f" {key} ", style=key_style + dim if not enabled else key_style)
            line.append(
                f"{binding.description} ", style=text_style + dim if not enabled else text_style
            )
            spots.append((len(lines) - 1, start, line.cell_len, binding.key, binding.description))
        self._spots = spots
        while len(lines) < self._rows_below():
            lines.append(Text(no_wrap=True, overflow="crop"))  # covers the footer underneath
        if self.styles.height is None or self.styles.height.value != len(lines):
            self.styles.height = len(lines)  # a relayout only when the keys need another row
        self.show_lines(lines)

    def _rows_below(self) -> int:
        """On a modal screen, the rows of the footer of the screen under it (0 elsewhere): the
        modal's footer is as tall, so only the modal's keys show, none of the table's below."""
        screen = self.screen
        if not isinstance(screen, ModalScreen):
            return 0
        stack = self.app.screen_stack
        if screen not in stack or stack.index(screen) == 0:
            return 0
        below = stack[stack.index(screen) - 1]
        footers = [node for node in below.children if isinstance(node, KeyFooter)]
        return max(footers[0].rows, footers[0].size.height) if footers else 0

    @property
    def shown(self) -> dict[str, tuple[int, int]]:
        """Each key's description and the columns it takes (those past the width are cut off)."""
        width = self.size.width - self.gutter.width
        return {d: (a, min(b, width)) for _r, a, b, _k, d in self._spots if a < width}

    @property
    def rows(self) -> int:
        """How many rows the keys take (two when one row cannot hold them)."""
        return 1 + max((r for r, *_ in self._spots), default=0)

    def on_click(self, event: events.Click) -> None:
        for row, start, end, key, _description in self._spots:
            if row == event.y and start <= event.x < end:
                self.app.simulate_key(key.split(",")[0])
                return
