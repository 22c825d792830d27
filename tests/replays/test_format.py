"""The file format: round trips, header facts, and every refusal naming its reason."""

from __future__ import annotations

import struct

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game import Result, Seat, Step
from core.rng import RNG_NAME
from replays.errors import ReplayError
from replays.format import (
    KIND_STEP,
    MAGIC,
    MAX_RECORD,
    PREAMBLE_SIZE,
    RECORD_HEAD,
    End,
    Header,
    Snapshot,
    StepRecord,
    commitment,
    encode_frame,
    encode_preamble,
    scan,
)
from replays.reader import read_replay
from tests.fakegame import GAME as DASH
from tests.fakegame import Dealt, Roll, Rolled, Stop
from tests.replays.helpers import (
    GOLDEN,
    SALT,
    encode_log,
    finished_dash,
    golden_bytes,
    play_logged,
)


def test_header_records_game_rules_rng_config_seats_and_commitment(tmp_path):
    table = play_logged(tmp_path / "t.log", seed=9)
    replay = read_replay((tmp_path / "t.log").read_bytes(), DASH)
    header = replay.header
    assert (header.game, header.rules_version, header.rng) == ("dash", "dash/1", RNG_NAME)
    assert replay.config == table.config
    assert replay.seats == table.seats
    assert header.commitment == commitment(9, replay.salt)
    assert len(replay.salt) == 16
    assert replay.steps == table.history
    assert replay.end is not None
    assert replay.end.seed == 9
    assert replay.result == table.result()
    assert replay.truncated_at is None


def test_every_file_gets_its_own_salt(tmp_path):
    play_logged(tmp_path / "a.log", seed=1)
    play_logged(tmp_path / "b.log", seed=1)
    a = read_replay((tmp_path / "a.log").read_bytes(), DASH)
    b = read_replay((tmp_path / "b.log").read_bytes(), DASH)
    assert a.salt != b.salt
    assert a.header.commitment != b.header.commitment
    assert a.steps == b.steps


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), n=st.integers(1, 4), goal=st.integers(1, 30))
def test_encode_decode_round_trip_of_whole_games(seed, n, goal):
    table = finished_dash(seed, n, goal=goal)
    data = encode_log(table, table.history)
    replay = read_replay(data, DASH)
    assert replay.steps == table.history
    assert replay.config == table.config
    assert replay.result == table.result()
    assert replay.seed == seed


@settings(max_examples=60, deadline=None)
@given(
    state_id=st.integers(0, 2**31),
    seat=st.none() | st.integers(0, 3),
    faces=st.lists(st.integers(0, 5), max_size=5),
    seed=st.integers(-(2**63), 2**64 - 1),
)
def test_record_structs_round_trip(state_id, seat, faces, seed):
    enc = msgspec.msgpack.encode
    events = [msgspec.Raw(enc(Rolled(seat=0, face=f))) for f in faces]
    step = StepRecord(state_id=state_id, seat=seat, action=msgspec.Raw(enc(Roll())), events=events)
    back = msgspec.msgpack.decode(enc(step), type=StepRecord)
    assert back.state_id == state_id
    assert back.seat == seat
    assert [bytes(r) for r in back.events] == [bytes(r) for r in events]
    end = End(
        steps=state_id, result=Result(ranking=[0], scores=[1], summary="x"), seed=seed, digest="d"
    )
    assert msgspec.msgpack.decode(enc(end), type=End) == end
    snap = Snapshot(state_id=state_id, state=msgspec.Raw(enc({"a": faces})))
    assert bytes(msgspec.msgpack.decode(enc(snap), type=Snapshot).state) == bytes(snap.state)
    header = Header(
        game="dash",
        title="Dash",
        rules_version="dash/1",
        rng=RNG_NAME,
        config=msgspec.Raw(enc({"goal": 3})),
        seats=[Seat(name="a")],
        commitment="c",
        snapshot_every=state_id,
    )
    decoded = msgspec.msgpack.decode(enc(header), type=Header)
    assert decoded.seats == header.seats
    assert decoded.snapshot_every == state_id


def test_foreign_file_is_refused():
    with pytest.raises(ReplayError, match="not a Speedway replay"):
        read_replay(b"PK\x03\x04 this is a zip file, not a replay at all", DASH)
    with pytest.raises(ReplayError, match="not a Speedway replay"):
        read_replay(b"", DASH)


