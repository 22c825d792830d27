"""Cthulhu 500 board: the circular pack, the hand, the turn, the choices in words and the log.

Owns drawing a Cthulhu 500 `BoardData`: the pack leader first (seat number and name, vehicle,
laps, damage, driver, crew, Mods, Tires, hand size, contagion marks ``☣``), this viewer's hand
with card names and short effect texts (cards picked for a discard marked), the turn line
(whose turn, actions left, discard pile top, draw pile "about N"), the legal actions as a list
labelled in words, and the race log. A reaction prompt is shown only to the asked seat; every
other viewer reads "waiting for reactions". Posts `ActionChosen` (and `CardToggle` rows) up.

Must not: hold game state, change it, or talk to the hub.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.cache import LRUCache
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from core.cthulhu500.model import (
    AttemptPass,
    DChain,
    DDiscard,
    DFreeTest,
    DReroll,
    DSetupDiscard,
    DWindow,
    EndActions,
    State,
)
from tui.theme import CURSOR, DAMAGED, PICK, colour_blind, seat_styles
from tui.widgets.board import Board, BoardData
from tui.widgets.common import (
    ActionList,
    LineBox,
    RaceLog,
    set_border_title,
    short_names,
    update_sized,
)

DIM = Style(dim=True)
BOLD = Style(bold=True)
REACTIONS = (DWindow, DChain)
PICK_DECISIONS = (DSetupDiscard, DDiscard)


def cards_module() -> Any:
    from core.cthulhu500 import data as cards

    return cards


def card_name(cid: int | None) -> str:
    if cid is None:
        return "—"
    return str(cards_module().name_of(cid))


def card_text(cid: int) -> str:
    found = cards_module().CARDS.get(cid)
    return str(found.text) if found is not None else ""


def top_task(state: State) -> Any:
    stack = state.stack
    return stack[-1] if stack else None


def seat_chip(seat: int, colour_blind: bool = False) -> Text:
    """A seat number on its colour (the theme's palette, colour-blind-safe when asked)."""
    styles = seat_styles(colour_blind)
    return Text(f"{seat + 1}", style=styles[seat % len(styles)])


def _seat_name(names: list[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "nobody"
    return names[seat]


def _cards(cards: Any) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else "nothing"


class StopBrowsing(Message):
    """Esc on the pack or the hand: the screen gives the focus back to the choices."""


class ShowDetails(Message):
    """Show a vehicle (``v<seat>``) or a card (``c<id>``) in full (the screen opens the view)."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


@dataclass(frozen=True)
class CardToggle:
    """A row of the choice list that picks or un-picks a hand card (UI only)."""

    card: int


KEY_HINTS: dict[type, str] = {AttemptPass: "p", EndActions: "e"}
"""Actions that have a key of their own on the Cthulhu screen (the label says which)."""
PICK_HINT = " (1-9, Enter)"
"""Subset decisions (the discards) are answered by picking cards with 1-9, then Enter."""


def action_words(data: BoardData[State], action: Any) -> str:
    """A Cthulhu 500 action in core's words (`describe.action_text`), with its key if it has one."""
    from core.cthulhu500.describe import action_text

    text = action_text(action, data.names, data.state)
    key = KEY_HINTS.get(type(action))
    return f"{text} ({key})" if key else text


def prompt_words(data: BoardData[State], width: int | None = None) -> str:
    """What the top decision asks, in core's words (`describe.prompt_text`), with the keys that
    answer a pick-cards decision (for the choice list title) when they fit in ``width`` cells
    (the status line says the keys too)."""
    from core.cthulhu500.describe import prompt_text

    text = prompt_text(data.state, data.names)
    if not isinstance(top_task(data.state), PICK_DECISIONS):
        return text
    return text + PICK_HINT if width is None or len(text + PICK_HINT) <= width else text


def is_reaction_prompt(state: State) -> bool:
    return isinstance(top_task(state), REACTIONS)


# ------------------------------------------------------------------------------ widgets


def last_pass_words(data: BoardData[State]) -> str | None:
    """The latest passing test in core's words, until the next action or turn starts."""
    from core.cthulhu500.describe import describe
    from core.cthulhu500.model import ActionTaken, PassResolved, TurnStarted

    for _state_id, _seat, step in reversed(data.history):
        for event in reversed(step):
            if isinstance(event, PassResolved):
                return describe(event, data.names)
            if isinstance(event, ActionTaken | TurnStarted):
                return None
    return None


def test_words(data: BoardData[State]) -> str | None:
    """What the passing-test lines say: the re-roll decision with both totals, who may take a
    free test and why (core's wording), else the latest test's result."""
    from core.cthulhu500.describe import free_test_text, reroll_text

    task = top_task(data.state)
    if isinstance(task, DReroll):
        return f"Re-roll the Car of Cthulhu's die? {reroll_text(data.state, data.names)}"
    if isinstance(task, DFreeTest):
        return free_test_text(data.state, data.names)
    return last_pass_words(data)


def turn_text(state: State, names: list[str], width: int, spare: int = 0) -> tuple[Text, Text]:
    """The turn line in the fullest wording that fits ``width`` cells, and what goes at the end
    of the standings line: whose turn, actions left and Nitrous first (what a player acts on),
    then the draw pile and the top of the discard pile. When the top card does not fit on the
    turn line but in the ``spare`` cells of the standings line, it moves there (right-aligned);
    else the line is cut at the end, with "…"."""
    from core.cthulhu500.rules.board import pile_label

    active = state.active
    who = _seat_name(names, active) if active >= 0 else "setup"
    discard = tuple(state.discard)
    top = card_name(discard[-1]) if discard else "empty"
    head = Text()
    head.append(f"Turn {state.turn} · {who}", style=BOLD)
    if active >= 0 and not state.over:
        left = state.actions_left
        head.append(f" · {left} action{'s' if left != 1 else ''} left")
        if state.nitrous:
            head.append(f" · nitrous +{state.nitrous}")
    pile = pile_label(state)
    wordings = (
        f" · draw pile {pile} · top of the discard pile: {top}",
        f" · draw pile {pile} · discard: {top}",
        f" · draw {pile} · discard {top}",
    )
    aside = Text()
    for words in wordings:
        if head.cell_len + len(words) <= width:
            break
    else:
        moved = f"discard: {top}"
        if len(moved) + 3 <= spare:
            words = f" · draw pile {pile}"
            if head.cell_len + len(words) > width:
                words = f" · draw {pile}"
            aside = Text(moved, style=DIM)
    line = head.copy()
    line.no_wrap, line.overflow = True, "ellipsis"
    line.append(words, style=DIM)
    line.truncate(width, overflow="ellipsis")  # the box crops; the cut should show
    return line, aside


def standings_rows(state: State, names: list[str], width: int) -> list[Text]:
    """The standings line (core's words, `standings_text`) in one row of ``width`` cells, else
    on two (many vehicles at 80 columns), broken between places, never inside one, with every
    name in full, else with the names cut alike (`short_names`) as little as two rows need."""
    from core.cthulhu500.describe import standings_text

    text = standings_text(state, names)
    if Text(text).cell_len <= width:
        return [Text(text)]
    longest = max((Text(n).cell_len for n in names), default=4)
    rows: list[str] = []
    for cells in range(longest, 3, -1):
        rows = _rows_between(standings_text(state, short_names(names, cells)), width)
        if len(rows) <= 2:
            break
    out = [Text(row) for row in rows[:2]]
    if len(rows) > 2:
        out[1].append(" ·")
        out[1].truncate(width - 1)
        out[1].append("…")
    return out


def _rows_between(text: str, width: int) -> list[str]:
    """``text`` ("a · b · c") in rows of ``width`` cells, broken only at its " · "."""
    rows: list[str] = []
    for part in text.split(" · "):
        joined = f"{rows[-1]} · {part}" if rows else part
        if rows and Text(joined).cell_len <= width:
            rows[-1] = joined
        else:
            rows.append(part)
    return rows


class TurnLineRows(Message):
    """The turn line needs ``rows`` rows now (the board lays it out)."""

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows


class TurnLine(LineBox):
    """Whose turn, actions left, draw pile "about N", discard pile top (`turn_text`); the
    standings (laps, then pack order; two rows when one cannot hold them, the box then one row
    taller); and the passing test — the latest result, kept until the next action, or the
    re-roll / free test decision — wrapped onto two lines."""

    DEFAULT_CSS = """
    TurnLine { height: 4; padding: 0 1; background: $primary 20%; }
    """

    _data: BoardData[State] | None = None
    wanted_rows = 4
    """The rows the lines need (the board lays them out): 5 while the standings take two."""

    _drawn_key: tuple[Any, ...] | None = None  # what the lines shown are drawn from

    def on_resize(self) -> None:
        super().on_resize()
        self._drawn_key = None
        if self._data is not None:
            self.show(self._data)  # the wording depends on the width

    def drawn_from(self, data: BoardData[State], width: int, words: str | None) -> tuple[Any, ...]:
        """Everything the lines are drawn from (`turn_text`, `standings_rows`, the test's
        words). The standings' rows follow from their words in full and the names (cut names
        are the same text with other names)."""
        from core.cthulhu500.describe import standings_text
        from core.cthulhu500.rules.board import pile_label

        state = data.state
        discard = tuple(state.discard)
        return (
            width,
            tuple(data.names),
            standings_text(state, data.names) if state.pack else None,
            state.turn,
            state.active,
            state.over,
            state.actions_left,
            state.nitrous,
            pile_label(state),
            discard[-1] if discard else None,
            words,
        )

    def show(self, data: BoardData[State]) -> None:
        self._data = data
        state: State = data.state
        width = max(20, self.content_size.width)
        words = test_words(data)
        key = self.drawn_from(data, width, words)
        if key == self._drawn_key:
            return  # the same lines
        self._drawn_key = key
        rows = standings_rows(state, data.names, width) if state.pack else []
        standings = rows[0] if len(rows) == 1 else Text("")
        line, aside = turn_text(state, data.names, width, width - standings.cell_len)
        if aside and len(rows) < 2:  # the top card moves to the end of a one-row standings line
            standings.append(" " * (width - standings.cell_len - aside.cell_len))
            standings.append_text(aside)
        standings.truncate(width, overflow="ellipsis")
        lines = [line, *(rows if len(rows) > 1 else [standings])]
        wanted = 3 + max(1, len(rows))  # one more only while the standings need two
        if wanted != self.wanted_rows:
            self.wanted_rows = wanted
            self.styles.height = wanted
            self.post_message(TurnLineRows(wanted))
        if words:
            width = max(10, self.content_size.width)
            wrapped = Text(words, style=BOLD).wrap(self.app.console, width)
            rows = list(wrapped)[:2]
            if len(wrapped) > 2:
                rows[1].truncate(width - 1)
                rows[1].append("…")
            lines += rows
        self.show_lines(lines)


def speed_words(marker: int, damaged: bool, *, short: bool = False) -> str:
    """A vehicle's Speed both ways (the side in use first) and its Complexity; ``short``
    where room is tight: "Spd 3/2 · Cx 6", undamaged / damaged (the row says DAMAGED)."""
    spec = cards_module().CARDS.get(marker)
    if spec is None:
        return ""
    if short:
        return f"Spd {spec.speed}/{spec.speed_damaged} · Cx {spec.complexity}"
    if damaged:
        return f"Speed {spec.speed_damaged} dmg ({spec.speed} fixed) · Complexity {spec.complexity}"
    return f"Speed {spec.speed} (dmg {spec.speed_damaged}) · Complexity {spec.complexity}"


def pin_rows(rows: list[list[Text]], mine: int | None, height: int) -> list[list[Text]]:
    """The vehicles that fit in ``height`` lines, leader first; this viewer's own vehicle is
    pinned to the last place shown when it would fall below the box."""
    shown: list[list[Text]] = []
    used = 0
    for row in rows:
        if used + len(row) > height:
            break
        shown.append(row)
        used += len(row)
    if mine is None or mine < len(shown) or mine >= len(rows):
        return shown
    while shown and sum(len(r) for r in shown) + len(rows[mine]) > height:
        shown.pop()
    return [*shown, rows[mine]]


BROWSE_KEYS: list[Binding | tuple[str, str] | tuple[str, str, str]] = [
    Binding("up", "cursor(-1)", "Up", show=False),
    Binding("down", "cursor(1)", "Down", show=False),
    Binding("enter", "details", "Details", show=False),
    Binding("escape", "stop_browsing", "Choices"),
]
"""The pack's and the hand's keys while browsing them (Textual reads ``BINDINGS`` from widget
classes only, so each names this list)."""


class _Browsing:
    """What the pack and the hand share while focused: esc goes back to the choices, and a
    click opens the details without taking the keys from the choices."""

    FOCUS_ON_CLICK = False

    def action_stop_browsing(self) -> None:
        self.post_message(StopBrowsing())  # type: ignore[attr-defined]


class PackView(_Browsing, LineBox, can_focus=True):
    """The circular pack, leader first: two lines per vehicle, or one when they do not fit;
    your own vehicle is pinned into view when the pack is longer than the box. Focused (Tab),
    ↑/↓ move a cursor over the vehicles and Enter opens the one under it in full."""

    BINDINGS: ClassVar = BROWSE_KEYS

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._data: BoardData[State] | None = None
        self._line_seats: list[int] = []
        self._drawn_key: tuple[Any, ...] | None = None  # what the lines shown are drawn from
        self.cursor: int | None = None
        """The seat under the cursor (None: the viewer's own vehicle, else the leader)."""

    def show(self, data: BoardData[State]) -> None:
        self._data = data
        self._draw()

    def on_focus(self) -> None:
        self._draw()

    def on_blur(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        super().on_resize()
        self._drawn_key = None
        self._draw()  # one or two lines a vehicle, and the wording, depend on the size

    def _order(self) -> list[int]:
        data = self._data
        if data is None:
            return []
        return list(data.state.pack or range(len(data.state.vehicles)))

    def cursor_seat(self) -> int | None:
        """The seat the cursor is on (the viewer's own vehicle until it moves)."""
        order = self._order()
        if not order:
            return None
        if self.cursor in order:
            return self.cursor
        mine = self._data.perspective if self._data is not None else None
        return mine if mine in order else order[0]

    def action_cursor(self, step: int) -> None:
        order = self._order()
        seat = self.cursor_seat()
        if seat is None:
            return
        self.cursor = order[max(0, min(len(order) - 1, order.index(seat) + step))]
        self._draw()

    def detail_key(self) -> str | None:
        seat = self.cursor_seat()
        return None if seat is None else f"v{seat}"

    def action_details(self) -> None:
        key = self.detail_key()
        if key is not None:
            self.post_message(ShowDetails(key))

    def _draw(self) -> None:
        data = self._data
        if data is None:
            return
        state: State = data.state
        names = data.names
        pack = self._order()
        vehicles = tuple(state.vehicles)
        hands = tuple(state.hands)
        marked: dict[int, list[int]] = {}
        for contagion in state.contagions:
            marked.setdefault(contagion.seat, []).append(contagion.target)
        active = state.active
        ranking = list(data.result.ranking) if data.result is not None else []
        secret = is_reaction_prompt(state)  # who is asked to react is nobody else's business
        height = max(1, self.size.height)
        width = max(20, self.content_size.width)
        browsing = self.has_focus
        under = self.cursor_seat() if browsing else None
        cb = colour_blind(self)
        # Everything the lines are drawn from (a step changes the pack's lines on few steps):
        # the same as last time, and nothing needs drawing.
        key = (
            tuple(pack),
            vehicles,
            tuple(len(h) for h in hands),
            tuple(sorted((seat, tuple(m)) for seat, m in marked.items())),
            active,
            tuple(data.pending),
            tuple(ranking),
            secret,
            height,
            width,
            tuple(names),
            under,
            data.perspective,
            cb,
            self.base_style,
        )
        if key == self._drawn_key:
            return
        self._drawn_key = key
        two_lines = 2 * len(pack) <= height
        shown_names = short_names(names, 16 if width >= 60 else 10)  # the rest: `I`
        rows: list[list[Text]] = []
        heads: list[tuple[int, Text, Any, int, list[int], int, str]] = []
        pinned: int | None = None
        for place, seat in enumerate(pack):
            if seat == (under if under is not None else data.perspective):
                pinned = place
            v = vehicles[seat]
            asked = seat in data.pending and not secret
            marker = "▶" if seat == active or asked else " "
            out = Text(no_wrap=True, overflow="ellipsis")
            out.append(f"{place + 1:>2}{marker}", style=BOLD)
            out.append_text(seat_chip(seat, cb))
            you = "*" if seat == data.perspective else ""
            out.append(f" {shown_names[seat]}{you} ", style=BOLD)
            if ranking:
                out.append(f"#{ranking.index(seat) + 1} ", style=BOLD)
            # the vehicle's name gives way before the damage mark does
            vehicle = card_name(v.marker) if v.marker else "no vehicle yet"
            mark = " DAMAGED" if v.damaged else ""
            if len(vehicle) + len(mark) > width - out.cell_len:
                mark = " DMG" if v.damaged else ""  # short, before the name is cut
            room = width - out.cell_len - len(mark)
            if len(vehicle) > room:
                vehicle = vehicle[: max(1, room - 1)] + "…"
            out.append(vehicle)
            if mark:
                out.append(mark, style=DAMAGED)
            hand = hands[seat] if seat < len(hands) else ()
            lead = "     " if two_lines else " · "
            room = width - (len(lead) if two_lines else out.cell_len + len(lead))
            heads.append((seat, out, v, len(hand), marked.get(seat, []), room, lead))
        # One wording for every vehicle (the fullest that fits them all), not a mix of
        # "Speed 2/0" and "Spd 2/1" row by row.
        level = max((pack_level(v, n, m, room) for _s, _o, v, n, m, room, _l in heads), default=0)
        for seat, out, v, hand_size, marks, room, lead in heads:
            detail = Text(no_wrap=True, overflow="ellipsis")
            detail.append(lead)
            detail.append_text(pack_details(v, hand_size, marks, room, level))
            if two_lines:
                row = [out, detail]
            else:
                out.append_text(detail)
                row = [out]
            for line in row:
                line.truncate(width, overflow="ellipsis")  # the box crops; the cut should show
                if seat == under:
                    line.stylize(CURSOR)
            rows.append(row)
        shown = pin_rows(rows, pinned, height)
        seats = {id(row): seat for row, seat in zip(rows, pack, strict=True)}
        self._line_seats = [seats[id(row)] for row in shown for _line in row]
        self.show_lines([line for row in shown for line in row])

    def on_click(self, event: events.Click) -> None:
        """A click on a vehicle asks the screen to show it in full."""
        if 0 <= event.y < len(self._line_seats):
            self.cursor = self._line_seats[event.y]
            self.post_message(ShowDetails(f"v{self._line_seats[event.y]}"))


PACK_WORDINGS = 6
"""How many wordings `pack_details` tries, fullest first."""


def pack_level(v: Any, hand: int, marks: list[int], room: int) -> int:
    """The fullest wording of `pack_details` that fits ``room`` cells (else the shortest)."""
    for level in range(PACK_WORDINGS):
        if pack_details(v, hand, marks, room, level).cell_len <= room:
            return level
    return PACK_WORDINGS - 1


_PACK_DETAILS: LRUCache[tuple[Any, ...], Text] = LRUCache(1024)


def pack_details(v: Any, hand: int, marks: list[int], room: int, level: int | None = None) -> Text:
    """`_pack_details`, kept per vehicle and room: every step redraws every vehicle's line and
    one step changes one or two vehicles (the text is shared: append it, never change it)."""
    key = (v, hand, tuple(marks), room, level)
    text = _PACK_DETAILS.get(key)
    if text is None:
        text = _PACK_DETAILS[key] = _pack_details(v, hand, marks, room, level)
    return text


def _pack_details(v: Any, hand: int, marks: list[int], room: int, level: int | None) -> Text:
    """A vehicle's second line: laps, Speed both ways, Complexity, hand size, contagion marks,
    driver and equipment, in the fullest wording that fits ``room`` cells (the names of crew,
    Mods and Tires give way to counts first, then Speed and Complexity to short forms
    ("Spd 3/1 · Cx 5") and the driver to the Drive a passing test adds ("Drive 2", or "no
    driver"), then Complexity, which the details view still shows ("Speed 3/1"; "Spd 3/1"
    last)). ``level`` asks for one wording (`pack_level`) instead."""
    spec = cards_module().CARDS.get(v.marker) if v.marker else None
    out = Text()
    levels = range(PACK_WORDINGS) if level is None else [level]
    for short in levels:
        out = Text()
        out.append(f"lap {v.laps}", style=BOLD)
        if spec is not None:
            speed = speed_words(v.marker, v.damaged, short=short >= 3)
            if short >= 4:  # Speed only: Complexity is in the details view
                speed = speed.split(" · ")[0].replace("Spd", "Speed" if short == 4 else "Spd")
            out.append(" · " + speed)
        out.append(f" · hand {hand}", style=DIM)
        if marks:
            out.append(" ☣ " + ", ".join(card_name(c) for c in marks), style=BOLD)
        if v.driver is None:
            parts = ["no driver"]
        elif short < 3:
            parts = [f"driver {card_name(v.driver)}"]
        else:  # the number a passing test adds (C-PASS-TEST), not the driver's name
            parts = [f"Drive {cards_module().card(v.driver).drive}"]
        named = short < 1
        if v.crew:
            parts.append(
                "crew " + ", ".join(card_name(c) for c in v.crew)
                if named
                else f"crew {len(v.crew)}"
            )
        if v.mods:
            mods = ", ".join(card_name(c) for c in v.mods)
            parts.append(f"mods {mods}" if short < 2 else f"mods {len(v.mods)}")
        if v.tires is not None:
            parts.append(f"tires {card_name(v.tires)}" if short < 2 else "tires")
        out.append(" · " + " · ".join(parts), style=DIM)
        if out.cell_len <= room:
            return out
    return out


class HandView(_Browsing, Static, can_focus=True):
    """This viewer's hand: numbered cards with short effect texts; picked cards marked. A click
    on a card asks the screen to show it in full; focused (Tab), ↑/↓ move a cursor over the
    cards and Enter opens the one under it."""

    BINDINGS: ClassVar = BROWSE_KEYS

    _shown: Any = None
    """What is drawn now ("hidden", or the hand, picks and cursor), so an unchanged hand is not
    redrawn."""
    _hand: list[int] = []  # noqa: RUF012 (replaced, never mutated)
    _data: BoardData[State] | None = None
    cursor = 0
    """The index in the hand of the card under the cursor."""

    def _rows(self, cid: int) -> int:
        width = max(1, self.content_size.width - 2)  # the grid's text column
        return 1 + len(Text(card_text(cid)).wrap(self.app.console, width))

    def on_click(self, event: events.Click) -> None:
        y = 0
        for n, cid in enumerate(self._hand):
            rows = self._rows(cid)
            if y <= event.y < y + rows:
                self.cursor = n
                self.post_message(ShowDetails(f"c{cid}"))
                return
            y += rows

    def on_focus(self) -> None:
        self._redraw()

    def on_blur(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if self._data is not None:
            self.show(self._data)

    def detail_key(self) -> str | None:
        if not self._hand:
            return None
        return f"c{self._hand[min(self.cursor, len(self._hand) - 1)]}"

    def action_details(self) -> None:
        key = self.detail_key()
        if key is not None:
            self.post_message(ShowDetails(key))

    def action_cursor(self, step: int) -> None:
        if not self._hand:
            return
        self.cursor = max(0, min(len(self._hand) - 1, self.cursor + step))
        self._redraw()
        top = sum(self._rows(c) for c in self._hand[: self.cursor])
        box = self.parent
        if isinstance(box, Widget) and box.is_scrollable:
            rows = self._rows(self._hand[self.cursor])
            if top < box.scroll_y:
                box.scroll_to(y=top, animate=False)
            elif top + rows > box.scroll_y + box.scrollable_content_region.height:
                box.scroll_to(y=top + rows - box.scrollable_content_region.height, animate=False)

    def show(self, data: BoardData[State]) -> None:
        self._data = data
        state: State = data.state
        seat = data.perspective
        hands = tuple(state.hands)
        out = Text()
        if seat is None and not data.live:  # a replay seen by everyone: every hand is open
            for n, held in enumerate(hands):
                if n:
                    out.append("\n")
                out.append(f"{_seat_name(data.names, n)}: ", style=BOLD)
                out.append(_cards([c for c in held if c]))
            self.update(out)
            return
        if seat is None or seat >= len(hands):
            if self._shown != "hidden":
                self._shown = "hidden"
                out.append("Watching: hands are hidden.", style=DIM)
                update_sized(self, out, 1)
            return
        hand = [c for c in hands[seat] if c]
        picked = {int(p[1:]) for p in data.selected if p.startswith("c") and p[1:].isdigit()}
        if not hand:
            out.append("(no cards)", style=DIM)
            self._shown = None
            self._hand = []
            self.update(out)
            return
        self.cursor = min(self.cursor, len(hand) - 1)
        under = self.cursor if self.has_focus else None
        key = (tuple(hand), frozenset(picked), under)
        if key == self._shown:
            return
        self._shown = key
        self._hand = hand
        # A grid keeps a long effect text indented under its card name when it wraps.
        grid = Table.grid()
        grid.add_column(width=2, no_wrap=True)
        grid.add_column(ratio=1)
        for n, cid in enumerate(hand):
            style = PICK if cid in picked else BOLD
            if n == under:
                style = style + CURSOR
            card = Text(card_name(cid), style=style)
            if cid in picked:
                card.append(" ◀", style=PICK)
            card.append(f"\n{card_text(cid)}", style=DIM)
            grid.add_row(Text(f"{n + 1}", style=style), card)
        self.update(grid)


class CthulhuBoard(Board[State]):
    """The Cthulhu 500 table: turn line, pack and hand on top, choices and log below."""

    DEFAULT_CSS = """
    CthulhuBoard {
        layout: grid; grid-size: 2 3; grid-columns: 3fr 2fr; grid-rows: 4 1fr 1fr;
    }
    CthulhuBoard TurnLine { column-span: 2; }
    CthulhuBoard PackView { height: 1fr; border: round $panel-lighten-2; padding: 0 1 0 0; }
    CthulhuBoard #cth-hand-box { height: 1fr; border: round $panel-lighten-2; }
    CthulhuBoard ActionList { height: 1fr; }
    CthulhuBoard RaceLog { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        # A flat grid: every container is one more widget to paint on every frame.
        yield TurnLine(id="cth-turn")
        yield PackView(id="cth-pack")
        with VerticalScroll(id="cth-hand-box", can_focus=False):
            yield HandView("", id="cth-hand")
        yield ActionList(id="actions")
        yield RaceLog(id="race-log")

    def on_turn_line_rows(self, message: TurnLineRows) -> None:
        message.stop()
        self.styles.grid_rows = f"{message.rows} 1fr 1fr"  # a relayout only when it changes

    def on_mount(self) -> None:
        self.query_one(PackView).border_title = "The pack (leader first)"
        self.query_one("#cth-hand-box").border_title = "Your hand"

    def show(self, data: BoardData[State]) -> None:
        self.query_one(TurnLine).show(data)
        self.query_one(PackView).show(data)
        self.query_one(HandView).show(data)
        hands = tuple(data.state.hands)
        box = self.query_one("#cth-hand-box")
        if data.perspective is not None and data.perspective < len(hands):
            count = len([c for c in hands[data.perspective] if c])
            set_border_title(box, f"Your hand ({count})" if data.live else f"Hand ({count})")
        elif not data.live:
            set_border_title(box, "Hands")
        actions = self.query_one(ActionList)
        if not data.legal:
            actions.keep_actions([])
            if data.result is not None:
                title = f"Race over: {data.result.summary_for(data.names)}"
            elif is_reaction_prompt(data.state):
                title = "Waiting for reactions…"
            elif data.pending:
                # Not the names: they change every step (a repaint of this whole box for every
                # viewer); the status line names who is being waited for.
                title = "Waiting for the other players"
            else:
                title = "—"
            set_border_title(actions, title)
            return
        # the title sits in the border: its corners and the title's spaces take six cells
        set_border_title(actions, prompt_words(data, actions.size.width - 6 or None))
        before = actions.highlighted
        rows = choice_rows(data)
        actions.keep_actions(rows)
        if isinstance(top_task(data.state), PICK_DECISIONS):
            keep = [i for i, (_, a) in enumerate(rows) if not isinstance(a, CardToggle)]
            if keep:
                actions.highlighted = keep[0]
            elif before is not None and before < len(rows):
                actions.highlighted = before
        if data.live and not isinstance(self.screen.focused, PackView | HandView):
            actions.focus()  # not while the player browses the pack or the hand (Tab)


def picked_cards(data: BoardData[State]) -> tuple[int, ...]:
    return tuple(sorted(int(p[1:]) for p in data.selected if p.startswith("c") and p[1:].isdigit()))


def choice_rows(data: BoardData[State]) -> list[tuple[str, Any]]:
    """The choice list: subset decisions get one toggle row per hand card and one Discard row
    (when the picked cards are a legal answer); every other decision lists its actions."""
    if not isinstance(top_task(data.state), PICK_DECISIONS):
        return [(action_words(data, a), a) for a in data.legal]
    picked = picked_cards(data)
    hands = tuple(data.state.hands)
    seat = data.acting if data.acting is not None else data.perspective
    hand = [c for c in hands[seat] if c] if seat is not None and seat < len(hands) else []
    rows: list[tuple[str, Any]] = []
    for cid in hand:
        mark = "  ◀ discard" if cid in picked else ""
        rows.append((f"{card_name(cid)}{mark}", CardToggle(cid)))
    chosen = canonical(picked, hand)
    for action in data.legal:
        if tuple(sorted(action.cards)) == chosen:
            rows.append((action_words(data, action) + " (Enter)", action))
    return rows


def canonical(picked: tuple[int, ...], hand: list[int]) -> tuple[int, ...]:
    """The engine names a choice of interchangeable copies by their lowest ids: picking the
    second Ia! Ia! alone is the same choice as picking the first."""
    wanted: dict[str, int] = {}
    for cid in picked:
        wanted[card_name(cid)] = wanted.get(card_name(cid), 0) + 1
    out: list[int] = []
    for name, k in wanted.items():
        out.extend(sorted(c for c in hand if card_name(c) == name)[:k])
    return tuple(sorted(out))
