"""Pre-auth admission (sshd MaxStartups / PerSourceMaxStartups / PerSourcePenalties), what a
refused client reads, `ssh -N` connections, and the lock-out of issue 12: an honest login gets
in while another address squats. Unit tests run `net.guards` on a fake clock; the rest use the
real server on 127.0.0.1 (the squatter connects *from* 127.0.0.2, another loopback address, so
it is another source)."""

from __future__ import annotations

import asyncio
import socket
import time

import asyncssh
import pytest

from net.guards import Admission, Bucket, Tries
from tests.net.sshclient import T, Term, connect
from tests.net.test_server import KEY_A, KEY_B, start  # noqa: F401 - fixture


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def admission(clock, random=lambda: 0.5, **kw) -> Admission:
    args = {
        "startups_begin": 10,
        "startups_rate": 30,
        "max_startups": 20,
        "per_source_startups": 100,
        "per_source_per_minute": 10_000,
    }
    args.update(kw)
    return Admission(clock=clock, random=random, **args)


def test_random_early_drop_follows_start_rate_full():
    clock = Clock()
    gate = admission(clock, random=lambda: 0.9999)  # dice that never drop before 'full'
    probs = []
    for i in range(20):
        probs.append(gate.drop_probability())
        assert gate.admit(f"10.0.0.{i}") is None
    assert gate.admit("10.0.0.99") is not None
    assert probs[:10] == [0.0] * 10
    assert probs[10] == pytest.approx(0.3)
    assert probs[15] == pytest.approx(0.3 + 0.7 * 5 / 10)
    # at 'full', every new connection is refused, whatever the dice say
    full = admission(clock, random=lambda: 0.999, startups_begin=0, max_startups=3)
    assert [full.admit(f"10.1.0.{i}") for i in range(3)] == [None] * 3
    refusal = full.admit("10.1.0.9")
    assert refusal is not None
    assert refusal.reason == "too_many_unauthenticated"
    # with real randomness, roughly rate% are dropped at 'start'
    sampled = admission(clock, random=None, startups_begin=1, startups_rate=30, max_startups=10)
    sampled.admit("10.2.0.1")
    drops = 0
    for i in range(2000):
        if sampled.admit(f"10.3.{i // 250}.{i % 250}") is not None:
            drops += 1
        else:
            sampled.release(f"10.3.{i // 250}.{i % 250}")
    print(f"random early drop at start: {drops} of 2000 dropped")
    assert 450 < drops < 750


def test_one_source_cannot_take_every_slot_and_release_frees_it():
    clock = Clock()
    gate = admission(clock, per_source_startups=3)
    assert [gate.admit("192.0.2.1") for _ in range(3)] == [None] * 3
    refusal = gate.admit("192.0.2.1")
    assert refusal is not None
    assert refusal.reason == "per_source"
    assert "try again in 10 s" in refusal.message
    assert gate.admit("192.0.2.2") is None  # someone else still gets in
    gate.release("192.0.2.1")
    assert gate.admit("192.0.2.1") is None
    # IPv6: one /64 is one source
    assert [gate.admit(f"2001:db8::{i}") for i in range(3)] == [None] * 3
    assert gate.admit("2001:db8::ffff").reason == "per_source"


def test_penalties_accrue_refuse_then_expire():
    clock = Clock()
    gate = admission(clock)
    for _ in range(2):  # 10 s: below penalty_min, still allowed
        assert gate.admit("198.51.100.1") is None
        gate.release("198.51.100.1", "authfail")
    assert gate.admit("198.51.100.1") is None
    gate.release("198.51.100.1", "grace")  # 20 s now: refused
    refusal = gate.admit("198.51.100.1")
    assert refusal is not None
    assert refusal.reason == "penalty"
    assert 15 <= refusal.retry_after <= 20
    assert gate.admit("198.51.100.2") is None  # only that source
    clock.now += 21
    assert gate.admit("198.51.100.1") is None  # expired
    for _ in range(1000):  # never more than penalty_max
        gate.penalise("198.51.100.3", "grace")
    assert gate.penalty("198.51.100.3") == pytest.approx(600.0)


