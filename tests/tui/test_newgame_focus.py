"""The new-game form starts with the focus on its first row: → changes the game at once.

The form's scroll container is not focusable (a focused container would also restyle every
widget below it on each focus change); Tab still walks the rows and the form scrolls to them.
"""

from __future__ import annotations

from tests.tui.conftest import make_app
from tests.tui.test_champions_screen import wait_for
from tui.screens.newgame import NewGameScreen
from tui.widgets.choice import Choice


async def test_the_first_row_has_the_focus_and_right_changes_the_game():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, NewGameScreen) and bool(app.screen.query("#seat-0")),
        )
        game = app.screen.query_one("#game", Choice)
        assert app.focused is game
        before = game.value
        await pilot.press("right")
        await pilot.pause()
        assert game.value != before, "→ on the focused Game row picks the next game"
        await pilot.press("tab")
        assert app.focused is not game
        assert app.focused is not None
        assert app.screen.query_one("#newgame-form").can_focus is False
