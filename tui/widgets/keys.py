"""`KeyFooter`: the screen's keys in one drawn line, cheap to open and to keep.

Owns `KeyFooter`, used by every Speedway screen instead of Textual's `Footer`. Textual's footer
is a container of one widget per key that it removes and mounts again every time the bindings
change (a screen opening, the focus moving): with many sessions in one process that is CPU every
other player waits for. This one is a single `LineBox`: it writes "key description" pairs for the
bindings the screen shows (one per action, as `Footer` does; a binding the screen reports as
disabled is dimmed, one it hides is left out) and repaints only when that line changes. A click
on a key presses it.

Must not: decide what a key does (that is each screen's `BINDINGS` and `check_action`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events

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
        self._spots: list[tuple[int, int, str, str]] = []  # (x from, x to, key, description)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self.draw)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: Any) -> None:
        if self.is_attached:
            self.draw()

    def draw(self) -> None:
        """Write the keys line from the screen's active bindings."""
        key_style = self.get_component_rich_style("key-footer--key")
        text_style = self.get_component_rich_style("key-footer--description")
        dim = Style(dim=True)
        seen: set[str] = set()
        line = Text(no_wrap=True, overflow="crop")
        spots: list[tuple[int, int, str, str]] = []
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            start = line.cell_len
            key = self.app.get_key_display(binding)
            line.append(f" {key} ", style=key_style + dim if not enabled else key_style)
            line.append(f"{binding.description} ", style=text_style + dim if not enabled else text_style)
            spots.append((start, line.cell_len, binding.key, binding.description))
        self._spots = spots
        self.show_lines([line])

    @property
    def shown(self) -> dict[str, tuple[int, int]]:
        """Each key's description and the columns it takes (those past the width are cut off)."""
        width = self.size.width - self.gutter.width
        return {d: (a, min(b, width)) for a, b, _k, d in self._spots if a < width}

    def on_click(self, event: events.Click) -> None:
        for start, end, key, _description in self._spots:
            if start <= event.x < end:
                self.app.simulate_key(key.split(",")[0])
                return
