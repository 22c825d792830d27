"""A live table: follow the hub's updates for one viewer, render them, send the player's moves.

Owns `TableScreen` (the shared part of every game's table screen) and `GenericTableScreen` (any
registered game, drawn by `GenericBoard`). The screen folds Welcome/StepUpdate into a `TableFold`
and hands a `BoardData` to its board; a chosen action goes to ``hub.submit`` and the screen waits
for the hub's step to show it (a refused action shows its sentence). Bots' steps are paced at the
player's animation speed (`+`/`-`). Hot-seat with hidden information puts a "pass the keyboard"
cover between seats and re-watches from the new seat; every hand-over between hot-seat players
shows a "your turn" banner under the title until that player moves. `I` opens the table's info
panel (`TableInfoScreen`: options, players, invite code, the seed's commitment). The hub's
notices ("Bea is away.") are lasting lines of the race log, not toasts over its last lines; the
one that repeats the result shown already is left out. A stream that fails with a refusal once
it has started (a remote watch's `HubError`) says it on the status line; the screen stays, one
key from leaving. A spectator at a network table offers its frames for sharing (`net.mirror`):
while it follows another session's frames it folds its updates and keeps its log lines, draws
nothing, and catches up when it stops following.

Must not: change game state itself, draw chance, or call the core's step.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, ClassVar

import msgspec
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from core.game import IllegalAction
from net.hub import (
    ChatLine,
    Identity,
    Notice,
    StepUpdate,
    TableChanged,
    TableInfo,
    Update,
    Welcome,
)
from net.mirror import enabled as shared_frames_enabled
from net.ssh_driver import SSHDriver
from net.trace import active as active_trace
from tui.fold import LogLine, TableFold, commitment_line
from tui.screens.base import SpeedwayScreen
from tui.settings import ANIMATION_DELAYS
from tui.widgets.board import Board, BoardData, GenericBoard
from tui.widgets.coach import CoachLine
from tui.widgets.common import ActionChosen, StatusLine
from tui.widgets.keys import KeyFooter

SPEEDS = list(ANIMATION_DELAYS)


class PassKeyboard(ModalScreen[bool]):
    """Covers the table between hot-seat players so nobody sees another's hidden cards."""

    BINDINGS: ClassVar = [Binding("enter", "ready", "Show my seat", priority=True)]  # shown

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass-box"):
            yield Static(f"Pass the keyboard to {self.player}.", id="pass-title")
            yield Static("Everyone else: look away. The table is hidden until they are ready.")
            yield Button(f"I am {self.player} — show my seat (Enter)", id="pass-ready")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(True)

    def action_ready(self) -> None:
        self.dismiss(True)


class ChatInput(Input):
    """An `Input` that cuts what does not fit (a long paste, several lines) to its
    ``max_length`` instead of refusing all of it."""

    def replace(self, text: str, start: int, end: int) -> None:
        text = " ".join(text.splitlines())
        if self.max_length:
            value = self.value
            lo, hi = sorted((max(0, start), min(len(value), end)))
            room = self.max_length - (len(value) - (hi - lo))
            text = text[: max(0, room)]
        super().replace(text, start, end)

    def _on_paste(self, event: events.Paste) -> None:
        if event.text:  # every line of a paste, joined, not only the first
            selection = self.selection
            if selection.is_empty:
                self.insert_text_at_cursor(event.text)
            else:
                self.replace(event.text, *selection)
        event.stop()


