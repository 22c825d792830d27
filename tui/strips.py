"""No reference cycles from Textual's `Strip` caches: garbage that reference counting frees.

Owns `install`. Textual's `Strip` memoises its own results, and two of its methods return the
strip itself and store *itself* in its own cache when there is nothing to do: `divide` at a
single cut at its end (the compositor does that for almost every line of every frame) and
`crop_extend` to its own length. Each such strip is then a reference cycle, which only the
cyclic collector can free; with a hundred sessions in one process that was tens of thousands
of objects every few seconds and collections of 100 ms and more (measured with the load
benchmark's GC trace). Returning the strip without caching it gives the same result, costs one
comparison, and lets a strip die the moment it is dropped.

Textual is pinned exactly (pyproject); the test `tests/tui/test_strips.py` checks the results
and that no cycle is left. Must not: change any strip a method
returns.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.strip import Strip

__all__ = ["install"]

_installed = False
def install() -> None:
    """Patch `Strip.divide` and `Strip.crop_extend` once per process (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    divide = Strip.divide
    crop_extend = Strip.crop_extend

    def divide_without_self_cycle(self: Strip, cuts: Iterable[int]) -> list[Strip]:
        cell_length = self.cell_length
        wanted = [cut for cut in cuts if cut <= cell_length]
        if wanted == [cell_length]:
            return [self]  # what Textual returns, but not kept in self's own cache
        return divide(self, wanted)  # type: ignore[return-value]

    def crop_extend_without_self_cycle(self: Strip, start: int, end: int, style: Any) -> Strip:
        if start == 0 and end == self.cell_length:
            return self
        return crop_extend(self, start, end, style)

    Strip.divide = divide_without_self_cycle  # type: ignore[method-assign]
    Strip.crop_extend = crop_extend_without_self_cycle  # type: ignore[method-assign]
