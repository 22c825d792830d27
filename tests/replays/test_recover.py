"""restore_table: crash, reopen, carry on — the recovered table equals the acknowledged actions."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from core.game import Table
from replays.errors import ReplayError
from replays.format import scan
from replays.log import LogWriter
from replays.reader import open_replay
from replays.recover import restore_table
from replays.verify import verify
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll, Stop
from tests.replays.helpers import dash_table, finished_dash, play_logged

ROOT = Path(__file__).resolve().parents[2]


def play_on(table: Table, writer: LogWriter) -> None:
    while table.pending():
        writer.append(table.submit(table.pending()[0], Roll(), table.state_id))
    result = table.result()
    assert result is not None
    writer.finish(result, table.seed)


def test_restore_cuts_a_torn_tail_keeps_it_aside_and_plays_on(tmp_path):
    path = tmp_path / "t.log"
    play_logged(path, seed=5, finish=False, goal=30, bot="roll")
    whole = path.read_bytes()
    path.write_bytes(whole + b"\x17\x00\x00\x00\x09")  # a record that never finished
    table, writer = restore_table(path, 5, DASH, fsync=False)
    assert (tmp_path / "t.log.torn").read_bytes() == b"\x17\x00\x00\x00\x09"
    assert path.read_bytes() == whole
    truth = finished_dash(5, goal=30, bot="roll")
    assert table.history == truth.history[: len(table.history)]
    play_on(table, writer)
    replay = open_replay(path, DASH)
    assert replay.truncated_at is None
    assert replay.steps == truth.history
    assert verify(replay).ok


def test_restore_refuses_the_wrong_seed(tmp_path):
    path = tmp_path / "t.log"
    play_logged(path, seed=5, finish=False)
    with pytest.raises(ReplayError, match=r"cannot be restored: The seed 6 does not match"):
        restore_table(path, 6, DASH, fsync=False)


def test_restore_refuses_a_log_whose_events_differ(tmp_path):
    path = tmp_path / "t.log"
    play_logged(path, seed=5, finish=False, goal=30, bot="roll")
    data = bytearray(path.read_bytes())
    frames = scan(bytes(data)).frames
    data[frames[3].end - 1] ^= 0x01  # damage in the middle
    path.write_bytes(bytes(data))
    with pytest.raises(ReplayError, match="corrupt in the middle"):
        restore_table(path, 5, DASH, fsync=False)


def test_restore_after_a_crash_before_the_setup_was_written(tmp_path):
    path = tmp_path / "t.log"
    play_logged(path, seed=9, finish=False)
    frames = scan(path.read_bytes()).frames
    path.write_bytes(path.read_bytes()[: frames[1].offset + 3])  # step 0 torn
    table, writer = restore_table(path, 9, DASH, fsync=False)
    assert table.state_id == 0
    play_on(table, writer)
    assert verify(open_replay(path, DASH)).ok


def test_restoring_a_finished_log_returns_the_finished_table(tmp_path):
    path = tmp_path / "t.log"
    played = play_logged(path, seed=3)
    before = path.read_bytes()
    table, writer = restore_table(path, 3, DASH, fsync=False)
    assert table.result() == played.result()
    assert writer.finished
    assert path.read_bytes() == before


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), cut_fraction=st.floats(0.0, 1.0))
def test_crash_anywhere_then_restore_and_finish_gives_the_uninterrupted_game(
    tmp_path_factory, seed, cut_fraction
):
    path = tmp_path_factory.mktemp("crash") / "t.log"
    play_logged(path, seed=seed, finish=False, goal=20, bot="roll", snapshot_every=3)
    data = path.read_bytes()
    header_end = scan(data).frames[0].end
    cut = header_end + int((len(data) - header_end) * cut_fraction)
    path.write_bytes(data[:cut])
    acknowledged = sum(1 for f in scan(data).frames[1:] if f.end <= cut and f.kind == 2)
    table, writer = restore_table(path, seed, DASH, fsync=False)
    truth = finished_dash(seed, goal=20, bot="roll")
    assert len(table.history) == max(acknowledged, 1)
    assert table.history == truth.history[: len(table.history)]
    play_on(table, writer)
    replay = open_replay(path, DASH)
    assert replay.steps == truth.history
    assert verify(replay).ok


WRITER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {root!r})
    from core.game import Table, Seat
    from replays.log import LogWriter
    from tests.fakegame import GAME, Roll, DashConfig
    table = Table(GAME, DashConfig(goal=10_000), [Seat(name="a"), Seat(name="b")], 17)
    writer = LogWriter.create({path!r}, table, fsync=True, snapshot_every=5)
    print(0, flush=True)
    while True:
        step = table.submit(table.pending()[0], Roll(), table.state_id)
        writer.append(step)
        print(step.state_id, flush=True)  # acknowledged only after the fsync
    """
)


