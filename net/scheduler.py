"""Automatic play at a table: bots after a delay, turn timers, stand-ins for away players.

Owns `Timing` (the hub's defaults for bot delay, away grace and turn timer, and whether a bot
may play an away human's seat), `next_auto` (the earliest automatic action a room is due, as a
pure function of the room and a time) and `Scheduler` (one task per running room that sleeps
until that deadline, or until the room's ``wake`` event says something changed, and then asks
the hub to play).

Must not: accept actions itself or touch the log (it calls the hub's ``play``), or decide what
is legal (the seat's bot suggests, the core validates).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from core.game import IllegalAction
from net.hub import HubError
from net.room import Room, TableStatus

__all__ = ["Auto", "Scheduler", "Timing", "next_auto"]

log = logging.getLogger("speedway.hub")

Reason = Literal["bot", "away", "timer"]


@dataclass(frozen=True, slots=True)
class Timing:
    bot_delay: float
    away_grace: float
    turn_timer: float | None
    away_bots: bool


class Auto(NamedTuple):
    """An automatic action due at ``deadline`` (the hub's clock) for ``seat``, and why."""

    deadline: float
    seat: int
    reason: Reason


def next_auto(room: Room, timing: Timing) -> Auto | None:
    """The earliest automatic action ``room`` is due, or None (a table's own spec wins)."""
    if room.status is not TableStatus.RUNNING or room.stopped is not None:
        return None
    spec = room.spec
    bot_delay = spec.bot_delay if spec.bot_delay is not None else timing.bot_delay
    grace = spec.away_grace if spec.away_grace is not None else timing.away_grace
    timer = spec.turn_timer if spec.turn_timer is not None else timing.turn_timer
    best: Auto | None = None
    for seat in room.table.pending():
        slot = room.slots[seat]
        holder = slot.holder
        if room.table.seats[seat].is_bot or slot.open:
            cand = Auto(room.step_time + bot_delay, seat, "bot")
        elif holder is not None and holder in room.away_since and timing.away_bots:
            since = room.away_since[holder]
            cand = Auto(max(since + grace, room.step_time + bot_delay), seat, "away")
        elif timer is not None:
            cand = Auto(room.step_time + timer, seat, "timer")
        else:
            continue
        if best is None or cand.deadline < best.deadline:
            best = cand
    return best


Play = Callable[[Room, int, Reason], Awaitable[None]]
Stop = Callable[[Room, str], None]


class Scheduler:
    """One task per running room (see the module docstring).

    ``play(room, seat, reason)`` makes the automatic move (raising `IllegalAction` if refused);
    ``stop(room, why)`` stops a room whose bot crashed.
    """

    def __init__(self, timing: Timing, clock: Callable[[], float], play: Play, stop: Stop) -> None:
        self.timing = timing
        self.clock = clock
        self._play = play
        self._stop = stop
        self.closing = False

    def kick(self, room: Room) -> None:
        """Wake the room's task (starting it if this is the first time in a loop)."""
        room.wake.set()
        if room.task is None or room.task.done():
            if room.status is not TableStatus.RUNNING or self.closing:
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop yet: the hub's `start()` or its first async call will kick it
            # An empty context: the scheduler must not inherit a Textual app's context vars.
            room.task = loop.create_task(self._run(room), context=contextvars.Context())

    async def stop_all(self, rooms: list[Room]) -> None:
        self.closing = True
        tasks = [r.task for r in rooms if r.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, room: Room) -> None:
        while not self.closing and room.status is TableStatus.RUNNING:
            room.wake.clear()
            nxt = next_auto(room, self.timing)
            if nxt is None:
                await room.wake.wait()
                continue
            delay = nxt.deadline - self.clock()
            if delay > 0:
                # Not asyncio.wait_for: on 3.11 it can swallow a cancellation that arrives as
                # the event fires, and the scheduler would then outlive its hub.
                waiter = asyncio.ensure_future(room.wake.wait())
                try:
                    await asyncio.wait({waiter}, timeout=delay)
                finally:
                    waiter.cancel()
                if room.wake.is_set():
                    continue  # something changed: look again
            if next_auto(room, self.timing) != nxt:
                continue
            try:
                await self._play(room, nxt.seat, nxt.reason)
            except HubError as err:  # the table stopped under this move (its log failed)
                log.warning("table %s: automatic play stopped: %s", room.id, err)
                return
            except IllegalAction as err:
                log.warning(
                    "table %s: automatic play for seat %d refused: %s", room.id, nxt.seat, err
                )
                await asyncio.sleep(max(0.05, self.timing.bot_delay))
            except Exception:
                log.exception("table %s: bot crashed; table paused", room.id)
                self._stop(room, "a bot crashed; the table is paused.")
                return
            await asyncio.sleep(0)
