"""The NASCAR Champions table widget: `ChampionsBoard` puts the pieces together.

Owns the layout (oval and players panel on top, the choice list and the race log below) and
filling the choice list with its title: dice toggles after a roll, a two-car card in two steps,
other choices in words. Must not: hold game state, change it, or talk to the hub; the screen
decides what a choice does.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal

from core.champions.model import ChampionsState, ChooseDice, TargetTask
from tui.widgets.board import Board, BoardData
from tui.widgets.champions.choices import option_label, target_rows
from tui.widgets.champions.dice import dice_rows
from tui.widgets.champions.oval import OvalTrack
from tui.widgets.champions.scoreboard import ChampionsScoreboard
from tui.widgets.champions.words import card_of, head_task
from tui.widgets.common import ActionList, RaceLog, set_border_title


class ChampionsBoard(Board[ChampionsState]):
    """The Champions table: oval (with dice) and scoreboard on top, choices and log below."""

    DEFAULT_CSS = """
    ChampionsBoard #champ-top { height: 12; }
    ChampionsBoard #champ-bottom { height: 1fr; }
    ChampionsBoard ActionList { width: 1fr; }
    ChampionsBoard RaceLog { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="champ-top"):
            yield OvalTrack(id="oval")
            yield ChampionsScoreboard(id="scoreboard")
        with Horizontal(id="champ-bottom"):
            yield ActionList(id="actions")
            yield RaceLog(id="race-log")

    def show(self, data: BoardData[ChampionsState]) -> None:
        self.query_one(OvalTrack).show(data)
        self.query_one(ChampionsScoreboard).show(data)
        actions = self.query_one(ActionList)
        phase = data.state.phase
        if not data.legal:
            actions.keep_actions([])
            if data.result is not None:
                set_border_title(actions, "Race over")
            elif data.pending:  # the status line names them (this title stays put)
                set_border_title(actions, "Waiting for the other players")
            else:
                set_border_title(actions, "—")
            return
        if phase == "choose_dice":
            set_border_title(actions, "Keep 3 dice: 1-5, then Enter")
            before = actions.highlighted
            rows = dice_rows(data)
            actions.keep_actions(rows)
            keep = [i for i, (_, a) in enumerate(rows) if isinstance(a, ChooseDice)]
            if keep:
                actions.highlighted = keep[0]
            elif before is not None and before < len(rows):
                actions.highlighted = before
            if data.live:
                actions.focus()
            return
        task = head_task(data.state)
        if isinstance(task, TargetTask):
            set_border_title(actions, f"Cars for {card_of(task.card).name}")
        else:
            set_border_title(actions, "Your choice: 1-9 or Enter")
        rows = target_rows(data) or [(option_label(data, a, short=True), a) for a in data.legal]
        actions.keep_actions(rows)
        if data.live:
            actions.focus()