class ChatPrompt(ModalScreen[str | None]):
    """One line of table chat: Enter sends through ``send``, Escape cancels.

    The prompt closes only when the line was sent; a refusal (too fast, nothing visible) is
    shown inside the prompt and the line stays in it to send again.
    """

    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]
    MAX_LENGTH: ClassVar[int] = 200

    def __init__(self, send: Callable[[str], Awaitable[None]] | None = None) -> None:
        super().__init__()
        self._send = send

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box"):
            yield Static("Say something to the table (Enter sends, Esc cancels):")
            yield ChatInput(max_length=self.MAX_LENGTH, id="chat-input")
            yield Static("", id="chat-error", classes="error")
        yield KeyFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._send is None:
            self.dismiss(event.value)
        elif event.value.strip():
            self._deliver(event.value)

    @work(group="chat", exclusive=True)
    async def _deliver(self, text: str) -> None:
        assert self._send is not None
        try:
            await self._send(text)
        except (ValueError, IllegalAction) as err:
            self.query_one("#chat-error", Static).update(f"{err} (Enter sends it again.)")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LeaveTable(ModalScreen[str | None]):
    """Leaving a running local game: keep it for later (paused; Home offers Resume) or abandon
    it (it ends unplayed, no replay). Dismisses with "keep", "abandon" or None (stay)."""

    BINDINGS: ClassVar = [
        Binding("k", "choose('keep')", "Keep for later"),
        Binding("a", "choose('abandon')", "Abandon"),
        Binding("escape", "choose('stay')", "Stay"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box"):
            yield Static("Leave this game?", id="leave-title")
            yield Static(
                "Kept games wait, paused, until you resume them from Home; no bot plays a seat "
                "of yours meanwhile. An abandoned game ends here and is not saved as a replay."
            )
            yield Button("Keep it for later (k)", id="keep", variant="primary")
            yield Button("Abandon it (a)", id="abandon", variant="error")
            yield Button("Stay at the table (esc)", id="stay")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id or "stay")

    def action_choose(self, what: str) -> None:
        self.dismiss(None if what == "stay" else what)


def table_info_lines(info: TableInfo, invite_code: str | None) -> list[str]:
    """The table's particulars in words: options, players, status, invite code, and the seed's
    commitment (to note before the dice roll) or the seed itself once revealed."""
    seats = []
    for i, seat in enumerate(info.seats):
        marks = [m for m, on in (("bot", seat.bot), ("open", seat.open), ("away", seat.away)) if on]
        seats.append(f"{i + 1} {seat.name}" + (f" ({', '.join(marks)})" if marks else ""))
    lines = [
        f"Options: {info.summary}",
        f"Players: {'; '.join(seats)}",
        f"Status: {info.status}",
    ]
    if invite_code:
        lines.append(f"Invite code: {invite_code}")
    lines.append("")
    if info.commitment:
        lines += [
            "Fair dice — the seed is committed as SHA-256",
            info.commitment,
            "Note it now: the seed is revealed when the game ends, and "
            "`speedway replay FILE --verify` checks that it matches.",
        ]
    else:
        lines.append("Fair dice — the seed is committed when the race starts.")
    if info.seed is not None:
        lines.append(f"Seed (revealed): {info.seed}")
    return lines


class TableInfoScreen(ModalScreen[None]):
    """The table's info panel (`I`): its particulars and the seed's commitment."""

    BINDINGS: ClassVar = [Binding("escape,enter,I", "close", "Close")]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.heading = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="info-box"):
            yield Static(self.heading, id="info-title")
            yield Static("\n".join(self.lines), id="info-text")
            yield Static("esc: close", classes="hint")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)


