"""The new-game form reads options in the game's own words and offers exactly the seats the
chosen mode allows (Go 500: Oval 2-6, Multi-Game and Time Trials up to 12)."""

from __future__ import annotations

from core import registry
from tests.tui.conftest import ME, make_app
from tests.tui.test_pilot_go500 import wait_for
from tests.tui.test_pilot_screens import open_new_game_form
from tui.widgets.choice import Choice
from tui.widgets.number import NumberField


def visible_seats(screen) -> int:
    return sum(1 for row in screen.query("#seats .field") if row.display)


async def pick(pilot, choice: Choice, value) -> None:
    choice.focus()
    for _ in range(len(choice.options)):
        if choice.value == value:
            return
        await pilot.press("right")
    raise AssertionError(f"{value!r} is not a choice")


async def test_labels_come_from_the_games_words_and_seats_follow_the_mode():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        screen = app.screen
        labels = [c.field_label for c in screen.query("#options Choice").results(Choice)]
        labels += [f.field_label for f in screen.query("#options NumberField").results(NumberField)]
        assert "Big X in the Big One" in labels
        assert "Tradin' Paint" in labels
        assert "Big x in big one" not in labels
        mode = screen.query_one("#opt-mode", Choice)
        for value, most in (("oval", 6), ("multi_game", 12), ("cup", 6), ("time_trial", 12)):
            await pick(pilot, mode, value)
            assert visible_seats(screen) == most, value
        # Twelve drivers in Multi-Game reach the table; a hidden seat never does.
        await pick(pilot, mode, "multi_game")
        for i in range(12):
            screen.query_one(f"#seat-{i}", Choice).value = "me" if i == 0 else "random"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        assert len(app.hub.tables(ME)[0].seats) == 12


async def test_hidden_seats_are_not_seated():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        screen = app.screen
        for i in range(12):
            screen.query_one(f"#seat-{i}", Choice).value = "me" if i == 0 else "random"
        await pick(pilot, screen.query_one("#opt-mode", Choice), "oval")
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
        await pick(pilot, screen.query_one("#game", Choice), "cthulhu500")
        await pilot.pause()
        rounds = screen.query_one("#opt-round_limit", NumberField)
        cap = screen.query_one("#opt-equipment_cap", NumberField)
        assert rounds.value == ""
        assert rounds.placeholder == "none"
        assert cap.value == "4"
        rounds.value = "two"
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(screen.query_one("#newgame-error").render())
        assert "Round limit must be a whole number (or empty for none)" in error
        rounds.value = "2"
        cap.value = ""
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
        await wait_for(pilot, lambda: bool(app.screen.query("#coaching")))
        coaching = app.screen.query_one("#coaching", Choice)
        assert coaching.value is False, "off unless the creator says so"
        await pick(pilot, coaching, True)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        assert app.hub.tables(ME)[0].coaching is True
