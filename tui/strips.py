"""No reference cycles from Textual's `Strip` caches: garbage that reference counting frees.

Owns `install`. Textual's `Strip` memoises its own results, and two of its methods return the
strip itself and store *itself* in its own cache when there is nothing to do: `divide` at a
single cut at its end (the compositor does that for almost every line of every frame) and
`crop_extend` to its own length. Each such strip is then a reference cycle, which only the
cyclic collector can free; with a hundred sessions in one process that was tens of thousands
of objects every few seconds and collections of 100 ms and more (measured with the load
benchmark's GC trace). Returning the strip without caching it gives the same result, costs one
comparison, and lets a strip die the moment it is dropped.

Four of a strip's seven caches never hit in this program: measured over whole table games of
all three kinds and a server with a probe player opening every screen, `crop`, `crop_extend`,
`apply_style` and `apply_offsets` were asked again for the same result 0 times in 4,300 calls
(`divide`, `apply_filter` and `adjust_cell_length` hit, and keep theirs). Every strip still
allocated those four caches with a dict each (512 bytes of its ~1.3 KiB, and 8 of the 16
allocations of a new strip), and each kept the strips it returned alive as long as itself.
`install` gives new strips one shared cache that keeps nothing in those four places
(`NO_CACHE`). The three that hit are made when first asked (most strips are never divided,
filtered or resized: only a widget's finished lines and the compositor's chops are): a strip
was three `FIFOCache` objects and three dicts more, and their making was half the cost of
building a strip, for every segment list turned into a line.

A filter that changes none of a strip's segments (the SSH session's `ANSIToTruecolor` on a line
with no system colour and no dim colour: most lines) answers with the strip itself, and its
cache keeps a marker, not a copy: a drawn line kept in a process-wide cache (`LineBox`'s
`_TEXT_STRIPS`) was kept twice, itself and its filtered twin with the same segments.

Textual is pinned exactly (pyproject); the test `tests/tui/test_strips.py` checks the results,
that no cycle is left and that a strip keeps no result of those four methods. Must not: change
any strip a method returns.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.cache import FIFOCache
from textual.strip import Strip

__all__ = ["NO_CACHE", "install"]


class _NoCache:
    """Answers like an empty `FIFOCache` and stays empty (shared by every strip)."""

    __slots__ = ()

    def get(self, key: Any, default: Any = None) -> Any:
        return default

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def __getitem__(self, key: Any) -> Any:
        raise KeyError(key)

    def __len__(self) -> int:
        return 0

    def keys(self) -> tuple[()]:
        return ()

    def clear(self) -> None:
        pass


NO_CACHE: Any = _NoCache()

_UNCHANGED: Any = object()
"""Kept in a strip's filter cache where the filter changes none of its segments (no system
colour, no dim colour: most lines): the strip itself is the answer, and no copy is kept."""

_installed = False


def install() -> None:
    """Patch `Strip.__init__` and the methods with caches once per process (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    divide = Strip.divide
    crop_extend = Strip.crop_extend
    adjust_cell_length = Strip.adjust_cell_length

    def divide_without_self_cycle(self: Strip, cuts: Iterable[int]) -> list[Strip]:
        cell_length = self.cell_length
        wanted = [cut for cut in cuts if cut <= cell_length]
        if wanted == [cell_length]:
            return [self]  # what Textual returns, but not kept in self's own cache
        if self._divide_cache is NO_CACHE:
            self._divide_cache = FIFOCache(4)
        return divide(self, wanted)  # type: ignore[return-value]

    def apply_filter_with_its_cache(self: Strip, line_filter: Any, background: Any) -> Strip:
        cache = self._filter_cache
        if cache is NO_CACHE:
            cache = self._filter_cache = FIFOCache(4)
        key = (line_filter, background)
        kept = cache.get(key)
        if kept is None:
            segments = self._segments
            filtered = line_filter.apply(segments, background)
            if all(
                (new.style is old.style or new.style == old.style)
                and new.text == old.text
                and not old.control
                for new, old in zip(filtered, segments, strict=True)
            ):
                kept = _UNCHANGED  # (not the strip itself: that would be a cycle again)
            else:
                kept = Strip(filtered, self._cell_length)
            cache[key] = kept
        return self if kept is _UNCHANGED else kept

    def adjust_cell_length_with_its_cache(
        self: Strip, cell_length: int, style: Any = None
    ) -> Strip:
        if self._line_length_cache is NO_CACHE:
            self._line_length_cache = FIFOCache(4)
        return adjust_cell_length(self, cell_length, style)

    def crop_extend_without_self_cycle(self: Strip, start: int, end: int, style: Any) -> Strip:
        if start == 0 and end == self.cell_length:
            return self
        return crop_extend(self, start, end, style)

    def init_with_three_caches(
        self: Strip, segments: Iterable[Any], cell_length: int | None = None
    ) -> None:
        # Textual's own constructor, with `NO_CACHE` in the four caches that never hit, and
        # in the three that do until they are first asked (above).
        self._segments = list(segments)
        self._cell_length = cell_length
        self._divide_cache = NO_CACHE
        self._crop_cache = NO_CACHE
        self._style_cache = NO_CACHE
        self._filter_cache = NO_CACHE
        self._line_length_cache = NO_CACHE
        self._crop_extend_cache = NO_CACHE
        self._offsets_cache = NO_CACHE
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    Strip.divide = divide_without_self_cycle  # type: ignore[method-assign]
    Strip.apply_filter = apply_filter_with_its_cache  # type: ignore[method-assign,assignment]
    Strip.adjust_cell_length = adjust_cell_length_with_its_cache  # type: ignore[method-assign]
    Strip.crop_extend = crop_extend_without_self_cycle  # type: ignore[method-assign]
    Strip.__init__ = init_with_three_caches  # type: ignore[method-assign]
