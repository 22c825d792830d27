"""Pilot tests for home, new game, settings, rules, lobby, the generic table and hot-seat."""

from __future__ import annotations

from net.hub import Identity, SeatSpec
from tests.tui.conftest import ME, dash_app, make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.base import SpeedwayScreen
from tui.screens.go500 import Go500TableScreen
from tui.screens.home import HomeScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.newgame import NewGameScreen
from tui.screens.replay_browser import ReplayBrowser
from tui.screens.rules import RulesScreen
from tui.screens.settings import SettingsScreen
from tui.screens.table import GenericTableScreen, PassKeyboard
from tui.settings import load_settings
from tui.widgets.common import StatusLine
from tui.widgets.form import FormRows


async def test_home_menu_keys_open_each_screen():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        for key, kind in (("r", RulesScreen), ("o", ReplayBrowser)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind), key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)


def row_text(form: FormRows, row_id: str) -> str:
    """The words a form row shows on screen (drawn as the form draws it)."""
    shown = [row for row in form.rows if row.shown]
    line = next(y for y, row in enumerate(shown) if row.id == row_id)
    form.scroll_to(y=line, animate=False, immediate=True)
    return "".join(seg.text for seg in form.render_line(line - int(form.scroll_offset.y)))


async def click_row(pilot, form: FormRows, row_id: str) -> None:
    """Click a form row's value (scrolled into view first)."""
    form.move_to(row_id)
    await pilot.pause()
    shown = [row for row in form.rows if row.shown]
    line = next(y for y, row in enumerate(shown) if row.id == row_id)
    await pilot.click(FormRows, offset=(form.label_width + 3, line - int(form.scroll_offset.y)))
    await pilot.pause()


async def open_new_game_form(pilot) -> None:
    """Home -> `n`: wait until the form's seat rows are there."""
    app = pilot.app
    await pilot.press("n")
    await wait_for(
        pilot, lambda: isinstance(app.screen, NewGameScreen) and bool(app.screen.query("#newgame-form"))
    )


async def test_new_game_form_starts_a_go500_table_through_the_hub():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        tables = app.hub.tables(ME)
        assert len(tables) == 1
        assert tables[0].game == "go500"
        seats = tables[0].seats
        assert seats[0].identity == ME.id
        assert seats[1].bot is not None


async def test_new_game_form_choices_step_with_arrow_keys_and_reach_the_table():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        form = app.screen.query_one(FormRows)
        assert form.value("opt-race_length") == 500
        form.move_to("opt-race_length")
        await pilot.press("right")
        assert form.value("opt-race_length") == 600
        await pilot.press("left", "left")
        assert form.value("opt-race_length") == 400
        assert "400" in row_text(form, "opt-race_length")
        # Options that change nothing with the others as chosen are hidden (option_applies).
        assert not form.shown("opt-hours")
        assert not form.shown("opt-cup_points")
        assert not form.shown("opt-debris_bp")
        form.move_to("opt-mode")
        for _ in range(len(form.row("opt-mode").options or [])):
            if form.value("opt-mode") == "cup":
                break
            await pilot.press("right")
        assert form.value("opt-mode") == "cup"
        assert form.shown("opt-cup_points")
        assert not form.shown("opt-race_length")
        cup = form.row("opt-cup_points")  # a text option the game lists
        assert [v for _, v in cup.options or []] == ["nascar_2017", "winston_1975"]
        assert cup.value == "winston_1975"
        form.move_to("opt-cup_points")
        await pilot.press("right")
        assert cup.value == "nascar_2017"
        assert form.value("seat-3") == "-"  # no seat
        await click_row(pilot, form, "seat-3")  # a click on the value steps: round to "You"
        assert form.value("seat-3") == "me"
        form.set_value("seat-3", "optimal")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        table = app.hub.table(app.hub.tables(ME)[0].id)
        assert table.config.mode == "cup"
        assert table.config.cup_points == "nascar_2017"
        assert [s.bot for s in table.seats][3] == "optimal"


async def test_new_game_form_switching_game_rebuilds_its_options():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        form = app.screen.query_one(FormRows)
        assert form.has_row("opt-race_length")
        assert form.cursor == "game"
        await pilot.press("right")
        await wait_for(pilot, lambda: not form.has_row("opt-race_length"))
        assert form.value("game") != "go500"
        assert form.value("game") == app.screen.game_id
        assert form.cursor == "game", "the cursor stays on the Game row"


