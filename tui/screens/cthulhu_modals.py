"""Cthulhu 500 screens that open over the table once: the details of every vehicle and hand
card, and the end of the race with the ranking.

Owns `CthulhuDetails` (a list of the pack's vehicles, leader first, then this viewer's hand;
the highlighted entry in full, in core's words: a vehicle's place, laps, Speed both ways,
Complexity, Drive, crew, equipment and hand size — only what every player may see —, or a
card's numbers, effect text and when it may be played). It opens on `i`, on a click, and on
Enter over a vehicle or hand card the player browses to with Tab. It also owns
`CthulhuRaceOver` (places, drivers, vehicles and laps, C-RANK). Both are modal: they are built
when opened, never on a per-step path. Must not: hold or change game state.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.cthulhu500.data import name_of
from core.cthulhu500.describe import card_facts, card_timing, standings_text, vehicle_lines
from core.cthulhu500.model import State
from tui.widgets.keys import KeyFooter


def vehicle_facts(state: State, names: list[str], seat: int) -> str:
    """One vehicle in full, in core's words (`describe.vehicle_lines`: only what is public)."""
    return "\n".join(vehicle_lines(state, names, seat))


def hand_card_facts(cid: int) -> str:
    """A hand card in full: name, kind, numbers, effect text, then when it may be played."""
    return f"{card_facts(cid)}\n{card_timing(cid)}"


class CthulhuDetails(ModalScreen[None]):
    """Every vehicle of the pack and every card in this viewer's hand, one in full at a time."""

    BINDINGS: ClassVar = [Binding("escape,i", "close", "Close")]

    def __init__(self, state: State, names: list[str], hand: list[int], start: str = "") -> None:
        super().__init__()
        self.entries: list[tuple[str, str, str]] = []  # (key, label, full text)
        pack = list(state.pack or range(len(state.vehicles)))
        for place, seat in enumerate(pack):
            marker = state.vehicles[seat].marker
            vehicle = name_of(marker) if marker else "no vehicle yet"
            self.entries.append(
                (
                    f"v{seat}",
                    f"{place + 1}. {names[seat]} — {vehicle}",
                    vehicle_facts(state, names, seat),
                )
            )
        for n, cid in enumerate(hand):
            self.entries.append((f"c{cid}", f"Hand {n + 1}: {name_of(cid)}", hand_card_facts(cid)))
        keys = [key for key, _label, _text in self.entries]
        self.start = keys.index(start) if start in keys else 0

    def compose(self) -> ComposeResult:
        with Vertical(id="details-box"):
            yield Static("Vehicles and cards (↑/↓ to choose, esc to close)", id="details-title")
            with Horizontal(id="details-body"):
                yield OptionList(
                    *[Option(label, id=key) for key, label, _text in self.entries],
                    id="details-list",
                )
                with VerticalScroll(id="details-scroll", can_focus=False):
                    yield Static("", id="details-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        rows = self.query_one(OptionList)
        rows.highlighted = self.start
        rows.focus()
        self._show(self.start)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def _show(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            self.query_one("#details-text", Static).update(self.entries[index][2])
            self.query_one("#details-scroll", VerticalScroll).scroll_home(animate=False)

    @property
    def shown_text(self) -> str:
        index = self.query_one(OptionList).highlighted or 0
        return self.entries[index][2]

    def action_close(self) -> None:
        self.dismiss(None)


class CthulhuRaceOver(ModalScreen[None]):
    """The end of the race: the ranking (most laps, then nearer the front) in full."""

    BINDINGS: ClassVar = [Binding("enter,escape", "close", "Back to the table")]

    def __init__(self, state: State, names: list[str], ranking: list[int], why: str) -> None:
        super().__init__()
        self.lines = []
        for place, seat in enumerate(ranking):
            v = state.vehicles[seat]
            vehicle = name_of(v.marker) if v.marker else "no vehicle"
            laps = f"{v.laps} lap{'s' if v.laps != 1 else ''}"
            self.lines.append(f"{place + 1}. {names[seat]} — {vehicle}, {laps}")
        self.why = why
        self.standings = standings_text(state, names)

    def compose(self) -> ComposeResult:
        with Vertical(id="race-over-box"):
            yield Static(self.why, id="race-over-title")
            yield Static("\n".join(self.lines), id="race-over-ranking")
            yield Static(
                "Ranked by laps, then by place in the pack (rule C-RANK).  Enter: back to the "
                "table, where c shows the race chart.",
                classes="hint",
            )
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
