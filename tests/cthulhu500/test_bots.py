"""Cthulhu 500 bots: registered by name, always legal, and shrewd beats random (small sample;
the 1,000-game figure is in bench/bench_cthulhu500.py)."""

from __future__ import annotations

from click.testing import CliRunner

from core import registry
from core.game import Seat, Table

GAME = registry.get("cthulhu500")


def test_bots_are_registered_random_first():
    assert list(GAME.bots)[:2] == ["random", "shrewd"]


def test_shrewd_beats_random_in_a_small_seeded_sample():
    wins = 0
    games = 24
    for seed in range(games):
        me = seed % 4
        seats = [Seat(name=f"P{i}", bot="shrewd" if i == me else "random") for i in range(4)]
        t = Table(GAME, GAME.default_config(), seats, 1000 + seed)
        t.run_bots()
        result = t.result()
        assert result is not None
        wins += result.winner == me
    assert wins / games >= 0.7


def test_sim_cli_runs_every_seat_count():
    from tui.cli import main

    runner = CliRunner()
    for n in range(2, 9):
        out = runner.invoke(main, ["sim", "cthulhu500", "--players", str(n), "--seed", "3"])
        assert out.exit_code == 0, out.output
        assert f"{n} seats" in out.output