def test_sigkill_mid_game_loses_nothing_acknowledged(tmp_path):
    path = tmp_path / "t.log"
    code = WRITER.format(root=str(ROOT), path=str(path))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    acknowledged = -1
    try:
        for line in proc.stdout:
            acknowledged = int(line)
            if acknowledged >= 40:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert acknowledged >= 40
    table, writer = restore_table(path, 17, fsync=False, game=DASH)
    assert table.state_id >= acknowledged
    # The recovered table equals an in-memory game of the same actions.
    fresh = Table(DASH, table.config, table.seats, 17)
    for _ in range(table.state_id):
        fresh.submit(fresh.pending()[0], Roll())
    assert msgspec.msgpack.encode(fresh.history) == msgspec.msgpack.encode(table.history)
    writer.close()


def test_restored_writer_keeps_the_snapshot_rhythm(tmp_path):
    path = tmp_path / "t.log"
    table = dash_table(4, goal=40)
    writer = LogWriter.create(path, table, fsync=False, snapshot_every=4)
    for _ in range(6):
        writer.append(table.submit(table.pending()[0], Roll()))
    writer.close()
    table, writer = restore_table(path, 4, DASH, fsync=False)
    play_on(table, writer)
    replay = open_replay(path, DASH)
    assert sorted(replay.snapshots) == list(range(4, replay.last_step + 1, 4))
    assert verify(replay).ok


class CrashMachine(RuleBasedStateMachine):
    """append / crash mid-write / reopen, many times: recovered == acknowledged, always."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="crash-machine-"))
        self.path = self.folder / "t.log"
        self.seed = 23
        self.table = dash_table(self.seed, goal=60)
        self.writer = LogWriter.create(self.path, self.table, fsync=False, snapshot_every=3)
        self.acknowledged = list(self.table.history)

    @rule(stop=st.booleans())
    def append(self, stop: bool) -> None:
        if not self.table.pending() or self.writer._handle is None:
            return
        seat = self.table.pending()[0]
        action = Stop() if stop and seat == 1 else Roll()
        step = self.table.submit(seat, action, self.table.state_id)
        self.writer.append(step)
        self.acknowledged.append(step)

    @rule(torn=st.binary(min_size=1, max_size=40))
    def crash_mid_write(self, torn: bytes) -> None:
        if self.writer._handle is None:
            return
        self.writer.close()
        with open(self.path, "ab") as handle:  # the start of a record that never finished
            handle.write(torn[: max(1, len(torn) - 1)])
        self.writer._handle = None

    @rule()
    def reopen(self) -> None:
        if self.writer._handle is not None:
            self.writer.close()
        self.table, self.writer = restore_table(self.path, self.seed, DASH, fsync=False)

    @invariant()
    def recovered_prefix_is_what_was_acknowledged(self) -> None:
        replay = open_replay(self.path, DASH)
        assert replay.steps == self.acknowledged
        assert self.table.history == self.acknowledged

    def teardown(self) -> None:
        if self.writer._handle is None:
            self.table, self.writer = restore_table(self.path, self.seed, DASH, fsync=False)
        play_on(self.table, self.writer)
        assert verify(open_replay(self.path, DASH)).ok
        shutil.rmtree(self.folder, ignore_errors=True)


TestCrashMachine = CrashMachine.TestCase
TestCrashMachine.settings = settings(max_examples=20, stateful_step_count=12, deadline=None)


def test_restore_a_branched_table_keeps_its_given_past(tmp_path):
    source = finished_dash(1, goal=40, bot="roll")
    past = [event for step in source.history[:5] for event in step.events]
    table = Table(DASH, source.config, source.seats, 99, setup_events=past)
    path = tmp_path / "b.log"
    spec_branch = {"source": "x.replay", "step": 4, "events": past}  # as TableSpec carries it
    writer = LogWriter.create(path, table, fsync=False, branched_from=spec_branch)
    for _ in range(3):
        writer.append(table.submit(table.pending()[0], Roll()))
    writer.close()
    replay = open_replay(path, DASH)
    assert replay.header.branched_from == {"source": "x.replay", "step": 4}  # past not doubled
    restored, writer = restore_table(path, 99, DASH, fsync=False)
    assert restored.history == table.history
    play_on(restored, writer)
    assert verify(open_replay(path, DASH)).ok
