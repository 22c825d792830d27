"""The replay viewer's analysis: panel, next costly decision, luck chart, worker and cache.

Snapshots at 80x24 and 120x40 (update with ``--snapshot-update`` and look at the SVGs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tui.screens.analysis as analysis_screen
from replays.analysis import cache_path
from tests.tui.conftest import make_app, write_replay
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenReplay
from tui.screens.analysis import LuckChartScreen, cumulative_series
from tui.screens.replay import ReplayScreen
from tui.widgets.analysis import AnalysisPanel, panel_text

SIZES = [(80, 24), (120, 40)]


async def _open(pilot) -> ReplayScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
    await app.workers.wait_for_complete()
    return app.screen


async def _analysed(pilot) -> ReplayScreen:
    screen = await _open(pilot)
    await pilot.press("a")
    await pilot.app.workers.wait_for_complete()
    await wait_for(pilot, lambda: screen.analysis_result is not None)
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", SIZES)
def test_panel_at_the_first_costly_decision(snap_compare, size, tmp_path: Path):
    path = write_replay(tmp_path, seed=5)

    async def run(pilot) -> None:
        await _analysed(pilot)
        await pilot.press("d")
        await pilot.pause()

    assert snap_compare(
        make_app(start=OpenReplay(path=str(path))), terminal_size=size, run_before=run
    )


@pytest.mark.parametrize("size", SIZES)
def test_luck_and_skill_chart(snap_compare, size, tmp_path: Path):
    path = write_replay(tmp_path, seed=5)

    async def run(pilot) -> None:
        await _analysed(pilot)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LuckChartScreen))
        await pilot.pause()

    assert snap_compare(
        make_app(start=OpenReplay(path=str(path))), terminal_size=size, run_before=run
    )


async def test_next_costly_jumps_and_the_panel_marks_chosen_and_best(tmp_path: Path):
    path = write_replay(tmp_path, seed=5)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _analysed(pilot)
        analysis = screen.analysis_result
        costly = [d for d in analysis.decisions if d.costly]
        assert costly
        screen.seek(0)
        await pilot.press("d")
        await pilot.pause()
        assert screen.k == costly[0].step
        text = str(screen.query_one(AnalysisPanel).render())
        d = costly[0]
        chosen = d.options[d.chosen].label
        assert "▶" in text
        assert "★" in text
        assert chosen in text
        assert f"lost {d.loss:.1f}" in text
        if len(costly) > 1:
            await pilot.press("d")
            await pilot.pause()
            assert screen.k == costly[1].step
    assert cache_path(path).exists()


async def test_reopening_uses_the_cache_and_never_reanalyses(tmp_path: Path, monkeypatch):
    path = write_replay(tmp_path, seed=5)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        first = (await _analysed(pilot)).analysis_result

    def boom(*_args, **_kwargs):
        raise AssertionError("analysed again instead of reading the cache")

    monkeypatch.setattr(analysis_screen, "analyse_replay", boom)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        assert (await _analysed(pilot)).analysis_result == first


async def test_the_screen_keeps_answering_and_fills_while_the_worker_runs(
    tmp_path: Path, monkeypatch
):
    import threading

    release = threading.Event()
    real = analysis_screen.analyse_replay

    def slow(replay, settings, progress, watch):
        done = real(replay, settings)
        progress(1, len(replay.steps))
        watch(done.decisions[0])  # the first decision is valued, the rest still running
        release.wait(10)
        return done

    monkeypatch.setattr(analysis_screen, "analyse_replay", slow)
    path = write_replay(tmp_path, seed=5)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(pilot)
        panel = screen.query_one(AnalysisPanel)
        await pilot.press("a")
        await wait_for(pilot, lambda: "Analysing" in str(panel.render()))
        before = screen.k
        await pilot.press("right")  # the viewer still steps while the analysis runs
        await pilot.pause()
        assert screen.k == before + 1
        assert screen.analysis_result is None
        await wait_for(pilot, lambda: len(screen.analysis_partial) == 1)
        first = screen.analysis_partial[0]
        screen.seek(first.step)
        await pilot.pause()
        text = str(panel.render())
        assert "Analysing" in text
        assert first.options[first.chosen].label in text
        assert "not known yet" in text
        release.set()
        await app.workers.wait_for_complete()
        await wait_for(pilot, lambda: screen.analysis_result is not None)
        assert "not known yet" not in str(panel.render())


def test_panel_text_without_analysis_and_series_add_up(tmp_path: Path):
    assert "Press a" in panel_text(None, 0, ["A"])
    assert "50%" in panel_text(None, 0, ["A"], progress=(5, 10))
    from replays.analysis import analyse_replay
    from replays.reader import open_replay

    replay = open_replay(write_replay(tmp_path, seed=5))
    a = analyse_replay(replay)
    steps, luck, skill = cumulative_series(a, a.unit, 3)
    assert steps == sorted(steps)
    for p in a.players:
        assert luck[p.seat][-1] == pytest.approx(p.luck, abs=1e-4)
        assert skill[p.seat][-1] == pytest.approx(p.skill_loss, abs=1e-4)


async def test_turning_points_are_visited_largest_first(tmp_path: Path):
    path = write_replay(tmp_path, seed=5)
    app = make_app(start=OpenReplay(path=str(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _analysed(pilot)
        points = screen.analysis_result.turning_points
        assert len(points) >= 2
        for point in points[:3]:
            await pilot.press("t")
            await pilot.pause()
            assert screen.k == point.step
            assert "◆ turning point" in str(screen.query_one(AnalysisPanel).render())


def test_panel_says_when_a_loss_is_within_the_rollouts_noise():
    from core.analysis import Chain, Option, Settings, finish

    chain = Chain({"$k": 5.0})
    chain.open(0, "$k", 1, None)
    noisy = [Option(label="a", value=10.0, spread=3.0), Option(label="b", value=6.0, spread=1.0)]
    chain.decide(0, 1, "choose_dice", noisy, 1)
    clear = [Option(label="a", value=30.0, spread=1.0), Option(label="b", value=6.0, spread=1.0)]
    chain.decide(0, 2, "choose_dice", clear, 1)
    chain.close(0, 3, 0.0)
    a = finish("champions", "$k", ["$k"], ["Ann"], chain, Settings(), 0, sampled=True)
    assert "lost 4.0 (within noise)" in panel_text(a, 1, ["Ann"])
    assert "lost 24.0 (costly)" in panel_text(a, 2, ["Ann"])


async def test_leaving_the_viewer_stops_its_analysis(tmp_path: Path, monkeypatch):
    import threading
    import time

    stopped = threading.Event()

    def endless(replay, settings, progress, watch):
        deadline = time.monotonic() + 10
        try:
            while time.monotonic() < deadline:
                progress(1, 10)
                time.sleep(0.01)
        except Exception:
            stopped.set()
            raise
        raise AssertionError("the worker was never told to stop")

    monkeypatch.setattr(analysis_screen, "analyse_replay", endless)
    path = write_replay(tmp_path, seed=5)
    app = make_app()  # opened from Home (o), so esc goes back there instead of to the shell
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_replay(path)
        screen = await _open(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: "Analysing" in str(screen.query_one(AnalysisPanel).render()))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReplayScreen))
        await wait_for(pilot, stopped.is_set)
        assert app.is_running
    assert not cache_path(path).exists()


def test_panel_shows_the_luck_of_a_turns_first_roll(tmp_path: Path):
    from replays.analysis import analyse_replay
    from replays.reader import open_replay

    replay = open_replay(write_replay(tmp_path, seed=5))
    a = analyse_replay(replay)
    seg = next(g for g in a.segments if g.opening_luck and g.what)
    text = panel_text(a, seg.start, replay.names, width=80)
    assert f"luck {seg.what} {seg.opening_luck:+.1f} {seg.unit}" in text
