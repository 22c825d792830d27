"""The benchmark harness itself: one output format, and the load generator against the real
server (`speedway serve --bench-hooks`, the real app) measuring what it claims to."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.__main__ import normalise
from bench.ssh_load import Client, LoadResult, _match, percentile, run_ladder, run_load


def test_every_figure_comes_out_in_one_format():
    assert normalise({"name": "x", "value": 5, "unit": "ms", "target": 3}) == {
        "bench": "x",
        "value": 5,
        "unit": "ms",
        "target": 3,
        "ok": False,
    }
    assert normalise(
        {"bench": "y", "value": 0.97, "unit": "r", "target": 0.95, "better": "higher"}
    )["ok"]
    assert normalise({"name": "z", "value": 1, "unit": "u"})["ok"] is None


def test_an_unknown_benchmark_is_refused_with_the_list():
    out = subprocess.run(
        [sys.executable, "-m", "bench", "nosuch"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2
    assert "no benchmark bench_nosuch" in out.stderr
    assert "ssh" in out.stderr


def test_percentile_picks_from_the_sorted_samples():
    assert percentile([5, 1, 3], 50) == 3
    assert percentile(list(range(1, 101)), 99) == 99


def test_a_step_no_screen_drew_is_counted_quiet_not_timed():
    def step(t: float, state: int) -> dict[str, object]:
        return {"k": "step", "t": t, "table": "T", "state": state, "viewers": 1}

    trace = [step(1.0, 1), step(2.0, 2), step(3.0, 3), step(4.0, 4)]
    trace += [{"k": "quiet", "t": 2.0, "table": "T", "state": 1, "seat": None}]
    trace += [{"k": "quiet", "t": 4.0, "table": "T", "state": 3, "seat": None}]
    trace += [{"k": "quiet", "t": 4.0, "table": "T", "state": 2, "seat": 0}]  # a player's view
    viewer = Client()
    viewer.table = "T"
    # bytes for step 2 at once, none for step 1 until step 2's; step 3's quiet record is
    # wrong for this viewer (its bytes came before step 4), so step 3 is timed.
    viewer.times = [2.01, 3.3, 4.02]
    result = LoadResult(sessions=1, tables=1, window=4.0)
    _match(result, trace, [viewer], 0.0, 4.5)
    assert result.quiet == 1
    assert [round(ms) for ms in result.latencies_ms] == [10, 300, 20]
    assert result.missed == 0


def test_a_churned_client_is_timed_only_while_it_is_at_its_table():
    def step(t: float, table: str, state: int) -> dict[str, object]:
        return {"k": "step", "t": t, "table": table, "state": state, "viewers": 1}

    # Table A's race ends at 3.0 and its player leaves at 3.5; the new player of table B logs
    # in while B's first steps go out and is at the table from 5.0 on.
    trace = [step(1.0, "A", 1), step(2.0, "A", 2), step(3.0, "A", 3)]
    trace += [step(4.0, "B", 1), step(4.6, "B", 2), step(5.2, "B", 3), step(5.8, "B", 4)]
    gone, new = Client(), Client()
    gone.table, gone.times, gone.until = "A", [1.01, 2.01, 3.01], 3.5
    new.table, new.times, new.since = "B", [4.9, 5.21, 5.81], 5.0
    result = LoadResult(sessions=2, tables=2, window=6.0)
    _match(result, trace, [gone, new], 0.0, 6.0)
    assert [round(ms) for ms in result.latencies_ms] == [10, 10, 10, 10, 10]
    assert result.missed == 0, "B's steps before the new player was at the table are not its"
    # The pace counts each table's time at play in the window: A from its first step to its
    # race's last (1.0-3.0), B likewise (4.0-5.8), not the whole window for either.
    assert result.steps_per_table_s == pytest.approx(7 / (2.0 + 1.8))


@pytest.mark.slow
async def test_the_load_generator_sees_every_broadcast_step_reach_every_viewer():
    # Two tables: the probe's keys move the lobby's cursor between them (a key that changes
    # nothing on the screen sends no bytes).
    result = await run_load(4, group=2, window=4.0, settle=1.0, probe=True)
    assert result.tables == 2
    assert result.steps > 0, "the bots at the real server's pace made steps in the window"
    assert len(result.latencies_ms) + result.quiet >= result.steps * 2 - result.missed
    assert result.missed == 0
    assert 0 < percentile(result.latencies_ms, 50) < 2000
    assert result.probe["login"], "a fresh player logged in and reached the lobby"
    for screen in ("new_game", "rules", "lobby"):
        assert result.probe[screen], screen
    assert result.rss_loaded > result.rss_idle > 0
    times = [t for t, _ in result.rss_series]
    assert len(times) >= 3, "the server's RSS is sampled through the window (every 0.5 s here)"
    assert times == sorted(times)
    assert all(mib > result.rss_idle for _, mib in result.rss_series)


def test_rss_growth_of_the_second_half_starts_at_the_first_sample_past_half_the_window():
    result = LoadResult(sessions=1, tables=1, window=600.0)
    result.rss_loaded, result.rss_end = 100.0, 132.0
    result.rss_series = [(60.0, 110.0), (240.0, 128.0), (300.0, 130.0), (360.0, 131.0)]
    assert result.rss_growth == pytest.approx(0.32)
    assert result.rss_growth_second_half == pytest.approx(2 / 130)
    result.rss_series = []
    assert result.rss_growth_second_half == 0.0, "no samples: nothing to say"


@pytest.mark.slow
async def test_the_ladder_grows_one_server_rung_by_rung_and_stops_at_the_first_that_fails():
    seen: dict[int, LoadResult] = {}

    def holds(result: LoadResult) -> bool:
        seen[id(result)] = result  # (kept: an id is not reused while its result lives)
        return result.sessions < 6  # the second rung "fails": it gets a second window

    results = await run_ladder([3, 6, 9], holds, group=3, window=2.0, settle=0.5)
    assert [r.sessions for r in results] == [3, 6], "no rung after the one that failed"
    assert [r.tables for r in results] == [1, 2], "a new table for every 3 sessions"
    windows = [r.sessions for r in seen.values()]
    assert sorted(windows) == [3, 6, 6], "only the failing rung is measured twice"
    for result in results:
        assert result.steps > 0, "the bots played in every rung's window"
        assert result.missed == 0
        # every viewer of every table is timed: 3 per table, old and new tables alike
        assert len(result.latencies_ms) + result.quiet >= result.steps * 3 - result.missed
