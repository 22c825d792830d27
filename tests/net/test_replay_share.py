"""Finished replays through Redis (`net.replay_share`): two hubs with data dirs of their own (two
machines) on a real redis-server; a race finished at one is downloadable from the other's
folder, byte for byte, and a private table's replay there is visible to its players only."""

from __future__ import annotations

import asyncio

import pytest

from net.hub import SeatSpec, TableSpec
from net.replay_access import ReplayAccess
from tests.fakegame import Roll
from tests.net.test_bus_hub import ANN, BOB, EVE, make_hub, until


@pytest.mark.parametrize("private", [False, True])
async def test_a_replay_finished_on_one_machine_is_served_by_the_other(
    redis_server, tmp_path, private
):
    a = make_hub(redis_server.url, tmp_path / "a", "wa")
    b = make_hub(redis_server.url, tmp_path / "b", "wb")
    await a.start()
    await b.start()
    try:
        spec = TableSpec(
            game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], private=private
        )
        tid = await a.create_table(spec, ANN)
        if private:
            code = a.local.invite_code(tid, ANN)
            assert code is not None
            for _ in range(100):  # (the code reaches Redis with a's next lobby publish)
                if await b.bus.code(code) == tid:
                    break
                await asyncio.sleep(0.05)
            assert await b.join_private(code, BOB) == tid
        else:
            await until(lambda: bool(b.tables(BOB)), "the table in b's lobby")
        await b.take_seat(tid, 1, BOB)
        table = a.local.table(tid)
        while table.result() is None:
            seat = table.pending()[0]
            await a.local.submit(tid, ANN if seat == 0 else BOB, seat, Roll(), table.state_id)
        replay_id = a.local.info(tid).replay_id
        assert replay_id is not None
        mine = tmp_path / "a" / "replays" / f"{replay_id}.replay"
        theirs = tmp_path / "b" / "replays" / f"{replay_id}.replay"
        await until(theirs.exists, "the replay in b's data dir", seconds=10)
        assert theirs.read_bytes() == mine.read_bytes()
        access = ReplayAccess(tmp_path / "b")
        assert access.path(replay_id, BOB.id) == theirs  # a player: yes, on either machine
        assert access.path(replay_id, ANN.id) == theirs
        stranger = access.path(replay_id, EVE.id)
        assert (stranger is None) == private  # the private one: not for anyone else
        assert [i.path.stem for i in access.visible(EVE.id)] == ([] if private else [replay_id])
    finally:
        await a.close()
        await b.close()
