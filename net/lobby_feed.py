"""Following a lobby: each session waits on its own event, a change wakes them all.

Owns `follow_lobby`, the one loop both hubs (`net.local_hub`, `net.bus_hub`) serve their
``watch_lobby`` with: yield the tables as this session may see them, wait for a change, and
coalesce a burst of changes into one update per ``interval`` seconds.

Must not: know what a table is or decide who sees it (the hub's ``snapshot`` does).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from typing import TypeVar

__all__ = ["follow_lobby", "wake"]

T = TypeVar("T")


def wake(waiters: list[asyncio.Event]) -> None:
    """Tell every following session that the lobby changed."""
    for event in waiters:
        event.set()


async def follow_lobby(
    waiters: list[asyncio.Event], snapshot: Callable[[], T], interval: Callable[[], float]
) -> AsyncGenerator[T, None]:
    """``snapshot()`` now and after every change (at most one per ``interval()`` seconds)."""
    changed = asyncio.Event()
    waiters.append(changed)
    try:
        while True:
            changed.clear()
            yield snapshot()
            await changed.wait()
            pause = interval()
            if pause > 0:
                await asyncio.sleep(pause)  # coalesce bursts of changes
    finally:
        waiters.remove(changed)
