"""The race chart: every driver's miles after each turn as lines (textual-plotext).

Owns the chart screen, opened with `c` at a table (and at race end) and from the replay viewer,
where a cursor marks the current step. Must not hold or change game state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tui.chart import miles_series
from tui.screens.base import SpeedwayScreen
from tui.widgets.board import BoardData
from tui.widgets.keys import KeyFooter

COLOURS = ["red", "blue", "yellow", "green", "magenta", "orange", "cyan", "white"]
MARKERS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"]


class RaceChart(PlotextPlot):
    """Miles per driver after each turn; an optional cursor at a step."""

    def plot_data(self, data: BoardData, cursor_state_id: int | None = None) -> None:
        ids, series = miles_series(data.game, data.config, len(data.names), data.history)
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        turns = list(range(len(ids)))
        for seat, values in enumerate(series):
            plt.plot(
                turns,
                values,
                label=f"{seat + 1} {data.names[seat]}",
                color=COLOURS[seat % len(COLOURS)],
                marker=MARKERS[seat % len(MARKERS)],
            )
        length = getattr(data.state, "race_length", None)
        if length and getattr(getattr(data.state, "config", None), "mode", "") != "time_trial":
            plt.hline(length, "gray")
        if cursor_state_id is not None:
            at = sum(1 for i in ids if i <= cursor_state_id) - 1
            plt.vline(max(0, at), "white")
        plt.title("Miles after each turn")
        plt.xlabel("turns")
        plt.ylabel("miles")
        self.refresh()


class RaceChartScreen(SpeedwayScreen):
    BINDINGS: ClassVar = [Binding("escape,c,q", "back", "Back")]

    def __init__(self, data: BoardData | None, cursor_state_id: int | None = None) -> None:
        super().__init__()
        self.data = data
        self.cursor_state_id = cursor_state_id

    def body(self) -> Iterable[Widget]:
        yield Static("Race chart — every driver's miles after each turn", classes="screen-title")
        yield RaceChart(id="chart")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.data is not None:
            self.query_one(RaceChart).plot_data(self.data, self.cursor_state_id)

    def action_back(self) -> None:
        self.app.pop_screen()
