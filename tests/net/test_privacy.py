"""Privacy of finished games over real SSH: a private table's replay is listed and downloadable
only by its players and people who had its invite code; replay files name seats by nickname and
an opaque per-server id, never a key fingerprint; files written before this still open."""

from __future__ import annotations

import asyncio
import contextlib

import asyncssh

from core.game import IllegalAction, Seat, Table
from net.hub import Identity, SeatSpec, TableSpec
from net.replay_access import ReplayAccess, pseudonym
from replays.log import LogWriter
from replays.reader import read_replay
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll
from tests.net.sshclient import T, connect
from tests.net.test_server import KEY_A, KEY_B, start  # noqa: F401 - fixture

KEY_C = asyncssh.generate_private_key("ssh-ed25519")


def who(key, name: str) -> Identity:
    return Identity(id=key.get_fingerprint("sha256"), nickname=name)


async def play_out(hub, table_id: str, me: Identity) -> str:
    """Roll for seat 0 until the race ends (the bot plays itself); the replay id."""
    for _ in range(500):
        info = hub.info(table_id)
        if info.status == "finished" and info.replay_id:
            return info.replay_id
        table = hub.table(table_id)
        if table.result() is None and 0 in table.pending():
            with contextlib.suppress(IllegalAction):
                await hub.submit(table_id, me, 0, Roll(), table.state_id)
        await asyncio.sleep(0.01)
    raise AssertionError("the race did not finish")


async def run(conn, command: str, **kw):
    return await asyncio.wait_for(conn.run(command, **kw), T)


async def test_private_replays_only_for_players_and_invitees(start):  # noqa: F811
    server = await start()
    hub = server.hub
    ann, eve = who(KEY_A, "Ann"), who(KEY_C, "Eve")
    private = await hub.create_table(
        TableSpec(
            game="dash",
            seats=[SeatSpec(kind="human"), SeatSpec(kind="bot", bot="steady")],
            private=True,
        ),
        ann,
    )
    await hub.join_private(hub.invite_code(private, ann), eve)  # Eve had the invite code
    public = await hub.create_table(
        TableSpec(game="dash", seats=[SeatSpec(kind="human"), SeatSpec(kind="bot", bot="steady")]),
        ann,
    )
    private_id = await play_out(hub, private, ann)
    public_id = await play_out(hub, public, ann)

    stranger = await connect(server.port, KEY_B)
    listing = (await run(stranger, "replays")).stdout
    assert public_id in listing
    assert private_id not in listing
    refused = await run(stranger, f"replay {private_id}")
    assert refused.exit_status == 2
    assert f"there is no replay called {private_id}" in refused.stdout  # as if it did not exist
    stranger.close()

    counts = {"allowed": 0, "refused": 1}
    for key in (KEY_A, KEY_C):
        conn = await connect(server.port, key)
        assert private_id in (await run(conn, "replays")).stdout
        data = (await run(conn, f"replay {private_id}", encoding=None)).stdout
        assert data.startswith(b"\x89SPEEDWAY")
        for k in (KEY_A, KEY_B, KEY_C):  # no fingerprint, in any form, in the file
            fp = k.get_fingerprint("sha256")
            assert fp.encode() not in data
            assert fp.split(":", 1)[1].encode() not in data
        seats = read_replay(data, DASH).header.seats
        assert [s.name for s in seats] == ["Ann", "steady"]
        assert seats[0].identity == server.access.pseudonym(ann.id)
        assert seats[0].identity.startswith("p-")
        counts["allowed"] += 1
        conn.close()
    print(f"private replay: {counts['allowed']} allowed downloads, {counts['refused']} refused")


def test_pseudonyms_are_stable_per_server_and_differ_between_servers(tmp_path):
    one = ReplayAccess(tmp_path / "one")
    assert one.pseudonym("SHA256:abc") == ReplayAccess(tmp_path / "one").pseudonym("SHA256:abc")
    assert one.pseudonym("SHA256:abc") != ReplayAccess(tmp_path / "two").pseudonym("SHA256:abc")
    assert one.pseudonym("SHA256:abc") != one.pseudonym("SHA256:abd")
    assert (tmp_path / "one" / "keys" / "replay_ids.key").stat().st_mode & 0o077 == 0
    assert pseudonym(b"x" * 32, "guest:123") == "guest"


def test_a_replay_written_before_pseudonyms_still_opens(tmp_path):
    seats = [
        Seat(name="Old", identity="SHA256:olderfingerprint"),
        Seat(name="steady", bot="steady"),
    ]
    table = Table(DASH, DASH.default_config(), seats, 7)
    path = tmp_path / "old.replay"
    with LogWriter.create(path, table) as writer:
        assert writer.header.seats[0].identity == "SHA256:olderfingerprint"
    replay = read_replay(path.read_bytes(), DASH)
    assert replay.header.seats[0].name == "Old"
    # and a folder without access files is public, as it always was
    assert ReplayAccess(tmp_path).may_see("anything", "SHA256:someone")


def test_the_replay_browser_of_a_network_session_lists_only_what_its_user_may_see(tmp_path):
    from tui.app import SpeedwayApp

    folder = tmp_path / "replays"
    folder.mkdir()
    for name in ("open", "secret"):
        seats = [Seat(name="Ann", identity="p-x"), Seat(name="steady", bot="steady")]
        LogWriter.create(
            folder / f"{name}.replay", Table(DASH, DASH.default_config(), seats, 3)
        ).close()
    ReplayAccess(tmp_path).restrict("secret", ["SHA256:ann"])

    def listed(identity: str, network: bool) -> list[str]:
        app = SpeedwayApp(
            None, Identity(id=identity, nickname="x"), data_dir=tmp_path, network=network
        )
        return sorted(i.path.stem for i in app.visible_replays())

    assert listed("SHA256:ann", True) == ["open", "secret"]
    assert listed("SHA256:bob", True) == ["open"]
    assert listed("SHA256:bob", False) == ["open", "secret"]  # local play: your own folder
