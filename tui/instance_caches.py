"""Textual methods memoised per process with their instance in the key, cached without it.

Owns `install`. Three methods of Textual are wrapped in `functools.lru_cache` as plain methods,
so the process-wide cache keys hold ``self`` and keep up to 1,024 instances alive after their
owner is gone: `StylesCache.get_inner_outer` (every widget has a styles cache, and with it its
cached lines — strips, each with its own caches), `XTermParser._parse_extended_key` (one
parser per session) and `ANSIToTruecolor.truecolor_style` (one filter per session). On a
server, every ended session's widgets stayed reachable from those caches: in-process, ten
logins that open the new-game form, the lobby and the rules left ~60,000 live objects behind
(34,000 of them the caches of 4,800 strips) that no release or collection could free.

`get_inner_outer` does not use its instance: it is cached by its arguments alone, process-wide.
The other two depend on their instance (a parser's events are posted to its own app, a filter
has its theme): each instance keeps its own bounded cache, which dies with it.

Textual is pinned exactly (pyproject); `tests/tui/test_instance_caches.py` checks results and
that the instances die. Must not: change what any of the methods returns.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.filter import ANSIToTruecolor

__all__ = ["SLOT_PREFIX", "install"]

MAX_ENTRIES = 1024  # as Textual's own caches
SLOT_PREFIX = "_speedway_cache_"  # the instance attribute that holds a method's cache

_installed = False


def _per_instance(method: Any) -> Callable[..., Any]:
    """``method`` (an `lru_cache`-wrapped method) cached in a dict of each instance instead."""
    compute = method.__wrapped__
    slot = f"{SLOT_PREFIX}{compute.__name__}"

    @functools.wraps(compute)
    def cached(self: Any, *args: Any) -> Any:
        cache: dict[tuple[Any, ...], Any] | None = self.__dict__.get(slot)
        if cache is None:
            cache = self.__dict__[slot] = {}
        try:
            return cache[args]
        except KeyError:
            pass
        value = compute(self, *args)
        if len(cache) >= MAX_ENTRIES:
            cache.clear()
        cache[args] = value
        return value

    return cached


def install() -> None:
    """Replace the three caches once per process (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    inner_outer = StylesCache.get_inner_outer.__wrapped__

    @functools.lru_cache(MAX_ENTRIES)
    def get_inner_outer(base_background: Any, background: Any) -> Any:
        return inner_outer(None, base_background, background)  # it never reads its instance

    def get_inner_outer_method(self: Any, base_background: Any, background: Any) -> Any:
        return get_inner_outer(base_background, background)

    StylesCache.get_inner_outer = get_inner_outer_method  # type: ignore[method-assign,assignment]
    XTermParser._parse_extended_key = _per_instance(  # type: ignore[method-assign,assignment]
        XTermParser._parse_extended_key
    )
    ANSIToTruecolor.truecolor_style = _per_instance(  # type: ignore[method-assign,assignment]
        ANSIToTruecolor.truecolor_style
    )