class TableScreen(SpeedwayScreen):
    """The shared machinery of every live table screen."""

    BINDINGS: ClassVar = [
        Binding("escape", "leave", "Leave"),
        Binding("question_mark", "rules", "Rules"),
        Binding("minus", "speed(-1)", "Speed", key_display="-/+"),  # - slower, + faster
        Binding("plus,equals_sign", "speed(1)", "Faster", show=False),
        Binding("t", "chat", "Chat"),
        Binding("I", "info", "Table info", show=False),  # README; the footer has no room
    ]

    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"digit", "confirm", "tagged", "roll", "stop", "shift_gears", "turn_forward"}
        | {"leave_backwards"}
    )
    """Actions that make a move: a spectator (no seat played at this keyboard) has none, so
    its key footer does not offer them."""

    def __init__(self, *, table_id: str, seat: int | None) -> None:
        super().__init__()
        self.table_id = table_id
        self.perspective = seat
        self.fold: TableFold | None = None
        self._busy = False
        self._covering = False
        self._queue: deque[Update] = deque()
        self._pacer: Timer | None = None
        self._leaving = False
        self._title = ""
        self._first_cover = True  # hot-seat with hidden cards: cover the very first screen too
        self._banner_seat: int | None = None  # the local player the keyboard was passed to
        self._last_actor: int | None = None
        self._holding = False  # a summary is open: playback waits for it (`hold_for`)
        self._unshown: list[LogLine] = []  # log lines folded while following shared frames
        self._stale = False  # something folded while following is not drawn yet
        self._held_modal: Any = None  # a summary opened while following (`hold_for`)
        self._leading_summary = False  # its summary is open and it leads the group behind it

    # ---------------------------------------------------------------- layout

    def make_board(self) -> Board:
        return GenericBoard(id="board")

    def body(self) -> Iterable[Widget]:
        yield Static("Connecting to the table…", id="table-title", classes="screen-title")
        yield Static("", id="turn-banner")
        yield self.make_board()
        yield StatusLine("", id="status")
        yield CoachLine("", id="coach")
        yield KeyFooter()

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    # ---------------------------------------------------------------- following the hub

    def on_mount(self) -> None:
        self.follow(self.perspective)

    def follow(self, seat: int | None) -> None:
        if seat is not None:
            self._stop_sharing()  # a seat's view is its own
        self.perspective = seat
        self._queue.clear()
        self._follow(seat)

    @work(exclusive=True, group="watch")
    async def _follow(self, seat: int | None) -> None:
        who = self.watcher(seat)
        try:
            watch = self.speedway.hub.watch(self.table_id, who, seat)
        except (ValueError, IllegalAction) as err:
            self.status(str(err), error=True)
            return
        try:
            updates = aiter(watch)
            while (update := await self._next_update(updates)) is not None:
                self.receive(update)
        finally:
            with contextlib.suppress(Exception):
                await watch.close()

    async def _next_update(self, updates: AsyncIterator[Update]) -> Update | None:
        """The stream's next update, or None once it ends — or fails with a refusal (a
        `HubError` is a `ValueError`, e.g. from a remote watch): the status line says it and
        the screen stays, one key from leaving. (A cancelled worker is not a refusal.)"""
        try:
            return await anext(updates)
        except StopAsyncIteration:
            return None
        except (ValueError, IllegalAction) as err:
            self.status(str(err), error=True)
            return None

    @property
    def leaving(self) -> bool:
        """The screen is on its way out: updates that still arrive are dropped, not drawn (the
        hub can deliver one between the player's key and the screen's removal)."""
        return self._leaving or self._closing or self._pruning or not self.is_attached

    def on_unmount(self) -> None:
        self._leaving = True
        self._stop_sharing()

    def watcher(self, seat: int | None) -> Identity:
        """Who watches from ``seat``: the local identity holding it (a hot-seat player's own,
        even before the first fold: a game of hot-seat players only has no seat of the app's
        identity), else the app's identity."""
        app = self.speedway
        if seat is None:
            return app.identity
        if self.fold is not None:
            holders = [s.identity for s in self.fold.table.seats]
        else:
            info = next((t for t in app.hub.tables(app.identity) if t.id == self.table_id), None)
            holders = [s.identity for s in info.seats] if info is not None else []
        held = holders[seat] if 0 <= seat < len(holders) else None
        return app.who_for(held) or app.identity

    def receive(self, update: Update) -> None:
        """Queue an update; bots' steps are played back at the chosen pace."""
        if self.leaving:
            return
        if isinstance(update, Welcome):
            self._queue.clear()
            self._holding = False
            self.handle_update(update)
            return
        self._queue.append(update)
        self._drain()

    def _paced(self, update: Update) -> bool:
        if not isinstance(update, StepUpdate) or self.fold is None or update.seat is None:
            return False
        if self.speedway.network:
            return False  # the hub paces bots for everyone at a network table
        seat = self.fold.table.seats[update.seat]
        return seat.bot is not None and self.speedway.bot_delay > 0

    def hold_for(self, modal: Any) -> None:
        """Open ``modal`` (a summary that waits for a key) and hold the table's playback behind
        it: the next steps show once it is closed (they are queued, nothing is lost).

        A spectator following shared frames does not build it: its terminal shows the leader's,
        which opened the same summary at the same step (the group goes on behind it,
        `on_screen_suspend`). It opens its own when it draws for itself again (`catch_up`).
        A summary that closes by itself (a spectator's Champions lap summary) is not shared:
        every member opens its own, so all of them go back to the table when it times out."""
        self._holding = True
        if self._following() and _shared_summary(modal):
            self._held_modal = modal
            return
        self._open_held(modal)

    def _open_held(self, modal: Any) -> Any:
        """Push ``modal``; what it returns is awaited for the modal's mount."""

        def release(_: object) -> None:
            self._holding = False
            self._leading_summary = False
            self._drain()

        if self._lead_through_summary(modal):
            return self.speedway.push_shared_screen(modal, release)
        return self.app.push_screen(modal, release)

    def _drain(self) -> None:
        while self._queue and self._pacer is None and not self._holding:
            update = self._queue[0]
            if self._paced(update):
                self._pacer = self.set_timer(self.speedway.bot_delay, self._tick)
                return
            self._queue.popleft()
            self.handle_update(update)

    def _tick(self) -> None:
        self._pacer = None
        if self._holding:
            return
        if self._queue:
            self.handle_update(self._queue.popleft())
        if self._queue and self._paced(self._queue[0]):
            self._pacer = self.set_timer(self.speedway.bot_delay, self._tick)
        else:
            self._drain()

    def handle_update(self, update: Update) -> None:
        if self.leaving:
            return
        try:
            self._handle_update(update)
        except NoMatches:
            if not self.leaving:
                raise  # a widget truly missing from a live screen is a bug: let it show
            # Removed while drawing (the session is not ended by a race with the hub).

    def _handle_update(self, update: Update) -> None:
        following = self._following()
        if not following and (self._stale or self._unshown):
            self.catch_up()
        if isinstance(update, Welcome):
            if following:
                self._stop_sharing()
                self.catch_up()
            self.fold = TableFold.from_welcome(update, self.speedway.game(update.table.game))
            self._busy = False
            self.on_welcome(self.fold)
            self.board.set_log(self.fold.log)
            self.redraw()
            self.refresh_bindings()  # a spectator's footer drops the move keys
            self.call_after_refresh(self.offer_shared_frames)
        elif isinstance(update, StepUpdate) and self.fold is not None:
            self._trace_quiet(update.state_id)
            over = self.fold.result() is not None
            lines = self.fold.apply(update)
            if not over and self.fold.result() is not None:
                self.refresh_bindings()  # the game is over: its footer drops the move keys
            if update.seat is not None and update.seat == self._banner_seat:
                self._show_banner(None)  # the player the keyboard passed to has moved
            self._busy = False
            self.on_step(update)  # may open a summary, which stops the following
            if self._following():
                self._unshown += lines
                self._stale = True
                return
            if self._stale or self._unshown:
                self.catch_up()
            self.board.add_log(lines)
            self.redraw()
        elif isinstance(update, TableChanged) and self.fold is not None:
            committed = update.table.commitment
            if committed and committed != self.fold.table.commitment:
                # The race started (a waiting table is committed then): log the commitment.
                line = LogLine(self.fold.state_id, None, commitment_line(committed))
                self.fold.log.append(line)
                if following:
                    self._unshown.append(line)
                else:
                    self.board.add_log([line])
            self.fold.retable(update.table)
            self.refresh_bindings()  # a seat taken or left here changes the move keys
            if following:
                self._stale = True
                return
            self.redraw()
        elif isinstance(update, ChatLine):
            state_id = self.fold.state_id if self.fold else 0
            text = f"{update.nickname} says: {update.text}"
            line = LogLine(state_id, update.seat, text)
            if following:
                self._unshown.append(line)
                return
            self.board.add_log([line])
        elif isinstance(update, Notice) and self.fold is not None:
            if self.repeats_result(update.text):
                return  # the result has its lasting places: the log, the status line
            # A lasting line of the race log, like chat: a toast would cover the log's last
            # lines (the result line at the end of a race) and be gone before it is read.
            line = LogLine(self.fold.state_id, None, update.text)
            self.fold.log.append(line)
            if following:  # a follower shows the leader's frames; the line shows when it stops
                self._unshown.append(line)
                return
            self.board.add_log([line])
        elif isinstance(update, Notice) and not following:  # before the first fold
            self.notify(update.text)

    def repeats_result(self, text: str) -> bool:
        """Whether a hub notice only says the result this screen shows already ("The race is
        over: Ann wins …", sent when the race ends)."""
        fold = self.fold
        result = fold.result() if fold is not None else None
        return fold is not None and result is not None and result.summary_for(fold.names) in text

    _traced: tuple[int, int] | None = None
    """When tracing: the last step shown and the driver's write count when it arrived."""

    def _trace_quiet(self, state_id: int) -> None:
        """Tell the load benchmark's trace that the last step drew nothing (`net.trace`).

        A step whose changes are not shown (who is asked in a reaction window) writes no byte,
        so its viewers' "first bytes after it" are the next step's. It drew nothing if no
        write came between it and this step and no paint is waiting; only a screen that draws
        for itself can tell (a follower's frames are its leader's)."""
        trace = active_trace()
        driver = self._ssh_driver() if trace is not None else None
        if trace is None or driver is None or self.fold is None:
            return
        last, self._traced = self._traced, None
        if self._following() or self.app.screen is not self:
            return
        screen_busy = (
            self._dirty_widgets or self._layout_required or self._repaint_required
        )
        if last is not None and last[1] == driver.writes and not screen_busy:
            trace.quiet(self.fold.table.id, last[0], self.perspective)
        self._traced = (state_id, driver.writes)

    # ---------------------------------------------------------------- shared frames

    def shared_frames_key(self) -> tuple[Any, ...] | None:
        """What makes this screen's frames the same as another session's, or None when they
        are its own: spectators of a public network table, in terminals alike."""
        app = self.speedway
        fold = self.fold
        if (
            self.perspective is not None
            or not app.network
            or fold is None
            or fold.table.private  # the title may show an invite code to some viewers only
            or self.local_seats()  # a player watching from the stands: its keys are its own
            or self.leaving
            or not shared_frames_enabled()
        ):
            return None
        return (
            "table",
            self.table_id,  # random per table (the sessions' hubs are wrappers of one)
            type(self).__name__,
            tuple(app.size),
            app.theme,
            tuple(sorted(app.classes)),
            tuple(sorted(self.classes)),
            app.console.color_system,
            app._sync_available,
            app.settings,
        )

    def _ssh_driver(self) -> SSHDriver | None:
        """The session's SSH driver, which can share frames (`net.mirror`); None in a local
        terminal."""
        driver = self.app._driver
        return driver if isinstance(driver, SSHDriver) else None

    def offer_shared_frames(self) -> None:
        """Join the sessions that draw the same frames (if any and this screen is showing)."""
        driver = self._ssh_driver()
        if driver is None or self.app.screen is not self or self._holding:
            return
        key = self.shared_frames_key()
        if key is None or driver.mirror_key == key:
            return
        driver.offer_mirror(key, self.catch_up)

    def _following(self) -> bool:
        driver = self._ssh_driver()
        return driver is not None and driver.mirror_role == "follower"

    def _stop_sharing(self) -> None:
        driver = self._ssh_driver()
        if driver is not None:
            driver.leave_mirror()

    def catch_up(self) -> None:
        """Draw what was folded while following, then send this session a full frame of its
        own (its terminal shows the leader's frames until then)."""
        if self.leaving or self._following():
            return
        unshown, self._unshown = self._unshown, []
        was_stale, self._stale = self._stale, False
        if self.fold is not None:
            if unshown:
                self.board.add_log(unshown)
            if was_stale or unshown:
                self.redraw()
        modal, self._held_modal = self._held_modal, None
        if modal is not None:
            mounted = self._open_held(modal)  # before the full frame: it shows at once
            self.run_worker(self._full_frame_once(mounted), group="catch-up", exit_on_error=False)
        self.app.refresh()

    async def _full_frame_once(self, mounted: Any) -> None:
        """One more full frame once the summary opened on catching up is mounted and drawn:
        until then this terminal shows the leader's summary, and a first frame drawn before
        the summary's widgets were laid out must not be the last word."""
        await mounted
        app = self.app
        app.call_after_refresh(app.refresh)

    def on_screen_resume(self) -> None:
        # (Textual runs SpeedwayScreen's handler as well: no super() call.)
        self.call_after_refresh(self.offer_shared_frames)

    def on_screen_suspend(self) -> None:
        if not self._leading_summary:
            self._stop_sharing()

    def _lead_through_summary(self, modal: Any) -> bool:
        """This screen's summary opens (`hold_for`) while it leads a group: every follower's
        app opens the same one at the same step, so the group goes on behind it, under a key
        of its own (viewers offering the table's key make a group of their own)."""
        driver = self._ssh_driver()
        if (
            driver is None
            or driver.mirror_role != "leader"
            or self.fold is None
            or not _shared_summary(modal)
        ):
            return False
        key = (driver.mirror_key, "summary", type(modal).__name__, self.fold.state_id)
        self._leading_summary = driver.rekey_mirror(key)
        return self._leading_summary

    # ---------------------------------------------------------------- what this keyboard plays

    def local_seats(self) -> list[int]:
        if self.fold is None:
            return []
        app = self.speedway
        return [
            i
            for i, s in enumerate(self.fold.table.seats)
            if s.identity is not None and s.identity in app.local_identities
        ]

    def acting_seat(self) -> int | None:
        """The first seat being asked that this keyboard plays for (after any playback)."""
        if self.fold is None or self._queue:
            return None
        mine = set(self.local_seats())
        for seat in self.fold.pending:
            if seat in mine:
                return seat
        return None

    @property
    def hidden_information(self) -> bool:
        """The game declares hidden information (hot-seat players then take turns at a covered
        table); before the first update, assume it does."""
        return self.fold is None or self.fold.game.hidden_information

    def legal_now(self) -> list[Any]:
        seat = self.acting_seat()
        if seat is None or self.fold is None or self._busy or self._covering:
            return []
        if self.hidden_information and seat != self.perspective:
            return []
        return self.fold.legal(seat)

    def _check_cover(self) -> None:
        """Hot-seat with hidden information: cover the table and switch perspective (the
        first screen too, when more than one player shares this keyboard)."""
        seat = self.acting_seat()
        first = self._first_cover
        self._first_cover = False
        if not self.hidden_information or self._covering or self.fold is None:
            return
        if first and self.perspective is not None and len(self.local_seats()) > 1:
            seat = self.perspective
        elif seat is None or seat == self.perspective:
            return
        self._covering = True
        name = self.fold.names[seat]

        def done(_: bool | None) -> None:
            self._covering = False
            if seat == self.perspective:
                self.redraw()
            else:
                self.follow(seat)

        self.app.push_screen(PassKeyboard(name), done)

    def _check_handover(self) -> None:
        """A "your turn" banner when the keyboard passes from one local player to another (gone
        at the end of the race)."""
        if self.fold is not None and self.fold.result() is not None:
            self._show_banner(None)
        seat = self.acting_seat()
        if seat is None or self.fold is None or self._covering:
            return
        if self.hidden_information and seat != self.perspective:
            return
        last, self._last_actor = self._last_actor, seat
        if last is not None and last != seat and len(self.local_seats()) > 1:
            self._show_banner(seat)

    def _show_banner(self, seat: int | None) -> None:
        """The "your turn" banner under the title for ``seat``, lasting until that player moves
        (None: hide it). It takes a row only while it shows."""
        if seat == self._banner_seat:
            return
        self._banner_seat = seat
        with contextlib.suppress(NoMatches):
            banner = self.query_one("#turn-banner", Static)
            if seat is not None and self.fold is not None:
                banner.update(f"▶ {self.fold.names[seat]}, your turn.")
            banner.display = seat is not None

    def on_action_chosen(self, message: ActionChosen) -> None:
        message.stop()
        self.submit(message.action)

    def submit(self, action: Any) -> None:
        seat = self.acting_seat()
        if self.fold is None or seat is None:
            self.not_your_move()
            return
        if self._busy:
            return
        self._busy = True
        self._submit(seat, action, self.fold.state_id)

    @work(group="submit")
    async def _submit(self, seat: int, action: Any, state_id: int) -> None:
        app = self.speedway
        assert self.fold is not None
        who = app.who_for(self.fold.table.seats[seat].identity) or app.identity
        try:
            await app.hub.submit(self.table_id, who, seat, action, state_id)
        except (IllegalAction, ValueError) as err:
            self._busy = False
            self.redraw()
            self.status(str(err), error=True)

    # ---------------------------------------------------------------- chat

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat":
            return self.speedway.network  # table chat is for network tables
        if action in self.PLAY_ACTIONS and self.fold is not None:
            if not self.local_seats():
                return False  # a spectator: no move keys
            if self.fold.result() is not None:
                return False  # the game is over: no move keys either
        return super().check_action(action, parameters)

    def coaching_on(self) -> bool:
        """Local play: the player's setting. A network table: only if its creator allowed it,
        and then for every player there alike (issue 16), whatever their own setting."""
        if self.speedway.network:
            return self.fold is not None and self.fold.table.coaching
        return self.speedway.settings.coaching

    def action_chat(self) -> None:
        self.app.push_screen(ChatPrompt(self._chat))

    async def _chat(self, text: str) -> None:
        """Send one chat line (a refusal is raised to the prompt, which keeps the line)."""
        await self.speedway.hub.chat(self.table_id, self.speedway.identity, text)

    # ---------------------------------------------------------------- rendering

    def on_welcome(self, fold: TableFold) -> None:
        """A (re)start of the fold: subclasses reset their UI state here."""

    def on_step(self, update: StepUpdate) -> None:
        """One step was folded: subclasses react (e.g. open the Cup standings)."""

    def board_data(self) -> BoardData | None:
        fold = self.fold
        if fold is None:
            return None
        return BoardData(
            game=fold.game,
            config=fold.config,
            names=fold.names,
            state=fold.state,
            perspective=fold.seat,
            pending=fold.pending,
            last_events=fold.last_events,
            result=fold.result(),
            acting=self.acting_seat(),
            legal=self.legal_now(),
            selected=self.selection(),
            history=fold.history,
        )

    def selection(self) -> frozenset[str]:
        return frozenset()

    def redraw(self) -> None:
        data = self.board_data()
        if data is None or self.fold is None:
            return
        title = self.title_text()
        if title != self._title:
            self._title = title
            self.query_one("#table-title", Static).update(title, layout=False)
        self.board.show(data)
        self.render_status()
        self._check_cover()
        self._check_handover()

    def title_text(self) -> str:
        assert self.fold is not None
        info = self.fold.table
        title = f"{self.fold.game.title} — {info.summary}"
        return title + self.table_tag()

    def table_tag(self) -> str:
        """Over the network: the table id, and the invite code of a private table."""
        if self.fold is None or not self.speedway.network:
            return ""
        tag = f"   table {self.fold.table.id}"
        code = self.invite_code()
        if code:
            tag += f" · invite code {code}"
        return tag

    def invite_code(self) -> str | None:
        """A private table's invite code, if this viewer may see it."""
        if self.fold is None or not self.fold.table.private:
            return None
        try:
            return self.speedway.hub.invite_code(self.table_id, self.speedway.identity)
        except (ValueError, KeyError):  # HubError: not for this viewer's eyes
            return None

    def render_status(self) -> None:
        fold = self.fold
        if fold is None:
            self.status("Connecting to the table…")
            return
        result = fold.result()
        if result is not None:
            places = ", ".join(
                f"{i + 1}. {fold.names[seat]} ({result.scores[seat]})"
                for i, seat in enumerate(result.ranking)
            )
            self.status(f"Race over — {places}.{self.end_hint()}")
            return
        if fold.table.status == "waiting":
            self.status(self.waiting_text())
            return
        seat = self.acting_seat()
        coach = None
        if seat is not None and self.coaching_on():
            coach = self.coach_text(seat)
        if coach is not None or self._coached:  # no work at all while coaching is off
            self._coached = coach is not None
            with contextlib.suppress(Exception):
                self.query_one(CoachLine).coach(coach)
        if seat is not None:
            self.status(self.your_move_text(seat))
        elif fold.pending:
            waiting = ", ".join(fold.names[s] for s in fold.pending)
            self.status(f"Waiting for {waiting}…")
        else:
            self.status(fold.table.status.capitalize())

    def end_hint(self) -> str:
        return ""

    def waiting_text(self) -> str:
        """Before the start: how many seats are open and how others find the table."""
        assert self.fold is not None
        info = self.fold.table
        open_seats = sum(1 for s in info.seats if s.open)
        seats = "1 open seat" if open_seats == 1 else f"{open_seats} open seats"
        where = "with the invite code" if info.private else f"from the lobby (table {info.id})"
        return f"Waiting for players: {seats}; others join {where}. The race starts when all are taken."

    def your_move_text(self, seat: int) -> str:
        assert self.fold is not None
        return f"{self.fold.names[seat]}, it is your move."

    _coached = False
    """Whether the coaching line shows something (so it is hidden again when advice ends)."""

    def coach_text(self, seat: int) -> str | None:
        """Coaching for ``seat``'s decision (local tables, when the setting is on)."""
        return None

    def not_your_move(self) -> None:
        """Say why a move key does nothing now."""
        fold = self.fold
        if fold is None:
            self.status("Still connecting to the table…", error=True)
        elif fold.result() is not None:
            self.status(f"The race is over.{self.end_hint()}  esc: leave", error=True)
        elif not self.local_seats():
            self.status("You are watching this table; you have no seat here.", error=True)
        elif self._queue:
            self.status(
                "Wait for the bots' moves to finish showing (+ speeds them up).", error=True
            )
        else:
            waiting = ", ".join(fold.names[s] for s in fold.pending) or "the table"
            self.status(f"It is not your move yet; waiting for {waiting}.", error=True)

    def status_width(self) -> int:
        """How many characters the status line shows on one row (78 before it is laid out)."""
        try:
            width = self.query_one(StatusLine).content_size.width
        except Exception:
            width = 0
        return width if width > 0 else 78

    def status(self, text: str, *, error: bool = False) -> None:
        with contextlib.suppress(Exception):
            self.query_one(StatusLine).say(text, error=error)

    # ---------------------------------------------------------------- actions

    def action_leave(self) -> None:
        """Leave; a running local game a player here sits at asks first (`LeaveTable`)."""
        fold = self.fold
        running = fold is not None and fold.result() is None and fold.table.status == "running"
        if self.speedway.network or not running or not self.local_seats():
            self._leaving = True
            self.app.pop_screen()
            return

        def chosen(what: str | None) -> None:
            if what == "keep":
                self._leaving = True
                self.app.pop_screen()
            elif what == "abandon":
                self._abandon()

        self.app.push_screen(LeaveTable(), chosen)

    @work(group="leave")
    async def _abandon(self) -> None:
        try:
            await self.speedway.hub.abandon(self.table_id, self.speedway.identity)
        except (ValueError, IllegalAction) as err:
            self.status(str(err), error=True)
            return
        self.app.pop_screen()

    def action_chart(self) -> None:
        """The race chart of the game so far (screens that offer it bind `c`)."""
        if self.fold is None:
            return
        from tui.screens.chart import RaceChartScreen

        self.app.push_screen(RaceChartScreen(self.board_data()))

    def action_info(self) -> None:
        """The table's info panel: its particulars and the seed's commitment."""
        fold = self.fold
        if fold is None:
            self.status("Still connecting to the table…", error=True)
            return
        title = f"{fold.game.title} — table {fold.table.id}"
        lines = table_info_lines(fold.table, self.invite_code())
        self.app.push_screen(TableInfoScreen(title, lines))

    def action_rules(self) -> None:
        self.speedway.show_rules(self.fold.game.id if self.fold else None)

    def action_speed(self, step: int) -> None:
        app = self.speedway
        index = SPEEDS.index(app.settings.animation)
        index = max(0, min(len(SPEEDS) - 1, index + step))
        app.apply_settings(msgspec.structs.replace(app.settings, animation=SPEEDS[index]))
        self.notify(f"Animation speed: {SPEEDS[index]}.", timeout=2)


class GenericTableScreen(TableScreen):
    """Any registered game: the view summary, the race log and the legal actions."""


def _shared_summary(modal: Any) -> bool:
    """Whether spectators sharing frames go on sharing them through ``modal`` (`hold_for`):
    a summary that waits for each viewer's own key, not one that closes by itself (were the
    leader's to close, each follower in turn would lead with a fresh one of its own)."""
    return getattr(modal, "continue_after", None) is None
