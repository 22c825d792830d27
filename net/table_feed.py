"""One stream per table per worker: this process's spectators of a table owned elsewhere.

Owns `SpectatorFeeds` (the feeds of one `net.bus_hub.BusHub`), `_Feed` (one table) and
`FeedWatch` (one session's `net.hub.Watch` on a feed). Spectators see a public table from one
perspective, so a worker follows the owner's stream for them once (`net.remote_watch`, one
viewer at the owner that says how many spectators it stands for) and hands every update, the
same objects, to each of its sessions' own bounded queues (`net.viewer.Viewer`). Those
sessions' screens then fold the same updates at the same moment, and their frames can be
shared (`net.mirror`) like those of spectators at a local table.

A session that joins a running feed gets a `Welcome` made from the feed's own fold of the
stream (the first `Welcome`'s events plus every step's since, the latest table info), then
the feed's next updates: snapshot plus position, with nothing between the two. A gap or a new
owner makes the shared stream resync (`RemoteWatch`): the fresh `Welcome` goes to every
session. When the table moves into this process, each session follows it as a local viewer;
when the stream ends, every session's stream ends. The last session leaving closes the feed.

Must not: redact (the owner did, for the spectators' perspective), serve a seat's view or a
private table (those keep a stream of their own), or change the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import msgspec

from core.game import Game
from net.hub import (
    HubError,
    Identity,
    Notice,
    StepUpdate,
    TableChanged,
    TableInfo,
    Update,
    Watch,
    Welcome,
)
from net.remote_watch import RemoteWatch
from net.viewer import Viewer

if TYPE_CHECKING:
    from net.bus_hub import BusHub

__all__ = ["FeedWatch", "SpectatorFeeds"]

log = logging.getLogger("speedway.bus")

REWEIGH_AFTER = 0.1  # seconds: spectators coming and going are told to the owner together


class FeedWatch:
    """One session's stream of a shared feed (implements `net.hub.Watch`)."""

    def __init__(self, feed: _Feed, who: Identity, max_queue: int) -> None:
        self._feed = feed
        self.who = who
        self.table_id = feed.table_id
        self.viewer = Viewer(
            feed.table_id, who, None, max_queue=max_queue, forget=lambda _v: feed.leave(self)
        )
        self.welcomed = False  # it has had a Welcome (then every update after it)
        self.moved_here = False
        self._local: Watch | None = None
        self.closed = False

    def __aiter__(self) -> AsyncIterator[Update]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Update]:
        async for update in self.viewer:
            yield update
        if self.moved_here and not self.closed:
            # The table moved into this process: follow it as any local spectator does.
            try:
                self._local = self._feed.hub.local.watch(self.table_id, self.who, None)
            except HubError as err:  # (gone again in the meantime)
                yield Notice(text=str(err))
            else:
                async for update in self._local:
                    yield update
        self.closed = True

    async def close(self) -> None:
        self.closed = True
        await self.viewer.close()
        if self._local is not None:
            await self._local.close()


class _Feed:
    """One table's shared spectator stream in this process."""

    def __init__(self, feeds: SpectatorFeeds, table_id: str, game: Game) -> None:
        self.feeds = feeds
        self.hub = feeds.hub
        self.table_id = table_id
        self.game = game
        self.sessions: list[FeedWatch] = []
        # The feed's fold of the stream: what a session joining now is welcomed with.
        self.table: TableInfo | None = None
        self.config: Any = None
        self.events: list[Any] = []
        self.state_id = 0
        self.turns = 0  # turns begun since ``table`` was current
        self.updates = 0  # updates read from the stream (for tests and the trace)
        self.closed = False
        who = Identity(id=f"feed:{self.hub.bus.worker}", nickname="spectators")
        self.remote = RemoteWatch(
            self.hub,
            table_id,
            who,
            None,
            game,
            follow_local=False,
            weight=lambda: max(1, len(self.sessions)),
        )
        self._reweigh: asyncio.TimerHandle | None = None
        self._task = asyncio.get_running_loop().create_task(
            self._pump(), context=contextvars.Context()
        )

    # ------------------------------------------------------------ sessions

    def join(self, who: Identity) -> FeedWatch:
        session = FeedWatch(self, who, self.hub.local.max_queue)
        self.sessions.append(session)
        if self.table is not None:  # a running stream: its snapshot, then what follows
            session.viewer.put(self.snapshot())
            session.welcomed = True
        self._weight_changed()
        return session

    def snapshot(self) -> Welcome:
        assert self.table is not None
        table = msgspec.structs.replace(
            self.table, state_id=self.state_id, turn=self.table.turn + self.turns
        )
        return Welcome(
            table=table,
            seat=None,
            config=self.config,
            events=list(self.events),
            state_id=self.state_id,
        )

    def leave(self, session: FeedWatch) -> None:
        if session in self.sessions:
            self.sessions.remove(session)
        if not self.sessions:
            self.close()
        else:
            self._weight_changed()

    def _weight_changed(self) -> None:
        if self._reweigh is None and not self.closed:
            self._reweigh = asyncio.get_running_loop().call_later(REWEIGH_AFTER, self._send_weight)

    def _send_weight(self) -> None:
        self._reweigh = None
        if not self.closed:
            self.remote.reweigh(max(1, len(self.sessions)))

    # ------------------------------------------------------------ the stream

    async def _pump(self) -> None:
        try:
            async for update in self.remote:
                self.updates += 1
                self._fold(update)
                for session in list(self.sessions):
                    if isinstance(update, Welcome):
                        session.welcomed = True
                    elif not session.welcomed and isinstance(update, StepUpdate | TableChanged):
                        continue  # (it gets the Welcome first: no step before its snapshot)
                    session.viewer.put(update)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the shared spectator stream failed", self.table_id)
        finally:
            moved = self.remote.moved_here
            for session in list(self.sessions):
                session.moved_here = moved
                session.viewer.end()
            self.close()

    def _fold(self, update: Update) -> None:
        if isinstance(update, Welcome):
            self.table, self.config = update.table, update.config
            self.events = list(update.events)
            self.state_id = update.state_id
            self.turns = 0
        elif isinstance(update, StepUpdate):
            self.events += update.events
            self.state_id = update.state_id
            self.turns += sum(1 for event in update.events if self.game.turn_started(event))
        elif isinstance(update, TableChanged):
            self.table = update.table
            self.turns = 0

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._reweigh is not None:
            self._reweigh.cancel()
            self._reweigh = None
        self.feeds.forget(self)
        if asyncio.current_task() is not self._task:
            self._task.cancel()
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(
                self.remote.close(), context=contextvars.Context()
            )


class SpectatorFeeds:
    """The shared spectator streams of one `BusHub`, one per table owned elsewhere."""

    def __init__(self, hub: BusHub) -> None:
        self.hub = hub
        self._feeds: dict[str, _Feed] = {}

    def watch(self, table_id: str, who: Identity, game: Game) -> FeedWatch:
        feed = self._feeds.get(table_id)
        if feed is None or feed.closed:
            feed = self._feeds[table_id] = _Feed(self, table_id, game)
        return feed.join(who)

    def forget(self, feed: _Feed) -> None:
        if self._feeds.get(feed.table_id) is feed:
            del self._feeds[feed.table_id]

    def feed(self, table_id: str) -> _Feed | None:
        """The live feed of ``table_id`` (for tests and the trace)."""
        return self._feeds.get(table_id)

    def close(self) -> None:
        for feed in list(self._feeds.values()):
            for session in list(feed.sessions):
                session.viewer.end()
            feed.close()