def test_file_cut_inside_its_header_holds_no_game():
    with pytest.raises(ReplayError, match="ends inside its header"):
        read_replay(MAGIC[:5], DASH)
    with pytest.raises(ReplayError, match="ends inside its header"):
        read_replay(encode_preamble(SALT), DASH)


def test_unknown_major_version_is_refused_with_both_versions():
    table = finished_dash()
    data = encode_log(table, table.history)
    future = encode_preamble(SALT, major=2, minor=3) + data[PREAMBLE_SIZE:]
    with pytest.raises(ReplayError, match=r"format 2\.3.*only format 1\.x"):
        read_replay(future, DASH)


def test_damaged_preamble_is_refused():
    table = finished_dash()
    data = bytearray(encode_log(table, table.history))
    data[len(MAGIC) + 5] ^= 0x40  # a bit of the salt
    with pytest.raises(ReplayError, match="file header is damaged"):
        read_replay(bytes(data), DASH)


def test_bad_checksum_in_the_middle_is_refused():
    table = finished_dash()
    data = bytearray(encode_log(table, table.history))
    frames = scan(bytes(data)).frames
    middle = frames[3]
    data[middle.end - 1] ^= 1
    with pytest.raises(ReplayError, match=r"Record 3 .* damaged and valid records follow"):
        read_replay(bytes(data), DASH)


def test_record_from_another_file_is_caught_by_the_salt():
    table = finished_dash()
    ours = encode_log(table, table.history)
    theirs = encode_log(table, table.history, salt=b"\xff" * 16)
    a, b = scan(ours).frames, scan(theirs).frames
    spliced = ours[: a[2].offset] + theirs[b[2].offset : b[2].end] + ours[a[2].end :]
    with pytest.raises(ReplayError, match=r"Record 2 .* damaged"):
        read_replay(spliced, DASH)


def test_duplicated_or_reordered_records_are_caught_by_seq():
    table = finished_dash()
    data = encode_log(table, table.history)
    f = scan(data).frames
    duplicated = data[: f[3].end] + data[f[2].offset : f[2].end] + data[f[3].end :]
    with pytest.raises(ReplayError, match="Record 2 appears where record 4 belongs"):
        read_replay(duplicated, DASH)
    swapped = (
        data[: f[2].offset]
        + data[f[3].offset : f[3].end]
        + data[f[2].offset : f[2].end]
        + data[f[3].end :]
    )
    with pytest.raises(ReplayError, match="out of order"):
        read_replay(swapped, DASH)


def test_length_over_the_cap_is_refused_before_reading():
    data = encode_preamble(SALT) + struct.pack("<IIB", MAX_RECORD + 1, 0, 1) + bytes(8)
    data += bytes(MAX_RECORD + 1)
    with pytest.raises(ReplayError, match=r"claims .* more than the .* cap"):
        read_replay(data, DASH)


def test_zero_filled_or_garbage_tail_is_cut_as_torn():
    table = finished_dash()
    data = encode_log(table, table.history, finish=False)
    for tail in (bytes(4096), b"\x13\x37" * 50, b"\x01"):
        replay = read_replay(data + tail, DASH)
        assert replay.truncated_at == len(data)
        assert replay.steps == table.history


def test_step_numbers_must_follow_on():
    table = finished_dash()
    skipped = [table.history[0], *table.history[2:]]
    with pytest.raises(ReplayError, match="Step 2 appears where step 1 belongs"):
        read_replay(encode_log(table, skipped), DASH)


def test_setup_with_an_action_and_step_without_seat_are_refused():
    table = finished_dash()
    bad_setup = [Step(state_id=0, seat=0, action=Roll(), events=[]), *table.history[1:]]
    with pytest.raises(ReplayError, match="setup step carries an action"):
        read_replay(encode_log(table, bad_setup), DASH)
    no_seat = [table.history[0], Step(state_id=1, seat=7, action=Stop(), events=[])]
    with pytest.raises(ReplayError, match="names no seat"):
        read_replay(encode_log(table, no_seat, finish=False), DASH)


def test_events_that_are_not_the_games_are_refused():
    table = finished_dash()
    foreign = [Step(state_id=0, seat=None, action=None, events=[{"type": "teleport"}])]
    with pytest.raises(ReplayError, match="events of step 0 cannot be read"):
        read_replay(encode_log(table, foreign, finish=False), DASH)


