"""verify: the commitment, re-simulation byte for byte, tampering, wrong seeds, branched logs."""

from __future__ import annotations

import msgspec

from core.game import Result, Step, Table
from replays.format import commitment
from replays.reader import read_replay
from replays.verify import verify
from tests.fakegame import GAME as DASH
from tests.fakegame import Dash, Rolled, Stop
from tests.replays.helpers import SALT, encode_log, finished_dash, play_logged, seats


def test_a_true_replay_verifies(tmp_path):
    play_logged(tmp_path / "t.log", seed=31, goal=30, bot="roll", snapshot_every=2)
    report = verify(read_replay((tmp_path / "t.log").read_bytes(), DASH))
    assert report.ok, report.message
    assert report.steps > 5
    assert report.message.startswith(f"Verified {report.steps} steps")


def test_verify_catches_a_tampered_event_even_with_valid_checksums():
    table = finished_dash(8, goal=30, bot="roll")
    history = list(table.history)
    k = next(i for i, s in enumerate(history) if i > 1 and isinstance(s.events[0], Rolled))
    rolled = history[k].events[0]
    forged = Rolled(seat=rolled.seat, face=(rolled.face + 1) % 6)
    history[k] = msgspec.structs.replace(history[k], events=[forged, *history[k].events[1:]])
    replay = read_replay(encode_log(table, history), DASH)  # framing is perfect
    report = verify(replay)
    assert not report.ok
    assert report.bad_step == k
    assert f"Step {k}'s recorded events differ" in report.message
    assert report.steps == k - 1


def test_verify_catches_a_tampered_setup_card():
    table = finished_dash(8)
    setup = table.history[0]
    first = setup.events[0]
    swapped = msgspec.structs.replace(first, card=(first.card + 1) % 10)
    history = [msgspec.structs.replace(setup, events=[swapped, *setup.events[1:]])]
    history += table.history[1:]
    report = verify(read_replay(encode_log(table, history), DASH))
    assert not report.ok
    assert report.bad_step == 0
    assert "setup does not match" in report.message


def test_verify_catches_a_wrong_seed_against_the_commitment():
    table = finished_dash(8)
    replay = read_replay(encode_log(table, table.history), DASH)
    assert verify(replay).ok
    report = verify(replay, seed=9)
    assert not report.ok
    assert "The seed 9 does not match the commitment" in report.message
    # A forger who swaps the revealed seed in the end record is caught the same way.
    lying = read_replay(encode_log(table, table.history, end_seed=9), DASH)
    assert "does not match the commitment" in verify(lying).message


def test_a_seed_that_matches_the_commitment_must_also_deal_the_game():
    # Commit to seed 8 but record the game of seed 10: the commitment holds, the deal does not.
    other = finished_dash(10)
    header_table = Table(DASH, other.config, other.seats, 8)
    data = encode_log(header_table, other.history, result=other.result(), end_seed=8)
    report = verify(read_replay(data, DASH))
    assert not report.ok
    assert report.bad_step == 0


def test_verify_catches_a_forged_result_and_a_false_end():
    table = finished_dash(12)
    fake = Result(ranking=list(reversed(table.result().ranking)), scores=[0, 0], summary="x")
    report = verify(read_replay(encode_log(table, table.history, result=fake), DASH))
    assert not report.ok
    assert "result recorded" in report.message
    early = table.history[:2]
    report = verify(read_replay(encode_log(table, early, result=table.result()), DASH))
    assert not report.ok
    assert "not over after its last step" in report.message


def test_verify_catches_an_action_the_rules_refuse():
    table = finished_dash(12)
    history = [*table.history[:2], Step(state_id=2, seat=0, action=Stop(), events=[])]
    report = verify(read_replay(encode_log(table, history, finish=False), DASH), seed=12)
    assert not report.ok
    assert report.bad_step == 2
    assert "refused by the rules" in report.message


def test_verify_catches_a_forged_snapshot():
    table = finished_dash(12, goal=30, bot="roll")
    wrong = msgspec.structs.replace(table.state, steps=(99, 99))
    data = encode_log(table, table.history, snapshots={1: wrong})
    report = verify(read_replay(data, DASH))
    assert not report.ok
    assert "snapshot after step 1" in report.message


def test_unfinished_log_needs_the_seed(tmp_path):
    play_logged(tmp_path / "t.log", seed=44, finish=False)
    replay = read_replay((tmp_path / "t.log").read_bytes(), DASH)
    report = verify(replay)
    assert not report.ok
    assert "unfinished" in report.message
    assert "without that seed" in report.message
    assert verify(replay, seed=44).ok


def test_rules_or_generator_version_mismatch_is_reported():
    table = finished_dash(3)
    data = encode_log(table, table.history)

    class NewerDash(Dash):
        rules_version = "dash/2"

    report = verify(read_replay(data, NewerDash()))
    assert not report.ok
    assert "rules dash/1" in report.message
    assert "dash/2" in report.message


def test_a_branched_log_takes_its_past_as_given(tmp_path):
    source = finished_dash(1, goal=30, bot="roll")
    past = [event for step in source.history[:4] for event in step.events]
    branched = Table(DASH, source.config, seats(2), 77, setup_events=past)
    branched.run_bots()
    data = encode_log(branched, branched.history, branched_from={"source": "x", "step": 3})
    replay = read_replay(data, DASH)
    assert replay.header.branched_from == {"source": "x", "step": 3}
    report = verify(replay)
    assert report.ok, report.message
    assert "taken as given" in report.message
    # The same records without the branch mark fail: step 0 is not what seed 77 deals.
    plain = read_replay(encode_log(branched, branched.history), DASH)
    assert not verify(plain).ok


def test_commitment_is_sha256_of_decimal_seed_and_salt():
    import hashlib

    assert commitment(42, SALT) == hashlib.sha256(b"42" + SALT).hexdigest()
    assert commitment(-1, SALT) != commitment(1, SALT)
