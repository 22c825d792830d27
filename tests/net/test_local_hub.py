"""LocalHub with the Dash test game: seats, redacted streams, bots, hot-seat, private tables,
lobby, hints, timers, away/back, chat sanitising and rate limits. Every wait is bounded."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from core.game import NotYourTurn, StaleAction
from net.hub import (
    ChatLine,
    HubError,
    Identity,
    Notice,
    SeatSpec,
    StepUpdate,
    TableChanged,
    TableSpec,
    Welcome,
)
from net.local_hub import LocalHub
from tests.fakegame import GAME as DASH
from tests.fakegame import DashConfig, Dealt, Roll, Stop

ANN = Identity(id="SHA256:ann", nickname="Ann")
BOB = Identity(id="SHA256:bob", nickname="Bob")
EVE = Identity(id="SHA256:eve", nickname="Eve")
GUEST = Identity(id="guest:1", nickname="Gus", guest=True)
LOCAL = Identity(id="local:me", nickname="me")

T = 5.0  # every wait in this file is bounded by this many seconds


def hub(**kw) -> LocalHub:
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("lobby_interval", 0.0)
    return LocalHub(None, persist=False, games={"dash": DASH}, **kw)


def two_humans(**kw) -> TableSpec:
    return TableSpec(
        game="dash",
        seats=[SeatSpec(kind="human"), SeatSpec(kind="open")],
        seed=7,
        **kw,
    )


async def next_of(watch, kind, limit: int = 50):
    it = watch.__aiter__()
    for _ in range(limit):
        item = await asyncio.wait_for(it.__anext__(), T)
        if isinstance(item, kind):
            return item
    raise AssertionError(f"no {kind.__name__} within {limit} updates")


def fold(welcome: Welcome, updates: list[StepUpdate]):
    state = DASH.new_state(welcome.config, len(welcome.table.seats))
    for ev in welcome.events:
        state = DASH.evolve(state, ev)
    for up in updates:
        for ev in up.events:
            state = DASH.evolve(state, ev)
    return state


async def test_welcome_then_redacted_steps_and_fold_equals_view():
    h = hub()
    tid = await h.create_table(two_humans(), ANN)
    assert h.info(tid).status == "waiting"
    await h.take_seat(tid, 1, BOB)
    assert h.info(tid).status == "running"
    wa = h.watch(tid, ANN, 0)
    spec = h.watch(tid, EVE, None)
    wel_a = await next_of(wa, Welcome)
    wel_s = await next_of(spec, Welcome)
    assert wel_a.seat == 0
    assert wel_s.seat is None
    # Ann sees her own card only; the spectator sees none.
    dealt_a = [e for e in wel_a.events if isinstance(e, Dealt)]
    assert dealt_a[0].card is not None
    assert dealt_a[1].card is None
    assert all(e.card is None for e in wel_s.events if isinstance(e, Dealt))
    await h.submit(tid, ANN, 0, Roll(), wel_a.state_id)
    up = await next_of(wa, StepUpdate)
    assert up.state_id == 1
    assert up.seat == 0
    assert up.pending == [1]
    table = h.table(tid)
    assert fold(wel_a, [up]) == DASH.view(table.state, 0)
    up_s = await next_of(spec, StepUpdate)
    assert fold(wel_s, [up_s]) == DASH.view(table.state, None)


async def test_spectator_stream_never_carries_a_hidden_card():
    h = hub()
    tid = await h.create_table(
        TableSpec(
            game="dash",
            seats=[SeatSpec(kind="bot", bot="steady"), SeatSpec(kind="bot", bot="random")],
            seed=3,
        ),
        ANN,
    )
    spec = h.watch(tid, EVE, None)
    raw = []
    async for item in _until_finished(spec):
        raw.append(msgspec.msgpack.encode(item))
    table = h.table(tid)
    assert table.result() is not None
    secret_cards = [e.card for e in table.history[0].events]
    joined = b"".join(raw)
    for card in secret_cards:
        # the encoded Dealt events that reached the spectator carry no card value
        assert msgspec.msgpack.encode(Dealt(seat=0, card=card)) not in joined
        assert msgspec.msgpack.encode(Dealt(seat=1, card=card)) not in joined


async def _until_finished(watch):
    it = watch.__aiter__()
    while True:
        item = await asyncio.wait_for(it.__anext__(), T)
        yield item
        if isinstance(item, TableChanged) and item.table.status == "finished":
            return


async def test_bots_play_a_whole_game_and_the_seed_is_revealed_at_the_end():
    h = hub()
    tid = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="bot"), SeatSpec(kind="bot")], seed=11),
        ANN,
    )
    w = h.watch(tid, ANN, None)
    wel = await next_of(w, Welcome)
    assert wel.table.seed is None
    assert wel.table.commitment
    ups = []
    notices = []
    async for item in _until_finished(w):
        if isinstance(item, StepUpdate):
            ups.append(item)
        if isinstance(item, Notice):
            notices.append(item.text)
    info = h.info(tid)
    assert info.status == "finished"
    assert info.seed == 11
    winner = h.table(tid).names[h.table(tid).result().winner]
    assert f"The race is over: {winner} wins" in " ".join(notices)  # a name, not "seat N"
    assert fold(wel, ups) == DASH.view(h.table(tid).state, None)


async def test_submit_checks_the_seat_holder_and_state_id():
    h = hub()
    tid = await h.create_table(two_humans(), ANN)
    with pytest.raises(NotYourTurn, match="starts when every seat"):
        await h.submit(tid, ANN, 0, Roll(), 0)
    await h.take_seat(tid, 1, BOB)
    with pytest.raises(HubError, match="do not hold seat 2") as not_seated:
        await h.submit(tid, ANN, 1, Roll(), 0)
    assert not_seated.value.kind == "not-seated"
    with pytest.raises(StaleAction):
        await h.submit(tid, ANN, 0, Roll(), 5)
    with pytest.raises(HubError, match="Seat 2 is taken") as taken:
        await h.take_seat(tid, 1, EVE)
    assert taken.value.kind == "seat-taken"
    with pytest.raises(ValueError, match="do not hold seat 1"):
        h.watch(tid, BOB, 0)


async def test_hot_seat_one_identity_holds_every_seat():
    h = hub()
    tid = await h.create_table(
        TableSpec(
            game="dash",
            seats=[SeatSpec(kind="human", name="Ann"), SeatSpec(kind="human", name="Bob")],
            seed=5,
        ),
        LOCAL,
    )
    info = h.info(tid)
    assert [s.name for s in info.seats] == ["Ann", "Bob"]
    assert info.status == "running"
    await h.submit(tid, LOCAL, 0, Stop(), 0)
    await h.submit(tid, LOCAL, 1, Stop(), 1)
    assert h.info(tid).status == "finished"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Player 2", "Player 2"),
        ("  Ann   Lee  ", "Ann Lee"),  # trimmed, a run of spaces kept as one
        ("Ann\u00a0\u3000Lee", "Ann Lee"),  # any space separator is a plain space
        ("\x1b[31mAnn\x07 \u202eLee\r\n", "31mAnn Lee"),  # controls and escapes dropped
        ("Ann \x1b Lee", "Ann Lee"),  # a dropped control leaves no double space
        ("Ann Lee Smith-Jones", "Ann Lee Smith-Jo"),  # cut to 16, never ending on a space
        ("Abcdefghijklmno pq", "Abcdefghijklmno"),
        (" \x1b ", "player1"),  # nothing left: the seat's fallback
    ],
)
async def test_a_seat_name_keeps_its_inner_spaces_and_nothing_unsafe(raw, shown):
    h = hub()
    spec = TableSpec(game="dash", seats=[SeatSpec(kind="human", name=raw)], seed=5)
    tid = await h.create_table(spec, LOCAL)
    assert [s.name for s in h.info(tid).seats] == [shown]


async def test_a_bot_seat_and_a_nickname_taking_an_open_seat_keep_their_spaces():
    h = hub()
    spec = TableSpec(
        game="dash",
        seats=[SeatSpec(kind="human"), SeatSpec(kind="bot", name="Bold 2"), SeatSpec(kind="open")],
        seed=5,
    )
    tid = await h.create_table(spec, ANN)
    await h.take_seat(tid, 2, Identity(id="local:hot:Player 3", nickname="Player 3"))
    assert [s.name for s in h.info(tid).seats] == ["Ann", "Bold 2", "Player 3"]


async def test_bot_seat_waits_bot_delay_then_plays():
    h = hub(bot_delay=0.05)
    tid = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="bot")], seed=2),
        ANN,
    )
    w = h.watch(tid, ANN, 0)
    await next_of(w, Welcome)
    await h.submit(tid, ANN, 0, Roll(), 0)
    mine = await next_of(w, StepUpdate)
    assert mine.seat == 0
    bot = await next_of(w, StepUpdate)
    assert bot.seat == 1
    assert bot.state_id == 2


async def test_hint_uses_the_bot():
    h = hub()
    tid = await h.create_table(two_humans(), ANN)
    await h.take_seat(tid, 1, BOB)
    assert await h.hint(tid, ANN, 0, "steady") == Roll()
    with pytest.raises(HubError) as refused:
        await h.hint(tid, BOB, 0, None)
    assert refused.value.kind == "not-seated"


async def test_private_table_needs_its_invite_code():
    h = hub()
    tid = await h.create_table(two_humans(private=True), ANN)
    assert [t.id for t in h.tables(ANN)] == [tid]
    assert h.tables(BOB) == []
    with pytest.raises(ValueError, match="no table"):
        h.watch(tid, BOB, None)
    code = h.invite_code(tid, ANN)
    assert code
    assert len(code) == 6
    with pytest.raises(ValueError, match="invite code"):
        await h.join_private("NOPE12", BOB)
    assert await h.join_private(code.lower(), BOB) == tid
    assert [t.id for t in h.tables(BOB)] == [tid]
    await h.take_seat(tid, 1, BOB)
    assert h.info(tid).status == "running"


async def test_lobby_stream_sees_new_tables_and_seat_changes():
    h = hub()
    lobby = h.watch_lobby(EVE)
    first = await asyncio.wait_for(lobby.__anext__(), T)
    assert first == []
    tid = await h.create_table(two_humans(), ANN)
    second = await asyncio.wait_for(lobby.__anext__(), T)
    assert [t.id for t in second] == [tid]
    assert second[0].seats[1].open
    await h.take_seat(tid, 1, BOB)
    third = await asyncio.wait_for(lobby.__anext__(), T)
    assert third[0].status == "running"
    assert not third[0].seats[1].open
    await lobby.aclose()


async def test_turn_timer_lets_the_bot_play_and_says_so():
    h = hub(turn_timer=0.05)
    tid = await h.create_table(two_humans(), ANN)
    await h.take_seat(tid, 1, BOB)
    w = h.watch(tid, BOB, 1)
    up = await next_of(w, StepUpdate)
    assert up.seat == 0
    note = await next_of(w, Notice)
    assert "Time ran out" in note.text
    assert "Ann" in note.text


async def test_away_player_bot_takes_over_after_grace_and_hands_back():
    h = hub(away_grace=0.1)
    tid = await h.create_table(two_humans(), ANN)
    await h.take_seat(tid, 1, BOB)
    wa = h.watch(tid, ANN, 0)
    wb = h.watch(tid, BOB, 1)
    await next_of(wb, Welcome)
    await wa.close()
    away = await next_of(wb, Notice)
    assert away.text == "Ann is away."
    assert h.info(tid).seats[0].away
    up = await next_of(wb, StepUpdate)
    assert up.seat == 0  # Ann's bot played after the grace
    assert "bot played" in (await next_of(wb, Notice)).text
    # Ann comes back to the same seat: no more automatic play for her.
    wa2 = h.watch(tid, ANN, 0)
    back = await next_of(wb, Notice)
    assert back.text == "Ann is back."
    assert not h.info(tid).seats[0].away
    wel = await next_of(wa2, Welcome)
    assert wel.state_id == h.table(tid).state_id


async def test_guest_keeps_no_seat_when_gone():
    h = hub()
    tid = await h.create_table(two_humans(), ANN)
    await h.take_seat(tid, 1, GUEST)
    w = h.watch(tid, GUEST, 1)
    await w.close()
    assert h.info(tid).seats[1].open
    await h.take_seat(tid, 1, BOB)
    assert h.info(tid).seats[1].name == "Bob"


async def test_a_guest_leaving_is_named_in_the_notice_cleaned_like_a_seat_name():
    h = hub()
    tid = await h.create_table(two_humans(), ANN)
    sly = Identity(id="guest:2", nickname="Gus \x1b[2J\u202eLee", guest=True)
    await h.take_seat(tid, 1, sly)
    looking = h.watch(tid, ANN, 0)
    await next_of(looking, Welcome)
    w = h.watch(tid, sly, 1)
    await w.close()
    note = await next_of(looking, Notice)
    assert note.text == "Gus 2JLee left the table."  # no escape, no direction override
    assert h.info(tid).seats[1].open


async def test_chat_is_sanitised_and_rate_limited():
    h = hub(chat_burst=2, chat_window=60)
    tid = await h.create_table(two_humans(), ANN)
    w = h.watch(tid, EVE, None)
    await h.chat(tid, ANN, "hi \x1b]0;owned\x07 \x1b[2Jthere\u202e")
    line = await next_of(w, ChatLine)
    assert line.nickname == "Ann"
    assert "\x1b" not in line.text
    assert "\u202e" not in line.text
    assert line.text == "hi ]0;owned [2Jthere"
    await h.chat(tid, ANN, "two")
    with pytest.raises(ValueError, match="too fast"):
        await h.chat(tid, ANN, "three")
    with pytest.raises(ValueError, match="visible"):
        await h.chat(tid, BOB, "\x1b\x07")


async def test_hostile_nickname_never_reaches_other_viewers_raw():
    h = hub()
    evil = Identity(id="SHA256:x", nickname="\x1b]0;pwn\x07Mal")
    tid = await h.create_table(two_humans(), ANN)
    w = h.watch(tid, ANN, 0)
    await h.take_seat(tid, 1, evil)
    changed = await next_of(w, TableChanged)
    assert changed.table.seats[1].name == "0pwnMal"
    # In JSON every number is digits (msgpack's binary numbers, e.g. `played_at`, can hold the
    # byte 0x1b by chance), and an escape in a string would show, raw or as \u001b.
    encoded = msgspec.json.encode(changed)
    assert b"\x1b" not in encoded
    assert b"\\u001b" not in encoded


async def test_unknown_game_and_table_give_one_sentence():
    h = hub()
    with pytest.raises(ValueError, match="no game called 'nope'"):
        await h.create_table(TableSpec(game="nope", seats=[]), ANN)
    with pytest.raises(ValueError, match="no table"):
        h.watch("zzz", ANN, None)
    with pytest.raises(ValueError, match="Dash seats 1 to 4"):
        await h.create_table(TableSpec(game="dash", seats=[SeatSpec(kind="bot")] * 5), ANN)


async def test_close_tells_viewers_and_ends_streams():
    h = hub()
    tid = await h.create_table(two_humans(), ANN)
    w = h.watch(tid, EVE, None)
    await h.close("bye now")
    items = [x async for x in _drain(w)]
    assert any(isinstance(x, Notice) and x.text == "bye now" for x in items)


async def _drain(w):
    it = w.__aiter__()
    while True:
        try:
            yield await asyncio.wait_for(it.__anext__(), T)
        except StopAsyncIteration:
            return


def test_dash_config_is_the_default():
    assert DashConfig() == DASH.default_config()


async def test_network_hub_ignores_chosen_seeds_floors_timers_and_caps_tables():
    h = hub(network=True, max_tables_per_identity=2)
    spec = TableSpec(
        game="dash",
        seats=[SeatSpec(kind="human"), SeatSpec(kind="open")],
        seed=7,
        turn_timer=0.001,
        bot_delay=0.0,
    )
    tid = await h.create_table(spec, ANN)
    room = h._room(tid)
    assert room.spec.seed is None
    assert room.spec.turn_timer == 10.0
    assert room.spec.bot_delay == 0.2
    await h.create_table(spec, ANN)
    with pytest.raises(ValueError, match="2 unfinished tables"):
        await h.create_table(spec, ANN)
    await h.create_table(spec, BOB)  # the cap is per identity


async def test_finished_tables_leave_the_list_and_abandoned_ones_vanish():
    h = hub(finished_keep=0.05)
    tid = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human")], seed=1), LOCAL
    )
    watched = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human")], seed=1), LOCAL
    )
    w = h.watch(watched, LOCAL, 0)
    await h.submit(tid, LOCAL, 0, Stop(), 0)
    await h.submit(watched, LOCAL, 0, Stop(), 0)
    assert h.info(tid).status == "finished"
    await asyncio.sleep(0.2)
    assert [t.id for t in h.tables(LOCAL)] == [watched]  # still looked at: kept
    await w.close()
    await asyncio.sleep(0.2)
    assert h.tables(LOCAL) == []
    waiting = await h.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")]), ANN
    )
    assert h.info(waiting).status == "waiting"
    await h.leave(waiting, ANN)
    assert h.tables(ANN) == []


async def test_at_most_max_finished_tables_stay_the_oldest_unwatched_leave_first():
    h = hub(max_finished=2)  # (finished_keep: ten minutes, as on a server)
    spec = TableSpec(game="dash", seats=[SeatSpec(kind="human")], seed=1)
    ids = [await h.create_table(spec, LOCAL) for _ in range(4)]
    w = h.watch(ids[0], LOCAL, 0)  # the oldest is still looked at
    for tid in ids[:3]:
        await h.submit(tid, LOCAL, 0, Stop(), 0)
    listed = {t.id for t in h.tables(LOCAL)}
    assert listed == {ids[0], ids[2], ids[3]}, "the oldest unwatched finished table left"
    assert not h.has(ids[1])
    await w.close()
    await asyncio.sleep(0.05)
    assert {t.id for t in h.tables(LOCAL)} == listed, "two finished: none too many"
    await h.submit(ids[3], LOCAL, 0, Stop(), 0)  # a third finishes: the oldest, unwatched now
    assert {t.id for t in h.tables(LOCAL)} == {ids[2], ids[3]}


async def test_a_finished_table_too_many_leaves_when_its_last_viewer_does():
    h = hub(max_finished=1)
    spec = TableSpec(game="dash", seats=[SeatSpec(kind="human")], seed=1)
    old, new = await h.create_table(spec, LOCAL), await h.create_table(spec, LOCAL)
    watching = [h.watch(old, LOCAL, 0), h.watch(new, LOCAL, 0)]
    for tid in (old, new):
        await h.submit(tid, LOCAL, 0, Stop(), 0)
    assert {t.id for t in h.tables(LOCAL)} == {old, new}, "both are looked at: both stay"
    await watching[0].close()
    await asyncio.sleep(0.05)
    assert [t.id for t in h.tables(LOCAL)] == [new]


async def test_table_summary_names_only_the_options_that_differ_from_the_defaults():
    h = hub()
    seats = [SeatSpec(kind="bot", bot="steady"), SeatSpec(kind="human")]
    same = await h.create_table(TableSpec(game="dash", seats=seats, options={"goal": 10}), ANN)
    other = await h.create_table(TableSpec(game="dash", seats=seats, options={"goal": 12}), ANN)
    assert h.info(same).summary == "standard rules"  # a form sends every option, even defaults
    assert h.info(other).summary == "goal 12"
    await h.close()


async def test_every_hub_refusal_has_its_kind_and_a_sentence():
    h = hub(chat_burst=1)
    tid = await h.create_table(two_humans(private=True), ANN)

    async def kind_of(call) -> str:
        with pytest.raises(HubError) as refused:
            await call()
        assert str(refused.value).endswith(".")  # one sentence a player can read
        return refused.value.kind

    async def watch_unknown() -> None:
        h.watch("nope", ANN, None)

    assert await kind_of(watch_unknown) == "no-such-table"
    assert await kind_of(lambda: h.take_seat(tid, 0, BOB)) == "no-such-table"  # private
    assert await kind_of(lambda: h.join_private("ZZZZZZ", BOB)) == "no-such-table"
    code = h.invite_code(tid, ANN)
    await h.join_private(code, BOB)
    assert await kind_of(lambda: h.take_seat(tid, 0, BOB)) == "seat-taken"
    assert await kind_of(lambda: h.submit(tid, BOB, 0, Roll(), 0)) == "not-seated"
    assert await kind_of(lambda: h.create_table(TableSpec(game="nope", seats=[]), ANN)) == (
        "config-refused"
    )
    await h.chat(tid, ANN, "hi")
    assert await kind_of(lambda: h.chat(tid, ANN, "again")) == "rate-limited"
