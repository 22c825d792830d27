"""The new-game form reads options in the game's own words and offers exactly the seats the
chosen mode allows (Go 500: Oval 2-6, Multi-Game and Time Trials up to 12)."""

from __future__ import annotations

from core import registry
from tests.tui.conftest import ME, make_app
from tests.tui.test_pilot_go500 import wait_for
from tests.tui.test_pilot_screens import open_new_game_form
from tui.widgets.form import FormRows


def visible_seats(screen) -> int:
    form = screen.query_one(FormRows)
    return sum(1 for row in form.rows if row.id.startswith("seat-") and row.shown)


async def pick(pilot, form: FormRows, row_id: str, value) -> None:
    """Move the cursor to a row and press → until it shows ``value`` (as a player would)."""
    form.focus()
    form.move_to(row_id)
    for _ in range(len(form.row(row_id).options or [])):
        if form.value(row_id) == value:
            return
        await pilot.press("right")
        await pilot.pause()
    raise AssertionError(f"{value!r} is not a choice")


async def test_labels_come_from_the_games_words_and_seats_follow_the_mode():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        screen = app.screen
        form = screen.query_one(FormRows)
        labels = [row.label for row in form.rows if row.id.startswith("opt-")]
        assert "Big X in the Big One" in labels
        assert "Tradin' Paint" in labels
        assert "Big x in big one" not in labels
        for value, most in (("oval", 6), ("multi_game", 12), ("cup", 6), ("time_trial", 12)):
            await pick(pilot, form, "opt-mode", value)
            assert visible_seats(screen) == most, value
        # Twelve drivers in Multi-Game reach the table; a hidden seat never does.
        await pick(pilot, form, "opt-mode", "multi_game")
        for i in range(12):
            form.set_value(f"seat-{i}", "me" if i == 0 else "random")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        assert len(app.hub.tables(ME)[0].seats) == 12


async def test_hidden_seats_are_not_seated():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        form = app.screen.query_one(FormRows)
        for i in range(12):
            form.set_value(f"seat-{i}", "me" if i == 0 else "random")
        await pick(pilot, form, "opt-mode", "oval")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        assert len(app.hub.tables(ME)[0].seats) == 6


def test_every_game_says_its_seat_range_and_labels():
    go = registry.get("go500")
    assert go.seat_range({"mode": "time_trial"}) == (1, 12)
    assert go.seat_range({}) == (2, 6)
    assert go.option_label("tradin_paint") == "Tradin' Paint"
    champions = registry.get("champions")
    assert champions.seat_range({}) == (champions.min_seats, champions.max_seats)
    assert champions.option_label("black_car") == "Black car"


async def test_optional_numbers_shorten_a_cthulhu_race_or_stay_empty_for_none():
    """`round_limit: int | None`: the form offers it (empty: the whole race), so a new player
    can play a short Cthulhu 500 race from the form; a word in it is refused in words."""
    from tests.tui.test_cthulhu_screen import open_table

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        screen = app.screen
        form = screen.query_one(FormRows)
        await pick(pilot, form, "game", "cthulhu500")
        await pilot.pause()
        rounds = form.row("opt-round_limit")
        assert rounds.value == ""
        assert rounds.placeholder == "none"
        assert form.value("opt-equipment_cap") == "4"
        form.set_value("opt-round_limit", "two")
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(screen.query_one("#newgame-error").render())
        assert "Round limit must be a whole number (or empty for none)" in error
        form.set_value("opt-round_limit", "2")
        form.set_value("opt-equipment_cap", "")
        await pilot.press("ctrl+s")
        table = await open_table(app, pilot)
        config = table.fold.config
        assert config.round_limit == 2
        assert config.equipment_cap is None


async def test_a_network_table_creator_may_allow_coaching_for_everyone():
    app = make_app(network=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("l")  # the lobby: `c` opens the new-table form
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(app.screen.query(FormRows)))
        form = app.screen.query_one(FormRows)
        assert form.value("coaching") is False, "off unless the creator says so"
        await pick(pilot, form, "coaching", True)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        assert app.hub.tables(ME)[0].coaching is True


async def test_you_twice_in_a_local_game_seats_a_second_player_at_this_keyboard():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        form = app.screen.query_one(FormRows)
        await pick(pilot, form, "seat-1", "me")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        seats = app.hub.tables(ME)[0].seats
        assert [s.name for s in seats[:2]] == ["Ann", "Player 2"]  # the space kept
        assert seats[1].identity == "local:hot:Player 2"
        assert "local:hot:Player 2" in app.local_identities  # played here, with its own view
        await wait_for(pilot, lambda: getattr(app.screen, "fold", None) is not None)
        assert app.screen.fold.names[:2] == ["Ann", "Player 2"]  # as the table screen shows it


async def test_over_ssh_the_form_refuses_you_twice_in_one_sentence():
    app = make_app(network=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(app.screen.query(FormRows)))
        form = app.screen.query_one(FormRows)
        await pick(pilot, form, "seat-1", "me")
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(app.screen.query_one("#newgame-error").render())
        assert error.startswith("Only one seat can be you")
        assert not app.hub.tables(ME)