async def test_settings_are_saved_for_this_identity(tmp_path):
    app = make_app(data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#colour-blind").value = True
        await pilot.click("#save")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.has_class("-colour-blind")
    assert load_settings(tmp_path, ME.id).colour_blind is True


async def test_rules_pages_exist_for_every_game():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_rules("go500")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert len(app.screen.query(".rules-page")) == 1
        text = " ".join(app.screen.pages.values())
        for words in ("Go 500", "Cthulhu 500", "NASCAR Champions", "Big One", "ruling"):
            assert words.lower() in text.lower(), words


async def test_lobby_lists_tables_live_and_watches_one():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert lobby.tables == []
        from net.hub import Identity, TableSpec

        other = Identity(id="ssh:bob", nickname="Bob")
        spec = TableSpec(
            game="go500",
            seats=[SeatSpec(kind="human", identity=other.id, name="Bob"), SeatSpec(kind="open")],
            seed=2,
        )
        await app.hub.create_table(spec, other)
        await wait_for(pilot, lambda: len(lobby.tables) == 1)
        assert lobby.tables[0].seats[1].open
        from tui.widgets.rowlist import RowList

        grid = lobby.query_one(RowList)
        row = grid.rows[0]
        assert row[:4] == [lobby.tables[0].id, "Go 500", "waiting", "0"]
        assert row[5] == "Oval, 500 miles"
        # At 80 columns the Status and Watching columns are whole on screen (issue 13).
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert sum(grid._widths[:4]) <= 80
        shot = app.export_screenshot().replace("&#160;", " ")
        assert "Status" in shot
        assert "Watching" in shot
        await pilot.press("j")  # take the open seat
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        assert app.screen.perspective == 1
        assert app.hub.tables(ME)[0].seats[1].identity == ME.id


async def test_generic_screen_plays_any_game_from_the_action_list():
    app = dash_app(
        [
            SeatSpec(kind="human", identity=ME.id, name="Ann"),
            SeatSpec(kind="bot", bot="steady", name="Steady"),
        ],
        seed=3,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, GenericTableScreen) and app.screen.fold is not None,
        )
        screen = app.screen
        for _ in range(40):
            await wait_for(
                pilot, lambda: screen.acting_seat() == 0 or screen.fold.result() is not None
            )
            if screen.fold.result() is not None:
                break
            await pilot.press("enter")  # the first action: roll
            await pilot.pause()
        assert screen.fold.result() is not None


async def test_hot_seat_with_hidden_cards_covers_the_table_between_players():
    from tui.seats import hot_identity

    bob = hot_identity("Bob")
    app = dash_app(
        [
            SeatSpec(kind="human", identity=ME.id, name="Ann"),
            SeatSpec(kind="human", identity=bob.id, name="Bob"),
        ],
        seed=3,
    )
    app.add_local([bob])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PassKeyboard))
        assert app.screen.player == "Ann"  # the first screen is covered too
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, GenericTableScreen) and app.screen.fold is not None,
        )
        table = app.screen
        assert table.perspective == 0
        assert table.fold.state.cards[1] is None  # Ann cannot see Bob's card
        await pilot.press("enter")  # Ann rolls; now Bob is asked
        await wait_for(pilot, lambda: isinstance(app.screen, PassKeyboard))
        await pilot.press("enter")  # Bob takes the keyboard
        await wait_for(
            pilot,
            lambda: (
                app.screen is table
                and table.fold is not None
                and table.perspective == 1
                and table.fold.seat == 1
            ),
        )
        assert table.fold.state.cards[0] is None  # Bob cannot see Ann's card
        assert table.fold.state.cards[1] is not None


async def test_too_small_notice_below_the_minimum_size():
    app = make_app()
    async with app.run_test(size=(50, 15)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SpeedwayScreen)
        assert screen.has_class("-too-small")
        notice = screen.query_one("#too-small")
        assert notice.display
        assert "at least 60×20" in str(notice.render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.has_class("-too-small")


async def test_private_table_joined_by_invite_code_shows_the_code():
    from net.hub import Identity, TableSpec

    app = make_app(network=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        lobby = app.screen
        other = Identity(id="ssh:bob", nickname="Bob")
        spec = TableSpec(
            game="go500",
            seats=[SeatSpec(kind="human", identity=other.id, name="Bob"), SeatSpec(kind="open")],
            private=True,
            seed=2,
        )
        table_id = await app.hub.create_table(spec, other)
        code = app.hub.invite_code(table_id, other)
        await pilot.pause()
        assert lobby.tables == []  # private tables are not listed
        await pilot.press("i")
        await pilot.pause()
        await pilot.press(*code, "enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None,
        )
        assert app.screen.perspective == 1
        title = str(app.screen.query_one("#table-title").render())
        assert f"table {table_id}" in title
        assert f"invite code {code}" in title


async def test_network_new_table_offers_open_seats_not_hot_seat():
    app = make_app(network=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("c")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, NewGameScreen) and bool(app.screen.query("#newgame-form")),
        )
        form = app.screen.query_one(FormRows)
        seat = form.row("seat-1")
        assert seat.value == "open"
        values = [value for _, value in seat.options or []]
        assert "hot" not in values
        assert "New table" in str(app.screen.query_one(".screen-title").render())
        assert form.value("private") is False
        form.move_to("private")
        await pilot.press("right")
        assert "invite code only" in row_text(form, "private")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        info = app.hub.tables(ME)[0]
        assert info.seats[1].open
        assert info.status == "waiting"
        assert info.private
        # The table screen says the race waits for players, not "r to roll".
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        status = app.screen.query_one(StatusLine)
        text = str(status.render())
        assert "Waiting for players: 1 open seat" in text
        assert "invite code" in text
        assert "roll" not in text
        bea = Identity(id="key:bea", nickname="Bea")
        await app.hub.join_private(app.hub.invite_code(info.id, ME), bea)
        await app.hub.take_seat(info.id, 1, bea)
        await wait_for(pilot, lambda: "Waiting for players" not in str(status.render()))
        assert "roll" in str(status.render())
