"""A hypothesis state machine over the hub's durable log (issue 12): accept moves, crash at a
random byte offset of the record being written, crash cleanly, fail an fsync, reopen a fresh hub
from the files. Invariant after every reopen: the table is exactly the acknowledged prefix (every
fsynced step survives, nothing unacknowledged appears), and a failed fsync stops that table with
a clear sentence instead of carrying on. The one honest exception: the step whose fsync failed
was written but not known to be durable (fsyncgate), so after a restart it may or may not be
there; the machine accepts either, and nothing else. Counts are printed at the end (`-s`)."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from core.game import GameOver, IllegalAction
from net.hub import HubError, Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll, Stop

ANN = Identity(id="ssh:ann", nickname="Ann")
COUNTS = {"runs": 0, "acknowledged": 0, "crashes": 0, "torn": 0, "fsync_failures": 0, "lost": 0}


def _hub(folder: Path) -> LocalHub:
    return LocalHub(folder, bot_delay=0.0, games={"dash": DASH}, away_grace=1e9, lobby_interval=0.0)


class DurableLogMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="log-machine-"))
        self.loop = asyncio.new_event_loop()
        self.hub = _hub(self.folder)
        spec = TableSpec(
            game="dash",
            seats=[
                SeatSpec(kind="human", identity=ANN.id),
                SeatSpec(kind="human", identity=ANN.id),
            ],
            options={"goal": 80},
        )
        self.tid = self.run(self.hub.create_table(spec, ANN))
        self.acknowledged = [s.state_id for s in self.hub.table(self.tid).history]
        self.stopped: str | None = None
        self.maybe: list[int] | None = None  # history if the step whose fsync failed survived
        COUNTS["runs"] += 1

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    @property
    def log(self) -> Path:
        return self.folder / "tables" / f"{self.tid}.log"

    def _submit(self, stop: bool) -> None:
        table = self.hub.table(self.tid)
        pending = table.pending()
        if not pending:
            return
        action = Stop() if stop and pending[0] == 1 else Roll()
        self.run(self.hub.submit(self.tid, ANN, pending[0], action, table.state_id))

    @precondition(lambda self: self.stopped is None)
    @rule(stop=st.booleans())
    def accept(self, stop: bool) -> None:
        try:
            self._submit(stop)
        except GameOver:
            return  # the race is over
        self.acknowledged = [s.state_id for s in self.hub.table(self.tid).history]
        COUNTS["acknowledged"] += 1

    @precondition(lambda self: self.stopped is None)
    @rule(fraction=st.floats(0.0, 0.999))
    def crash_while_writing(self, fraction: float) -> None:
        """The process dies inside the write of the next record: only part of it is on disk,
        and nobody was told about the move (the hub acknowledges after the fsync returns)."""
        before = self.log.stat().st_size
        try:
            self._submit(stop=False)
        except GameOver:
            return
        after = self.log.stat().st_size
        self._abandon()
        cut = before + int((after - before) * fraction)
        with open(self.log, "r+b") as f:
            f.truncate(cut)
        COUNTS["torn"] += 1
        self._reopen()

    @rule()
    def crash(self) -> None:
        self._abandon()
        COUNTS["crashes"] += 1
        self._reopen()

    @precondition(lambda self: self.stopped is None)
    @rule()
    def fsync_fails(self) -> None:
        real = os.fsync

        def broken(fd: int) -> None:
            raise OSError(5, "Input/output error")

        os.fsync = broken
        try:
            self._submit(stop=False)
        except HubError as err:
            self.stopped = f"{err.kind}: {err}"
        except GameOver:
            pass  # the race was already over
        finally:
            os.fsync = real
        if self.stopped is None:
            return  # the race was already over: nothing to write
        COUNTS["fsync_failures"] += 1
        self.maybe = [*self.acknowledged, self.acknowledged[-1] + 1]
        assert self.stopped.startswith("table-stopped: This table stopped: the table log could")
        try:  # the table refuses every later move with the same sentence
            self._submit(stop=False)
            raise AssertionError("a stopped table accepted a move")
        except (HubError, IllegalAction) as err:
            assert "stopped" in str(err)  # noqa: PT017

    def _abandon(self) -> None:
        """Drop the hub as a SIGKILL would: no close, no final sync (file handles just go)."""
        for room in self.hub._rooms.values():
            if room.task is not None:
                room.task.cancel()
        self.loop.run_until_complete(asyncio.sleep(0))
        store = self.hub._store
        for writer in store._writers.values():
            if writer._handle is not None:
                writer._handle.close()
                writer._handle = None
        self.hub = None

    def _reopen(self) -> None:
        self.hub = _hub(self.folder)
        self.stopped = None

    @invariant()
    def the_table_is_exactly_what_was_acknowledged(self) -> None:
        if self.hub is None or self.stopped is not None:
            return
        history = [s.state_id for s in self.hub.table(self.tid).history]
        if history == self.maybe:  # the step whose fsync failed did reach the disk
            self.acknowledged, self.maybe = history, None
        if history != self.acknowledged:
            COUNTS["lost"] += 1
        assert history == self.acknowledged
        self.maybe = None

    def teardown(self) -> None:
        if self.hub is not None:
            self.run(self.hub.close())
        self.loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)


TestDurableLog = DurableLogMachine.TestCase
TestDurableLog.settings = settings(
    max_examples=int(os.environ.get("SPEEDWAY_MACHINE_EXAMPLES", "15")),
    stateful_step_count=15,
    deadline=None,
)


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    print(
        "durable log machine: {runs} runs, {acknowledged} moves acknowledged, {crashes} crashes, "
        "{torn} torn writes, {fsync_failures} failed fsyncs, {lost} acknowledged steps lost".format(
            **COUNTS
        )
    )