def test_an_action_that_is_not_the_games_or_missing_is_refused():
    table = finished_dash()
    foreign = [table.history[0], Step(state_id=1, seat=0, action={"type": "fly"}, events=[])]
    with pytest.raises(ReplayError, match="action of step 1 cannot be read"):
        read_replay(encode_log(table, foreign, finish=False), DASH)
    missing = [table.history[0], Step(state_id=1, seat=0, action=None, events=[])]
    with pytest.raises(ReplayError, match="action of step 1 cannot be read"):
        read_replay(encode_log(table, missing, finish=False), DASH)


def test_steps_read_in_one_call_equal_steps_read_part_by_part():
    """The reader decodes a whole step record with the game's types; the same record read as
    raw parts, each decoded alone, gives the same action and events."""
    table = finished_dash()
    replay = read_replay(encode_log(table, table.history), DASH)
    action, event = (
        msgspec.msgpack.Decoder(DASH.action_type),
        msgspec.msgpack.Decoder(DASH.event_type),
    )
    assert len(replay.raw_steps) == len(replay.steps) == len(table.history)
    for k, (step, (action_raw, event_raws)) in enumerate(
        zip(replay.steps, replay.raw_steps, strict=True)
    ):
        assert step.action == (None if k == 0 else action.decode(action_raw))
        assert step.events == [event.decode(raw) for raw in event_raws]
    assert replay.steps == table.history


def test_wrong_game_and_unregistered_game_are_refused():
    table = finished_dash()
    data = encode_log(table, table.history)

    class Other:
        id = "other"

    with pytest.raises(ReplayError, match="of the game 'dash', not 'other'"):
        read_replay(data, Other())  # type: ignore[arg-type]
    with pytest.raises(ReplayError, match="does not have"):
        read_replay(data)


def test_end_record_digest_and_step_count_are_checked():
    table = finished_dash()
    data = encode_log(table, table.history)
    f = scan(data).frames
    # Forge an end record with a wrong digest (but valid framing).
    end = msgspec.msgpack.decode(f[-1].payload, type=End)
    forged = msgspec.structs.replace(end, digest="0" * 64)
    payload = msgspec.msgpack.encode(forged)
    bad = data[: f[-1].offset] + encode_frame(SALT, f[-1].seq, f[-1].kind, payload)
    with pytest.raises(ReplayError, match="digest does not match"):
        read_replay(bad, DASH)
    short = msgspec.structs.replace(end, steps=end.steps - 1)
    bad = data[: f[-1].offset] + encode_frame(
        SALT, f[-1].seq, f[-1].kind, msgspec.msgpack.encode(short)
    )
    with pytest.raises(ReplayError, match="end record says"):
        read_replay(bad, DASH)


def test_records_after_the_end_are_refused():
    table = finished_dash()
    data = encode_log(table, table.history)
    f = scan(data).frames
    extra_step = table.history[-1]
    enc = msgspec.msgpack.encode
    record = StepRecord(
        state_id=extra_step.state_id + 1,
        seat=0,
        action=msgspec.Raw(enc(Roll())),
        events=[],
    )
    data += encode_frame(SALT, len(f), KIND_STEP, enc(record))
    with pytest.raises(ReplayError, match="records after its end"):
        read_replay(data, DASH)


def test_frame_layout_is_length_seq_kind_check_payload():
    frame = encode_frame(SALT, 7, KIND_STEP, b"abc")
    assert len(frame) == RECORD_HEAD + 3
    assert struct.unpack_from("<IIB", frame) == (3, 7, KIND_STEP)
    assert frame.endswith(b"abc")


def test_seed_is_revealed_only_at_the_end(tmp_path):
    play_logged(tmp_path / "live.log", seed=123456789, finish=False)
    data = (tmp_path / "live.log").read_bytes()
    assert b"123456789" not in data
    assert (123456789).to_bytes(4, "big") not in data
    assert read_replay(data, DASH).seed is None


def test_hidden_cards_are_in_the_log_in_full():
    table = finished_dash(5)
    replay = read_replay(encode_log(table, table.history), DASH)
    dealt = [e for e in replay.steps[0].events if isinstance(e, Dealt)]
    assert all(e.card is not None for e in dealt)


def test_writer_output_is_byte_exact_to_the_golden_file():
    """Any change to the bytes we write shows up here as a reviewed diff (and a version bump)."""
    assert golden_bytes() == GOLDEN.read_bytes()
    replay = read_replay(GOLDEN.read_bytes(), DASH)
    assert replay.header.created == "2026-01-02T03:04:05Z"
    assert sorted(replay.snapshots) == list(range(4, replay.last_step + 1, 4))
