"""Rules pages: one help page per game in our own words, with our rulings.

Owns the rules viewer: a tab per game over one scrolled page (←/→ or a click on a name switch
games; ↑/↓, PgUp/PgDn, Home/End scroll). Pages live in ``tui/rules/*.md``. Must not hold state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.markdown import Markdown
from textual.binding import Binding
from textual.widget import Widget

from tui.games import rules_game_ids, rules_text, title_for
from tui.screens.base import SpeedwayScreen
from tui.widgets.keys import KeyFooter
from tui.widgets.rulespage import RulesPage
from tui.widgets.tabbar import TabBar

_PARSED: dict[str, Markdown] = {}


def parsed_page(game_id: str) -> Markdown:
    """A game's rules page, parsed once per process (every session opening it shares it)."""
    page = _PARSED.get(game_id)
    if page is None:
        page = _PARSED[game_id] = Markdown(rules_text(game_id))
    return page


class RulesScreen(SpeedwayScreen):
    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 20)
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("question_mark", "back", "Back", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        # Priority: the page under the focus scrolls up and down only (its ←/→ would hide these).
        Binding("right", "game(1)", "Other game", key_display="←/→", priority=True),
        Binding("left", "game(-1)", "Other game", show=False, priority=True),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id if game_id in rules_game_ids() else rules_game_ids()[0]

    @property
    def pages(self) -> dict[str, str]:
        """Each game's rules page as Markdown source."""
        return {g: parsed_page(g).markup for g in rules_game_ids()}

    def body(self) -> Iterable[Widget]:
        tabs = [(title_for(game_id), game_id) for game_id in rules_game_ids()]
        yield TabBar(tabs, self.game_id, id="rules-tabs")
        yield RulesPage(parsed_page(self.game_id), key=self.game_id, classes="rules-page")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(RulesPage).focus()

    def on_tab_bar_changed(self, event: TabBar.Changed) -> None:
        self.game_id = event.active
        self.query_one(RulesPage).show(parsed_page(event.active), key=event.active)

    def action_game(self, delta: int) -> None:
        self.query_one(TabBar).step(delta)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_page(self, direction: int) -> None:
        scroll = self.query_one(RulesPage)
        if direction > 0:
            scroll.scroll_page_down()
        else:
            scroll.scroll_page_up()
