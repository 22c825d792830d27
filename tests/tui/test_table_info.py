"""The table's info panel (`I`, issue 13): the seed's commitment shows there as soon as the table
starts, at local and network tables, so a player can note it before the dice roll; a waiting
network table (its log not written yet) says it is committed at the start, and the commitment it
then shows is the one in the log's header (the one `--verify` checks)."""

from __future__ import annotations

from pathlib import Path

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from replays.reader import open_replay
from tests.tui.conftest import ME, go500_app
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenTable, SpeedwayApp
from tui.screens.go500 import Go500TableScreen
from tui.screens.table import TableInfoScreen


def info_text(app) -> str:
    screen = app.screen
    assert isinstance(screen, TableInfoScreen)
    return "\n".join([screen.heading, *screen.lines])


async def test_a_local_table_shows_its_commitment_in_the_info_panel():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        table = app.screen
        commitment = table.fold.table.commitment
        assert len(commitment) == 64
        await pilot.press("I")
        await wait_for(pilot, lambda: isinstance(app.screen, TableInfoScreen))
        text = info_text(app)
        assert commitment in text
        assert "Note it now" in text
        assert "Players: 1 Ann; 2 Cautious (bot); 3 Bold (bot)" in text
        assert "Seed (revealed)" not in text, "the seed stays secret while the race runs"
        shot = app.export_screenshot().replace("&#160;", " ")
        assert commitment in shot, "all 64 digits fit on screen at 80 columns"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is table)


async def test_a_network_table_is_committed_when_it_starts(tmp_path: Path):
    hub = LocalHub(tmp_path, bot_delay=1e9, lobby_interval=0.0, network=True)
    spec = TableSpec(
        game="go500",
        seats=[SeatSpec(kind="human", identity=ME.id, name="Ann"), SeatSpec(kind="open")],
    )
    table_id = await hub.create_table(spec, ME)
    app = SpeedwayApp(
        hub,
        ME,
        data_dir=tmp_path,
        start=OpenTable(table_id=table_id, seat=0),
        animate=False,
        network=True,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        table = app.screen
        assert table.fold.table.status == "waiting"
        await pilot.press("I")
        await wait_for(pilot, lambda: isinstance(app.screen, TableInfoScreen))
        assert "committed when the race starts" in info_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is table)
        assert not any("Fair dice" in line.text for line in table.fold.log)
        bea = Identity(id="key:bea", nickname="Bea")
        await hub.take_seat(table_id, 1, bea)
        await wait_for(pilot, lambda: table.fold.table.status == "running")
        commitment = table.fold.table.commitment
        assert len(commitment) == 64
        header = open_replay(tmp_path / "tables" / f"{table_id}.log").header
        assert header.commitment == commitment
        assert any(commitment in line.text for line in table.fold.log), "logged at the start"
        await pilot.press("I")
        await wait_for(pilot, lambda: isinstance(app.screen, TableInfoScreen))
        assert commitment in info_text(app)
    await hub.close()
