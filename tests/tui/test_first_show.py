"""A screen is styled once as it mounts, not again as a whole when it is first shown
(`tui.stylesheet`). (Textual restyles a screen pushed a second time; no screen of ours is.)
The snapshot tests check that every screen still looks the same."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen

from tests.tui.conftest import make_app
from tui.screens.newgame import NewGameScreen


async def test_a_new_screen_is_not_restyled_as_a_whole_when_first_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    restyled: list[str] = []
    update = Screen.update_node_styles

    def counting(self: Any, animate: bool = True) -> None:
        restyled.append(type(self).__name__)
        update(self, animate)

    monkeypatch.setattr(Screen, "update_node_styles", counting)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        restyled.clear()
        await pilot.press("n")
        for _ in range(200):
            if isinstance(app.screen, NewGameScreen) and app.screen.query("#newgame-form"):
                break
            await pilot.pause(0.01)
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        assert "NewGameScreen" not in restyled
        assert form.focused is not None
        assert form.focused.has_pseudo_class("focus")  # styled for focus all the same
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("r")  # the rules page: another new screen
        await pilot.pause()
        assert type(app.screen).__name__ == "RulesScreen"
        assert "RulesScreen" not in restyled
