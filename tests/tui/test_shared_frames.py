"""Shared frames (`net.mirror`): spectators of one table see one session's frames, exactly.

Real apps, each driven by the real `SSHDriver` into a channel whose bytes go into a terminal
emulator (pyte), all watching one network table of the real hub; the test plays the seats
through the hub's calls. What each terminal shows is compared with what the apps render.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import pyte
import pytest

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from net.mirror import MIRROR
from net.ssh_driver import SSHDriver
from tui.app import OpenTable, SpeedwayApp

ME = Identity(id="test:me", nickname="me")
P1 = Identity(id="test:p1", nickname="P1")  # holds seat 0; ME the others
BOTS = ["shrewd", "random", "shrewd", "random"]


class Terminal:
    """An SSH channel that feeds what it is sent into an 80x24 terminal emulator."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.writes = 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.stream.feed(data)

    def is_closing(self) -> bool:
        return False

    def text(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def cells(self) -> list[list[tuple[str, str, str, bool]]]:
        return [
            [(c.data, c.fg, c.bg, c.bold) for c in (row[x] for x in range(80))]
            for row in (self.screen.buffer[y] for y in range(24))
        ]


def own_render(app: SpeedwayApp) -> list[str]:
    """What the app itself would put on the screen now."""
    strips = app.screen._compositor.render_strips()
    return ["".join(s.text for s in strip).rstrip() for strip in strips]


class Viewers:
    def __init__(self, hub: LocalHub, table_id: str) -> None:
        self.hub, self.table_id = hub, table_id
        self.apps: list[SpeedwayApp] = []
        self.terminals: list[Terminal] = []
        self.drivers: list[SSHDriver] = []
        self.runs: list[asyncio.Future[Any]] = []

    async def add(self, n: int, seat: int | None = None, who: Identity | None = None) -> None:
        for _ in range(n):
            terminal = Terminal()
            viewer = who or Identity(id=f"test:v{len(self.apps)}", nickname=f"v{len(self.apps)}")
            code = self.hub.invite_code(self.table_id, ME)
            if code:  # a private table: the viewer was given its invite code
                await self.hub.join_private(code, viewer)
            app = SpeedwayApp(
                self.hub,
                viewer,
                start=OpenTable(table_id=self.table_id, seat=seat),
                animate=False,
                network=True,
                driver_class=functools.partial(
                    SSHDriver, channel=terminal, on_attach=self.drivers.append
                ),
            )
            self.apps.append(app)
            self.terminals.append(terminal)
            self.runs.append(asyncio.ensure_future(app.run_async(size=(80, 24))))
            for _ in range(500):  # bounded: until its table screen has folded the welcome
                if app.screen_stack and getattr(app.screen, "fold", None) is not None:
                    break
                await asyncio.sleep(0.02)
            await self.settle()

    async def settle(self) -> None:
        """Until every terminal has been quiet for a moment."""
        for _ in range(100):  # a loaded machine may pause longer between two writes
            before = [t.writes for t in self.terminals]
            await asyncio.sleep(0.15)
            if [t.writes for t in self.terminals] == before:
                return

    async def close(self) -> None:
        for app in self.apps:
            app.exit()
        for run in self.runs:
            await asyncio.wait_for(run, 10)
        await self.hub.close()

    def leader(self) -> int:
        return next(i for i, d in enumerate(self.drivers) if d.mirror_role == "leader")


async def table(private: bool = False) -> tuple[LocalHub, str]:
    hub = LocalHub(None, persist=False, bot_delay=1e9, lobby_interval=0.0)
    seats = [
        SeatSpec(kind="human", name=f"P{i + 1}", identity=(P1 if i == 0 else ME).id)
        for i in range(4)
    ]
    spec = TableSpec(game="cthulhu500", seats=seats, seed=7, private=private)
    return hub, await hub.create_table(spec, ME)


async def play(viewers: Viewers, steps: int) -> None:
    hub, table_id = viewers.hub, viewers.table_id
    game_table = hub.table(table_id)
    for _ in range(steps):
        seat = game_table.pending()[0]
        who = P1 if seat == 0 else ME
        action = await hub.hint(table_id, who, seat, BOTS[seat])
        await hub.submit(table_id, who, seat, action, game_table.state_id)
        await asyncio.sleep(0.02)
    await viewers.settle()


def race_log(app: SpeedwayApp) -> list[str]:
    return [line.text for line in app.screen.fold.log]  # type: ignore[attr-defined]


async def test_spectators_see_the_leaders_frames_exactly() -> None:
    hub, table_id = await table()
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(3)
        assert sorted(MIRROR.groups().values()) == [3]
        lead = viewers.leader()
        await play(viewers, 12)
        leader_screen = own_render(viewers.apps[lead])
        assert any("Turn" in line for line in leader_screen)
        for i, terminal in enumerate(viewers.terminals):
            assert terminal.text() == leader_screen, f"viewer {i}"
            assert terminal.cells() == viewers.terminals[lead].cells()  # colours too
        for i, driver in enumerate(viewers.drivers):
            if i != lead:
                assert driver.mirror_role == "follower"
                # it folds every step (nothing to catch up from the hub later) …
                screen = viewers.apps[i].screen
                assert screen.fold.state_id == viewers.apps[lead].screen.fold.state_id
                # … and keeps the log lines it has not drawn
                assert screen._unshown
    finally:
        await viewers.close()
    assert MIRROR.groups() == {}


async def test_own_input_takes_a_follower_back_with_nothing_lost() -> None:
    hub, table_id = await table()
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(3)
        await play(viewers, 8)
        lead = viewers.leader()
        me = next(i for i in range(3) if i != lead)
        viewers.drivers[me].feed(b"\x1b[I")  # a focus report: this session's own input
        await viewers.settle()
        assert viewers.drivers[me].mirror_role is None
        assert sorted(MIRROR.groups().values()) == [2]
        app = viewers.apps[me]
        assert viewers.terminals[me].text() == own_render(app)
        assert race_log(app) == race_log(viewers.apps[lead])
        await play(viewers, 6)  # and it goes on drawing for itself
        assert viewers.terminals[me].text() == own_render(app)
        assert own_render(app) == own_render(viewers.apps[lead])
    finally:
        await viewers.close()


async def test_a_leader_that_leaves_hands_its_followers_to_the_next() -> None:
    hub, table_id = await table()
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(3)
        await play(viewers, 6)
        old = viewers.leader()
        viewers.drivers[old].feed(b"\x1b[I")
        await viewers.settle()
        assert viewers.drivers[old].mirror_role is None
        new = viewers.leader()
        assert new != old
        await play(viewers, 8)
        new_screen = own_render(viewers.apps[new])
        for i, terminal in enumerate(viewers.terminals):
            if i != old:
                assert terminal.text() == new_screen, f"viewer {i}"
        assert viewers.terminals[old].text() == own_render(viewers.apps[old])
    finally:
        await viewers.close()


async def test_seated_players_and_private_tables_draw_their_own() -> None:
    hub, table_id = await table()
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(2, seat=0, who=P1)  # the seat's player (twice): its hand is its own
        assert all(any("Turn" in line for line in t.text()) for t in viewers.terminals)
        assert MIRROR.groups() == {}
    finally:
        await viewers.close()
    hub, table_id = await table(private=True)
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(2)  # two invited spectators
        assert all(any("Turn" in line for line in t.text()) for t in viewers.terminals)
        assert MIRROR.groups() == {}
    finally:
        await viewers.close()


async def test_shared_frames_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPEEDWAY_SHARED_FRAMES", "0")
    hub, table_id = await table()
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(2)
        await play(viewers, 4)
        assert MIRROR.groups() == {}
        for app, terminal in zip(viewers.apps, viewers.terminals, strict=True):
            assert terminal.text() == own_render(app)
    finally:
        await viewers.close()
