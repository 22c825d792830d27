"""The TUI's headless helpers: seat words, action labels, settings files, race-chart series."""

from __future__ import annotations

import json

import pytest

from core import registry
from core.game import ConfigError, Seat, Table, config_from_options
from net.hub import Identity
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll
from tui.chart import cursor_turn, progress_series
from tui.fold import action_label
from tui.seats import parse_seats
from tui.settings import Settings, load_settings, save_settings

ME = Identity(id="local:ann", nickname="Ann")


def test_parse_seats_me_hot_and_bots_get_unique_names():
    game = registry.get("go500")
    specs = parse_seats(game, ["me", "hot", "hot:Bob", "bold", "bold"], ME)
    assert [s.kind for s in specs] == ["human", "human", "human", "bot", "bot"]
    assert [s.name for s in specs] == ["Ann", "Player 2", "Bob", "Bold", "Bold 2"]
    assert specs[0].identity == ME.id
    assert specs[2].identity == "local:hot:Bob"
    assert specs[3].bot == "bold"


def test_a_second_you_at_this_keyboard_is_another_hot_seat_player():
    game = registry.get("go500")
    specs = parse_seats(game, ["me", "bold", "me"], ME)
    assert [s.name for s in specs] == ["Ann", "Bold", "Player 3"]  # not "Ann 2"
    assert specs[0].identity == ME.id
    assert specs[2].kind == "human"
    assert specs[2].identity == "local:hot:Player 3"  # a player of their own: their own view


def test_over_ssh_only_one_seat_can_be_you():
    game = registry.get("go500")
    with pytest.raises(ConfigError, match="Only one seat can be you"):
        parse_seats(game, ["me", "me", "bold"], ME, network=True)
    assert len(parse_seats(game, ["me", "open", "bold"], ME, network=True)) == 3


def test_parse_seats_refuses_unknown_words_and_counts_in_one_sentence():
    game = registry.get("go500")
    with pytest.raises(ConfigError, match="is not a seat"):
        parse_seats(game, ["me", "robot"], ME)
    with pytest.raises(ConfigError, match="seats"):
        parse_seats(game, ["me"] * (game.max_seats + 1), ME)


def test_action_label_uses_tag_and_fields_when_the_game_has_no_words():
    from core.go500.model import SaveAndRoll

    game = registry.get("go500")
    label = action_label(game, SaveAndRoll(dice=["T1", "P"]), ["A", "B"])
    assert "T1" in label
    assert "P" in label
    assert action_label(DASH, Roll(), ["A"]) == "Roll"


def test_settings_are_kept_per_identity(tmp_path):
    save_settings(tmp_path, "ssh:aa", Settings(theme="nord", animation="fast"))
    save_settings(tmp_path, "ssh:bb", Settings(colour_blind=True))
    assert load_settings(tmp_path, "ssh:aa").theme == "nord"
    assert load_settings(tmp_path, "ssh:aa").animation == "fast"
    assert load_settings(tmp_path, "ssh:bb").colour_blind is True
    assert load_settings(tmp_path, "ssh:cc") == Settings()
    raw = json.loads((tmp_path / "settings.json").read_text())
    assert set(raw["identities"]) == {"ssh:aa", "ssh:bb"}


def test_broken_settings_file_gives_defaults(tmp_path):
    (tmp_path / "settings.json").write_text("{not json")
    assert load_settings(tmp_path, "x") == Settings()
    (tmp_path / "settings.json").write_text(json.dumps({"identities": {"x": {"theme": 5}}}))
    assert load_settings(tmp_path, "x") == Settings()


def test_go500_chart_plots_the_declared_miles_after_each_turn():
    game = registry.get("go500")
    seats = [Seat(name="A", bot="cautious"), Seat(name="B", bot="bold")]
    table = Table(game, config_from_options(game, {}), seats, 11)
    table.run_bots()
    history = [(s.state_id, s.seat, s.events) for s in table.history]
    (miles,) = progress_series(game, table.config, 2, history)
    assert miles.name == "miles"
    assert miles.goal == 500
    assert len(miles.values) == 2
    assert len(miles.values[0]) == len(miles.turns)
    assert [miles.values[0][-1], miles.values[1][-1]] == list(table.state.totals)
    # One point per turn played, starting before the first turn at 0 miles.
    assert miles.turns == list(range(len(miles.turns)))
    assert [line[0] for line in miles.values] == [0, 0]
    turns = sum(1 for s in table.history for e in s.events if game.turn_started(e))
    assert miles.turns[-1] == turns
    assert cursor_turn(miles, table.state_id) == turns


