"""The replay format with every registered game (plus Dash): save, verify, seek, print, CLI.

Generic through `core.registry`: each game that registers is checked here with no extra code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from core import registry
from core.game import Game, Seat, Table
from replays.export import to_json, transcript
from replays.reader import open_replay
from replays.store import save_finished_table
from replays.verify import verify
from tests.fakegame import GAME as DASH
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAMES = {**{g.id: g for g in registry.all_games()}, DASH.id: DASH}


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest, monkeypatch) -> Game:
    found = GAMES[request.param]
    if found is DASH:
        monkeypatch.setitem(registry._PACKAGES, "dash", "tests.fakegame")
        monkeypatch.setitem(registry._loaded, "dash", DASH)
    return found


def players(game: Game) -> int:
    return max(game.min_seats, min(4, game.max_seats))


def bot_game(game: Game, seed: int) -> Table:
    bot = game.default_bot
    seats = [Seat(name=f"{bot}-{i + 1}", bot=bot) for i in range(players(game))]
    table = Table(game, game.default_config(), seats, seed)
    table.run_bots()
    return table


@pytest.mark.parametrize("seed", [1, 2])
def test_saved_game_verifies_and_every_step_seeks_to_the_fold(game, seed, tmp_path):
    table = bot_game(game, seed)
    replay = open_replay(save_finished_table(table, tmp_path), game)
    assert replay.steps == table.history
    report = verify(replay)
    assert report.ok, report.message
    assert report.events == sum(len(s.events) for s in table.history)
    state = game.new_state(table.config, len(table.seats))
    for k, step in enumerate(table.history):
        for event in step.events:
            state = game.evolve(state, event)
        replay._cache = None  # seek cold, from the nearest snapshot
        assert replay.state_at(k) == state, k
    for k, raw in replay.snapshots.items():  # snapshots round-trip through the state type
        assert msgspec.msgpack.encode(replay.state_at(k)) == raw


def test_sim_save_twice_prints_and_exports_identically(game, tmp_path):
    runner = CliRunner()
    files = []
    for name in ("a", "b"):
        folder = tmp_path / name
        args = [
            "sim",
            game.id,
            "--players",
            str(players(game)),
            "--seed",
            "1",
            "--save",
            str(folder),
        ]
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        (path,) = folder.iterdir()
        files.append(path)
    for path in files:
        verified = runner.invoke(main, ["replay", str(path), "--verify"])
        assert verified.exit_code == 0, verified.output
    printed = [runner.invoke(main, ["replay", str(p), "--print"]) for p in files]
    assert printed[0].exit_code == 0
    assert printed[0].output == printed[1].output
    assert "Seed: 1" in printed[0].output
    a, b = (open_replay(p, game) for p in files)
    assert to_json(a) == to_json(b)
    assert transcript(a) == printed[0].output
    assert a.salt != b.salt


def test_go500_sim_saved_twice_prints_identically_through_the_real_command(tmp_path):
    """`speedway sim go500 --players 4 --seed 1 --save D`, twice, in fresh processes."""
    assert "go500" in registry.game_ids()

    def speedway(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui.cli", *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )

    files = []
    for name in ("a", "b"):
        folder = tmp_path / name
        done = speedway("sim", "go500", "--players", "4", "--seed", "1", "--save", str(folder))
        assert done.returncode == 0, done.stderr
        (path,) = folder.iterdir()
        files.append(path)
    assert files[0].read_bytes() != files[1].read_bytes()
    verified = speedway("replay", str(files[0]), "--verify")
    assert verified.returncode == 0, verified.stderr
    assert "the seed matches its commitment" in verified.stdout
    printed = [speedway("replay", str(path), "--print") for path in files]
    assert printed[0].returncode == 0, printed[0].stderr
    assert printed[0].stdout == printed[1].stdout
    assert "Seed: 1" in printed[0].stdout
    assert printed[0].stdout.count("\nStep ") > 10
