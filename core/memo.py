"""`memo`: the cache for the rules' pure helpers (hand tuples, track routes, card sums).

A server runs a few dozen races at once, each asking the same few hands and routes again and
again within a step or two, so a small cache hits as often as a large one: measured with 25
races of bots interleaved step by step, 512 entries per helper played Cthulhu 500 and Champions
5-10 % faster than with 8,192, and a game's helpers together hold about 1.5 MiB instead of
14-16 MiB, which a long-running server otherwise gained over its first hundred races (issue 11:
memory flat over an evening). Helpers that are costly to recompute and rarely asked (Go 500's optimal tables)
size their own caches.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["memo"]

memo = lru_cache(maxsize=512)
