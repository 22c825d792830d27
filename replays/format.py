"""The bytes of a Speedway replay/log file: preamble, record framing, record types, scanning.

Owns the on-disk layout (version 1) and nothing above it::

    preamble  MAGIC (13 bytes) | major u16 | minor u16 | salt (16 random bytes)
              | check (8 bytes: BLAKE2b-64 of the preamble before it)
    record*   length u32 | seq u32 | kind u8 | check (8 bytes) | payload (length bytes)

All integers are little-endian. A record's check is BLAKE2b-64 keyed with the file's salt over
``length | seq | kind | payload``, so a record copied from another file never validates, and
``seq`` counts records from 0 without gaps. The payload is one MessagePack-encoded, tagged
msgspec struct: record 0 is the `Header`, then one `StepRecord` per accepted step (step 0 is
the setup), an optional `Snapshot` after every K-th step, a `SeatsRecord` whenever the people at
the table change, and finally the `End` (kinds 1 header, 2 step, 3 snapshot, 4 end, 5 seats).

Every step record is a commit point: a reader takes the file up to the last whole record.
`scan` validates the framing and tells a torn tail (the last record incomplete or damaged,
nothing valid after it: cut back) from damage in the middle (refused).

Must not: know any game's rules, open files, or read the clock.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any, Final

import msgspec

from core.game import Result, Seat
from replays.errors import ReplayError

__all__ = [
    "FORMAT_MAJOR",
    "FORMAT_MINOR",
    "KIND_END",
    "KIND_HEADER",
    "KIND_SEATS",
    "KIND_SNAPSHOT",
    "KIND_STEP",
    "MAGIC",
    "MAX_FILE",
    "MAX_RECORD",
    "PREAMBLE_SIZE",
    "RECORD_HEAD",
    "SALT_SIZE",
    "End",
    "Frame",
    "Header",
    "Scan",
    "SeatsRecord",
    "Snapshot",
    "StepRecord",
    "commitment",
    "encode_frame",
    "encode_preamble",
    "scan",
]

MAGIC: Final = b"\x89SPEEDWAY\r\n\x1a\n"
"""First bytes of every file (PNG-style: catches text-mode mangling and foreign files)."""
FORMAT_MAJOR: Final = 1
FORMAT_MINOR: Final = 0
SALT_SIZE: Final = 16
_CHECK_SIZE: Final = 8
_PREAMBLE = struct.Struct(f"<{len(MAGIC)}sHH{SALT_SIZE}s")
PREAMBLE_SIZE: Final = _PREAMBLE.size + _CHECK_SIZE
_RECORD = struct.Struct("<IIB")
RECORD_HEAD: Final = _RECORD.size + _CHECK_SIZE
MAX_RECORD: Final = 4 << 20
"""No record may claim more payload bytes than this (checked before anything is read)."""
MAX_FILE: Final = 256 << 20
"""Readers refuse files larger than this."""

KIND_HEADER: Final = 1
KIND_STEP: Final = 2
KIND_SNAPSHOT: Final = 3
KIND_END: Final = 4
KIND_SEATS: Final = 5
_KINDS: Final = frozenset({KIND_HEADER, KIND_STEP, KIND_SNAPSHOT, KIND_END, KIND_SEATS})
_PERSON: Final = b"speedway-rec"


# --------------------------------------------------------------------------- records


class Header(msgspec.Struct, frozen=True, kw_only=True, tag="header"):
    """Record 0: what game this is and the commitment to its secret seed."""

    game: str
    title: str
    rules_version: str
    rng: str
    config: msgspec.Raw
    seats: list[Seat]
    commitment: str
    """SHA-256 hex of ``decimal(seed) || salt`` (see `commitment`)."""
    snapshot_every: int
    created: str = ""
    """When the file was started (UTC, ISO 8601): file metadata, never part of the game."""
    branched_from: dict[str, Any] | None = None
    """For a branched table: where it came from (its step 0 holds that game's past events)."""


class StepRecord(msgspec.Struct, frozen=True, kw_only=True, tag="step"):
    """One accepted step: the action (MessagePack nil for the setup), its seat and its events."""

    state_id: int
    seat: int | None
    action: msgspec.Raw
    events: list[msgspec.Raw]


class Snapshot(msgspec.Struct, frozen=True, kw_only=True, tag="snapshot"):
    """The full game state after step ``state_id``: a seeking hint, re-derived by verify."""

    state_id: int
    state: msgspec.Raw


class SeatsRecord(msgspec.Struct, frozen=True, kw_only=True, tag="seats"):
    """Who sits where from step ``state_id`` on (an open seat taken, a bot taking over).

    A seat with both ``bot`` and ``identity`` is that bot standing in for that absent player
    (the hub writes one record when the stretch starts and one when the player is back)."""

    state_id: int
    seats: list[Seat]


class End(msgspec.Struct, frozen=True, kw_only=True, tag="end"):
    """The last record: the result, the revealed seed and a digest of everything before."""

    steps: int
    result: Result
    seed: int
    digest: str
    """SHA-256 hex of every byte of the file before this record."""


def commitment(seed: int, salt: bytes) -> str:
    """The public commitment to a secret seed: SHA-256 of its decimal digits then the salt.

    >>> commitment(1, bytes(16))[:16]
    'f80084d5ed9ac4fb'
    """
    return hashlib.sha256(str(seed).encode("ascii") + salt).hexdigest()


# --------------------------------------------------------------------------- framing


def _keyed(salt: bytes) -> hashlib.blake2b:
    """BLAKE2b-64 keyed with a file's salt, before any bytes: `_check` copies it per record
    (cheaper than keying a new hash each time)."""
    return hashlib.blake2b(digest_size=_CHECK_SIZE, key=salt, person=_PERSON)


def _check(keyed: hashlib.blake2b, head: bytes | memoryview, payload: bytes | memoryview) -> bytes:
    h = keyed.copy()
    h.update(head)
    h.update(payload)
    return h.digest()


def encode_preamble(salt: bytes, major: int = FORMAT_MAJOR, minor: int = FORMAT_MINOR) -> bytes:
    if len(salt) != SALT_SIZE:
        raise ValueError(f"the salt must be {SALT_SIZE} bytes")
    body = _PREAMBLE.pack(MAGIC, major, minor, salt)
    return body + hashlib.blake2b(body, digest_size=_CHECK_SIZE).digest()


def encode_frame(salt: bytes, seq: int, kind: int, payload: bytes) -> bytes:
    """One framed record."""
    if len(payload) > MAX_RECORD:
        raise ValueError(f"a record of {len(payload)} bytes is over the {MAX_RECORD} byte cap")
    head = _RECORD.pack(len(payload), seq, kind)
    return head + _check(_keyed(salt), head, payload) + payload


class Frame(msgspec.Struct, frozen=True):
    """One whole, valid record found by `scan`: bytes ``offset:end`` of the file."""

    seq: int
    kind: int
    offset: int
    end: int
    payload: bytes


class Scan(msgspec.Struct, frozen=True, kw_only=True):
    """The framing of a file: its salt, its whole records, and where a torn tail was cut."""

    major: int
    minor: int
    salt: bytes
    frames: list[Frame]
    size: int
    """Bytes in the file."""
    good_end: int
    """Offset just after the last whole record (== size unless a tail was torn)."""
    truncated_at: int | None
    """Offset where an incomplete or damaged tail begins, or None for a clean file."""


def _frame_at(
    data: bytes | memoryview, pos: int, keyed: hashlib.blake2b, size: int
) -> tuple[int, int, int]:
    """(length, seq, kind) of a valid record at ``pos``, or length -1 if none is there."""
    if pos + RECORD_HEAD > size:
        return -1, 0, 0
    length, seq, kind = _RECORD.unpack_from(data, pos)
    if length > MAX_RECORD or kind not in _KINDS or pos + RECORD_HEAD + length > size:
        return -1, seq, kind
    head_end = pos + _RECORD.size
    body = pos + RECORD_HEAD
    check = _check(keyed, data[pos:head_end], data[body : body + length])
    if check != data[head_end:body]:
        return -1, seq, kind
    return length, seq, kind


def _valid_record_after(data: bytes, start: int, keyed: hashlib.blake2b, min_seq: int) -> bool:
    """Whether any whole, valid record of this file starts somewhere after ``start``."""
    size = len(data)
    max_seq = min_seq + (size - start) // RECORD_HEAD  # no more records than that fit
    for pos in range(start + 1, size - RECORD_HEAD + 1):
        length, seq, kind = _RECORD.unpack_from(data, pos)
        if length > MAX_RECORD or kind not in _KINDS or not min_seq <= seq <= max_seq:
            continue
        if pos + RECORD_HEAD + length > size:
            continue
        if _frame_at(data, pos, keyed, size)[0] >= 0:
            return True
    return False


def scan(data: bytes) -> Scan:
    """Validate the preamble and framing of a whole file's bytes.

    Raises `ReplayError` for a foreign file, an unknown format version, a damaged preamble,
    damage in the middle, a record over the cap, or records out of order. A torn tail is not an
    error: the scan stops at the last whole record and says where the tail began.
    """
    size = len(data)
    if size > MAX_FILE:
        raise ReplayError(f"The file is {size} bytes, larger than any replay ({MAX_FILE} bytes).")
    if size < len(MAGIC):
        if size and MAGIC.startswith(data):
            raise ReplayError("The file ends inside its header, so it holds no game.")
        raise ReplayError("This is not a Speedway replay file.")
    if data[: len(MAGIC)] != MAGIC:
        raise ReplayError("This is not a Speedway replay file.")
    if size < PREAMBLE_SIZE:
        raise ReplayError("The file ends inside its header, so it holds no game.")
    body = data[: _PREAMBLE.size]
    if (
        hashlib.blake2b(body, digest_size=_CHECK_SIZE).digest()
        != data[_PREAMBLE.size : PREAMBLE_SIZE]
    ):
        raise ReplayError("The replay's file header is damaged (its checksum does not match).")
    _magic, major, minor, salt = _PREAMBLE.unpack_from(data, 0)
    if major != FORMAT_MAJOR:
        raise ReplayError(
            f"This replay uses format {major}.{minor}, but this Speedway reads only format "
            f"{FORMAT_MAJOR}.x; a newer Speedway may open it."
        )
    frames: list[Frame] = []
    pos = PREAMBLE_SIZE
    truncated_at: int | None = None
    view = memoryview(data)
    keyed = _keyed(salt)
    while pos < size:
        expected = len(frames)
        length, seq, kind = _frame_at(view, pos, keyed, size)
        if length < 0:
            # A whole record never claims more than the cap, so this is asked only here.
            if pos + RECORD_HEAD <= size:
                claimed = _RECORD.unpack_from(data, pos)[0]
                if claimed > MAX_RECORD and pos + RECORD_HEAD + claimed <= size:
                    raise ReplayError(
                        f"Record {expected} claims {claimed} bytes, more than the {MAX_RECORD} "
                        "byte cap, so the file is damaged."
                    )
            if _valid_record_after(data, pos, keyed, expected):
                raise ReplayError(
                    f"Record {expected} of the replay is damaged and valid records follow it, so "
                    "the file is corrupt in the middle."
                )
            truncated_at = pos
            break
        if seq != expected:
            raise ReplayError(
                f"Record {seq} appears where record {expected} belongs, so the file's records "
                "are out of order."
            )
        end = pos + RECORD_HEAD + length
        frames.append(Frame(seq, kind, pos, end, bytes(data[pos + RECORD_HEAD : end])))
        pos = end
    good_end = frames[-1].end if frames else PREAMBLE_SIZE
    return Scan(
        major=major,
        minor=minor,
        salt=salt,
        frames=frames,
        size=size,
        good_end=good_end,
        truncated_at=truncated_at,
    )
