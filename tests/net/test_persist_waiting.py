"""Tables still waiting for players survive a crash: their seed and waiting record are on disk
from creation, rewritten as seats are taken or left, superseded by the log when the race
starts, and removed when the table is abandoned. A broken record is skipped, never fatal.
Every "crash" here is a new LocalHub on the same data dir without closing the old one."""

from __future__ import annotations

import logging
import shutil
import stat

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from tests.fakegame import GAME as DASH
from tests.fakegame import Dealt, Roll, Rolled

ANN = Identity(id="SHA256:ann", nickname="Ann")
BOB = Identity(id="SHA256:bob", nickname="Bob")
CAT = Identity(id="SHA256:cat", nickname="Cat")
EVE = Identity(id="SHA256:eve", nickname="Eve")
GUS = Identity(id="guest:1a2b3c", nickname="Gus", guest=True)


def hub(data, **kw) -> LocalHub:
    return LocalHub(data, bot_delay=0.0, games={"dash": DASH}, lobby_interval=0.0, **kw)


def files(data, tid: str) -> set[str]:
    return {p.name for p in (data / "tables").glob(f"{tid}.*")}


async def waiting(h: LocalHub, *, private: bool = False, seed: int | None = 9) -> str:
    spec = TableSpec(
        game="dash",
        seats=[SeatSpec(kind="human"), SeatSpec(kind="open"), SeatSpec(kind="open")],
        private=private,
        seed=seed,
    )
    return await h.create_table(spec, ANN)


async def test_waiting_private_table_survives_a_crash_with_seats_and_code(tmp_path):
    h = hub(tmp_path)
    tid = await waiting(h, private=True, seed=None)  # a secret seed, as on the server
    code = h.invite_code(tid, ANN)
    assert code
    assert await h.join_private(code, BOB) == tid
    await h.take_seat(tid, 1, BOB)
    assert await h.join_private(code, EVE) == tid  # invited, not seated
    assert files(tmp_path, tid) == {f"{tid}.seed", f"{tid}.wait"}
    for ext in ("seed", "wait"):
        mode = (tmp_path / "tables" / f"{tid}.{ext}").stat().st_mode
        assert stat.S_IMODE(mode) == 0o600
    before = h.table(tid)
    # no close(): as after kill -9
    h2 = hub(tmp_path)
    info = h2.info(tid)
    assert info.status == "waiting"
    assert [s.identity for s in info.seats] == [ANN.id, BOB.id, None]
    assert [s.open for s in info.seats] == [False, False, True]
    assert [s.name for s in info.seats] == ["Ann", "Bob", "(open seat)"]
    assert info.private
    assert h2.invite_code(tid, ANN) == code
    assert h2.invite_code(tid, BOB) == code  # invited (and seated) before the crash
    assert [t.id for t in h2.tables(ANN)] == [tid]  # in the lobby as before
    assert [t.id for t in h2.tables(EVE)] == [tid]  # Eve's invitation was kept
    assert h2.tables(CAT) == []  # still private
    after = h2.table(tid)
    assert after.seed == before.seed
    assert after.history[0].events == before.history[0].events  # identical setup
    # A newcomer with the code takes the last seat: the race starts and its log is durable.
    assert await h2.join_private(code.lower(), CAT) == tid
    await h2.take_seat(tid, 2, CAT)
    assert h2.info(tid).status == "running"
    assert files(tmp_path, tid) == {f"{tid}.seed", f"{tid}.meta", f"{tid}.log"}
    await h2.submit(tid, ANN, 0, Roll(), 0)
    # Another crash: the table comes back once, running, from its log (not as a waiting table).
    h3 = hub(tmp_path)
    infos = h3.tables(ANN)
    assert [(t.id, t.status) for t in infos] == [(tid, "running")]
    assert [s.identity for s in infos[0].seats] == [ANN.id, BOB.id, CAT.id]
    assert h3.table(tid).state_id == 1
    assert h3.table(tid).history[0].events == before.history[0].events


async def test_seats_taken_and_left_while_waiting_are_rewritten(tmp_path):
    h = hub(tmp_path)
    tid = await waiting(h)
    await h.take_seat(tid, 1, BOB)
    await h.take_seat(tid, 2, BOB)  # one identity may hold several seats (hot-seat)
    h2 = hub(tmp_path)
    assert [s.identity for s in h2.info(tid).seats] == [ANN.id, BOB.id, BOB.id]
    assert h2.info(tid).status == "running"  # no seat was open: it started at once
    assert f"{tid}.wait" not in files(tmp_path, tid)

    tid = await waiting(h)
    await h.take_seat(tid, 1, BOB)
    await h.leave(tid, BOB)
    h3 = hub(tmp_path)
    info = h3.info(tid)
    assert info.status == "waiting"
    assert [s.identity for s in info.seats] == [ANN.id, None, None]
    assert [s.open for s in info.seats] == [False, True, True]


async def test_restored_waiting_table_starts_normally_when_full(tmp_path):
    h = hub(tmp_path)
    tid = await h.create_table(
        TableSpec(
            game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="bot"), SeatSpec(kind="open")]
        ),
        ANN,
    )
    h2 = hub(tmp_path)
    assert [s.bot for s in h2.info(tid).seats] == [None, "random", None]
    w = h2.watch(tid, ANN, 0)
    await h2.take_seat(tid, 2, BOB)
    assert h2.info(tid).status == "running"
    assert not h2.info(tid).seats[0].away  # Ann came back by watching
    await h2.submit(tid, ANN, 0, Roll(), 0)
    assert isinstance(h2.table(tid).history[1].events[0], Rolled)
    assert (tmp_path / "tables" / f"{tid}.log").exists()
    await w.close()
    await h2.close()


