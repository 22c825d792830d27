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


async def play_to_the_end(viewers: Viewers, limit: int = 2000) -> None:
    game_table = viewers.hub.table(viewers.table_id)
    for _ in range(limit):  # bounded: seed 7's race ends long before
        if game_table.result() is not None:
            break
        await _one_step(viewers)
    assert game_table.result() is not None
    await viewers.settle()


async def _one_step(viewers: Viewers) -> None:
    hub, table_id = viewers.hub, viewers.table_id
    game_table = hub.table(table_id)
    seat = game_table.pending()[0]
    who = P1 if seat == 0 else ME
    action = await hub.hint(table_id, who, seat, BOTS[seat])
    await hub.submit(table_id, who, seat, action, game_table.state_id)
    await asyncio.sleep(0)


async def until(check, within: float = 10.0) -> None:
    """Poll ``check`` (bounded): a screen just pushed draws its first frame a moment later."""
    for _ in range(int(within / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)


async def test_the_race_over_summary_is_shared_too() -> None:
    """Every spectator's app opens the race-over summary at the same step: the followers do
    not build it (their terminals show the leader's), the group goes on behind it, and each
    builds its own only when it draws for itself again."""
    from tui.screens.cthulhu_modals import CthulhuRaceOver

    hub, table_id = await table()
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(3)
        lead = viewers.leader()
        await play_to_the_end(viewers)
        apps, terminals, drivers = viewers.apps, viewers.terminals, viewers.drivers
        followers = [i for i in range(3) if i != lead]
        # (A summary is a modal screen over the table: its own render leaves the table behind
        # it out, so what is compared here is what the terminals show.)
        await until(
            lambda: (
                any("Ranked by laps" in line for line in terminals[lead].text())
                and all(terminals[i].text() == terminals[lead].text() for i in followers)
            )
        )
        summary = terminals[lead].text()
        assert any("Ranked by laps" in line for line in summary)
        assert any("Cthulhu 500" in line for line in summary), "the table shows behind it"
        assert isinstance(apps[lead].screen, CthulhuRaceOver)
        assert sorted(MIRROR.groups().values()) == [3], "the group went on behind the summary"
        for i in followers:
            assert not isinstance(apps[i].screen, CthulhuRaceOver), "a follower built it"
            assert terminals[i].text() == summary
        me = followers[0]
        drivers[me].feed(b"\x1b[I")  # a key of its own: it opens its own summary
        own = terminals[me].writes  # (it left the group: every write from now on is its own)
        await until(lambda: terminals[me].writes > own and terminals[me].text() == summary)
        assert drivers[me].mirror_role is None
        assert isinstance(apps[me].screen, CthulhuRaceOver)
        assert terminals[me].writes > own, "it drew its own frame"
        shown = "\n".join(terminals[me].text())
        assert terminals[me].text() == summary, f"{apps[me].screen_stack}:\n{shown}"
        last = followers[1]
        drivers[lead].feed(b"\r")  # the leader closes its summary: the last one leads
        taken = terminals[last].writes
        await until(
            lambda: (
                terminals[lead].text() == own_render(apps[lead])
                and terminals[last].writes > taken
                and terminals[last].text() == summary
            )
        )
        assert not isinstance(apps[lead].screen, CthulhuRaceOver)
        assert terminals[lead].text() == own_render(apps[lead])
        assert not any("Ranked by laps" in line for line in terminals[lead].text())
        assert isinstance(apps[last].screen, CthulhuRaceOver)
        assert terminals[last].writes > taken, "it drew its own frame"
        assert terminals[last].text() == summary
        assert apps[lead].screen.fold.result() is not None  # back at its table, race over
    finally:
        await viewers.close()
    assert MIRROR.groups() == {}


async def test_a_summary_that_closes_by_itself_is_every_viewers_own(monkeypatch) -> None:
    """A spectator's Champions lap summary goes on by itself: it is not shared (were the
    leader's to close, each follower in turn would lead with a fresh one). Every viewer opens
    its own, all of them are back at the table when it times out, and they share frames
    again."""
    import tui.screens.champions as champions_screen
    from tui.screens.champions_modals import LapSummary

    monkeypatch.setattr(champions_screen, "SPECTATOR_LAP_SECONDS", 0.5)
    hub = LocalHub(None, persist=False, bot_delay=1e9, lobby_interval=0.0)
    seats = [SeatSpec(kind="human", name=f"P{i + 1}", identity=ME.id) for i in range(2)]
    spec = TableSpec(game="champions", seats=seats, options={"lap_turn_limit": 2}, seed=3)
    table_id = await hub.create_table(spec, ME)
    viewers = Viewers(hub, table_id)
    try:
        await viewers.add(3)
        assert sorted(MIRROR.groups().values()) == [3]
        game_table = hub.table(table_id)
        opened: list[bool] = [False] * 3
        for _ in range(400):  # bounded: the first lap ends within two turns a seat
            seat = game_table.pending()[0]
            action = await hub.hint(table_id, ME, seat, ("promoter", "random")[seat])
            await hub.submit(table_id, ME, seat, action, game_table.state_id)
            await asyncio.sleep(0.01)
            opened = [isinstance(app.screen, LapSummary) for app in viewers.apps]
            if any(opened):
                break
        await until(lambda: all(isinstance(a.screen, LapSummary) for a in viewers.apps))
        assert all(isinstance(a.screen, LapSummary) for a in viewers.apps), "each its own"
        summaries = [a.screen for a in viewers.apps]
        assert all(s.continue_after == 0.5 for s in summaries)
        await until(
            lambda: (
                all(a.screen is not s for a, s in zip(viewers.apps, summaries, strict=True))
                and sorted(MIRROR.groups().values()) == [3]
            )
        )
        for app, summary in zip(viewers.apps, summaries, strict=True):
            assert app.screen is not summary, "back at the table by itself"
        assert sorted(MIRROR.groups().values()) == [3], "sharing frames again"
        await viewers.settle()
        lead = viewers.leader()
        for terminal in viewers.terminals:
            assert terminal.text() == own_render(viewers.apps[lead])
    finally:
        await viewers.close()
    assert MIRROR.groups() == {}
