"""Replay analysis in the viewer: the worker, the panel's updates, and the luck/skill chart.

Owns `AnalysisViewer`, mixed into the replay viewer: `a` shows/hides the panel (the first
time it loads the cached analysis beside the file, or runs one in a thread worker with a
progress bar, then caches it), `d` jumps to the next costly decision, `t` to the next turning
point (largest first), `l` opens `LuckChartScreen` (each player's cumulative luck and skill
loss over the game, one unit at a time); and `cumulative_series`, the chart's data. While the
worker runs, each decision is shown as soon as it is valued (its luck follows with the
finished analysis).

Must not: change the replay, or block the screen (the analysis runs only in the worker).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker
from textual_plotext import PlotextPlot

from core.analysis import Analysis, Decision, Settings
from replays import Replay, ReplayError
from replays.analysis import analyse_replay, load_cached, save_cache
from tui.screens.base import SpeedwayScreen
from tui.screens.chart import COLOURS
from tui.widgets.analysis import AnalysisPanel, next_costly, panel_text
from tui.widgets.keys import KeyFooter

__all__ = ["AnalysisViewer", "LuckChartScreen", "cumulative_series"]


def cumulative_series(
    analysis: Analysis, unit: str, n_seats: int
) -> tuple[list[int], list[list[float]], list[list[float]]]:
    """(steps, per-seat cumulative luck, per-seat cumulative skill loss) in ``unit``."""
    moves: dict[int, list[tuple[int, float, float]]] = {}
    for d in analysis.decisions:
        if d.unit == unit:
            moves.setdefault(d.step, []).append((d.seat, d.luck, d.loss))
    for s in analysis.segments:
        if s.unit == unit and s.opening_luck:
            moves.setdefault(s.start, []).append((s.seat, s.opening_luck, 0.0))
    steps = [0]
    luck = [[0.0] for _ in range(n_seats)]
    skill = [[0.0] for _ in range(n_seats)]
    for step in sorted(moves):
        steps.append(step)
        for seat in range(n_seats):
            luck[seat].append(luck[seat][-1])
            skill[seat].append(skill[seat][-1])
        for seat, dl, ds in moves[step]:
            if 0 <= seat < n_seats:
                luck[seat][-1] += dl
                skill[seat][-1] += ds
    return steps, luck, skill


class LuckChart(PlotextPlot):
    """Cumulative luck (solid) and skill loss (dots, drawn below zero) per player."""

    def plot(self, analysis: Analysis, unit: str, names: list[str], cursor: int | None) -> None:
        steps, luck, skill = cumulative_series(analysis, unit, len(names))
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        for seat, name in enumerate(names):
            colour = COLOURS[seat % len(COLOURS)]
            plt.plot(steps, luck[seat], label=f"{seat + 1} {name} luck", color=colour, marker="●")
            plt.plot(
                steps,
                [-x for x in skill[seat]],
                label=f"{seat + 1} {name} skill",
                color=colour,
                marker="·",
            )
        plt.hline(0, "gray")
        if cursor is not None:
            plt.vline(cursor, "white")
        plt.title(f"Cumulative luck and skill loss ({unit})")
        plt.xlabel("step")
        plt.ylabel(unit)
        self.refresh()


class LuckChartScreen(SpeedwayScreen):
    BINDINGS: ClassVar = [
        Binding("escape,l,q", "back", "Back"),
        Binding("u", "unit", "Next unit"),
    ]

    def __init__(self, analysis: Analysis, names: list[str], cursor: int | None = None) -> None:
        super().__init__()
        self.analysis = analysis
        self.names = names
        self.cursor = cursor
        self.unit = analysis.unit

    def body(self) -> Iterable[Widget]:
        yield Static("", id="luck-title", classes="screen-title")
        yield LuckChart(id="luck-chart")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.draw()

    def draw(self) -> None:
        self.query_one("#luck-title", Static).update(
            f"Luck and skill — {self.unit} (luck above, skill loss below zero; u: next unit)"
        )
        self.query_one(LuckChart).plot(self.analysis, self.unit, self.names, self.cursor)

    def action_unit(self) -> None:
        units = self.analysis.units
        self.unit = units[(units.index(self.unit) + 1) % len(units)]
        self.draw()

    def action_back(self) -> None:
        self.app.pop_screen()


class _Stopped(Exception):
    """The viewer closed while its analysis ran."""


class AnalysisViewer:
    """The replay viewer's analysis keys and worker (mixed into `ReplayScreen`)."""

    replay: Replay | None
    path: Path
    k: int
    analysis_result: Analysis | None = None
    analysis_progress: tuple[int, int] | None = None
    analysis_error: str | None = None
    analysis_settings: Settings = Settings()
    analysis_partial: tuple[Decision, ...] = ()
    analysis_turning: int = -1

    def analysis_widgets(self) -> Iterable[Widget]:
        yield AnalysisPanel("", id="analysis-panel")

    def analysis_show(self) -> None:
        """Redraw the panel for the current step (when it is shown)."""
        screen: Any = self
        found = screen.query(AnalysisPanel)
        if not found:  # the screen is closing
            return
        panel = found.first()
        if not panel.has_class("shown"):
            return
        names = self.replay.names if self.replay is not None else []
        panel.show_text(
            panel_text(
                self.analysis_result,
                self.k,
                names,
                progress=self.analysis_progress,
                partial=self.analysis_partial,
                error=self.analysis_error,
                width=panel.size.width or 44,
            )
        )

    def action_analysis(self) -> None:
        screen: Any = self
        panel = screen.query_one(AnalysisPanel)
        panel.toggle_class("shown")
        self.start_analysis()
        self.analysis_show()

    def start_analysis(self) -> None:
        """Load the cache or start the worker (once)."""
        if self.replay is None or self.analysis_result is not None:
            return
        if self.analysis_progress is not None or self.analysis_error is not None:
            return
        self.analysis_progress = (0, len(self.replay.steps))
        screen: Any = self
        screen.run_worker(self._analyse, thread=True, exclusive=True, group="analysis")

    def _analyse(self) -> None:
        replay = self.replay
        assert replay is not None
        screen: Any = self
        app = screen.app
        cached = load_cached(replay, self.analysis_settings)
        if cached is not None:
            app.call_from_thread(self._analysed, cached, None)
            return
        last = [0]
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:  # the viewer was closed: stop spending CPU
                raise _Stopped
            if done - last[0] >= max(1, total // 50) or done == total:
                last[0] = done
                app.call_from_thread(self._progressed, done, total)

        def watch(decision: Decision) -> None:
            if worker.is_cancelled:
                raise _Stopped
            app.call_from_thread(self._watched, decision)

        try:
            analysis = analyse_replay(replay, self.analysis_settings, progress, watch)
        except _Stopped:
            return
        except ReplayError as err:
            app.call_from_thread(self._analysed, None, str(err))
            return
        save_cache(replay, analysis)
        app.call_from_thread(self._analysed, analysis, None)

    def _watched(self, decision: Decision) -> None:
        if self.analysis_result is None:
            self.analysis_partial = (*self.analysis_partial, decision)
            if decision.step == self.k:
                self.analysis_show()

    def _progressed(self, done: int, total: int) -> None:
        if self.analysis_result is None:
            self.analysis_progress = (done, total)
            self.analysis_show()

    def _analysed(self, analysis: Analysis | None, error: str | None) -> None:
        self.analysis_result = analysis
        self.analysis_error = error
        self.analysis_progress = None
        self.analysis_partial = ()
        self.analysis_show()

    def action_next_costly(self) -> None:
        screen: Any = self
        if self.analysis_result is None:
            screen.query_one(AnalysisPanel).add_class("shown")
            self.start_analysis()
            self.analysis_show()
            return
        found = next_costly(self.analysis_result, self.k)
        if found is None:
            screen.notify("No costly decisions in this game.")
            return
        screen.query_one(AnalysisPanel).add_class("shown")
        screen.pause()
        screen.seek(found.step)

    def action_next_turning(self) -> None:
        """Jump to the next turning point (largest swing first, then the next largest…)."""
        screen: Any = self
        if self.analysis_result is None:
            self.action_next_costly()  # shows the panel and starts the analysis
            return
        points = self.analysis_result.turning_points
        if not points:
            screen.notify("No turning points in this game.")
            return
        self.analysis_turning = (self.analysis_turning + 1) % len(points)
        point = points[self.analysis_turning]
        screen.query_one(AnalysisPanel).add_class("shown")
        screen.pause()
        screen.seek(point.step)
        screen.notify(f"Turning point {self.analysis_turning + 1}/{len(points)}: {point.text}")

    def action_luck_chart(self) -> None:
        screen: Any = self
        if self.analysis_result is None or self.replay is None:
            screen.notify("Press a to analyse the replay first.")
            return
        screen.app.push_screen(LuckChartScreen(self.analysis_result, self.replay.names, self.k))
