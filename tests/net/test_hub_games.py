"""Every registered game through the hub: a bot race from start to finish watched by a
spectator and by each seat. What each viewer receives is exactly the redacted history for its
perspective, folds to the game's view, and never carries an event whose full form is hidden
from it (the hidden-information games, Cthulhu 500 and NASCAR Champions, are the point)."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from core import registry
from net.hub import Identity, SeatSpec, StepUpdate, TableChanged, TableSpec, Welcome
from net.local_hub import LocalHub

WHO = Identity(id="local:test", nickname="test")
T = 60.0


async def _collect(watch) -> list:
    items = []
    it = watch.__aiter__()
    while True:
        item = await asyncio.wait_for(it.__anext__(), T)
        items.append(item)
        if isinstance(item, TableChanged) and item.table.status == "finished":
            return items


@pytest.mark.parametrize("game_id", registry.game_ids())
async def test_each_viewer_gets_exactly_its_redacted_history(game_id):
    game = registry.get(game_id)
    hub = LocalHub(None, persist=False, bot_delay=0.0, lobby_interval=0.0)
    n = max(game.min_seats, 2)
    # Humans who never act would stall the race: every seat is a bot held by WHO's hot-seat
    # identity as the table's creator, and the viewers watch from each perspective.
    tid = await hub.create_table(
        TableSpec(game=game_id, seats=[SeatSpec(kind="bot")] * n, seed=1234), WHO
    )
    room = hub._room(tid)
    for seat in range(n):  # let WHO watch each seat's perspective (as a player would)
        room.slots[seat].holder = WHO.id
    perspectives: list[int | None] = [None, *range(n)]
    watches = [hub.watch(tid, WHO, p) for p in perspectives]
    streams = await asyncio.gather(*(_collect(w) for w in watches))
    table = hub.table(tid)
    assert table.result() is not None
    enc = msgspec.msgpack.encode
    for seat, items in zip(perspectives, streams, strict=True):
        welcome = items[0]
        assert isinstance(welcome, Welcome)
        got = list(welcome.events)
        for item in items[1:]:
            if isinstance(item, StepUpdate):
                got += item.events
        expected = []
        for step in table.history:
            expected += [r for r in (game.redact(e, seat) for e in step.events) if r is not None]
        assert [enc(e) for e in got] == [enc(e) for e in expected]
        state = game.new_state(welcome.config, n)
        for event in got:
            state = game.evolve(state, event)
        assert enc(state) == enc(game.view(table.state, seat))
        if seat is None:
            sent = {enc(e) for e in got}
            hidden = [
                e
                for step in table.history
                for e in step.events
                if enc(game.redact(e, None)) != enc(e)
            ]
            assert all(enc(e) not in sent for e in hidden)
            if game_id in ("cthulhu500", "champions"):
                assert hidden, "a hidden-information game should have hidden events"
    await hub.close()


async def test_lobby_summary_uses_the_games_own_words():
    from net.hub import Identity, SeatSpec, TableSpec
    from net.local_hub import LocalHub

    hub = LocalHub(None, persist=False, bot_delay=0.0, lobby_interval=0.0)
    who = Identity(id="SHA256:ann", nickname="Ann")
    seats = [SeatSpec(kind="human"), SeatSpec(kind="open")]
    plain = await hub.create_table(TableSpec(game="go500", seats=seats), who)
    chaos = await hub.create_table(
        TableSpec(game="go500", seats=seats, options={"race_length": 600, "table_chaos": True}),
        who,
    )
    assert hub.info(plain).summary == "Oval, 500 miles"
    assert hub.info(chaos).summary == "Oval, 600 miles · table chaos on"
    await hub.close()