def test_per_minute_rate_and_bounded_memory():
    clock = Clock()
    gate = admission(clock, per_source_per_minute=3, max_tracked=100)
    for _ in range(3):
        assert gate.admit("203.0.113.5") is None
        gate.release("203.0.113.5")
    assert gate.admit("203.0.113.5").reason == "rate_limited"
    clock.now += 61
    assert gate.admit("203.0.113.5") is None
    gate.release("203.0.113.5")
    for i in range(5000):
        gate.admit(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
        gate.release(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert gate.tracked <= 100


def test_tries_and_bucket():
    clock = Clock()
    tries = Tries(2, 60.0, clock=clock)
    tries.hit("a")
    tries.hit("a")
    assert tries.wait("a") == 60
    assert tries.wait("b") == 0
    clock.now += 61
    assert tries.wait("a") == 0
    bucket = Bucket(rate=10.0, burst=5, clock=clock)
    assert bucket.spend(5) == 0.0
    assert bucket.spend(10) == pytest.approx(1.0)
    clock.now += 2
    assert bucket.spend(5) == 0.0


# ---------------------------------------------------------------- on the real server


class _BannerClient(asyncssh.SSHClient):
    banners: list[str]

    def __init__(self) -> None:
        self.banners = []
        self.error: Exception | None = None
        self.closed = asyncio.Event()
        _BannerClient.last = self

    def connection_lost(self, exc: Exception | None) -> None:
        self.error = exc
        self.closed.set()

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


def _squat(port: int, source: str, n: int) -> list[socket.socket]:
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(T)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        socks.append(s)
    return socks


async def test_a_refused_client_reads_why_and_when_to_retry(start):  # noqa: F811
    server = await start(per_source_startups=1)
    squat = _squat(server.port, "127.0.0.1", 1)
    try:
        await asyncio.sleep(0.2)
        with pytest.raises(asyncssh.DisconnectError) as info:
            await connect(server.port, KEY_A, client_factory=_BannerClient)
        assert "try again in 10 s" in info.value.reason
        assert "too many logins in progress" in info.value.reason
    finally:
        for s in squat:
            s.close()


async def test_honest_login_succeeds_within_5s_while_one_address_squats(start):  # noqa: F811
    # The lock-out of issue 12 with the old global cap (10) and a short grace: one address
    # holds idle TCP connections and keeps opening new ones; an honest player gets in.
    server = await start(startups_begin=5, max_startups=10, login_grace=2.0)
    held: list[socket.socket] = []
    stop = asyncio.Event()

    async def keep_squatting() -> None:
        while not stop.is_set():
            held.extend(_squat(server.port, "127.0.0.2", 3))
            await asyncio.sleep(0.3)

    held.extend(_squat(server.port, "127.0.0.2", 10))  # the 10 idle connections
    squatter = asyncio.ensure_future(keep_squatting())
    logins = []
    try:
        await asyncio.sleep(0.5)
        squatting = server.unauthenticated
        for i in range(5):
            t0 = time.monotonic()
            conn = await asyncio.wait_for(connect(server.port, KEY_A if i % 2 else KEY_B), 5.0)
            term = await Term.open(conn)
            await term.wait_for("Choose a nickname", within=5.0)
            logins.append(time.monotonic() - t0)
            conn.close()
    finally:
        stop.set()
        await squatter
        for s in held:
            s.close()
    print(
        f"squatter opened {len(held)} connections; honest logins {len(logins)}/5, "
        f"slowest {max(logins):.2f} s; squatter held {squatting} slots"
    )
    assert len(held) >= 10
    assert squatting <= 4  # per_source_startups: the rest were refused at once
    assert len(logins) == 5
    assert max(logins) < 5.0


async def test_ssh_dash_n_connections_are_capped_and_time_out(start, caplog):  # noqa: F811
    caplog.set_level("INFO", logger="speedway")
    server = await start(max_unused=1, unused_timeout=0.5)
    idle = await connect(server.port, KEY_A, client_factory=_BannerClient)  # ssh -N
    first = _BannerClient.last
    await connect(server.port, KEY_B, client_factory=_BannerClient)
    second = _BannerClient.last
    await asyncio.wait_for(second.closed.wait(), T)
    assert "without a session" in str(second.error)
    await asyncio.wait_for(idle.wait_closed(), T)  # the first one times out
    await asyncio.wait_for(first.closed.wait(), T)
    # (asyncssh hides a DISC_BY_APPLICATION reason from its client; OpenSSH prints it)
    assert "reason=unused_timeout" in caplog.text
    assert server.unused == 0
    conn = await connect(server.port, KEY_A)  # and a connection that opens a session stays
    term = await Term.open(conn)
    await term.wait_for("Choose a nickname")
    await asyncio.sleep(0.8)
    assert not term.closed.is_set()
    conn.close()


async def test_sessions_whose_connection_drops_first_never_count_as_unused(start):  # noqa: F811
    """A closed terminal: the connection goes, then the session's app ends. That must not
    leave the connection counted among those without a session: with the cap at 2, three such
    players in a row locked every later login out."""
    server = await start(max_unused=2, unused_timeout=60.0)
    for key in (KEY_A, KEY_B, KEY_A, KEY_B):
        conn = await connect(server.port, key)
        term = await Term.open(conn)
        await term.wait_for("Choose a nickname")
        conn.abort()  # gone at once, the session still running on the server
        for _ in range(200):  # bounded: until the server has ended that session
            if not server.sessions:
                break
            await asyncio.sleep(0.02)
        assert server.unused == 0
    conn = await connect(server.port, KEY_A)  # an honest login still gets in
    term = await Term.open(conn)
    await term.wait_for("Choose a nickname")
    assert not term.closed.is_set()
    conn.close()


async def test_wrong_invite_codes_are_throttled_and_playing_keeps_the_name(tmp_path):
    from net.hub import Identity, SeatSpec, TableSpec
    from net.local_hub import LocalHub
    from net.server import Limits, SessionHub, SpeedwayServer, load_or_create_host_key
    from tests.fakegame import GAME as DASH
    from tests.net.mini_app import make_app

    hub = LocalHub(tmp_path, bot_delay=0.0, games={"dash": DASH}, lobby_interval=0.0)
    server = SpeedwayServer(
        hub,
        make_app,
        host_key=load_or_create_host_key(tmp_path),
        data_dir=tmp_path,
        limits=Limits(invite_tries=3, invite_window=60.0),
    )
    ann = Identity(id="fp-ann", nickname="Ann")
    eve = Identity(id="fp-eve", nickname="Eve")
    spec = TableSpec(
        game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="open")], private=True
    )
    assert server.players.bind(ann.id, "Ann") is None
    assert not server.players._names[ann.id].played
    table_id = await SessionHub(hub, server, ann.id).create_table(spec, ann)
    assert server.players._names[ann.id].played  # sat at a table: the name never expires
    code = hub.invite_code(table_id, ann)
    guesser = SessionHub(hub, server, eve.id)
    tried = 0
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC"):
        tried += 1
        with pytest.raises(ValueError, match="No table has that invite code"):
            await guesser.join_private(guess, eve)
    with pytest.raises(ValueError, match="Too many wrong invite codes; try again in"):
        await guesser.join_private(code, eve)  # even the right code waits now
    print(f"invite guesses: {tried} wrong, then throttled")
    other = Identity(id="fp-bob", nickname="Bob")  # someone else is not affected
    assert await SessionHub(hub, server, other.id).join_private(code, other) == table_id
    await hub.close()


