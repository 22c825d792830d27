"""The race chart plots what each game declares, marks the replay's step, and starts at turn 0."""

from __future__ import annotations

import re
from pathlib import Path

from core import registry
from core.game import Seat, Table
from replays import save_finished_table
from tests.tui.conftest import FIXED, make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenReplay
from tui.screens.chart import RaceChart, RaceChartScreen, legend
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
    assert [s.style.color.number for s in marks] == [1, 4]  # red, blue: as the lines are drawn