async def test_abandoned_waiting_table_removes_its_files(tmp_path):
    h = hub(tmp_path)
    tid = await waiting(h, private=True)
    assert files(tmp_path, tid)
    await h.leave(tid, ANN)
    assert h.tables(ANN) == []
    assert files(tmp_path, tid) == set()
    assert hub(tmp_path).tables(ANN) == []


async def test_guest_seats_open_again_after_a_restart(tmp_path):
    """Ruling: a guest identity does not survive a reconnect, so a guest's seat at a restored
    table opens for anyone (as when a guest disconnects live); a waiting table left without
    any holder is abandoned and its files go."""
    h = hub(tmp_path)
    tid = await waiting(h)
    await h.take_seat(tid, 1, GUS)
    assert h.info(tid).seats[1].guest
    gone = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")]), GUS
    )
    assert files(tmp_path, gone)
    h2 = hub(tmp_path)
    info = h2.info(tid)
    assert [s.identity for s in info.seats] == [ANN.id, None, None]
    assert [s.open for s in info.seats] == [False, True, True]
    assert info.seats[1].name == "(open seat)"
    assert [t.id for t in h2.tables(EVE)] == [tid]  # the guest's own table is gone ...
    assert files(tmp_path, gone) == set()  # ... with its files
    h3 = hub(tmp_path)  # the reopened seat was written back
    assert [s.open for s in h3.info(tid).seats] == [False, True, True]


async def test_guest_seat_at_a_started_table_opens_after_a_restart(tmp_path):
    h = hub(tmp_path)
    tid = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], seed=3),
        ANN,
    )
    await h.take_seat(tid, 1, GUS)
    assert h.info(tid).status == "running"
    await h.submit(tid, ANN, 0, Roll(), 0)
    h2 = hub(tmp_path)
    info = h2.info(tid)
    assert [s.identity for s in info.seats] == [ANN.id, None]
    assert [s.open for s in info.seats] == [False, True]
    assert [s.name for s in info.seats] == ["Ann", "(open seat)"]
    await h2.take_seat(tid, 1, BOB)  # anyone may take it now
    await h2.submit(tid, BOB, 1, Roll(), 1)
    h3 = hub(tmp_path)  # a seat taken mid-race is kept too
    assert [s.identity for s in h3.info(tid).seats] == [ANN.id, BOB.id]
    assert [s.name for s in h3.info(tid).seats] == ["Ann", "Bob"]
    assert h3.table(tid).state_id == 2


async def test_branched_waiting_table_keeps_its_past(tmp_path):
    past = [Dealt(seat=0, card=3), Dealt(seat=1, card=8), Rolled(seat=0, face=5)]
    h = hub(tmp_path)
    tid = await h.create_table(
        TableSpec(
            game="dash",
            seats=[SeatSpec(kind="human"), SeatSpec(kind="open")],
            seed=21,
            branched_from={"source": "x.replay", "step": 1, "events": past},
        ),
        ANN,
    )
    h2 = hub(tmp_path)
    assert h2.table(tid).history[0].events == past
    assert h2.table(tid).state == h.table(tid).state
    await h2.take_seat(tid, 1, BOB)
    await h2.submit(tid, BOB, 1, Roll(), 0)
    assert hub(tmp_path).table(tid).state == h2.table(tid).state


async def test_corrupt_waiting_record_is_skipped_and_the_rest_restored(tmp_path, caplog):
    h = hub(tmp_path)
    bad = await waiting(h)
    no_seed = await waiting(h)
    good = await waiting(h)
    running = await waiting(h)
    await h.take_seat(running, 1, BOB)
    await h.take_seat(running, 2, CAT)
    (tmp_path / "tables" / f"{bad}.wait").write_bytes(b'{"table_id": "x", "game": ')
    (tmp_path / "tables" / f"{no_seed}.seed").unlink()
    with caplog.at_level(logging.ERROR, logger="speedway.persist"):
        h2 = hub(tmp_path)
    assert {t.id: t.status for t in h2.tables(ANN)} == {good: "waiting", running: "running"}
    assert f"waiting table {bad} could not be restored" in caplog.text
    assert f"waiting table {no_seed} could not be restored" in caplog.text
    assert f"{bad}.wait" in files(tmp_path, bad)  # left for a person to look at
    new = await waiting(h2)
    assert new not in (bad, no_seed)


async def test_a_record_left_next_to_its_log_is_superseded(tmp_path):
    h = hub(tmp_path)
    tid = await waiting(h)
    record = tmp_path / "tables" / f"{tid}.wait"
    shutil.copy(record, tmp_path / "saved")
    await h.take_seat(tid, 1, BOB)
    await h.take_seat(tid, 2, CAT)
    await h.submit(tid, ANN, 0, Roll(), 0)
    shutil.copy(tmp_path / "saved", record)  # as if the crash came before its removal
    h2 = hub(tmp_path)
    assert [(t.id, t.status) for t in h2.tables(ANN)] == [(tid, "running")]
    assert h2.table(tid).state_id == 1
    assert not record.exists()
