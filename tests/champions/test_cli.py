"""`speedway sim champions --players N` through the generic CLI and the registry."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tui.cli import main


def test_sim_champions_plays_whole_games_for_each_player_count():
    runner = CliRunner()
    for players in (1, 3, 5):
        out = runner.invoke(main, ["sim", "champions", "--players", str(players), "--seed", "4"])
        assert out.exit_code == 0, out.output
        assert f"NASCAR Champions: 1 game(s), {players} seats" in out.output
    out = runner.invoke(
        main,
        [
            "sim",
            "champions",
            "--players",
            "2",
            "--bots",
            "promoter,random",
            "--games",
            "2",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    lines = [json.loads(line) for line in out.output.splitlines()]
    assert [line["seed"] for line in lines] == [1, 2]
    assert all(line["game"] == "champions" and len(line["scores"]) == 2 for line in lines)


def test_sim_champions_refuses_bad_options_with_one_sentence():
    runner = CliRunner()
    out = runner.invoke(main, ["sim", "champions", "--players", "6"])
    assert out.exit_code == 2
    assert "seats 1 to 5 players" in out.output
    out = runner.invoke(main, ["sim", "champions", "-o", "blue_car=3"])
    assert out.exit_code == 2
    assert "blue car must be one of 31, 88" in out.output
    out = runner.invoke(main, ["sim", "champions", "-o", "no_such_option=1"])
    assert out.exit_code == 2
