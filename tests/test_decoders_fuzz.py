"""Every decoder we own, fed arbitrary and mutated input (issue 12, STYLE.md #17): it gives a
result or our one error type, never another exception or a hang. The replay/log reader has its
own in tests/replays/test_crash_safety.py; here: the rules-data loaders of the three games, the
SSH driver's input parser and the login line editor, the nickname/chat sanitiser, and the
server's own files (players, replay access, table meta). Counts are printed (`-s`);
`make fuzz` runs the same properties far longer, plus atheris."""

from __future__ import annotations

import asyncio
import os
import unicodedata
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("SPEEDWAY_FUZZ_EXAMPLES", "100"))
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRIED: dict[str, int] = {}


def tried(name: str) -> None:
    TRIED[name] = TRIED.get(name, 0) + 1


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    for name, n in sorted(TRIED.items()):
        print(f"fuzz {name}: {n} inputs tried")


# ---------------------------------------------------------------- JSON mutation

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


def _replace(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        return {**doc, head: _replace(doc[head], rest, value)}
    copy = list(doc)
    copy[head] = _replace(doc[head], rest, value)
    return copy


@st.composite
def mutated_json(draw, raw: bytes) -> bytes:
    """A real data file with one value replaced, one key dropped, or its bytes cut/garbled."""
    doc = msgspec.json.decode(raw)
    how = draw(st.sampled_from(["replace", "drop", "cut", "bytes"]))
    if how == "cut":
        return raw[: draw(st.integers(0, len(raw)))]
    if how == "bytes":
        return draw(st.binary(max_size=256))
    paths = _paths(doc)
    path = draw(st.sampled_from(paths))
    if how == "drop" and path and isinstance(path[-1], str):
        parent = path[:-1]

        def drop(d: Any, p: tuple[Any, ...]) -> Any:
            if not p:
                return {k: v for k, v in d.items() if k != path[-1]}
            return _replace(d, p[:1], drop(d[p[0]], p[1:]))

        doc = drop(doc, parent)
    else:
        doc = _replace(doc, path, draw(json_value))
    return msgspec.json.encode(doc)


# ---------------------------------------------------------------- rules-data loaders


def _go500_files() -> dict[str, Any]:
    from core.go500 import data

    return {
        "dice.json": (data.DiceSet, data._check_dice),
        "cup_points.json": (data.CupPoints, data._check_points),
        "schedule.json": (data.Schedule, lambda x: x),
    }


GO500_DIR = Path(__file__).parent.parent / "core" / "go500" / "data"


@pytest.mark.parametrize("name", ["dice.json", "cup_points.json", "schedule.json"])
@FAST
@given(data=st.data())
def test_go500_data_loader_gives_data_or_data_error(tmp_path_factory, name, data):
    from core.go500 import data as go500_data

    raw = (GO500_DIR / name).read_bytes()
    blob = data.draw(mutated_json(raw))
    folder = tmp_path_factory.mktemp("go500")
    (folder / name).write_bytes(blob)
    kind, check = _go500_files()[name]
    original = go500_data._HERE
    go500_data._HERE = folder
    try:
        check(go500_data.load_json(name, kind))
    except go500_data.DataError as err:
        assert str(err)  # noqa: PT017 - success is also fine
    finally:
        go500_data._HERE = original
    tried(f"go500 {name}")


CHAMPIONS_FILES = ["roster.json", "dice.json", "track.json", "money.json", "cards.json"]


@pytest.mark.parametrize("name", CHAMPIONS_FILES)
@FAST
@given(data=st.data())
def test_champions_component_loader_gives_components_or_data_error(name, data):
    from core.champions import data as champ

    real = champ._read
    blob = data.draw(mutated_json(real(name)))
    champ._read = lambda n: blob if n == name else real(n)
    try:
        champ.load_components()
    except champ.DataError as err:
        assert str(err)  # noqa: PT017 - success is also fine
    finally:
        champ._read = real
    tried(f"champions {name}")


@FAST
@given(data=st.data())
def test_cthulhu_card_loader_gives_cards_or_data_error(data):
    from core.cthulhu500 import data as cards

    raw = (Path(cards.__file__).parent / "data" / "cards.json").read_bytes()
    blob = data.draw(mutated_json(raw))
    try:
        cards.load_cards(blob)
    except cards.DataError as err:
        assert str(err)  # noqa: PT017 - success is also fine
    tried("cthulhu500 cards.json")


# ---------------------------------------------------------------- the SSH input path


@FAST
@given(chunks=st.lists(st.binary(max_size=64), max_size=8))
@example(chunks=[b"Ann\x1b["])  # an unfinished escape once swallowed the Enter: a hang
def test_login_line_editor_takes_any_bytes(chunks):
    from net.server import _LinePrompt

    async def run() -> str | None:
        echoed: list[bytes] = []
        prompt = _LinePrompt(echoed.append, limit=32)
        for chunk in chunks:
            prompt.feed(chunk)
        prompt.feed(b"\r")
        line = await asyncio.wait_for(prompt.done, 5)  # Enter always ends the line
        for piece in echoed:  # the echo carries no control bytes but \r \n \b
            assert not any(b < 0x20 and b not in (8, 10, 13) for b in piece)
            assert b"\x1b" not in piece
        return line

    line = asyncio.run(run())
    if line is not None:
        assert len(line) <= 32
        assert all(ch.isprintable() for ch in line)
    tried("login line editor")


_KEYISH = st.sampled_from(
    [
        b"\x1b",
        b"[",
        b"O",
        b"A",
        b"B",
        b"1;5",
        b"~",
        b"<",
        b"M",
        b"m",
        b"0;10;20",
        b"200~",
        b"201~",
        b"\x1b[",
        b"\x1b]",
        b"\x07",
        b"\x1b\\",
        b"P",
        b"?",
        b"$",
        b";",
        b"\xff",
        b"\xc3",
    ]
)


class _Queue:
    def qsize(self) -> int:
        return 0


class _FakeApp:
    """What the driver needs of an app: somewhere to post messages."""

    def __init__(self) -> None:
        self.got: list[Any] = []
        self._message_queue = _Queue()

    def post_message(self, message: Any) -> bool:
        self.got.append(message)
        return True


class _Channel:
    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return False


@FAST
@given(
    chunks=st.lists(
        st.one_of(st.binary(max_size=32), st.lists(_KEYISH, max_size=12).map(b"".join)),
        max_size=10,
    )
)
@example(chunks=[b"\x1b[2:B"])  # found by atheris: Textual's parser raised ValueError
def test_driver_input_parser_takes_any_bytes(chunks):
    from net.ssh_driver import SSHDriver

    async def run() -> tuple[int, int]:
        app = _FakeApp()
        driver = SSHDriver(app, channel=_Channel(), size=(80, 24))
        driver._input = True  # as after start_application_mode
        counted = 0
        for chunk in chunks:
            counted += driver.feed(chunk)
        driver._tick()  # a lone ESC (or a cut sequence) arrives on the timer
        driver.close()
        return counted, len(app.got)

    counted, delivered = asyncio.run(run())
    assert delivered >= 0
    assert counted <= sum(len(c) for c in chunks) + 1
    tried("driver input parser")


# ---------------------------------------------------------------- sanitiser

_HOSTILE = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.sampled_from(["\x1b", "\x07", "\u202e", "\u200f", "\u0301", "\x9b", "\r", "\n", "\t"]),
    ),
    max_size=80,
)


