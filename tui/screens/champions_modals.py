"""NASCAR Champions screens that open over the table once: the end of a lap and the results.

Owns `LapSummary`: when a lap's money is paid it waits for a key and says, in core's words, the
places, the revealed Sponsor cards and each player's payout (prize + sponsors), then every
player's money so far; after lap 2 it is the final results — the ranking and, when equal money
was decided by the lap-2 finish, which tie-break decided it (N-TIEBREAK).
`lap_summary_lines` builds those lines from the table's history (tests read them).
Must not: hold or change game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from core.champions.describe import describe, money_words, ordinal, tiebreak_text
from core.champions.model import (
    GameEnded,
    LapCalled,
    LapEnded,
    MoneyAwarded,
    SponsorsRevealed,
)
from tui.widgets.keys import KeyFooter

SUMMED = (LapCalled, LapEnded, SponsorsRevealed, MoneyAwarded)


def lap_summary_lines(
    history: Sequence[tuple[int, int | None, list[Any]]], state: Any, names: list[str]
) -> tuple[str, list[str]]:
    """The title and lines of the summary of the lap whose money was just paid."""
    events: list[Any] = []
    for _sid, _seat, step in reversed(history):
        events[:0] = step
        if any(isinstance(e, LapEnded | LapCalled) for e in step):
            break
    lap = next((e.lap for e in events if isinstance(e, LapEnded)), state.lap)
    lines = [w for e in events if isinstance(e, SUMMED) and (w := describe(e, names))]
    ended = next((e for e in events if isinstance(e, GameEnded)), None)
    if ended is None:
        lines.append("")
        lines.append(
            "Money so far: "
            + ", ".join(f"{names[s]} {money_words(state.money[s])}" for s in range(len(names)))
            + "."
        )
        return f"Lap {lap} is over", lines
    lines.append("")
    if len(names) > 1:
        width = max(len(names[seat]) for seat in ended.ranking)
        for place, seat in enumerate(ended.ranking):
            money = money_words(state.money[seat])
            lines.append(f"{ordinal(place + 1)}  {names[seat]:<{width}}  {money:>9}")
        lines += tiebreak_text(ended.ranking, state, names)
    final = describe(ended, names)
    if final:
        lines.append(final)
    return "Final results", lines


SPECTATOR_LAP_SECONDS = 12.0
"""How long a spectator's lap summary stays before the race goes on by itself: the race does not
wait for spectators, and one who only watches should not come back to a screen held at lap 2
while the race is at lap 4."""


class LapSummary(ModalScreen[None]):
    """A lap's end (or the final results), waiting for Enter; ``continue_after`` seconds: it also
    closes by itself then (a spectator's, between laps)."""

    BINDINGS: ClassVar = [Binding("enter,escape", "close", "Continue")]

    def __init__(self, title: str, lines: list[str], continue_after: float | None = None) -> None:
        super().__init__()
        self.title_words = title
        self.lines = lines
        self.continue_after = continue_after

    def compose(self) -> ComposeResult:
        with Vertical(id="lap-box"):
            yield Static(self.title_words, id="lap-title")
            with VerticalScroll(id="lap-scroll"):
                yield Static("\n".join(self.lines), id="lap-lines")
            hint = "Enter: continue"
            if self.continue_after is not None:
                hint += f" (the race goes on by itself in {self.continue_after:.0f} s)"
            yield Static(hint, classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.continue_after is not None:
            self.set_timer(self.continue_after, self.action_close)

    def action_close(self) -> None:
        if self.is_current:
            self.dismiss(None)
