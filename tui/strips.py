"""Textual's `Strip` without reference cycles and without seven caches made up front.

Owns `install`. Textual's `Strip` memoises its own results, and two of its methods return the
strip itself and store *itself* in its own cache when there is nothing to do: `divide` at a
single cut at its end (the compositor does that for almost every line of every frame) and
`crop_extend` to its own length. Each such strip is then a reference cycle, which only the
cyclic collector can free; with a hundred sessions in one process that was tens of thousands
of objects every few seconds and collections of 100 ms and more (measured with the load
benchmark's GC trace). Returning the strip without caching it gives the same result, costs one
comparison, and lets a strip die the moment it is dropped.

Every `Strip` also made seven small caches in its constructor (about fifteen objects for the
collector to track, for every line of every frame); most strips are thrown away before any
cache is used. Here a strip makes each cache the first time a method asks for it (slots are
filled on first use by `__getattr__`), which removed about a twelfth of the server's CPU at 100
sessions (py-spy: `Strip.__init__` 8 % of samples) and most of the young collections' work.

Textual is pinned exactly (pyproject); the test `tests/tui/test_strips.py` checks the results,
that no cycle is left and that caches appear when used. Must not: change any strip a method
returns.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.cache import FIFOCache
from textual.strip import Strip

__all__ = ["install"]

_installed = False
_CACHE_SIZES = {  # as Textual's Strip.__init__ makes them
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}


def _lean_init(self: Strip, segments: Iterable[Any], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _cache_on_first_use(self: Strip, name: str) -> Any:
    size = _CACHE_SIZES.get(name)
    if size is None:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    cache: FIFOCache[Any, Any] = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def install() -> None:
    """Patch `Strip` once per process (idempotent): no self-cycles, caches made on first use."""
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
        return divide(self, wanted)

    def crop_extend_without_self_cycle(self: Strip, start: int, end: int, style: Any) -> Strip:
        if start == 0 and end == self.cell_length:
            return self
        return crop_extend(self, start, end, style)

    Strip.__init__ = _lean_init  # type: ignore[method-assign]
    Strip.__getattr__ = _cache_on_first_use  # type: ignore[attr-defined]
    Strip.divide = divide_without_self_cycle  # type: ignore[method-assign]
    Strip.crop_extend = crop_extend_without_self_cycle  # type: ignore[method-assign]
