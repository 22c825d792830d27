"""The replay viewer: a game's board read-only, driven by a replay file, with a timeline.

Owns stepping (one step or one turn back and forth), jumping (start, end, turn N, the next race
or the next flag/happening), play/pause at the chosen speed, the perspective switch (everyone or
one seat's view), the verification line, what a game shows between races (Go 500's Cup
standings, `tui.games.interlude_for`), and branching: a new local table that starts from exactly
the state on screen (its past events as setup, a fresh seed, seats as the player chooses; the
spec records the source's replay id and step). Seeking uses the file's snapshots
(`Replay.state_at`). A "turn" is the game's own (``game.turn_started``), and races and
happenings are the game's declared landmarks (``game.landmark``); nothing here knows a game.

Must not: write the file or change any state; a branch goes through the hub like any table.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from core.game import ConfigError, redacted
from net.hub import TableSpec
from replays import Replay, ReplayError, VerifyReport, open_replay, verify
from tui.fold import LogLine, describe_events
from tui.games import board_for
from tui.screens.analysis import AnalysisViewer
from tui.screens.base import SpeedwayScreen
from tui.seats import bot_title, hot_identity, parse_seats
from tui.widgets.board import Board, BoardData
from tui.widgets.keys import KeyFooter

TAIL = 400  # log lines kept on screen when seeking


class Timeline(Static):
    """Where we are in the file: step, turn, perspective, playing or paused, and a bar."""

    DEFAULT_CSS = """
    Timeline { height: 2; padding: 0 1; background: $boost; }
    """


def turn_refusal(text: str, turns: int) -> str | None:
    """Why ``text`` is not a turn of this game (None if it is one)."""
    if turns == 0:
        return "This game has no turns to jump to."
    try:
        n = int(text.strip())
    except ValueError:
        return f"Type a turn number from 1 to {turns}."
    if not 1 <= n <= turns:
        return f"There is no turn {n}: this game has turns 1 to {turns}."
    return None


class AskTurn(ModalScreen[int | None]):
    """Ask for a turn number; an out-of-range one is refused with a sentence (stays open)."""

    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, turns: int) -> None:
        super().__init__()
        self.turns = turns

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-box"):
            yield Static(f"Jump to turn (1 to {self.turns}):")
            yield Input(type="integer", id="turn-number")
            yield Static("", id="turn-error", classes="error")
        yield KeyFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        refusal = turn_refusal(event.value, self.turns)
        if refusal is not None:
            self.query_one("#turn-error", Static).update(refusal)
            return
        self.dismiss(int(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)


class BranchDialog(ModalScreen[list[str] | None]):
    """Choose who sits where at the branched table."""

    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "go", "Start")]

    def __init__(self, replay: Replay, step: int) -> None:
        super().__init__()
        self.replay = replay
        self.step = step

    def compose(self) -> ComposeResult:
        game = self.replay.game
        choices = [("You", "me"), ("Hot-seat human", "hot")]
        choices += [(f"Bot: {bot_title(b)}", b) for b in game.bots]
        with Vertical(id="branch-box"):
            yield Static(
                f"Branch from step {self.step}: a new table starts from exactly this position, "
                "with fresh dice. Who sits where?",
                id="branch-title",
            )
            humans = [i for i, seat in enumerate(self.replay.seats) if seat.bot is None]
            me = humans[0] if humans else 0
            for i, seat in enumerate(self.replay.seats):
                if i == me:
                    value = "me"
                elif seat.bot is not None and seat.bot in game.bots:
                    value = seat.bot
                else:
                    value = "hot"
                with Horizontal(classes="branch-row"):
                    yield Static(f"{i + 1}. {seat.name}", classes="branch-name")
                    yield Select(choices, value=value, allow_blank=False, id=f"branch-{i}")
            yield Static("", id="branch-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Start (ctrl+s)", id="go", variant="primary")
                yield Button("Cancel", id="cancel")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go":
            self.action_go()
        else:
            self.action_cancel()

    def action_go(self) -> None:
        words = []
        for i, seat in enumerate(self.replay.seats):
            value = str(self.query_one(f"#branch-{i}", Select).value)
            words.append(f"hot:{seat.name}" if value == "hot" else value)
        self.dismiss(words)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayScreen(AnalysisViewer, SpeedwayScreen):
    AUTO_FOCUS = None  # nothing to type into: the footer lists this screen's keys, in order
    # The footer shows these in order and cuts at the right edge: what must stay visible at 80
    # columns (back, branch, chart) comes first; pairs share one footer entry. All are priority
    # bindings: a board's focused list (Cthulhu's hand, Champions' choices) must not take the
    # arrows or Home/End, and the order of the footer stays the order here.
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back", priority=True),
        Binding("b", "branch", "Branch", priority=True),
        Binding("c", "chart", "Chart", priority=True),
        Binding("a", "analysis", "Analysis", priority=True),
        Binding("d", "next_costly", "Costly decision", show=False, priority=True),
        Binding("t", "next_turning", "Turning point", show=False, priority=True),
        Binding("l", "luck_chart", "Luck chart", show=False, priority=True),
        Binding("right", "step(1)", "Step", key_display="←/→", priority=True),
        Binding("left", "step(-1)", "Step back", show=False, priority=True),
        Binding("right_square_bracket", "turn(1)", "Turn", key_display="[/]", priority=True),
        Binding("left_square_bracket", "turn(-1)", "Turn back", show=False, priority=True),
        Binding("end", "jump('end')", "Ends", key_display="Home/End", priority=True),
        Binding("home", "jump('start')", "Start", show=False, priority=True),
        Binding("g", "goto", "Turn N", priority=True),
        Binding("n", "landmark('race', 1)", "Race", key_display="n/N", priority=True),
        Binding("N", "landmark('race', -1)", "Race back", show=False, priority=True),
        Binding("f", "landmark('event', 1)", "Event", key_display="f/F", priority=True),
        Binding("F", "landmark('event', -1)", "Flag/event back", show=False, priority=True),
        Binding("space", "play", "Play", priority=True),
        Binding("v", "perspective", "View", priority=True),
        Binding("minus", "speed(-1)", "Pace", key_display="-/+", priority=True),
        Binding("plus,equals_sign", "speed(1)", "Faster", show=False, priority=True),
        Binding("question_mark", "rules", "Rules", priority=True),
    ]

    def __init__(self, path: Path, *, exit_on_back: bool = False) -> None:
        super().__init__()
        self.path = Path(path)
        self.exit_on_back = exit_on_back  # opened by `speedway replay FILE`: esc ends the app
        self.replay: Replay | None = None
        self.error: str | None = None
        try:
            self.replay = open_replay(self.path)
        except ReplayError as err:
            self.error = str(err)
        self.k = 0
        self.perspective: int | None = None
        self.report: VerifyReport | None = None
        self.playing = False
        self._timer: Timer | None = None
        self._lines: list[list[LogLine]] = []
        self._turn_starts: list[int] = []
        self._landmarks: dict[str, list[int]] = {"race": [], "event": []}

    # ---------------------------------------------------------------- layout

    def body(self) -> Iterable[Widget]:
        yield Static("", id="replay-title", classes="screen-title")
        yield Static("", id="verify-line")
        if self.replay is not None:
            yield board_for(self.replay.game.id)(id="board")
            yield from self.analysis_widgets()
        else:
            yield Static(self.error or "", id="replay-error", classes="error")
        yield Timeline("", id="timeline")
        yield KeyFooter()

    def on_mount(self) -> None:
        replay = self.replay
        if replay is None:
            self.query_one("#verify-line", Static).update(f"✗ Cannot open: {self.error}")
            return
        game = replay.game
        header = replay.header
        date = header.created[:16].replace("T", " ")
        names = ", ".join(replay.names)
        self.query_one("#replay-title", Static).update(f"Replay — {game.title} · {names} · {date}")
        self._turn_starts = self.turn_starts()
        self._landmarks = self.landmarks()
        self.k = 0  # the start: the final result is one key (End) away
        self.rebuild_lines()
        self.query_one("#verify-line", Static).update(
            "… checking the file (re-simulating every event)"
        )
        self.run_verify()
        self.show()

    @work(thread=True, exclusive=True, group="verify")
    def run_verify(self) -> None:
        assert self.replay is not None
        try:
            report = verify(self.replay)
        except ReplayError as err:
            report = VerifyReport(ok=False, message=str(err))
        self.app.call_from_thread(self.show_report, report)

    def show_report(self, report: VerifyReport) -> None:
        self.report = report
        line = f"✓ {report.message}" if report.ok else f"✗ Does not verify: {report.message}"
        self.query_one("#verify-line", Static).update(line)
        self.query_one("#verify-line", Static).set_class(not report.ok, "error")

    # ---------------------------------------------------------------- reading the file

    def turn_starts(self) -> list[int]:
        """Steps after which one of the game's turns has begun (``game.turn_started``): turn N
        shows the table as turn N starts. A game that declares no turns: every step is one."""
        assert self.replay is not None
        game = self.replay.game
        starts = [
            k
            for k, step in enumerate(self.replay.steps)
            if any(game.turn_started(e) for e in step.events)
        ]
        return starts or list(range(1, len(self.replay.steps)))

    def landmarks(self) -> dict[str, list[int]]:
        """Steps holding a race landmark and steps holding a flag or happening (the game's own
        ``landmark``), for `n` and `f`."""
        assert self.replay is not None
        game = self.replay.game
        out: dict[str, list[int]] = {"race": [], "event": []}
        for k, step in enumerate(self.replay.steps):
            kinds = {game.landmark(e) for e in step.events}
            for kind, steps in out.items():
                if kind in kinds:
                    steps.append(k)
        return out

    def events_for(self, k: int) -> list[Any]:
        assert self.replay is not None
        game = self.replay.game
        events = self.replay.steps[k].events
        if self.perspective is None:  # the viewer's omniscient view: every hand shown
            return list(events)
        return redacted(game, events, self.perspective)

    def rebuild_lines(self) -> None:
        assert self.replay is not None
        names = self.replay.names
        self._lines = [
            describe_events(self.replay.game, self.events_for(k), names, k, step.seat)
            for k, step in enumerate(self.replay.steps)
        ]

    def turn_index(self) -> int:
        """1-based number of the turn that step k belongs to (0 = before the first)."""
        return sum(1 for s in self._turn_starts if s <= self.k)

    def data(self) -> BoardData:
        replay = self.replay
        assert replay is not None
        game = replay.game
        state = replay.state_at(self.k)
        result = game.result(state)
        pending = () if result is not None else tuple(game.pending(state))
        shown = state if self.perspective is None else game.view(state, self.perspective)
        history = [(j, replay.steps[j].seat, self.events_for(j)) for j in range(self.k + 1)]
        return BoardData(
            game=game,
            config=replay.config,
            names=replay.names,
            state=shown,
            perspective=self.perspective,
            pending=pending,
            last_events=self.events_for(self.k),
            result=result,
            history=history,
            live=False,
        )

    # ---------------------------------------------------------------- drawing

    def show(self) -> None:
        replay = self.replay
        if replay is None:
            return
        board = self.query_one("#board", Board)
        try:
            data = self.data()
        except ReplayError as err:
            self.query_one("#verify-line", Static).update(f"✗ {err}")
            return
        board.show(data)
        lines = [line for step in self._lines[: self.k + 1] for line in step]
        board.set_log(lines[-TAIL:])
        view = (
            "everyone" if self.perspective is None else f"{replay.names[self.perspective]}'s view"
        )
        if data.result is not None:
            who = "race over"
        elif data.pending:
            who = f"{replay.names[data.pending[0]]} to play"
        else:
            who = "setup"
        state = "▶ playing" if self.playing else "❚❚ paused"
        speed = self.speedway.settings.animation
        last = replay.last_step
        width = max(10, self.size.width - 4)
        filled = round(width * self.k / last) if last else width
        bar = "━" * filled + "●" + "─" * max(0, width - filled)
        line = (
            f"Turn {self.turn_index()}/{len(self._turn_starts)} · step {self.k}/{last} · "
            f"{who} · view: {view} · {state}"
        )
        extras = [f" ({speed})"]
        if self.k < last and replay.finished:
            extras.append(" · End: the result")
        for extra in extras:  # one line: what does not fit is left out, never wrapped
            if len(line) + len(extra) <= width + 2:
                line += extra
        self.query_one(Timeline).update(f"{line}\n{bar}")
        self.analysis_show()

    # ---------------------------------------------------------------- keys

    def seek(self, k: int) -> None:
        if self.replay is None:
            return
        before = self.k
        self.k = max(0, min(self.replay.last_step, k))
        self.show()
        if self.k > before:
            self.between_races(before)

    def between_races(self, before: int) -> None:
        """Moving forward past the end of a race: show what the game shows between races."""
        from tui.games import interlude_for

        assert self.replay is not None
        replay = self.replay
        races = [j for j in self._landmarks["race"] if before < j <= self.k]
        for j in reversed(races):
            screen = interlude_for(replay.game.id, replay.names, self.events_for(j))
            if screen is not None:
                self.pause()
                self.app.push_screen(screen)
                return

    def action_landmark(self, kind: str, delta: int) -> None:
        """The next (or previous) step with a race landmark / a flag or happening."""
        self.pause()
        steps = self._landmarks.get(kind, [])
        if delta > 0:
            later = [s for s in steps if s > self.k]
            target = later[0] if later else None
        else:
            earlier = [s for s in steps if s < self.k]
            target = earlier[-1] if earlier else None
        if target is None:
            what = "race start or end" if kind == "race" else "flag or happening"
            where = "after" if delta > 0 else "before"
            self.notify(f"No {what} {where} this step.", timeout=3)
            return
        self.seek(target)

    def action_step(self, delta: int) -> None:
        self.pause()
        self.seek(self.k + delta)

    def action_turn(self, delta: int) -> None:
        self.pause()
        starts = self._turn_starts
        if not starts:
            return
        if delta > 0:
            later = [s for s in starts if s > self.k]
            self.seek(later[0] if later else self.replay.last_step if self.replay else 0)
        else:
            earlier = [s for s in starts if s < self.k]
            self.seek(earlier[-1] if earlier else 0)

    def action_jump(self, where: str) -> None:
        self.pause()
        self.seek(0 if where == "start" else (self.replay.last_step if self.replay else 0))

    def goto_turn(self, n: int) -> None:
        """Show turn ``n`` as it starts (``AskTurn`` refuses turns the game does not have)."""
        starts = self._turn_starts
        if not 1 <= n <= len(starts):
            self.notify(turn_refusal(str(n), len(starts)) or "", severity="error")
            return
        self.seek(starts[n - 1])

    def action_goto(self) -> None:
        self.pause()

        def got(n: int | None) -> None:
            if n is not None:
                self.goto_turn(n)

        self.app.push_screen(AskTurn(len(self._turn_starts)), got)

    def action_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            if self.replay is not None and self.k >= self.replay.last_step:
                self.k = 0
            self.playing = True
            self._schedule()
        self.show()

    def _schedule(self) -> None:
        delay = max(0.05, self.speedway.settings.bot_delay)
        self._timer = self.set_timer(delay, self._advance)

    def _advance(self) -> None:
        self._timer = None
        if not self.playing or self.replay is None:
            return
        if self.k >= self.replay.last_step:
            self.playing = False
            self.show()
            return
        self.seek(self.k + 1)
        self._schedule()

    def pause(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def action_speed(self, step: int) -> None:
        import msgspec

        from tui.screens.table import SPEEDS

        app = self.speedway
        index = max(0, min(len(SPEEDS) - 1, SPEEDS.index(app.settings.animation) + step))
        app.apply_settings(msgspec.structs.replace(app.settings, animation=SPEEDS[index]))
        self.show()

    def action_perspective(self) -> None:
        if self.replay is None:
            return
        n = len(self.replay.seats)
        order: list[int | None] = [None, *range(n)]
        self.perspective = order[(order.index(self.perspective) + 1) % len(order)]
        self.rebuild_lines()
        self.show()

    def action_chart(self) -> None:
        if self.replay is None:
            return
        from tui.screens.chart import RaceChartScreen

        self.app.push_screen(RaceChartScreen(self.data(), cursor_state_id=self.k))

    def action_rules(self) -> None:
        self.speedway.show_rules(self.replay.game.id if self.replay else None)

    def action_branch(self) -> None:
        if self.replay is None:
            return
        self.pause()
        step = self.k
        replay = self.replay

        def got(words: list[str] | None) -> None:
            if words is not None:
                self.branch(replay, step, words)

        self.app.push_screen(BranchDialog(replay, step), got)

    def branch(self, replay: Replay, step: int, words: list[str]) -> None:
        app = self.speedway
        game = replay.game
        if game.result(replay.state_at(step)) is not None:
            self.notify(
                "The game is already over at this step; pick an earlier one.", severity="error"
            )
            return
        try:
            specs = parse_seats(game, words, app.identity, network=app.network)
        except ConfigError as err:
            self.notify(str(err), severity="error")
            return
        import msgspec

        spec = TableSpec(
            game=game.id,
            seats=specs,
            options=msgspec.to_builtins(replay.config),
            branched_from={
                "source": self.path.stem,  # the replay id (as `ssh HOST replay ID` serves it)
                "step": step,
                "events": replay.events_upto(step),
            },
        )
        app.add_local(
            hot_identity(s.name) for s in specs if s.identity and s.identity != app.identity.id
        )
        app.run_worker(app.create_and_open(spec))

    def action_back(self) -> None:
        self.pause()
        if self.exit_on_back:
            self.app.exit()
            return
        self.app.pop_screen()
