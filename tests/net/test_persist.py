"""Durable table logs: every acknowledged action survives a restart; a torn tail is cut;
the seed file is private; a failing fsync stops the table instead of lying."""

from __future__ import annotations

import asyncio
import os
import stat

import pytest

from net.hub import HubError, Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll

ANN = Identity(id="SHA256:ann", nickname="Ann")
BOB = Identity(id="SHA256:bob", nickname="Bob")


def append_bytes(path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


def hub(data, **kw) -> LocalHub:
    return LocalHub(data, bot_delay=0.0, games={"dash": DASH}, lobby_interval=0.0, **kw)


async def started(h: LocalHub) -> str:
    tid = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], seed=9),
        ANN,
    )
    await h.take_seat(tid, 1, BOB)
    return tid


async def test_restart_restores_exactly_the_acknowledged_table(tmp_path):
    h = hub(tmp_path)
    tid = await started(h)
    await h.submit(tid, ANN, 0, Roll(), 0)
    await h.submit(tid, BOB, 1, Roll(), 1)
    before = h.table(tid)
    seed_file = tmp_path / "tables" / f"{tid}.seed"
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    # no close(): as after kill -9
    h2 = hub(tmp_path)
    after = h2.table(tid)
    assert after.state_id == 2
    assert after.state == before.state
    assert [s.events for s in after.history] == [s.events for s in before.history]
    info = h2.info(tid)
    assert [s.identity for s in info.seats] == [ANN.id, BOB.id]
    assert all(s.away for s in info.seats)  # nobody watches after a restart
    await h2.submit(tid, ANN, 0, Roll(), 2)
    assert h2.table(tid).state_id == 3


async def test_a_table_knows_when_it_was_last_played_even_after_a_restart(tmp_path):
    times = iter([100.0, 200.0, 300.0, 400.0])
    h = hub(tmp_path, wall=lambda: next(times))
    older = await started(h)  # starts at 100.0
    newer = await started(h)  # starts at 200.0
    await h.submit(older, ANN, 0, Roll(), 0)  # played at 300.0: now the most recent
    assert [h.info(t).played_at for t in (older, newer)] == [300.0, 200.0]
    os.utime(tmp_path / "tables" / f"{older}.log", (1000.0, 1000.0))
    os.utime(tmp_path / "tables" / f"{newer}.log", (2000.0, 2000.0))
    h2 = hub(tmp_path)  # a restart: when each was played is when its log was last written
    assert [h2.info(t).played_at for t in (older, newer)] == [1000.0, 2000.0]


async def test_torn_tail_is_cut_back_to_the_last_whole_record(tmp_path):
    h = hub(tmp_path)
    tid = await started(h)
    await h.submit(tid, ANN, 0, Roll(), 0)
    log = tmp_path / "tables" / f"{tid}.log"
    good = log.stat().st_size
    append_bytes(log, b"\x10\x00\x00\x00garbage")
    h2 = hub(tmp_path)
    assert h2.table(tid).state_id == 1
    assert log.stat().st_size == good


async def test_failed_fsync_stops_the_table(tmp_path, monkeypatch):
    h = hub(tmp_path)
    tid = await started(h)

    def broken(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(HubError, match="could not be saved") as failed:
        await h.submit(tid, ANN, 0, Roll(), 0)
    assert failed.value.kind == "table-stopped"  # a broken log, not "the race is over"
    monkeypatch.undo()
    with pytest.raises(HubError, match="stopped") as again:
        await h.submit(tid, ANN, 0, Roll(), 1)
    assert again.value.kind == "table-stopped"


async def test_finished_table_becomes_a_verified_replay_and_leaves_no_secret(tmp_path):
    from replays.reader import open_replay
    from replays.verify import verify

    h = hub(tmp_path)
    tid = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="bot"), SeatSpec(kind="bot")], seed=4), ANN
    )
    for _ in range(500):
        if h.info(tid).status == "finished":
            break
        await asyncio.sleep(0.01)
    info = h.info(tid)
    assert info.status == "finished"
    assert info.replay_id
    path = tmp_path / "replays" / f"{info.replay_id}.replay"
    replay = open_replay(path, DASH)
    assert verify(replay).ok
    assert replay.header.commitment == info.commitment
    assert not (tmp_path / "tables" / f"{tid}.seed").exists()
    assert not (tmp_path / "tables" / f"{tid}.log").exists()
    assert hub(tmp_path).tables(ANN) == []  # nothing to restore


async def test_branched_table_is_restored_from_its_own_past(tmp_path):
    from tests.fakegame import Dealt, Rolled

    past = [Dealt(seat=0, card=3), Dealt(seat=1, card=8), Rolled(seat=0, face=5)]
    h = hub(tmp_path)
    tid = await h.create_table(
        TableSpec(
            game="dash",
            seats=[SeatSpec(kind="human"), SeatSpec(kind="human", identity=BOB.id)],
            seed=21,
            branched_from={"source": "x.replay", "step": 1, "events": past},
        ),
        ANN,
    )
    await h.submit(tid, BOB, 1, Roll(), 0)
    before = h.table(tid)
    h2 = hub(tmp_path)
    after = h2.table(tid)
    assert after.state == before.state
    assert after.state.steps[0] == 6


async def test_on_a_shared_dir_a_table_is_taken_over_only_once_its_owner_let_go(tmp_path):
    """Processes sharing one data dir (a bus: ``restore=False``) lock the tables they play; a
    second one cannot restore a table while the first still holds it (it might still write
    its log), and can once the first has closed (as the kernel does when a process dies)."""
    owner = hub(tmp_path, restore=False)
    tid = await started(owner)
    await owner.submit(tid, ANN, 0, Roll(), 0)
    other = hub(tmp_path, restore=False)
    assert not other.adopt(tid)
    await owner.close()
    assert other.adopt(tid)
    assert other.table(tid).state_id == 1
    await other.close()
