"""One table as a hub keeps it: the core table, one slot per seat, a typed status, its viewers.

Owns `Room`, `SeatSlot` and `TableStatus`. Every seat has exactly one `SeatSlot` (who holds it,
whether it is open, whether its holder is a guest, which bot stands in for an absent holder),
and `Room.sit` / `Room.vacate` are the only writers of a slot and of the core table's `Seat`
beside it, so the two never drift apart. `Room.info` words the room as the lobby's
`net.hub.TableInfo`; `Room.record` is its durable `net.persist.TableRecord`.

Must not: schedule, broadcast, write files or raise at players (that is `net.local_hub`); it
holds what the hub decided and answers questions about it.
"""

from __future__ import annotations

import asyncio
import enum
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.game import Game, Seat, Table
from net.hub import Identity, SeatInfo, TableInfo, TableSpec
from net.persist import TableRecord

if TYPE_CHECKING:
    from net.viewer import Viewer

__all__ = ["OPEN_NAME", "Room", "SeatSlot", "TableStatus"]

OPEN_NAME = "(open seat)"


class TableStatus(enum.StrEnum):
    WAITING = "waiting"  # open seats left; nothing is played yet
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(slots=True)
class SeatSlot:
    """One seat as the hub sees it (the core `Seat` beside it has the name and the bot)."""

    holder: str | None = None  # the identity sitting here (None: a bot's seat, or open)
    open: bool = False  # anyone may sit here
    guest: bool = False  # the holder is a guest (their identity dies with the connection)
    stand_in: str | None = None  # the bot playing for an absent or timed-out holder


class Room:
    """One table as the hub keeps it (see the module docstring)."""

    def __init__(self, table_id: str, game: Game, table: Table, spec: TableSpec) -> None:
        self.id = table_id
        self.game = game
        self.table = table
        self.spec = spec
        self.summary = game.config_words(table.config)  # the options never change: word them once
        self.slots = [SeatSlot(holder=s.identity) for s in table.seats]
        self.status = TableStatus.WAITING
        self.viewers: list[Viewer] = []
        self.away_since: dict[str, float] = {}  # identity -> when it went away
        self.invited: set[str] = set()
        self.invite_code: str | None = None
        self.creator = ""
        self.commitment = ""
        self.replay_id: str | None = None
        self.stopped: str | None = None  # why the table stopped (log failure, crashed bot)
        self.chat_times: dict[str, deque[float]] = {}
        # Scheduling (`net.scheduler`): when the last step was accepted, a wake-up, the task.
        self.step_time = 0.0
        # The wall-clock time of the last move (of the log's last write after a restart): Home
        # offers the most recently played kept game first.
        self.played_at = 0.0
        self.finished_at = 0.0  # the hub's clock when the race ended (oldest leave first)
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        # One action at a time per table; the disk work runs in a thread (so one table's fsync
        # never stalls every session) and `acked` is the last history index broadcast (a
        # Welcome never shows a step whose StepUpdate is still to come).
        self.lock = asyncio.Lock()
        self.acked = len(table.history) - 1
        # Steps after `acked` whose copy could not reach Redis while another machine was live
        # (`LocalHub._withhold`): kept, not broadcast, until the copy has them.
        self.withheld = False
        self.io: asyncio.Future[Any] | None = None
        # A stand-in started or ended: written as a seats record just before the next step.
        self.seats_dirty = False
        self.turn = sum(
            1 for step in table.history for event in step.events if game.turn_started(event)
        )

    # ---------------------------------------------------------------- seats

    @property
    def holders(self) -> list[str | None]:
        return [slot.holder for slot in self.slots]

    @property
    def guests(self) -> set[str]:
        return {s.holder for s in self.slots if s.guest and s.holder is not None}

    def seat_of(self, identity: str) -> list[int]:
        return [i for i, slot in enumerate(self.slots) if slot.holder == identity]

    def holds(self, seat: int, identity: str) -> bool:
        return 0 <= seat < len(self.slots) and self.slots[seat].holder == identity

    def sit(self, seat: int, identity: str, name: str, *, guest: bool) -> None:
        self.slots[seat] = SeatSlot(holder=identity, guest=guest)
        self.table.seats[seat] = Seat(name=name, identity=identity)

    def vacate(self, seat: int) -> None:
        """The seat opens for anyone (a bot plays it meanwhile at a running table)."""
        self.slots[seat] = SeatSlot(open=True)
        self.table.seats[seat] = Seat(name=OPEN_NAME)

    def end_stand_ins(self, identity: str) -> None:
        """A player is back (or acts): the bot standing in for them stops (a seats record)."""
        for s in self.seat_of(identity):
            if self.slots[s].stand_in is not None:
                self.slots[s].stand_in = None
                self.seats_dirty = True

    def stand_in(self, seat: int, bot: str) -> None:
        if self.slots[seat].stand_in is None:  # a bot stands in for the player: on the record
            self.slots[seat].stand_in = bot
            self.seats_dirty = True

    def seats_now(self) -> list[Seat]:
        """Who plays each seat now: a stand-in bot shows as that bot, for the player's identity."""
        out = []
        for slot, seat in zip(self.slots, self.table.seats, strict=True):
            bot = slot.stand_in
            out.append(
                seat if bot is None else Seat(name=seat.name, bot=bot, identity=seat.identity)
            )
        return out

    def abandoned(self) -> bool:
        """Never started, and nobody holds or watches it any more."""
        return (
            self.status is TableStatus.WAITING
            and not self.viewers
            and all(s.holder is None for s in self.slots)
        )

    # ---------------------------------------------------------------- words

    def visible(self, who: Identity) -> bool:
        return (
            not self.spec.private
            or who.id in self.holders
            or who.id in self.invited
            or who.id == self.creator
        )

    def info(self) -> TableInfo:
        finished = self.status is TableStatus.FINISHED
        seats = [
            SeatInfo(
                name=seat.name,
                bot=seat.bot,
                identity=slot.holder,
                open=slot.open,
                away=slot.holder is not None and slot.holder in self.away_since and not finished,
                guest=slot.holder is not None and slot.guest,
            )
            for slot, seat in zip(self.slots, self.table.seats, strict=True)
        ]
        return TableInfo(
            id=self.id,
            game=self.game.id,
            title=f"{self.game.title} #{self.id}",
            summary=self.summary,
            seats=seats,
            status=self.status.value,
            spectators=sum(v.weight for v in self.viewers if v.seat is None),
            private=self.spec.private,
            state_id=self.table.history[self.acked].state_id,
            commitment=self.commitment,
            seed=self.table.seed if finished else None,
            replay_id=self.replay_id,
            turn=self.turn,
            coaching=self.spec.coaching,
            played_at=self.played_at,
        )

    def record(self) -> TableRecord:
        """What must survive a restart besides the log: seats, holders, invite, options."""
        return TableRecord(
            table_id=self.id,
            game=self.game.id,
            spec=self.spec,
            seats=list(self.table.seats),
            holders=self.holders,
            creator=self.creator,
            invite_code=self.invite_code,
            invited=sorted(self.invited),
            open=[s.open for s in self.slots],
            guests=sorted(self.guests),
        )
