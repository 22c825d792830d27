"""The benchmark harness itself: one output format, and the load generator against the real
server (`speedway serve --bench-hooks`, the real app) measuring what it claims to."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.__main__ import normalise
from bench.ssh_load import percentile, run_load


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


@pytest.mark.slow
async def test_the_load_generator_sees_every_broadcast_step_reach_every_viewer():
    result = await run_load(3, group=3, window=4.0, settle=1.0, probe=True)
    assert result.tables == 1
    assert result.steps > 0, "the bots at the real server's pace made steps in the window"
    assert len(result.latencies_ms) >= result.steps * 3 - result.missed
    assert result.missed == 0
    assert 0 < percentile(result.latencies_ms, 50) < 2000
    assert result.probe["login"], "a fresh player logged in and reached the lobby"
    for screen in ("new_game", "rules", "lobby"):
        assert result.probe[screen], screen
    assert result.rss_loaded > result.rss_idle > 0
