"""The lobby's list of tables (`tui.widgets.rowlist.RowList`): columns that fit, a cursor the
keys and the mouse move, kept in view; snapshots at 80x24 and 120x40."""

from __future__ import annotations

import itertools

import pytest

from net.hub import Identity, SeatSpec, TableSpec
from tests.tui.conftest import make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.lobby import LobbyScreen
from tui.widgets.rowlist import RowList, column_widths

SIZES = [(80, 24), (120, 40)]


async def _tables(app, n: int) -> None:  # type: ignore[no-untyped-def]
    ids = (f"t{i:07d}" for i in itertools.count())
    app.hub._new_id = lambda: next(ids)  # fixed ids for the snapshots
    for i in range(n):
        who = Identity(id=f"ssh:p{i}", nickname=f"Player{i}")
        game = ("go500", "cthulhu500", "champions")[i % 3]
        name = "Zoë-the-Quick" if i == 2 else f"Player{i}"
        seats = [SeatSpec(kind="human", identity=who.id, name=name), SeatSpec(kind="open")]
        if game == "cthulhu500":
            seats.append(SeatSpec(kind="bot", bot="shrewd"))
        await app.hub.create_table(TableSpec(game=game, seats=seats, seed=i), who)


async def _open_lobby(pilot, n: int = 30) -> RowList:  # type: ignore[no-untyped-def]
    app = pilot.app
    await _tables(app, n)
    await pilot.press("l")
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and len(app.screen.tables) == n)
    await pilot.pause()
    return app.screen.query_one(RowList)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_lobby_scrolled_to_the_cursor(snap_compare, size):
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _open_lobby(pilot)
        for key in ("end", "up", "up"):
            await pilot.press(key)
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


async def test_keys_and_clicks_move_the_cursor_and_keep_it_in_view():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = await _open_lobby(pilot)
        lobby = app.screen
        assert grid.has_focus
        assert grid.cursor_row == 0
        assert lobby.selected() is lobby.tables[0]
        await pilot.press("down", "down")
        assert lobby.selected() is lobby.tables[2]
        await pilot.press("end")
        await pilot.pause()
        assert grid.cursor_row == 29
        shown = grid.size.height - 1  # rows under the header
        assert grid.scroll_offset.y <= 29 < grid.scroll_offset.y + shown
        text = "\n".join(
            "".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()
        )
        assert lobby.tables[29].id in text
        assert "Watching" in text  # the header stays at the top
        await pilot.press("home")
        await pilot.pause()
        assert (grid.cursor_row, grid.scroll_offset.y) == (0, 0)
        await pilot.press("pagedown")
        assert grid.cursor_row == grid.size.height - 2
        await pilot.click(RowList, offset=(5, 4))  # the fourth row (the header is line 0)
        assert grid.cursor_row == grid.scroll_offset.y + 3
        # Fewer tables: the cursor stays on the last one there is.
        await pilot.press("end")
        lobby.show_tables(lobby.tables[:5])
        await pilot.pause()
        assert grid.cursor_row == 4
        assert lobby.selected() is lobby.tables[4]


def test_columns_fit_the_room_the_last_giving_way_first():
    header = ["Table", "Game", "Status", "Mode"]
    rows = [["abcdef12", "NASCAR Champions", "waiting", "standard rules, 4 laps"]]
    wide = column_widths(header, rows, 200)
    assert wide == [10, 18, 9, 24]  # the widest cell and a space each side
    narrow = column_widths(header, rows, 50)
    assert sum(narrow) <= 50
    assert narrow[:3] == wide[:3]  # only the last column gave way
    assert column_widths(["名前"], [["日本語"]], 80) == [8]  # cells, not characters
