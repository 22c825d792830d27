"""The end of a race at 80x24 (issue 13): the result is not covered by a toast. The hub's notices
are lasting lines of the race log, and the one that only repeats the result ("The race is over:
…") is not shown again: the result line of the log, the status line and the call-out say it."""

from __future__ import annotations

import pytest
from textual.widgets._toast import Toast

from net.hub import Notice
from tests.tui.conftest import go500_app
from tests.tui.test_pilot_go500 import wait_for
from tests.tui.test_snapshots import SIZES, _finish
from tui.widgets.common import RaceLog, StatusLine


async def test_the_result_line_is_not_covered_at_the_end_of_a_race():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _finish(pilot, clear=False)
        screen = app.screen
        await pilot.pause(0.3)
        assert not list(app.screen.query(Toast)), "the result is on screen already: no toast"
        log = screen.query_one(RaceLog)
        assert log.texts[-1].startswith("The race is over: 1. ")  # the log's own result line
        assert sum("race is over" in t.lower() for t in log.texts) == 1  # not twice
        status = str(screen.query_one(StatusLine).render())
        assert status.startswith("Race over — 1. ")


async def test_a_notice_is_a_lasting_line_of_the_race_log():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: getattr(app.screen, "fold", None) is not None)
        screen = app.screen
        screen.receive(Notice(text="Bea left the table."))
        await pilot.pause(0.3)
        assert not list(app.screen.query(Toast))
        assert screen.query_one(RaceLog).texts[-1] == "Bea left the table."
        assert screen.fold.log[-1].text == "Bea left the table."  # kept for a redraw too


@pytest.mark.parametrize("size", SIZES)
def test_the_end_of_a_race(snap_compare, size):
    async def finish(pilot) -> None:
        await _finish(pilot, clear=False)
        await pilot.pause(0.3)

    assert snap_compare(go500_app("me,cautious,bold", seed=3), terminal_size=size, run_before=finish)
