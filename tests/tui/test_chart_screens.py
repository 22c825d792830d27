"""The race chart plots what each game declares, marks the replay's step, and starts at turn 0."""

from __future__ import annotations

import re
from pathlib import Path

import plotext
from plotext._utility import get_color_code, is_color
from rich.color import Color

from core import registry
from core.game import Seat, Table
from replays import save_finished_table
from tests.tui.conftest import FIXED, make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenReplay
from tui.screens.analysis import COLOURS as LUCK_COLOURS
from tui.screens.chart import COLOURS, RaceChart, RaceChartScreen, legend, marker
from tui.screens.replay import ReplayScreen


def champions_replay(folder: Path) -> Path:
    game = registry.get("champions")
    seats = [Seat(name=n, bot="promoter") for n in ("Ann", "Bob")]
    table = Table(game, game.default_config(), seats, 4)
    table.run_bots()
    return save_finished_table(table, folder, now=FIXED)


def axis_text(chart: RaceChart) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", chart.plt.build())


async def test_champions_chart_in_the_replay_shows_money_then_track_position(tmp_path: Path):
    path = champions_replay(tmp_path)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        viewer.goto_turn(10)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceChartScreen))
        chart = app.screen
        assert [s.name for s in chart.series] == ["money", "track position"]
        assert "Money after each turn" in str(chart.query_one("#chart-title").render())
        assert chart.cursor_state_id == viewer.k
        await pilot.press("m")
        assert "Track position after each turn (1 = ahead)" in str(
            chart.query_one("#chart-title").render()
        )
        await pilot.press("escape")
        assert app.screen is viewer


async def test_go500_chart_before_the_first_turn_starts_at_turn_0(replay_file: Path):
    app = make_app(start=OpenReplay(path=str(replay_file)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("c")  # at step 0: nobody has raced yet
        await wait_for(pilot, lambda: isinstance(app.screen, RaceChartScreen))
        chart = app.screen
        (miles,) = chart.series
        assert miles.turns[0] == 0
        text = axis_text(chart.query_one(RaceChart))
        x_ticks = [line for line in text.splitlines() if line.strip()][-2]  # above the labels
        assert "-1" not in x_ticks
        assert x_ticks.split() == ["0", "1"]


async def test_the_legend_is_each_line_marker_then_the_seat_name(tmp_path: Path):
    game = registry.get("cthulhu500")
    table = Table(
        game, game.default_config(), [Seat(name=n, bot=n.lower()) for n in ("Random", "Shrewd")], 4
    )
    table.run_bots()
    path = save_finished_table(table, tmp_path, now=FIXED)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end", "c")
        await wait_for(pilot, lambda: isinstance(app.screen, RaceChartScreen))
        await pilot.pause()
        plot = axis_text(app.screen.query_one(RaceChart))
        assert "11 1 Random" not in plot  # plotext's legend: the marker twice, then the label
        assert "Random" not in plot  # no legend over the lines
        assert "Shrewd" not in plot
        assert str(app.screen.query_one("#chart-legend").render()) == "1 Random   2 Shrewd"
    words = legend(["Random", "Shrewd"])
    marks = [span for span in words.spans if span.end - span.start == 1]
    assert [words.plain[s.start] for s in marks] == ["1", "2"]  # the markers, in their colours
    assert [s.style.color.number for s in marks] == [9, 12]  # red+, blue+: as the lines are drawn


def test_every_line_colour_is_one_plotext_knows():
    for colour in [*COLOURS, *LUCK_COLOURS]:
        assert is_color(colour), colour  # how plotext decides a colour name is one it knows
        assert plotext.colorize("1", colour) != "1", colour  # an unknown name stays uncoloured


def test_each_line_is_drawn_in_its_legend_marker_colour():
    words = legend([f"P{n}" for n in range(1, len(COLOURS) + 1)])
    legend_colours = [s.style.color.number for s in words.spans if s.end - s.start == 1]
    for seat, colour in enumerate(COLOURS):
        plotext.clear_figure()
        plotext.plotsize(20, 6)
        plotext.plot([0, 1], [0, 1], color=colour, marker=marker(seat))
        plotext.xticks([])  # no tick labels: only the line's markers are digits or letters
        plotext.yticks([])
        drawn = set(re.findall(rf"\x1b\[38;5;(\d+)m{marker(seat)}", plotext.build()))
        assert drawn == {str(legend_colours[seat])}, colour
    plotext.clear_figure()


def test_the_line_colours_differ_as_the_dark_theme_shows_them():
    dark = make_app().ansi_theme_dark  # Textual draws the 16 terminal colours with this
    shown = {Color.from_ansi(get_color_code(c)).get_truecolor(dark) for c in COLOURS}
    assert len(shown) == len(COLOURS)


def test_markers_are_distinct_for_every_seat_count_a_game_allows():
    for game in registry.all_games():
        for n_seats in range(game.min_seats, game.max_seats + 1):
            marks = [marker(seat) for seat in range(n_seats)]
            assert len(set(marks)) == n_seats, (game.id, marks)
            assert all(len(m) == 1 for m in marks)
    assert [marker(s) for s in (0, 8, 9, 11)] == ["1", "9", "A", "C"]


def test_the_legend_names_seat_ten_and_up_by_their_letter():
    names = [f"P{n}" for n in range(1, 13)]
    assert legend(names).plain.endswith("9 P9   A P10   B P11   C P12")
