"""A screen's work between two messages gives the event loop back once it has run its share.

Owns `install`. Every SSH session of a server runs its app on the one shared event loop, and
a Textual message pump handles every message already queued before it awaits anything: opening
the new-game form is one run of its screen's pump through ~40 messages (a resume, a resize,
three layouts of the whole form), 50-80 ms of CPU during which no other table's step reaches
any screen. Patched here: when a pump has run `TURN` seconds since it last waited, it yields
once (`asyncio.sleep(0)`) before taking its next queued message, so the other sessions' work
runs in between. Nothing is reordered: the pump's own messages stay in its queue, in order.

Textual is pinned exactly (pyproject); `tests/tui/test_fairness.py` checks that a long run of
messages lets other work in, in order. Must not: drop, reorder or merge a message.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from textual.message import Message
from textual.message_pump import MessagePump

__all__ = ["TURN", "install"]

TURN = 0.004  # seconds a pump runs through queued messages before it lets others in

_installed = False
_SINCE = "_speedway_since"  # when the pump last came back from a wait (its __dict__)


def install() -> None:
    """Patch `MessagePump._get_message` once per process (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    get_message = MessagePump._get_message

    async def get_message_in_turn(self: MessagePump) -> Message:
        queue: Any = self._message_queue
        if self._pending_message is None and queue.empty():
            message = await get_message(self)  # waits: the loop ran others meanwhile
            self.__dict__[_SINCE] = time.perf_counter()
            return message
        now = time.perf_counter()
        since = self.__dict__.get(_SINCE)
        if since is None:
            self.__dict__[_SINCE] = now
        elif now - since >= TURN:
            await asyncio.sleep(0)
            self.__dict__[_SINCE] = time.perf_counter()
        return await get_message(self)

    MessagePump._get_message = get_message_in_turn  # type: ignore[method-assign]
