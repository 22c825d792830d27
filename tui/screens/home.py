"""Home: start a local game, open the lobby or a replay, read the rules, change settings, quit.

Owns the home menu only; each entry opens its own screen. Must not hold game state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.screens.base import SpeedwayScreen
from tui.widgets.keys import KeyFooter

LOGO = r"""
 ___                  _
/ __|_ __  ___ ___ __| |_ __ ____ _ _  _
\__ \ '_ \/ -_) -_) _` \ V  V / _` | || |
|___/ .__/\___\___\__,_|\_/\_/\__,_|\_, |
    |_|                             |__/
""".strip("\n")

MENU = [
    ("new", "n", "New local game — you, friends at this keyboard and bots"),
    ("lobby", "l", "Tables — join, watch or create a table"),
    ("replay", "o", "Open a replay"),
    ("rules", "r", "Rules of the games"),
    ("settings", "s", "Settings — theme, animation speed, colours"),
    ("quit", "q", "Quit"),
]


class HomeScreen(SpeedwayScreen):
    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 20)
    BINDINGS: ClassVar = [
        Binding("n", "pick('new')", "New game"),
        Binding("l", "pick('lobby')", "Tables"),
        Binding("o", "pick('replay')", "Replays"),
        Binding("r", "pick('rules')", "Rules"),
        Binding("s", "pick('settings')", "Settings"),
        Binding("q", "pick('quit')", "Quit"),
    ]

    def body(self) -> Iterable[Widget]:
        with Vertical(id="home"):
            yield Static(LOGO, id="logo")
            yield Static(
                "Go 500 · Cthulhu 500 · NASCAR Champions — racing games at your terminal",
                id="tagline",
            )
            with Center():
                yield OptionList(
                    *[Option(Text(f"{key}  {text}"), id=ident) for ident, key, text in MENU],
                    id="home-menu",
                )
            yield Static(f"Signed in as {self.speedway.identity.nickname}", id="whoami")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#home-menu", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_pick(event.option_id or "")

    def action_pick(self, what: str) -> None:
        app = self.speedway
        if what == "new":
            from tui.screens.newgame import NewGameScreen

            app.push_screen(NewGameScreen())
        elif what == "lobby":
            app.open_lobby()
        elif what == "replay":
            from tui.screens.replay_browser import ReplayBrowser

            app.push_screen(ReplayBrowser())
        elif what == "rules":
            app.show_rules(None)
        elif what == "settings":
            from tui.screens.settings import SettingsScreen

            app.push_screen(SettingsScreen())
        elif what == "quit":
            app.exit()
