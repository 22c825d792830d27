"""The "Done when" properties: torn tails, bit flips and fuzzing never give a wrong event.

* Truncating a real log at every byte offset recovers exactly the commits before the cut.
* Flipping any single bit gives a clean refusal or an earlier prefix, never a wrong event.
* Arbitrary bytes (and mutated corpus files) give a Replay or a ReplayError, nothing else.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.game import Step
from replays.errors import ReplayError
from replays.format import KIND_END, KIND_STEP, MAGIC, Frame, scan
from replays.reader import Replay, open_replay, read_replay
from replays.verify import verify
from tests.fakegame import GAME as DASH
from tests.fakegame import Dealt, Roll, Rolled
from tests.replays.helpers import CORPUS, SALT, encode_log, finished_dash, play_logged

CORPUS_FILES = sorted(CORPUS.iterdir())


def _whole_steps_before(frames: list[Frame], cut: int) -> int:
    return sum(1 for f in frames if f.kind == KIND_STEP and f.end <= cut)


def test_corpus_is_present_and_readable():
    assert len(CORPUS_FILES) >= 5
    finished = 0
    for path in CORPUS_FILES:
        replay = open_replay(path, DASH)
        assert replay.steps, path
        if replay.finished:
            finished += 1
            assert verify(replay).ok, path
    assert finished >= 3


def test_truncating_a_real_log_at_every_offset_recovers_the_commits_before_the_cut(tmp_path):
    path = tmp_path / "game.log"
    table = play_logged(path, seed=11, snapshot_every=2)
    data = path.read_bytes()
    frames = scan(data).frames
    header_end = frames[0].end
    cut_file = tmp_path / "cut.log"
    cut_file.write_bytes(data)
    for cut in range(len(data), -1, -1):
        os.truncate(cut_file, cut)  # a real file, cut shorter each round
        if cut < header_end:
            with pytest.raises(ReplayError):
                open_replay(cut_file, DASH)
            continue
        replay = open_replay(cut_file, DASH)
        whole = _whole_steps_before(frames, cut)
        assert replay.steps == table.history[:whole], cut
        assert replay.finished == (cut == len(data))
        on_boundary = cut == header_end or any(f.end == cut for f in frames)
        assert (replay.truncated_at is None) == on_boundary, cut
        if not on_boundary:
            assert replay.truncated_at == max(f.end for f in frames if f.end <= cut)


def _is_prefix_of(replay: Replay, truth: Replay) -> bool:
    n = len(replay.steps)
    if replay.header != truth.header or replay.steps != truth.steps[:n]:
        return False
    if replay.end is not None and (replay.end != truth.end or n != len(truth.steps)):
        return False
    return all(truth.snapshots.get(k) == snap for k, snap in replay.snapshots.items())


def test_flipping_any_single_bit_refuses_cleanly_or_gives_an_earlier_prefix(tmp_path):
    path = tmp_path / "game.log"
    play_logged(path, seed=4, snapshot_every=2)
    data = path.read_bytes()
    truth = read_replay(data, DASH)
    refused = prefixes = 0
    messages: set[str] = set()
    for bit in range(len(data) * 8):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        try:
            replay = read_replay(bytes(flipped), DASH)
        except ReplayError as err:
            messages.add(str(err))
            refused += 1
            continue
        assert _is_prefix_of(replay, truth), bit
        assert not replay.finished or replay.steps == truth.steps
        prefixes += 1
    # Flips in the last record are a torn tail; flips anywhere else are refused.
    last = scan(data).frames[-1]
    assert prefixes == (len(data) - last.offset) * 8
    assert refused == last.offset * 8
    assert all(m.endswith(".") and "\n" not in m for m in messages)


def _check_any(data: bytes) -> None:
    try:
        replay = read_replay(data, DASH)
    except ReplayError as err:
        message = str(err)
    else:
        _use(replay)
        return
    assert message
    assert "\n" not in message


def _use(replay: Replay) -> None:
    """Whatever was accepted must also seek and verify without any other exception."""
    for k in range(len(replay.steps)):
        try:
            replay.state_at(k)
        except ReplayError:
            break
    verify(replay)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2048))
def test_fuzz_arbitrary_bytes_give_a_replay_or_replay_error(data):
    _check_any(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=512))
def test_fuzz_bytes_after_the_magic(tail):
    _check_any(MAGIC + tail)


@st.composite
def mutated_corpus(draw: st.DrawFn) -> bytes:
    data = bytearray(CORPUS_FILES[draw(st.integers(0, len(CORPUS_FILES) - 1))].read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["set", "insert", "delete", "cut"]))
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "set" and data:
            data[pos] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 16))]
        else:
            del data[pos:]
    return bytes(data)


@settings(max_examples=300, deadline=None)
@given(mutated_corpus())
def test_fuzz_mutated_corpus_files(data):
    _check_any(data)


@settings(max_examples=150, deadline=None)
@given(
    steps=st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(-3, 9)),
            st.lists(st.tuples(st.integers(-2, 9), st.integers(-2, 9)), max_size=3),
        ),
        max_size=6,
    ),
    finish=st.booleans(),
)
def test_fuzz_well_framed_but_nonsense_games(steps, finish):
    """Records with valid checksums but events no game would make: never a traceback."""
    table = finished_dash(2)
    history = [Step(state_id=0, seat=None, action=None, events=[Dealt(seat=5, card=None)])]
    for k, (seat, faces) in enumerate(steps, start=1):
        events = [Rolled(seat=s, face=f) for s, f in faces]
        history.append(Step(state_id=k, seat=seat, action=Roll(), events=events))
    _check_any(encode_log(table, history, finish=finish and len(history) > 1, salt=SALT))


def test_end_record_is_the_last_commit(tmp_path):
    path = tmp_path / "g.log"
    play_logged(path, seed=8)
    data = path.read_bytes()
    frames = scan(data).frames
    assert frames[-1].kind == KIND_END
    assert frames[-1].end == len(data)
