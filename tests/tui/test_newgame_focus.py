"""The new-game form starts with the focus on its first row: → changes the game at once.

The form is one widget (`tui.widgets.form.FormRows`); Tab and ↓ walk its rows, the form
scrolls to them, and past the last row the focus moves on to the buttons.
"""

from __future__ import annotations

from tests.tui.conftest import make_app
from tests.tui.test_champions_screen import wait_for
from tui.screens.newgame import NewGameScreen
from tui.widgets.form import FormRows


async def test_the_first_row_has_the_focus_and_right_changes_the_game():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, NewGameScreen) and bool(app.screen.query("#newgame-form"))
            ),
        )
        form = app.screen.query_one(FormRows)
        assert app.focused is form
        assert form.cursor == "game"
        before = form.value("game")
        await pilot.press("right")
        await pilot.pause()
        assert form.value("game") != before, "→ on the focused Game row picks the next game"
        await pilot.press("tab")
        assert app.focused is form
        assert form.cursor != "game", "Tab moved to the next row"


async def test_the_cursor_row_scrolls_into_view_and_the_focus_leaves_past_the_last():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: bool(app.screen.query("#newgame-form")))
        form = app.screen.query_one(FormRows)
        form.set_value("opt-mode", "multi_game")  # twelve seats: more rows than the window
        await pilot.pause()
        rows = [row for row in form.rows if row.shown and not row.is_heading]
        for _ in rows[1:]:
            await pilot.press("down")
        await pilot.pause()
        assert form.cursor == rows[-1].id
        assert form.scroll_offset.y > 0, "the form scrolled to the last row"
        await pilot.press("down")
        await pilot.pause()
        assert app.focused is not form
        assert app.focused is not None
        assert app.focused.id == "start"
