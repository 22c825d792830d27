"""The Cthulhu 500 table screen: play cards, pass, pit, react — every choice labelled in words.

Owns the Cthulhu 500 keys (1-9 pick a choice, or toggle a hand card when discarding; Enter the
highlighted choice; p try to pass; e end your actions; n no reaction; i the details of every
vehicle and hand card; Tab to browse the pack and the hand, where Enter opens the vehicle or card
under the cursor in the same details view; c the race chart) and the cards picked for a discard
(UI state only). Keys find their action by its class in the game's model, never by a tag.
When the race ends the ranking opens over the table (`CthulhuRaceOver`). A reaction prompt goes only to the asked seat: everyone else reads
"Waiting for reactions…" (never who is being asked). Hands are hidden, so hot-seat players get
the framework's pass-the-keyboard cover. Every move goes through the hub.

Must not: change game state or decide what is legal (the engine and hub do).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding

from core.cthulhu500.describe import describe
from core.cthulhu500.model import (
    AttemptPass,
    DActions,
    DChain,
    DDiscard,
    DSetupDiscard,
    DWindow,
    EndActions,
    PassReaction,
    RaceEnded,
)
from net.hub import StepUpdate
from tui.fold import TableFold
from tui.screens.cthulhu_modals import CthulhuDetails, CthulhuRaceOver
from tui.screens.table import TableScreen
from tui.widgets.board import Board
from tui.widgets.common import ActionChosen, ActionList
from tui.widgets.cthulhu500 import (
    CardToggle,
    CthulhuBoard,
    HandView,
    PackView,
    ShowDetails,
    StopBrowsing,
    is_reaction_prompt,
    prompt_words,
    top_task,
)

SUBSET_DECISIONS = (DSetupDiscard, DDiscard)
REACTIONS = (DWindow, DChain)


class CthulhuTableScreen(TableScreen):
    BINDINGS: ClassVar = [
        Binding("1", "digit(1)", "Pick", key_display="1-9"),
        *[Binding(str(n), f"digit({n})", show=False) for n in range(2, 10)],
        Binding("enter", "confirm", "OK", priority=True),
        Binding("p", "attempt_pass", "Pass"),
        Binding("e", "end_actions", "End"),
        Binding("n", "no_reaction", "No react"),
        Binding("i", "details", "Details"),
        Binding("tab", "browse", "Pack/hand"),
        Binding("c", "chart", "Chart"),
    ]
    AUTO_FOCUS = "#actions"  # the choices; Tab goes on to the pack and the hand
    PLAY_ACTIONS: ClassVar[frozenset[str]] = TableScreen.PLAY_ACTIONS | {
        "attempt_pass",
        "end_actions",
        "no_reaction",
    }

    def __init__(self, *, table_id: str, seat: int | None) -> None:
        super().__init__(table_id=table_id, seat=seat)
        self.picked: set[int] = set()

    def make_board(self) -> Board:
        return CthulhuBoard(id="board")

    def selection(self) -> frozenset[str]:
        return frozenset(f"c{c}" for c in self.picked)

    def on_welcome(self, fold: TableFold) -> None:
        self.picked.clear()

    def on_step(self, update: StepUpdate) -> None:
        self.picked.clear()
        if self.fold is None:
            return
        for event in self.fold.last_events:
            if isinstance(event, RaceEnded):
                why = describe(event, self.fold.names) or "The race is over."
                ranking = list(event.ranking)
                self.hold_for(CthulhuRaceOver(self.fold.state, self.fold.names, ranking, why))

    def end_hint(self) -> str:
        return "  c: race chart"

    # ---------------------------------------------------------------- details and chart

    def action_details(self, start: str = "") -> None:
        if self.fold is None:
            return
        seat = self.perspective
        hands = tuple(self.fold.state.hands)
        hand = [c for c in hands[seat] if c] if seat is not None and seat < len(hands) else []
        if not start:
            start = f"v{seat}" if seat is not None else ""
        self.app.push_screen(CthulhuDetails(self.fold.state, self.fold.names, hand, start))

    def on_stop_browsing(self, message: StopBrowsing) -> None:
        message.stop()
        self.query_one(ActionList).focus()
        self.render_status()

    def on_descendant_focus(self, event: Any) -> None:
        if isinstance(self.focused, PackView | HandView):
            where = "pack" if isinstance(self.focused, PackView) else "hand"
            self.status(
                f"The {where}: ↑/↓ choose, Enter shows it in full, esc back to the choices."
            )

    def on_show_details(self, message: ShowDetails) -> None:
        message.stop()
        self.action_details(message.key)

    def title_text(self) -> str:
        assert self.fold is not None
        state = self.fold.state
        title = f"Cthulhu 500 — {len(self.fold.names)} vehicles"
        if state.turn > 0 and state.n:
            # C-ROUND-LIMIT: a round is one turn of each player, from the first player's turn
            rounds = state.config.round_limit
            title += f" · round {(state.turn - 1) // state.n + 1}" + (
                f" of {rounds}" if rounds else ""
            )
        return title + self.table_tag()

    def _top(self) -> Any:
        """The decision on top of the engine's stack (None before the fold)."""
        return None if self.fold is None else top_task(self.fold.state)

    def render_status(self) -> None:
        fold = self.fold
        if (
            fold is not None
            and fold.result() is None
            and is_reaction_prompt(fold.state)
            and self.acting_seat() is None
        ):
            self.status("Waiting for reactions…")
            return
        super().render_status()

    def your_move_text(self, seat: int) -> str:
        assert self.fold is not None
        name = self.fold.names[seat]
        data = self.board_data()
        prompt = prompt_words(data) if data is not None else "your move"
        top = self._top()
        if isinstance(top, SUBSET_DECISIONS):
            return self._fit(f"{name}: {prompt} — picked {len(self.picked)}.")
        if isinstance(top, DActions):
            return f"{name}: your actions — 1-9 or the list, p pass, e end."
        if isinstance(top, REACTIONS):
            return self._fit(
                f"{name}: {prompt} — 1-9 to react, n for no reaction.",
                f"{name}: {prompt} — 1-9, n none.",
            )
        return self._fit(f"{name}: {prompt} (1-9 or the list, Enter).", f"{name}: {prompt}.")

    def _fit(self, *wordings: str) -> str:
        """The first wording that fits the status line (its last one when none does)."""
        width = self.status_width()
        return next((w for w in wordings if len(w) <= width), wordings[-1])

    def coach_text(self, seat: int) -> str | None:
        from core.cthulhu500.analysis import coach_words

        return None if self.fold is None else coach_words(self.fold.state, seat)

    # ---------------------------------------------------------------- keys

    def _asked(self) -> bool:
        if self.acting_seat() is None or not self.legal_now():
            self.status("It is not your move yet.", error=True)
            return False
        return True

    def _submit_first(self, kind: type, refusal: str) -> None:
        """Submit the legal action of class ``kind`` (there is at most one), else say why not."""
        if not self._asked():
            return
        for action in self.legal_now():
            if isinstance(action, kind):
                self.submit(action)
                return
        self.status(refusal, error=True)

    def action_attempt_pass(self) -> None:
        self._submit_first(AttemptPass, "You can try to pass only as one of your actions.")

    def action_end_actions(self) -> None:
        if isinstance(self._top(), DDiscard) and self.acting_seat() is not None:
            refusal = "Your actions are over: pick cards to discard, or Enter for none."
        else:
            refusal = "You can end your actions only during your own turn."
        self._submit_first(EndActions, refusal)

    def action_no_reaction(self) -> None:
        self._submit_first(PassReaction, "Nobody is asking you for a reaction now.")

    def action_browse(self) -> None:
        """Tab: the focus goes round the choices, the pack and the hand (↑/↓ there, Enter opens
        the vehicle or card under the cursor in full, Tab again moves on)."""
        self.focus_next()

    def action_digit(self, n: int) -> None:
        if not self._asked():
            return
        rows = self.query_one(ActionList)
        if isinstance(self._top(), SUBSET_DECISIONS):
            hand = self._hand()
            if 1 <= n <= len(hand):
                self.toggle(hand[n - 1])
            else:
                self.status(f"Your hand has {len(hand)} cards.", error=True)
            return
        if 1 <= n <= rows.option_count:
            rows.choose(n - 1)
        else:
            self.status(f"There is no choice {n}.", error=True)

    def action_confirm(self) -> None:
        browsing = self.focused
        if isinstance(browsing, PackView | HandView):
            key = browsing.detail_key()  # Enter on a vehicle or a hand card: it in full
            if key is not None:
                self.action_details(key)
            return
        if not self._asked():
            return
        rows = self.query_one(ActionList)
        if rows.highlighted is not None:
            rows.choose(rows.highlighted)

    def on_action_chosen(self, message: ActionChosen) -> None:
        message.stop()
        message.prevent_default()  # the base screen would send the toggle row to the hub
        if isinstance(message.action, CardToggle):
            self.toggle(message.action.card)
        else:
            self.submit(message.action)

    def _hand(self) -> list[int]:
        seat = self.acting_seat()
        if self.fold is None or seat is None:
            return []
        return [c for c in self.fold.state.hands[seat] if c]

    def toggle(self, card: int) -> None:
        self.picked ^= {card}
        self.redraw()
