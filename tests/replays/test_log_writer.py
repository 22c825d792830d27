"""LogWriter on real files: commits, snapshots and seeking, fsync policy and fsync failure."""

from __future__ import annotations

import errno
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game import Seat
from replays.errors import LogBroken, ReplayError
from replays.format import KIND_SNAPSHOT, scan
from replays.log import LogWriter
from replays.reader import open_replay, read_replay
from replays.recover import restore_table
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll
from tests.replays.helpers import dash_table, play_logged


def fold(table):
    steps = table.history
    state = DASH.new_state(table.config, len(table.seats))
    states = []
    for step in steps:
        for event in step.events:
            state = DASH.evolve(state, event)
        states.append(state)
    return states


def test_create_writes_header_and_setup_then_each_append_is_a_commit(tmp_path):
    path = tmp_path / "t.log"
    table = dash_table(7)
    writer = LogWriter.create(path, table, fsync=False)
    assert open_replay(path, DASH).steps == table.history  # just the setup
    for _ in range(3):
        seat = table.pending()[0]
        writer.append(table.submit(seat, table.bot_action(seat)))
        # Every append is readable at once: nothing waits in a buffer.
        assert open_replay(path, DASH).steps == table.history
    assert writer.state_id == 3
    writer.close()
    assert open_replay(path, DASH).end is None


def test_log_file_is_private_to_its_owner(tmp_path):
    path = tmp_path / "t.log"
    LogWriter.create(path, dash_table(), fsync=False).close()
    assert path.stat().st_mode & 0o077 == 0


def test_create_refuses_to_overwrite_an_existing_log(tmp_path):
    path = tmp_path / "t.log"
    path.write_bytes(b"someone else's table")
    with pytest.raises(LogBroken, match="Could not create the table log"):
        LogWriter.create(path, dash_table(), fsync=False)
    assert path.read_bytes() == b"someone else's table"


def test_append_refuses_a_step_out_of_order(tmp_path):
    table = dash_table()
    writer = LogWriter.create(tmp_path / "t.log", table, fsync=False)
    step = table.submit(0, table.bot_action(0))
    with pytest.raises(ValueError, match="step 2 cannot follow"):
        writer.append(type(step)(state_id=2, seat=0, action=step.action, events=step.events))
    writer.append(step)


def test_finish_refuses_a_seed_that_does_not_match_the_commitment(tmp_path):
    path = tmp_path / "t.log"
    table = dash_table(5)
    table.run_bots()
    writer = LogWriter.create(path, table, fsync=False)
    result = table.result()
    assert result is not None
    with pytest.raises(ValueError, match="does not match the commitment"):
        writer.finish(result, 6)
    writer.finish(result, 5)
    assert open_replay(path, DASH).seed == 5


def test_snapshots_every_k_steps_and_state_at_equals_the_fold(tmp_path):
    path = tmp_path / "t.log"
    table = play_logged(path, seed=21, snapshot_every=3, goal=40, bot="roll")
    replay = open_replay(path, DASH)
    last = replay.last_step
    assert last >= 12
    assert sorted(replay.snapshots) == list(range(3, last + 1, 3))
    kinds = [f.kind for f in scan(path.read_bytes()).frames]
    assert kinds.count(KIND_SNAPSHOT) == last // 3
    states = fold(table)
    order = [last, 0, 4, 3, 2, last - 1, 1, *range(last + 1)]
    for k in order:  # jumping back and forth uses snapshots and the cache correctly
        assert replay.state_at(k) == states[k], k
    assert replay.state_at(last) == table.state
    assert replay.events_upto(2) == [e for s in table.history[:3] for e in s.events]
    with pytest.raises(ReplayError, match="not step"):
        replay.state_at(last + 1)


def test_state_at_survives_an_unreadable_snapshot(tmp_path):
    path = tmp_path / "t.log"
    table = play_logged(path, seed=21, snapshot_every=2, goal=20, bot="roll")
    replay = open_replay(path, DASH)
    replay.snapshots[2] = b"\xc1"  # never valid MessagePack
    assert replay.state_at(3) == fold(table)[3]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), every=st.integers(0, 5), ks=st.lists(st.integers(0, 100)))