@pytest.mark.parametrize(
    ("game_id", "names"),
    [("cthulhu500", ["laps", "pack place"]), ("champions", ["money", "track position"])],
)
def test_each_game_declares_its_own_chart(game_id, names):
    game = registry.get(game_id)
    bot = game.default_bot
    seats = [Seat(name=n, bot=bot) for n in ("A", "B", "C")]
    table = Table(game, game.default_config(), seats, 5)
    table.run_bots()
    history = [(s.state_id, s.seat, s.events) for s in table.history]
    series = progress_series(game, table.config, 3, history)
    assert [s.name for s in series] == names
    final = game.progress(table.state)
    for line, measure in zip(series, final.measures, strict=True):
        assert [values[-1] for values in line.values] == list(measure.values)
        assert line.turns[-1] == sum(
            1 for s in table.history for e in s.events if game.turn_started(e)
        )
    assert any(any(v != values[0] for v in values) for values in series[0].values)


@pytest.mark.parametrize("module", ["tui.fold", "tui.seats", "tui.settings", "tui.chart"])
def test_headless_tui_helpers_do_not_import_textual(module):
    import subprocess
    import sys

    code = (
        f"import {module}, sys; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'textual'); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr[-500:]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "go500", "--seats", "me,robot"], "'robot' is not a seat"),
        (["play", "nogame"], "There is no game called 'nogame'"),
        (["play", "--seed", "3"], "need a GAME"),
        (["replay", "/no/such/file.replay"], "no replay file at"),
    ],
)
def test_play_and_replay_refuse_bad_input_with_one_line(args, message, tmp_path):
    from click.testing import CliRunner

    from tui.cli import main

    result = CliRunner().invoke(main, [*args, "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["play", "--bogus"], "speedway: No such option '--bogus'."),
        (["sim", "go500", "--players", "x"], "speedway: Invalid value for '--players': "),
        (
            ["play", "go500", "-o", "race_length=7"],
            "speedway: Go 500 option race_length takes 400, 500 or 600, not 7.",
        ),
        (
            ["play", "go500", "-o", "tradin_paint=maybe"],
            "speedway: Go 500 option tradin_paint takes true or false, not maybe.",
        ),
        (
            ["sim", "cthulhu500", "-o", "vehicle_assignment=x"],
            "speedway: Cthulhu 500 option vehicle_assignment takes choose or random, not x.",
        ),
        (["play", "go500", "-o", "nope=1"], "speedway: Go 500 has no option nope; its options"),
    ],
)
def test_cli_errors_are_one_line_that_says_what_is_allowed(args, line, tmp_path):
    from click.testing import CliRunner

    from tui.cli import main

    result = CliRunner().invoke(
        main, [*args] if args[0] == "sim" else [*args, "--data", str(tmp_path)]
    )
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(line)
    assert "Usage:" not in result.output
    assert "$." not in result.output  # no msgspec path


def test_serve_turn_timer_reaches_the_server_and_refuses_a_negative(monkeypatch, tmp_path):
    from click.testing import CliRunner

    import net.server
    from tui.cli import main

    seen: list[float | None] = []
    monkeypatch.setattr(net.server, "serve", lambda **kw: seen.append(kw["turn_timer"]))
    runner = CliRunner()
    for args in ([], ["--turn-timer", "45"], ["--turn-timer", "0"]):
        result = runner.invoke(main, ["serve", *args, "--data", str(tmp_path)])
        assert result.exit_code == 0, result.output
    assert seen == [120.0, 45.0, None]  # 0 means no limit
    bad = runner.invoke(main, ["serve", "--turn-timer", "-1", "--data", str(tmp_path)])
    assert bad.exit_code == 2
    assert "turn-timer" in bad.output


@pytest.mark.parametrize("game_id", ["go500", "cthulhu500", "champions"])
def test_a_viewer_who_came_in_mid_race_charts_every_turn_played_before(game_id):
    # A spectator's fold starts from a Welcome: every event before it in one step. The chart
    # still has the turns before it, with the values a viewer there from the start sees.
    game = registry.get(game_id)
    seats = [Seat(name=n, bot=game.default_bot) for n in ("A", "B", "C")]
    table = Table(game, game.default_config(), seats, 9)
    table.run_bots()
    history = [(s.state_id, s.seat, s.events) for s in table.history]
    came = len(history) // 2
    welcome = (history[came - 1][0], None, [e for _, _, evs in history[:came] for e in evs])
    joined = [welcome, *history[came:]]
    whole = progress_series(game, table.config, 3, history)
    late = progress_series(game, table.config, 3, joined)
    for full, part in zip(whole, late, strict=True):
        assert part.turns == full.turns
        assert part.values == full.values
    assert len(whole[0].turns) > 10
