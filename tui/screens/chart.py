"""The race chart: what the game declares it plots (``game.progress``), per turn, as lines.

Owns the chart screen, opened with `c` at a table (and at race end) and from the replay viewer,
where a cursor marks the current step's turn. A game with several measures (Champions: money and
track position) shows one at a time; `m` shows the next. Each seat's line is drawn with its
marker (its number, 1 to 9, then A, B, C... from the tenth seat: Go 500 seats 12); the legend
above the chart is that marker in the line's colour, then the seat's name ("1 Ann   2 Bold").
`COLOURS` are plotext colour names (for any other name plotext picks a line colour of its own
and leaves the legend's marker uncoloured), apart as Textual's dark theme shows the 16 terminal
colours. Must not hold or change game state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import plotext
from rich.text import Text
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tui.chart import Series, cursor_turn, progress_series
from tui.screens.base import SpeedwayScreen
from tui.widgets.board import BoardData
from tui.widgets.keys import KeyFooter

# plotext's names: "orange+" is the terminal's bright yellow, "orange" its yellow (an orange in
# Textual's dark theme); no magenta, which that theme draws as its red.
COLOURS = ["red+", "blue+", "orange+", "green+", "gray+", "orange", "cyan+", "white"]
MARKERS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def chart_title(series: Series) -> str:
    better = " (1 = ahead)" if series.lower_is_better else ""
    return f"{series.name.capitalize()} after each turn{better}"


def marker(seat: int) -> str:
    """The character seat ``seat``'s line is drawn with: its number, then a letter from seat 10."""
    return MARKERS[seat % len(MARKERS)]


def legend(names: list[str]) -> Text:
    """Each seat's marker, in its line's colour, then its name: "1 Ann   2 Bold   3 Cautious".

    Drawn by us, not plotext: plotext's own legend repeats the marker and runs it into the label
    ("11 1 Ann"), and covers the top left of the lines.
    """
    out = Text()
    for seat, name in enumerate(names):
        if seat:
            out.append("   ")
        colour = COLOURS[seat % len(COLOURS)]
        out.append_text(Text.from_ansi(plotext.colorize(marker(seat), colour, "bold")))
        out.append(f" {name}")
    return out


class RaceChart(PlotextPlot):
    """One measure per seat after each turn; an optional cursor at a step."""

    def plot_series(self, series: Series, cursor_state_id: int | None = None) -> None:
        """The lines, one per seat, without a legend (the screen shows `legend` above)."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        for seat, values in enumerate(series.values):
            plt.plot(
                series.turns, values, color=COLOURS[seat % len(COLOURS)], marker=marker(seat)
            )
        last = series.turns[-1] if series.turns else 0
        plt.xlim(0, max(1, last))  # before the first turn: 0..1, never -1..1
        every = max(1, -(-last // 8))
        plt.xticks(list(range(0, max(1, last) + 1, every)))  # whole turns only
        if series.goal:
            plt.hline(series.goal, "gray")
        if cursor_state_id is not None:
            at = cursor_turn(series, cursor_state_id)
            if at is not None:
                plt.vline(at, "white")
        plt.title(chart_title(series))
        plt.xlabel("turns played")
        plt.ylabel(series.name)
        self.refresh()


class RaceChartScreen(SpeedwayScreen):
    BINDINGS: ClassVar = [
        Binding("m", "measure", "Next measure"),
        Binding("escape,c,q", "back", "Back"),
    ]

    def __init__(self, data: BoardData | None, cursor_state_id: int | None = None) -> None:
        super().__init__()
        self.data = data
        self.cursor_state_id = cursor_state_id
        self.series: list[Series] = []
        self.shown = 0
        if data is not None:
            self.series = progress_series(data.game, data.config, len(data.names), data.history)

    def body(self) -> Iterable[Widget]:
        yield Static("Race chart", id="chart-title", classes="screen-title")
        yield Static("", id="chart-legend")
        yield RaceChart(id="chart")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "measure":
            return len(self.series) > 1
        return super().check_action(action, parameters)

    def draw(self) -> None:
        title = self.query_one("#chart-title", Static)
        if self.data is None or not self.series:
            title.update("Race chart — this game has nothing to plot")
            return
        series = self.series[self.shown]
        others = f"   (m: {len(self.series)} measures)" if len(self.series) > 1 else ""
        title.update(f"Race chart — {chart_title(series)}{others}")
        self.query_one("#chart-legend", Static).update(legend(self.data.names))
        self.query_one(RaceChart).plot_series(series, self.cursor_state_id)

    def action_measure(self) -> None:
        if self.series:
            self.shown = (self.shown + 1) % len(self.series)
            self.draw()

    def action_back(self) -> None:
        self.app.pop_screen()
