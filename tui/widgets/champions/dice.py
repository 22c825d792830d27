"""The NASCAR Champions dice as data for the widgets: what the infield shows, and picking dice.

Owns `dice_view` (this turn's roll, else the last one, with the kept and resolved dice), the
`DieToggle` rows and `dice_rows` of the choice list after a roll, and the `ChampionsDieClicked`
message. Must not: draw, or hold or change game state; what a pick does is the screen's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

from core.champions.model import (
    ChampionsState,
    ChooseDice,
    DiceChosen,
    DiceRolled,
    DieTask,
    GameEnded,
    LapStarted,
    ShiftGears,
)
from tui.widgets.board import BoardData
from tui.widgets.champions.choices import option_label
from tui.widgets.champions.words import die_words


@dataclass(frozen=True)
class DieToggle:
    """A row of the choice list that picks or un-picks a die (UI only, never sent to the hub)."""

    die: int


class ChampionsDieClicked(Message):
    """A die (1-5) was clicked."""

    def __init__(self, die: int) -> None:
        super().__init__()
        self.die = die


def dice_view(
    data: BoardData[ChampionsState],
) -> tuple[tuple[int, ...], tuple[int, ...], set[int], str]:
    """(faces, kept dice, dice already resolved, caption): this turn's roll, else the last one."""
    state: ChampionsState = data.state
    faces = tuple(state.dice or ())
    if faces:
        chosen = tuple(state.chosen or ())
        waiting = {t.die for t in state.queue if isinstance(t, DieTask)}
        done = {d for d in chosen if d not in waiting}
        return faces, chosen, done, ""
    last_faces: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    who = None
    for _, _, step_events in reversed(data.history[-40:]):
        for event in reversed(step_events):
            if isinstance(event, DiceChosen) and not kept and who is None:
                kept = tuple(event.dice)
            elif isinstance(event, DiceRolled):
                last_faces, who = tuple(event.faces), event.seat
                break
            elif isinstance(event, LapStarted | GameEnded):
                return (), (), set(), ""
        if who is not None:
            break
    if who is None:
        return (), (), set(), ""
    name = data.names[who] if 0 <= who < len(data.names) else "?"
    return last_faces, kept, set(kept), f"{name}'s last roll"


def dice_rows(data: BoardData[ChampionsState]) -> list[tuple[str, Any]]:
    """The choice list after a roll: one row per die (toggles), Shift Gears, and Keep."""
    picked = sorted(int(p[1:]) for p in data.selected if p.startswith("d") and p[1:].isdigit())
    faces = tuple(data.state.dice or ())
    rows: list[tuple[str, Any]] = []
    for i, face in enumerate(faces):
        mark = "  ◀ keep" if i + 1 in picked else ""
        rows.append((f"Die {i + 1}: {die_words(face, short=False)}{mark}", DieToggle(i + 1)))
    for action in data.legal:
        if isinstance(action, ChooseDice) and list(action.dice) == picked:
            rows.append((option_label(data, action) + " (Enter)", action))
        elif isinstance(action, ShiftGears):
            rows.append((option_label(data, action), action))
    return rows
