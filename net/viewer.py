"""One viewer's stream of updates for one table: a bounded queue the hub fills and a screen reads.

Owns `Viewer` (the implementation of `net.hub.Watch`): who is watching, from which seat, and
the updates not yet read. A viewer that falls ``max_queue`` updates behind is told so and its
stream ends (it may reopen the table and get a fresh `Welcome`), so a stuck screen never makes
the hub buffer without bound.

Must not: know tables, rooms or games, decide what a viewer may see (the hub redacts before it
puts), or block the hub (``put`` never waits).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable

from net.hub import Identity, Notice, Update

__all__ = ["CLOSE", "Viewer"]


class _Closed:
    """Sentinel ending a viewer's stream."""


CLOSE = _Closed()


class Viewer:
    """One viewer of one table (see the module docstring).

    ``forget`` is called once when the stream ends by itself (closed by the viewer, or dropped
    for falling behind) so the hub can stop counting it; ``end()`` (the hub ending the stream)
    does not call it.
    """

    def __init__(
        self,
        table_id: str,
        who: Identity,
        seat: int | None,
        *,
        max_queue: int,
        forget: Callable[[Viewer], None],
    ) -> None:
        self.table_id = table_id
        self.who = who
        self.seat = seat
        self._max_queue = max_queue
        self._forget = forget
        self._items: deque[Update | _Closed] = deque()
        self._ready = asyncio.Event()
        self.closed = False
        # How many spectators this viewer stands for (a worker's one stream that fans out to
        # all its spectators of the table, `net.table_feed`): the lobby counts them all.
        self.weight = 1

    def put(self, item: Update) -> None:
        """Queue one update (never waits; a viewer too far behind is ended instead)."""
        if self.closed:
            return
        if len(self._items) >= self._max_queue:
            # A viewer this far behind cannot catch up by folding; end its stream (it may
            # reopen and get a fresh Welcome) instead of buffering without bound.
            self._items.clear()
            self._items.append(Notice(text="You fell too far behind; reopen the table."))
            self._items.append(CLOSE)
            self.closed = True
            self._forget(self)
        else:
            self._items.append(item)
        self._ready.set()

    def end(self) -> None:
        """The hub ends this stream (shutdown, table gone): queued updates are still read."""
        if not self.closed:
            self.closed = True
            self._items.append(CLOSE)
            self._ready.set()

    def __aiter__(self) -> AsyncIterator[Update]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Update]:
        while True:
            while not self._items:
                self._ready.clear()
                await self._ready.wait()
            item = self._items.popleft()
            if isinstance(item, _Closed):
                return
            yield item

    async def close(self) -> None:
        """The viewer is done: its stream ends and the hub forgets it."""
        if not self.closed:
            self.end()
            self._forget(self)