def test_seeking_anywhere_in_any_order_equals_the_fold(tmp_path_factory, seed, every, ks):
    path = tmp_path_factory.mktemp("seek") / "t.log"
    table = play_logged(path, seed=seed, snapshot_every=every, goal=25, bot="roll")
    replay = open_replay(path, DASH)
    states = fold(table)
    for k in ks:
        k %= len(states)
        assert replay.state_at(k) == states[k]


def test_fsync_is_called_per_commit_only_when_asked(tmp_path, monkeypatch):
    calls: list[int] = []
    real = os.fsync

    def counting(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    table = dash_table()
    writer = LogWriter.create(tmp_path / "a.log", table, fsync=True)
    after_create = len(calls)
    assert after_create >= 2  # the file, then its folder
    writer.append(table.submit(0, table.bot_action(0)))
    assert len(calls) == after_create + 1
    writer.close()
    calls.clear()
    quiet = dash_table()
    w2 = LogWriter.create(tmp_path / "b.log", quiet, fsync=False)
    w2.append(quiet.submit(0, quiet.bot_action(0)))
    w2.close()
    assert calls == []


def test_a_failed_fsync_breaks_the_log_for_good(tmp_path, monkeypatch):
    path = tmp_path / "t.log"
    table = dash_table()
    writer = LogWriter.create(path, table, fsync=True)
    first = table.submit(0, table.bot_action(0))
    writer.append(first)

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    second = table.submit(table.pending()[0], table.bot_action(table.pending()[0]))
    with pytest.raises(LogBroken, match=r"Input/output error.*the table stops"):
        writer.append(second)
    monkeypatch.undo()
    # Never retried: even with a healthy disk again the writer refuses.
    with pytest.raises(LogBroken):
        writer.append(second)
    assert writer.broken is not None
    # Everything committed before the failure is still there.
    assert open_replay(path, DASH).steps[:2] == table.history[:2]


def test_log_bytes_do_not_depend_on_the_fsync_setting(tmp_path):
    a = dash_table(3)
    b = dash_table(3)
    salt = bytes(16)
    wa = LogWriter.create(tmp_path / "a.log", a, fsync=True, salt=salt, created="x")
    wb = LogWriter.create(tmp_path / "b.log", b, fsync=False, salt=salt, created="x")
    for table, writer in ((a, wa), (b, wb)):
        while table.pending():
            seat = table.pending()[0]
            writer.append(table.submit(seat, table.bot_action(seat)))
        result = table.result()
        assert result is not None
        writer.finish(result, 3)
    assert (tmp_path / "a.log").read_bytes() == (tmp_path / "b.log").read_bytes()
    assert read_replay((tmp_path / "a.log").read_bytes(), DASH).finished


def test_seat_changes_are_recorded_and_read_back(tmp_path):
    path = tmp_path / "t.log"
    table = dash_table(6)
    writer = LogWriter.create(path, table, fsync=False)
    writer.append(table.submit(0, Roll()))
    ann = Seat(name="Ann", identity="SHA256:ann")
    writer.set_seats([ann, table.seats[1]])
    with pytest.raises(ValueError, match="has 2 seats, not 1"):
        writer.set_seats([ann])
    writer.append(table.submit(1, Roll()))
    writer.close()
    replay = open_replay(path, DASH)
    assert replay.header.seats == table.seats
    assert replay.seats == [ann, table.seats[1]]
    assert replay.names == ["Ann", table.seats[1].name]
    assert replay.seats_at(0) == table.seats
    assert replay.seats_at(1) == [ann, table.seats[1]]
    assert [c.state_id for c in replay.seat_changes] == [1]
    # A restored table seats the people sitting there when it stopped.
    restored, again = restore_table(path, 6, DASH, fsync=False)
    assert restored.seats == [ann, table.seats[1]]
    again.close()
