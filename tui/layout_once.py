"""A new screen is laid out once, not three times: two Textual habits that cost a relayout.

Owns `install`. Measured on the new-game form over SSH (80x24): opening it ran three full
layouts of the screen, 42, 22 and 11 ms, on the event loop every session shares.

- The first layout tells every widget its size (`Widget._size_updated`), which sets the
  widget's ``virtual_size`` reactive, declared ``layout=True``: the first size of every widget
  asks for the whole screen to be laid out again. The layout that computed the size already used it;
  what else can follow from a new virtual size is a scrollbar coming or going, and
  `_size_updated` then asks for that layout itself (``show_vertical_scrollbar`` is a layout
  reactive of its own). No widget watches ``virtual_size``. So it is set without asking for a
  layout: Textual's own ``layout=False`` path, which it takes for widgets scrolled into view.
- Every screen that opens shows its notifications (`ToastRack.show`), which sets the rack's
  ``display`` to False when there are none. The rack is already hidden by its CSS, but an
  inline rule set for the first time counts as a change and lays the screen out again. The
  rule is now set only when the rack's display actually changes.

Textual is pinned exactly (pyproject). `tests/tui/test_layout_once.py` checks that neither asks
for a layout any more, that a scrollbar that comes or goes still does and that toasts still
show; every snapshot test draws the same frames as before. Must not: skip a layout that would
change what is drawn.
"""

from __future__ import annotations

from typing import Any

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets._toast import ToastRack

__all__ = ["install"]

_installed = False


def install() -> None:
    """Patch `Widget._size_updated` and `ToastRack.show` once per process (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    size_updated = Widget._size_updated
    show = ToastRack.show

    def size_updated_without_relayout(
        self: Widget, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return size_updated(self, size, virtual_size, container_size, False)

    def show_without_relayout(self: ToastRack, notifications: Any) -> None:
        if not notifications and not self.display and not self.children:
            return  # hidden, nothing to show or take away: Textual would only relayout
        show(self, notifications)

    Widget._size_updated = size_updated_without_relayout  # type: ignore[method-assign]
    ToastRack.show = show_without_relayout  # type: ignore[method-assign]