@FAST
@given(raw=_HOSTILE)
def test_nickname_normalisation_is_safe_and_idempotent(raw):
    from net.sanitize import NICK_MAX, clean_nickname, nickname_error, normalise_nickname

    name, notes = normalise_nickname(raw)
    assert len(name) <= NICK_MAX
    assert all(unicodedata.category(ch)[0] in "LMN" or ch in "._-" for ch in name)
    assert normalise_nickname(name) == (name, [])  # idempotent: nothing more to say
    error = nickname_error(name)
    assert error is None or error.endswith(".")
    assert clean_nickname(raw)  # never empty
    assert isinstance(notes, list)
    tried("nickname sanitiser")


@FAST
@given(raw=_HOSTILE)
@example(raw="a \u0301b")  # a mark after a space has no letter to sit on
def test_seat_name_cleaning_is_safe_and_idempotent(raw):
    from net.sanitize import NICK_MAX, clean_seat_name

    name = clean_seat_name(raw)
    assert 0 < len(name) <= NICK_MAX
    assert all(unicodedata.category(ch)[0] in "LMN" or ch in "._- " for ch in name)
    assert name == name.strip()
    assert "  " not in name
    assert all(word and unicodedata.category(word[0])[0] != "M" for word in name.split(" "))
    assert clean_seat_name(name) == name
    tried("seat name sanitiser")


@FAST
@given(raw=_HOSTILE)
@example(raw="gou\x01\u0301")  # found by atheris: a dropped control let a mark compose later
@example(raw="1\r\n\u0341\u0301\u0301\x01\x00\u0301")  # ... and reset the mark count
def test_chat_cleaning_is_safe_and_idempotent(raw):
    from net.sanitize import CHAT_MAX, clean_chat

    line = clean_chat(raw * 5)
    assert len(line) <= CHAT_MAX
    assert all(unicodedata.category(ch)[0] in "LMNPS" or ch == " " for ch in line)
    assert clean_chat(line) == line
    tried("chat sanitiser")


# ---------------------------------------------------------------- the server's own files


@FAST
@given(blob=st.one_of(st.binary(max_size=200), json_value.map(msgspec.json.encode)))
def test_players_file_gives_a_book_or_one_sentence(tmp_path_factory, blob):
    from net.players import PlayerBook

    folder = tmp_path_factory.mktemp("players")
    (folder / "players.json").write_bytes(blob)
    try:
        book = PlayerBook(folder)
    except ValueError as err:
        assert "not a valid players file" in str(err)  # noqa: PT017
    else:
        assert len(book) >= 0
    tried("players.json")


@FAST
@given(blob=st.one_of(st.binary(max_size=200), json_value.map(msgspec.json.encode)))
def test_replay_access_file_never_raises_and_fails_closed(tmp_path_factory, blob):
    from net.replay_access import ReplayAccess

    folder = tmp_path_factory.mktemp("access")
    (folder / "replays").mkdir()
    (folder / "replays" / "r.access").write_bytes(blob)
    access = ReplayAccess(folder)
    seen = access.may_see("r", "SHA256:stranger")
    try:
        doc = msgspec.json.decode(blob)
    except msgspec.DecodeError:
        doc = None
    if not (isinstance(doc, dict) and doc.get("private") is False):
        assert seen is False  # unreadable or private: a stranger sees nothing
    tried("replay access file")
