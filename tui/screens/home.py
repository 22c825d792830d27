"""Home: start a local game, resume a kept one, open the lobby or a replay, read the rules,
change settings, quit.

Owns the home menu only; each entry opens its own screen. A kept local game (left with "keep it
for later", or cut off when the app closed) is offered as "Resume" with its game, players and
turn, the most recently played first (`u` resumes it). Must not hold game state.
"""

from __future__ import annotations

import re
import textwrap
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


ENTRY_WIDTH = 52
"""Cells of a menu entry's words: the menu's inside, less its scrollbar when the kept games make
it scroll."""


def entry_text(key: str, words: str) -> Text:
    """A menu entry: its key, then its words; a long entry ("Resume Cthulhu 500 · Ann, Bold, …")
    wraps under its words, not under the key."""
    kept = re.sub(r" (?=\d)", "\xa0", words)  # a number stays with its word: "turn 12"
    lines = textwrap.wrap(kept, ENTRY_WIDTH) or [""]
    return Text(f"{key}  " + "\n   ".join(lines).replace("\xa0", " "))


class HomeScreen(SpeedwayScreen):
    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 20)
    BINDINGS: ClassVar = [
        Binding("u", "pick('resume')", "Resume"),
        Binding("n", "pick('new')", "New game"),
        Binding("l", "pick('lobby')", "Tables"),
        Binding("o", "pick('replay')", "Replays"),
        Binding("r", "pick('rules')", "Rules"),
        Binding("s", "pick('settings')", "Settings"),
        Binding("q", "pick('quit')", "Quit"),
    ]

    def __init__(self, *, deferred: bool = False) -> None:
        """``deferred``: built only when first shown. A session that starts in the lobby or at
        a table has Home under it, covered at once; building its menu for nothing was part of
        every such login on the server."""
        super().__init__()
        self._deferred = deferred

    def body(self) -> Iterable[Widget]:
        if self._deferred:
            return []
        # Built as nested constructors, not `with` blocks: a deferred Home mounts these
        # outside `compose` (`_build`).
        menu = OptionList(*self.menu(), id="home-menu")
        whoami = Static(f"Signed in as {self.speedway.identity.nickname}", id="whoami")
        tagline = Static(
            "Go 500 · Cthulhu 500 · NASCAR Champions — racing games at your terminal",
            id="tagline",
        )
        home = Vertical(Static(LOGO, id="logo"), tagline, Center(menu), whoami, id="home")
        return [home, KeyFooter()]

    def kept(self) -> list[tuple[str, str]]:
        """(table id, words) of each kept local game, the most recently played first (the one
        `u` resumes): "Go 500 · Ann, Bold · turn 12"."""
        app = self.speedway
        out = []
        for info, _seat in app.my_running_tables():  # (the most recently played first)
            names = ", ".join(s.name for s in info.seats)
            title = app.game(info.game).title
            when = f"turn {info.turn}" if info.turn else "starting"
            out.append((info.id, f"{title} · {names} · {when}"))
        return out

    def menu(self) -> list[Option]:
        options = [
            Option(entry_text("u" if i == 0 else " ", f"Resume {words}"), id=f"resume:{table_id}")
            for i, (table_id, words) in enumerate(self.kept())
        ]
        options += [Option(Text(f"{key}  {text}"), id=ident) for ident, key, text in MENU]
        return options

    def on_mount(self) -> None:
        if not self._deferred:
            self.query_one("#home-menu", OptionList).focus()

    def on_screen_resume(self) -> None:
        """Back at Home: the list of kept games may have changed."""
        if self._deferred:
            if self.app.screen is self:  # else covered already: the lobby or a table is over it
                self._deferred = False
                self.call_next(self._build)
            return
        menu = self.query_one("#home-menu", OptionList)
        menu.clear_options()
        menu.add_options(self.menu())
        menu.highlighted = 0
        self.refresh_bindings()

    async def _build(self) -> None:
        """Build a deferred Home, now that it is shown for the first time."""
        await self.mount_all(list(self.body()))
        self.query_one("#home-menu", OptionList).focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters == ("resume",):
            return bool(self.kept())
        return super().check_action(action, parameters)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_pick(event.option_id or "")

    def action_pick(self, what: str) -> None:
        app = self.speedway
        if what == "resume":
            kept = self.kept()
            if kept:
                app.resume(kept[0][0])
        elif what.startswith("resume:"):
            app.resume(what.removeprefix("resume:"))
        elif what == "new":
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
