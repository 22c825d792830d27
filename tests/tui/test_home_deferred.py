"""A session that starts in the lobby (every SSH login) has Home under it, built only when it is
first shown: the lobby opens without Home's menu made for nothing, and `esc` still shows the
whole Home, its menu focused and its keys working."""

from __future__ import annotations

from textual.widgets import OptionList

from tests.tui.conftest import make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenLobby
from tui.screens.home import HomeScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.rules import RulesScreen


async def test_home_under_the_lobby_is_built_when_first_shown():
    app = make_app(start=OpenLobby(), network=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        home = app.screen_stack[-2]
        assert isinstance(home, HomeScreen)
        assert not home.query(OptionList), "covered at once: not built"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await wait_for(pilot, lambda: bool(home.query(OptionList)))
        await pilot.pause()
        menu = home.query_one("#home-menu", OptionList)
        assert app.focused is menu
        assert menu.option_count >= 6
        text = "".join(s.text for strip in home._compositor.render_strips() for s in strip)
        assert "Signed in as" in text
        assert "Rules" in text
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))


async def test_a_local_home_is_built_at_once():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.query(OptionList)
