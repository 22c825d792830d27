"""A left game is not finished in its player's name: local play never lets a bot take a local
human's seat, an abandoned game leaves nothing behind and publishes no replay, a bot standing in
for an absent player at a network table is on the record, and a finished table shows nobody away.
Every wait is bounded."""

from __future__ import annotations

import asyncio

import pytest

from net.hub import Identity, Notice, SeatSpec, TableSpec
from net.local_hub import LocalHub
from replays import open_replay
from replays.export import transcript
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll

ANN = Identity(id="SHA256:ann", nickname="Ann")
BOB = Identity(id="SHA256:bob", nickname="Bob")
ME = Identity(id="local:me", nickname="me")
T = 5.0


def hub(data, **kw) -> LocalHub:
    kw.setdefault("bot_delay", 0.0)
    return LocalHub(data, games={"dash": DASH}, lobby_interval=0.0, **kw)


def me_and_bot(seed: int = 3) -> TableSpec:
    return TableSpec(
        game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="bot", bot="steady")], seed=seed
    )


async def until(predicate, within: float = T) -> None:
    async def loop() -> None:
        while not predicate():  # noqa: ASYNC110 - bounded poll of the hub
            await asyncio.sleep(0.01)

    await asyncio.wait_for(loop(), within)


async def test_local_play_never_lets_a_bot_take_an_away_humans_seat(tmp_path):
    h = hub(tmp_path, away_bots=False, away_grace=0.01)
    tid = await h.create_table(me_and_bot(), ME)
    w = h.watch(tid, ME, 0)
    await w.close()  # the player left the table (kept it)
    assert h.info(tid).seats[0].away
    before = h.table(tid).state_id
    await asyncio.sleep(0.3)  # thirty grace periods
    assert h.table(tid).state_id == before
    assert h.table(tid).pending() == (0,)
    # The next process on this data dir restores it paused, too.
    h2 = hub(tmp_path, away_bots=False, away_grace=0.01)
    await h2.start()
    await asyncio.sleep(0.2)
    assert h2.table(tid).state_id == before
    assert h2.info(tid).status == "running"
    await h2.close()
    await h.close()


async def test_a_network_hub_still_hands_an_away_seat_to_its_bot(tmp_path):
    h = hub(tmp_path, away_grace=0.01)
    tid = await h.create_table(me_and_bot(), ME)
    w = h.watch(tid, ME, 0)
    await w.close()
    await until(lambda: h.table(tid).state_id > 0)
    await h.close()


async def test_abandon_ends_the_game_with_no_files_and_no_replay(tmp_path):
    h = hub(tmp_path, away_bots=False)
    tid = await h.create_table(me_and_bot(), ME)
    await h.submit(tid, ME, 0, Roll(), 0)
    tables = tmp_path / "tables"
    assert (tables / f"{tid}.log").exists()
    w = h.watch(tid, ME, 0)
    await h.abandon(tid, ME)
    assert tid not in [t.id for t in h.tables(ME)]
    assert sorted(p.name for p in tables.iterdir()) == []
    assert not (tmp_path / "replays").exists() or list((tmp_path / "replays").iterdir()) == []
    seen = [item async for item in w]  # the stream says why, then ends
    assert any(isinstance(i, Notice) and "abandoned" in i.text for i in seen)
    # Nothing comes back on the next start.
    h2 = hub(tmp_path, away_bots=False)
    assert h2.tables(ME) == []
    await h.close()
    await h2.close()


async def test_abandon_is_refused_to_non_players_and_on_a_server(tmp_path):
    h = hub(tmp_path, away_bots=False)
    tid = await h.create_table(me_and_bot(), ME)
    with pytest.raises(ValueError, match="Only a player"):
        await h.abandon(tid, BOB)
    server = hub(None, persist=False, network=True)
    sid = await server.create_table(me_and_bot(), ANN)
    with pytest.raises(ValueError, match="cannot be abandoned"):
        await server.abandon(sid, ANN)
    await h.close()
    await server.close()


async def test_a_stand_in_bot_is_on_the_record_and_the_transcript_says_so(tmp_path):
    h = hub(tmp_path, away_grace=0.01)
    spec = TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], seed=4)
    tid = await h.create_table(spec, ANN)
    await h.take_seat(tid, 1, BOB)
    wa = h.watch(tid, ANN, 0)
    wb = h.watch(tid, BOB, 1)
    await wa.close()  # Ann drops: after the grace her seat's bot plays
    await until(lambda: h.table(tid).state_id >= 1)
    h.watch(tid, ANN, 0)  # Ann is back
    await until(lambda: not h.info(tid).seats[0].away)
    table = h.table(tid)
    # Play the game out by hand, so the log gets its records and ends.
    while table.result() is None:
        (seat,) = table.pending()
        who = ANN if seat == 0 else BOB
        await h.submit(tid, who, seat, Roll(), table.state_id)
    await until(lambda: h.info(tid).replay_id is not None)
    info = h.info(tid)
    assert not any(s.away for s in info.seats)
    replay = open_replay(tmp_path / "replays" / f"{info.replay_id}.replay", game=DASH)
    changes = replay.seat_changes
    assert len(changes) == 2
    assert changes[0].state_id == 0  # from step 1 on, the bot played for Ann
    assert changes[0].seats[0].bot == DASH.default_bot
    assert changes[0].seats[0].identity == ANN.id
    assert changes[1].seats[0].bot is None  # then Ann again
    assert replay.steps[1].seat == 0
    words = transcript(replay)
    assert "From step 1 the random bot plays for Ann, who is away." in words
    assert f"From step {changes[1].state_id + 1} Ann plays again." in words
    await wb.close()
    await h.close()


async def test_a_finished_table_shows_nobody_away(tmp_path):
    h = hub(None, persist=False, away_grace=0.01)
    tid = await h.create_table(me_and_bot(), ANN)
    w = h.watch(tid, ANN, 0)
    await w.close()
    await until(lambda: h.info(tid).status == "finished")
    assert not any(s.away for s in h.info(tid).seats)
    await h.close()


async def test_table_info_counts_the_games_turns(tmp_path):
    h = hub(None, persist=False, away_bots=False)
    tid = await h.create_table(me_and_bot(), ME)
    assert h.info(tid).turn == 0  # Dash declares no turns
    await h.close()


async def test_table_info_turn_follows_the_games_declared_turns():
    from core import registry

    go = registry.get("go500")
    h = LocalHub(None, persist=False, bot_delay=0.0, lobby_interval=0.0)
    spec = TableSpec(
        game="go500",
        seats=[SeatSpec(kind="bot", bot="bold"), SeatSpec(kind="bot", bot="cautious")],
        seed=2,
    )
    tid = await h.create_table(spec, ANN)
    await until(lambda: h.info(tid).status == "finished")
    turns = sum(1 for s in h.table(tid).history for e in s.events if go.turn_started(e))
    assert turns > 5
    assert h.info(tid).turn == turns
    await h.close()
