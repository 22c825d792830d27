"""The replays folder and `speedway replay FILE --verify/--print/--export json` end to end."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from core import registry
from core.game import Seat, Table
from replays.cli_commands import run_replay_command
from replays.errors import ReplayError
from replays.format import commitment
from replays.reader import open_replay
from replays.store import list_replays, publish_log, save_finished_table
from replays.verify import verify
from tests.fakegame import GAME as DASH
from tests.fakegame import Dash
from tests.replays.helpers import CORPUS, dash_table, finished_dash, play_logged
from tui.cli import main

NAME = re.compile(r"^dash-\d{8}-\d{6}-[0-9a-f]{12}\.replay$")


@pytest.fixture
def dash_registered(monkeypatch):
    """Dash is test-only: register it for the length of one test (the CLI finds games by id)."""
    monkeypatch.setitem(registry._PACKAGES, "dash", "tests.fakegame")
    monkeypatch.setitem(registry._loaded, "dash", DASH)


# --------------------------------------------------------------------------- store


def test_save_finished_table_writes_one_verified_file_atomically(tmp_path):
    table = finished_dash(3)
    when = datetime(2026, 5, 4, 3, 2, 1, tzinfo=UTC)
    path = save_finished_table(table, tmp_path / "new" / "replays", now=when)
    assert NAME.match(path.name)
    assert path.name.startswith("dash-20260504-030201-")
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no .partial left
    replay = open_replay(path, DASH)
    assert replay.steps == table.history
    assert replay.header.created == "2026-05-04T03:02:01Z"
    assert verify(replay).ok


def test_save_with_the_announced_salt_keeps_the_announced_commitment(tmp_path):
    table = finished_dash(3)
    salt = bytes(range(100, 116))
    announced = commitment(3, salt)  # what a hub without a durable log showed at the start
    path = save_finished_table(table, tmp_path, salt=salt)
    assert open_replay(path, DASH).header.commitment == announced


def test_save_refuses_an_unfinished_table(tmp_path):
    with pytest.raises(ValueError, match="Only a finished game"):
        save_finished_table(dash_table(), tmp_path)


def test_save_of_a_non_deterministic_game_fails_and_leaves_no_file(tmp_path):
    class Flaky(Dash):
        """Deals a different card order every time it sets up: not reproducible."""

        calls = 0

        def setup(self, config, n_seats, rng):
            Flaky.calls += 1
            events = super().setup(config, n_seats, rng)
            return [type(e)(seat=e.seat, card=(e.card + Flaky.calls) % 10) for e in events]

    flaky = Flaky()
    table = Table(flaky, flaky.default_config(), [Seat(name="a", bot="steady")], 1)
    table.run_bots()
    with pytest.raises(ReplayError, match="does not verify, so it was not saved"):
        save_finished_table(table, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_list_replays_newest_first_with_players_and_winner(tmp_path):
    older = finished_dash(3)
    newer = finished_dash(4, n=3)
    save_finished_table(older, tmp_path, now=datetime(2026, 1, 1, tzinfo=UTC))
    save_finished_table(newer, tmp_path, now=datetime(2026, 2, 1, tzinfo=UTC))
    (tmp_path / "notes.txt").write_text("not a replay")
    (tmp_path / "junk.replay").write_bytes(b"garbage")
    infos = list_replays(tmp_path)
    assert [i.date for i in infos] == ["2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z"]
    first = infos[0]
    assert first.game == "dash"
    assert first.title == "Dash"
    assert first.players == newer.names
    assert first.winner == newer.names[newer.result().winner]
    assert first.finished
    assert first.steps == newer.state_id
    assert first.summary == newer.result().summary_for(newer.names)  # names, not "seat N"
    assert first.summary.startswith(newer.names[newer.result().winner])
    with_broken = list_replays(tmp_path, include_broken=True)
    assert len(with_broken) == 3
    assert [i.problem for i in with_broken if i.problem] == ["This is not a Speedway replay file."]
    assert list_replays(tmp_path / "missing") == []


def test_publish_log_moves_the_live_log_keeping_its_commitment(tmp_path, dash_registered):
    tables = tmp_path / "tables"
    tables.mkdir()
    log = tables / "t1.log"
    play_logged(log, seed=12)
    commitment = open_replay(log, DASH).header.commitment
    path = publish_log(log, tmp_path / "replays")
    assert not log.exists()
    assert NAME.match(path.name)
    assert open_replay(path, DASH).header.commitment == commitment


def test_publish_log_takes_a_game_that_is_not_registered(tmp_path):
    log = tmp_path / "t.log"
    play_logged(log, seed=13)
    path = publish_log(log, tmp_path / "replays", game=DASH)
    assert open_replay(path, DASH).seed == 13
    assert not log.exists()


def test_publish_log_refuses_an_unfinished_log(tmp_path, dash_registered):
    log = tmp_path / "t.log"
    play_logged(log, finish=False)
    with pytest.raises(ReplayError, match="has not finished"):
        publish_log(log, tmp_path / "replays")
    assert log.exists()


# --------------------------------------------------------------------------- commands


def run(path: Path, **kw) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_replay_command(path, out=out, err=err, game=DASH, **kw)
    return code, out.getvalue(), err.getvalue()


def test_verify_print_export_of_a_good_file(tmp_path):
    path = save_finished_table(finished_dash(3), tmp_path)
    code, out, err = run(path, verify=True)
    assert (code, err) == (0, "")
    assert "Verified" in out
    replay = open_replay(path, DASH)
    digits = f"SHA-256(3 || salt {replay.salt.hex()})"
    assert f"commitment {replay.header.commitment} = {digits}" in out
    code, out, err = run(path, print_=True)
    assert code == 0
    assert "Seed: 3" in out
    assert "Result: " in out
    code, out, _ = run(path, export="json")
    doc = json.loads(out)
    assert doc["game"] == "dash"
    assert doc["end"]["seed"] == 3
    assert len(doc["steps"]) == len(open_replay(path, DASH).steps)
    assert "salt" not in out
    assert "commitment" not in out


def test_transcript_shows_no_file_metadata(tmp_path):
    path = save_finished_table(finished_dash(3), tmp_path)
    replay = open_replay(path, DASH)
    _, out, _ = run(path, print_=True)
    for secret in (replay.header.commitment, replay.salt.hex(), replay.header.created, path.name):
        assert secret not in out


def test_bad_files_exit_2_with_one_line(tmp_path):
    junk = tmp_path / "junk.replay"
    junk.write_bytes(b"\x89SPEEDWAY nonsense")
    for target in (junk, tmp_path / "missing.replay", tmp_path):
        code, out, err = run(target, verify=True)
        assert code == 2
        assert out == ""
        assert err.startswith("speedway: ")
        assert err.count("\n") == 1


def test_unfinished_log_prints_but_does_not_verify(tmp_path):
    log = tmp_path / "t.log"
    play_logged(log, finish=False)
    code, out, err = run(log, print_=True)
    assert code == 0
    assert "Seed: secret" in out
    assert "Unfinished" in out
    code, _, err = run(log, verify=True)
    assert code == 2
    assert "unfinished" in err


def test_seat_changes_show_in_transcript_export_and_listing(tmp_path):
    source = CORPUS / "seats-changed.replay"
    code, out, _ = run(source, print_=True)
    assert code == 0
    assert "Seats now: Ann, random-2." in out
    _, exported, _ = run(source, export="json")
    changes = json.loads(exported)["seat_changes"]
    assert changes[0]["after_step"] == 2
    assert changes[0]["seats"][0]["name"] == "Ann"
    copy = tmp_path / source.name
    copy.write_bytes(source.read_bytes())
    (info,) = list_replays(tmp_path)
    assert info.players == ["Ann", "random-2"]
    assert info.id == source.stem


def test_torn_file_notes_the_cut_on_stderr(tmp_path):
    code, out, err = run(CORPUS / "torn.log", print_=True)
    assert code == 0
    assert "torn tail" in err
    assert "torn" not in out


def test_export_rejects_unknown_formats(tmp_path):
    path = save_finished_table(finished_dash(3), tmp_path)
    code, _, err = run(path, export="xml")
    assert code == 2
    assert "only as json" in err


def test_sim_save_then_replay_verify_through_the_real_cli(tmp_path, dash_registered):
    runner = CliRunner()
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder in folders:
        result = runner.invoke(
            main, ["sim", "dash", "--players", "3", "--seed", "1", "--save", str(folder)]
        )
        assert result.exit_code == 0, result.output
    (file_a,) = folders[0].iterdir()
    (file_b,) = folders[1].iterdir()
    assert file_a.read_bytes() != file_b.read_bytes()  # each file has its own salt
    verified = runner.invoke(main, ["replay", str(file_a), "--verify"])
    assert verified.exit_code == 0, verified.output
    assert "Verified" in verified.output
    printed = [runner.invoke(main, ["replay", str(f), "--print"]) for f in (file_a, file_b)]
    assert printed[0].exit_code == 0
    assert printed[0].output == printed[1].output
    exported = [
        runner.invoke(main, ["replay", str(f), "--export", "json"]) for f in (file_a, file_b)
    ]
    assert exported[0].output == exported[1].output
    assert json.loads(exported[0].output)["seats"][0]["name"] == "random-1"


def test_cli_refuses_a_tampered_file_with_exit_2(tmp_path, dash_registered):
    path = save_finished_table(finished_dash(3), tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))
    result = CliRunner().invoke(main, ["replay", str(path), "--verify"])
    assert result.exit_code == 2
    assert result.output.startswith("speedway: ")