async def test_a_key_flood_is_slowed_then_dropped_with_a_sentence(start):  # noqa: F811
    from tests.net.test_server import join

    server = await start(key_rate=50.0, key_burst=20, flood_drop=2.0)
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    other_conn, other = await join(server, KEY_B, "Bob")
    await other.wait_for("HELLO Bob")
    (session,) = [
        s for s in server.sessions if s.conn.identity_id == KEY_A.get_fingerprint("sha256")
    ]
    sent = 0
    t0 = time.monotonic()
    while not term.closed.is_set() and time.monotonic() - t0 < 8.0:
        term.send("\x1b[A\x1b[B" * 50)  # 100 key events a write, far above 50/s
        sent += 100
        await asyncio.sleep(0.02)
    await term.wait_for("sent keys faster than anyone can play", within=5)
    seconds = time.monotonic() - t0
    print(
        f"key flood: {sent} events sent, {session.key_events} parsed, "
        f"{session.keys_discarded} bytes discarded unparsed, dropped after {seconds:.1f} s"
    )
    assert session.key_events < sent / 4  # the rest were held back, then discarded unparsed
    assert len(session._pauses) >= 2  # slowed first (at least once), then dropped
    assert 1.0 < seconds < 6.0
    # the other player was never affected
    other.send("q")
    assert await other.wait_closed() == 0
    conn.close()
    other_conn.close()


async def test_typing_at_a_human_pace_is_never_slowed(start):  # noqa: F811
    from tests.net.test_server import join

    server = await start(key_rate=40.0, key_burst=200, flood_drop=1.0)
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    (session,) = server.sessions
    for _ in range(60):  # a held arrow key at 30/s for 2 s
        term.send("\x1b[B")
        await asyncio.sleep(1 / 30)
    await asyncio.sleep(0.2)
    assert session.key_events == 60
    assert not session._pauses
    assert not term.closed.is_set()
    conn.close()
