"""Long names and many seats at 80 columns (issue 13): a name that does not fit its column is cut
the same way on every board, with "…" (and its end kept when the cut would read like another
player's), never silently; the full names are in the table's info panel (`I`). Cthulhu 500's
standings line takes two rows when one cannot hold eight vehicles, every name in full."""

from __future__ import annotations

from typing import Any

import pytest

from net.hub import Identity
from net.local_hub import LocalHub
from tests.tui.test_champions_screen import wait_for
from tests.tui.test_cthulhu_screen import _mid_turn, plain
from tui.app import SpeedwayApp
from tui.launch import start_for_play
from tui.screens.table import TableInfoScreen
from tui.widgets.common import short_names

LONG = Identity(id="local:max", nickname="Maximiliana-Long")  # NICK_MAX is 16
EIGHT = "me,shrewd,random,random,random,random,random,random"


def long_named_app(game: str, seats: str, seed: int = 7, **options: Any) -> SpeedwayApp:
    hub = LocalHub(
        None, persist=False, bot_delay=0, lobby_interval=0.0, salt=lambda: bytes(16)
    )
    start = start_for_play(game, seats, seed, options, LONG)
    return SpeedwayApp(hub, LONG, start=start, animate=False, bot_delay=0)


async def at_table(pilot: Any) -> Any:
    app = pilot.app
    await wait_for(pilot, lambda: getattr(app.screen, "fold", None) is not None)
    await pilot.pause()
    return app.screen


def test_names_are_cut_alike_and_stay_told_apart():
    assert short_names(["Ann", "Maximiliana", "Random2", "Random3"], 6) == [
        "Ann",
        "Maxim…",
        "Rand…2",
        "Rand…3",
    ]
    # "Promoter2" beside "Promoter" keeps its end: not two "Promoter"s.
    assert short_names(["Promoter", "Promoter2"], 8) == ["Promoter", "Promot…2"]
    assert short_names(["Bea"], 2) == ["B…"]


async def test_eight_vehicles_at_80_columns_name_everyone_in_the_standings():
    app = long_named_app("cthulhu500", EIGHT)
    async with app.run_test(size=(80, 24)) as pilot:
        await _mid_turn(pilot)
        screen = app.screen
        names = screen.fold.names
        turn = screen.query_one("#cth-turn")
        lines = plain(turn).splitlines()
        standings = " ".join(line.strip() for line in lines[1:3])
        assert standings.startswith("Standings: ")
        for name in names:
            assert name in standings, (name, lines)
        assert turn.size.height == 5  # one row more, only while the standings need two
        assert "…" not in standings
        pack = plain(screen.query_one("#cth-pack"))
        assert "Maximilia…*" in pack  # your own vehicle, its name cut with "…" (10 cells)
        assert "Maximiliana-L" not in pack
        await pilot.press("I")
        await wait_for(pilot, lambda: isinstance(app.screen, TableInfoScreen))
        assert "1 Maximiliana-Long;" in "\n".join(app.screen.lines)  # in full here


async def test_three_vehicles_keep_the_standings_on_one_row():
    app = long_named_app("cthulhu500", "me,shrewd,random")
    async with app.run_test(size=(80, 24)) as pilot:
        await _mid_turn(pilot)
        assert app.screen.query_one("#cth-turn").size.height == 4


@pytest.mark.parametrize(("size", "shown"), [((80, 24), "Maximiliana…"), ((120, 40), "Maximiliana-Long")])
async def test_go500_drivers_cut_a_long_name_with_an_ellipsis(size, shown):
    app = long_named_app("go500", "me,cautious,bold,optimal,random,cautious,bold,optimal", seed=3, mode="multi_game")
    async with app.run_test(size=size) as pilot:
        screen = await at_table(pilot)
        text = plain(screen.query_one("#scoreboard"))
        assert f" {shown} " in text
        if shown.endswith("…"):
            assert "Maximiliana-" not in text  # never cut without a mark
        assert "Cautious 2" in text


@pytest.mark.parametrize(("size", "shown"), [((80, 24), "Maximil…"), ((120, 40), "Maximiliana…")])
async def test_champions_players_cut_a_long_name_with_an_ellipsis(size, shown):
    app = long_named_app("champions", "me,promoter,random,promoter,random")
    async with app.run_test(size=size) as pilot:
        screen = await at_table(pilot)
        text = plain(screen.query_one("#scoreboard"))
        assert shown in text
        assert "Promot…2" in text or "Promoter 2" in text  # told apart from "Promoter"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_eight_vehicles(snap_compare, size, monkeypatch):
    monkeypatch.setattr(LocalHub, "_new_id", lambda self: "cthulhu8")
    assert snap_compare(long_named_app("cthulhu500", EIGHT), terminal_size=size, run_before=_mid_turn)


async def test_a_status_line_too_long_for_80_columns_ends_in_an_ellipsis():
    from tui.widgets.common import StatusLine

    app = long_named_app("go500", "me,cautious,bold,optimal,random,cautious,bold,optimal", seed=3, mode="multi_game")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_table(pilot)
        places = ", ".join(f"{i + 1}. {n} ({500 - i})" for i, n in enumerate(screen.fold.names))
        screen.status(f"Race over — {places}.")
        await pilot.pause()
        line = screen.query_one(StatusLine)
        shown = str(line.render())
        assert shown.endswith("…")
        assert len(shown) == line.content_size.width
        assert line.size.height == 1
        await pilot.resize_terminal(200, 24)
        await pilot.pause()
        assert str(line.render()) == f"Race over — {places}."  # in full when there is room
