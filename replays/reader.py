"""Reading a replay/log file: validate, decode, and seek to any step.

Owns `open_replay` / `read_replay` (bytes -> `Replay`), `peek` (header and end record only,
without the game) and `Replay` (header, game, config, seats, steps, end record, the torn-tail
offset, `state_at(k)` and `events_upto(k)`). Every refusal is a `ReplayError` with one
sentence; nothing else escapes for any input bytes.

Snapshots are used only as seeking hints here; `replays.verify` re-derives them.
Must not: write or repair files (that is `replays.recover`), or re-simulate (`replays.verify`).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from core import registry
from core.game import Game, Result, Seat, Step
from replays.errors import ReplayError
from replays.format import (
    KIND_END,
    KIND_HEADER,
    KIND_SEATS,
    KIND_SNAPSHOT,
    KIND_STEP,
    MAX_FILE,
    End,
    Header,
    Scan,
    SeatsRecord,
    Snapshot,
    StepRecord,
    scan,
)

__all__ = ["Replay", "open_replay", "peek", "read_file_bytes", "read_replay", "resolve_game"]

_HEADER = msgspec.msgpack.Decoder(Header)
_STEP = msgspec.msgpack.Decoder(StepRecord)
_SNAPSHOT = msgspec.msgpack.Decoder(Snapshot)
_END = msgspec.msgpack.Decoder(End)
_SEATS = msgspec.msgpack.Decoder(SeatsRecord)
_NIL = b"\xc0"


def read_file_bytes(path: Path | str) -> bytes:
    """A whole file's bytes, refusing directories, missing files and files over the cap."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, 2)
            if size > MAX_FILE:
                raise ReplayError(
                    f"{path.name} is {size} bytes, larger than any replay ({MAX_FILE} bytes)."
                )
            handle.seek(0)
            return handle.read()
    except IsADirectoryError:
        raise ReplayError(f"{path} is a folder, not a replay file.") from None
    except FileNotFoundError:
        raise ReplayError(f"There is no file {path}.") from None
    except OSError as err:
        raise ReplayError(f"Cannot read {path}: {err.strerror or err}.") from None


def resolve_game(game_id: str, game: Game | None) -> Game:
    """The game a file names: the one given (which must match) or the registered one."""
    if game is not None:
        if game.id != game_id:
            raise ReplayError(f"This replay is of the game {game_id!r}, not {game.id!r}.")
        return game
    try:
        return registry.get(game_id)
    except registry.UnknownGame:
        raise ReplayError(
            f"This replay is of the game {game_id!r}, which this Speedway does not have."
        ) from None


def _decode(decoder: msgspec.msgpack.Decoder[Any], data: bytes, what: str) -> Any:
    try:
        return decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as err:
        raise ReplayError(f"The replay's {what} cannot be read ({err}).") from None


def _header(frames: Scan) -> Header:
    if not frames.frames:
        raise ReplayError("The file ends inside its header, so it holds no game.")
    first = frames.frames[0]
    if first.kind != KIND_HEADER:
        raise ReplayError("The replay does not start with a header record.")
    header: Header = _decode(_HEADER, first.payload, "header")
    return header


def peek(data: bytes) -> tuple[Header, list[Seat], End | None, Scan]:
    """Header, latest seats and end record of a file's bytes, without decoding its events."""
    frames = scan(data)
    header = _header(frames)
    seats = header.seats
    end: End | None = None
    for frame in frames.frames[1:]:
        if frame.kind == KIND_SEATS:
            seats = _decode(_SEATS, frame.payload, "seats record").seats
        elif frame.kind == KIND_END:
            end = _decode(_END, frame.payload, "end record")
    return header, seats, end, frames


class _Decoders:
    """msgspec decoders for one game's types, built once per game.

    ``step`` reads a whole `StepRecord` with the game's action and event types in place of its
    raw parts, in one call; anything it refuses is read again part by part (`_step`), which
    names the part at fault.
    """

    cache: ClassVar[dict[int, tuple[Game, _Decoders]]] = {}

    def __init__(self, game: Game) -> None:
        self.config = msgspec.msgpack.Decoder(game.config_type)
        self.state = msgspec.msgpack.Decoder(game.state_type)
        self.action = msgspec.msgpack.Decoder(game.action_type)
        self.event = msgspec.msgpack.Decoder(game.event_type)
        typed = msgspec.defstruct(
            "TypedStepRecord",
            [
                ("state_id", int),
                ("seat", int | None),
                ("action", game.action_type | None),
                ("events", list[game.event_type]),  # type: ignore[name-defined]  # a runtime type
            ],
            frozen=True,
            kw_only=True,
            tag="step",
        )
        self.step: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(typed)

    @classmethod
    def of(cls, game: Game) -> _Decoders:
        found = cls.cache.get(id(game))
        if found is None or found[0] is not game:
            found = cls.cache[id(game)] = (game, cls(game))
        return found[1]


class Replay:
    """A decoded replay or log: everything whole in the file, plus seeking."""

    def __init__(
        self,
        *,
        path: Path | None,
        frames: Scan,
        header: Header,
        game: Game,
        config: Any,
        steps: list[Step],
        snapshots: dict[int, bytes],
        end: End | None,
        seat_changes: list[SeatsRecord] | None = None,
    ) -> None:
        self.path = path
        self.scan = frames
        self.header = header
        self.game = game
        self.config = config
        self.steps = steps
        self.snapshots = snapshots
        """State snapshots by step (MessagePack bytes of the game state after that step)."""
        self.end = end
        self.seat_changes = seat_changes if seat_changes is not None else []
        """Seat changes during the game (who sits where after which step), in order."""
        self._snap_keys = sorted(snapshots)
        self._cache: tuple[int, Any] | None = None

    # ------------------------------------------------------------------ facts

    @property
    def seats(self) -> list[Seat]:
        """Who sits where at the end of the file (the header's seats, then any changes)."""
        return self.seat_changes[-1].seats if self.seat_changes else self.header.seats

    def seats_at(self, k: int) -> list[Seat]:
        """Who sat where after step ``k``."""
        seats = self.header.seats
        for change in self.seat_changes:
            if change.state_id <= k:
                seats = change.seats
        return seats

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def result(self) -> Result | None:
        return self.end.result if self.end is not None else None

    @property
    def seed(self) -> int | None:
        """The revealed seed (only once the game ended)."""
        return self.end.seed if self.end is not None else None

    @property
    def salt(self) -> bytes:
        return self.scan.salt

    @functools.cached_property
    def raw_steps(self) -> list[tuple[bytes, list[bytes]]]:
        """Per step: the action's and every event's MessagePack bytes as recorded (read from the
        records when first asked: `replays.verify` compares them, the viewer never needs them)."""
        return _raw_steps(self.scan)

    @property
    def truncated_at(self) -> int | None:
        """Byte offset where a torn tail began (it was ignored), or None for a clean file."""
        return self.scan.truncated_at

    @property
    def last_step(self) -> int:
        """The number of the last whole step (0 = only the setup; -1 = not even that)."""
        return len(self.steps) - 1

    # ------------------------------------------------------------------ seeking

    def events_upto(self, k: int) -> list[Any]:
        """Every event of steps 0..k (the setup and the first k actions), in order."""
        self._check_step(k)
        return [event for step in self.steps[: k + 1] for event in step.events]

    def state_at(self, k: int) -> Any:
        """The full game state after step ``k``: the nearest snapshot, then a short fold."""
        self._check_step(k)
        start, state = -1, None
        if self._cache is not None and self._cache[0] <= k:
            start, state = self._cache
        i = bisect.bisect_right(self._snap_keys, k) - 1
        if i >= 0 and self._snap_keys[i] > start:
            snap = self._snap_keys[i]
            try:
                state = _Decoders.of(self.game).state.decode(self.snapshots[snap])
                start = snap
            except (msgspec.DecodeError, msgspec.ValidationError):
                pass
        if state is None:
            start = -1
            try:
                state = self.game.new_state(self.config, len(self.seats))
            except Exception as err:  # a game refusing a recorded config
                raise ReplayError(
                    f"The replay's table cannot be set up ({type(err).__name__})."
                ) from None
        for j in range(start + 1, k + 1):
            for event in self.steps[j].events:
                try:
                    state = self.game.evolve(state, event)
                except Exception as err:  # a game's fold refusing recorded events
                    raise ReplayError(
                        f"Step {j} of the replay does not fit the game ({type(err).__name__})."
                    ) from None
        self._cache = (k, state)
        return state

    def _check_step(self, k: int) -> None:
        if not 0 <= k < len(self.steps):
            raise ReplayError(f"The replay has steps 0 to {self.last_step}, not step {k}.")


def _step(decoders: _Decoders, payload: bytes, k: int, n_seats: int) -> Step:
    """Step ``k`` from its record: decoded in one call if it is sound, else part by part."""
    try:
        typed = decoders.step.decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        typed = None
    if typed is not None and typed.state_id == k:
        seat, action = typed.seat, typed.action
        if k == 0 and seat is None and action is None:
            return Step(state_id=k, seat=None, action=None, events=typed.events)
        if k > 0 and seat is not None and 0 <= seat < n_seats and action is not None:
            return Step(state_id=k, seat=seat, action=action, events=typed.events)
    record: StepRecord = _decode(_STEP, payload, f"step {k}")
    if record.state_id != k:
        raise ReplayError(f"Step {record.state_id} appears where step {k} belongs.")
    action_raw = bytes(record.action)
    if k == 0:
        if record.seat is not None or action_raw != _NIL:
            raise ReplayError("The replay's setup step carries an action.")
        action = None
    else:
        if record.seat is None or not 0 <= record.seat < n_seats:
            raise ReplayError(f"Step {k} of the replay names no seat at the table.")
        action = _decode(decoders.action, action_raw, f"action of step {k}")
    events = [_decode(decoders.event, bytes(raw), f"events of step {k}") for raw in record.events]
    return Step(state_id=k, seat=record.seat, action=action, events=events)


def _raw_steps(frames: Scan) -> list[tuple[bytes, list[bytes]]]:
    """Per step record of a scanned file: its action's and its events' bytes as recorded."""
    out = []
    for frame in frames.frames:
        if frame.kind == KIND_STEP:
            record = _STEP.decode(frame.payload)
            out.append((bytes(record.action), [bytes(raw) for raw in record.events]))
    return out


def read_replay(data: bytes, game: Game | None = None, *, path: Path | None = None) -> Replay:
    """Decode a whole file's bytes (see `open_replay`)."""
    frames = scan(data)
    header = _header(frames)
    game = resolve_game(header.game, game)
    decoders = _Decoders.of(game)
    config = _decode(decoders.config, header.config, "game configuration")
    steps: list[Step] = []
    snapshots: dict[int, bytes] = {}
    end: End | None = None
    seat_changes: list[SeatsRecord] = []
    n_seats = len(header.seats)
    for frame in frames.frames[1:]:
        if end is not None:
            raise ReplayError("The replay has records after its end record.")
        if frame.kind == KIND_STEP:
            steps.append(_step(decoders, frame.payload, len(steps), n_seats))
        elif frame.kind == KIND_SNAPSHOT:
            snapshot: Snapshot = _decode(_SNAPSHOT, frame.payload, "snapshot")
            if snapshot.state_id != len(steps) - 1 or snapshot.state_id < 0:
                raise ReplayError(f"A snapshot of step {snapshot.state_id} is out of place.")
            snapshots[snapshot.state_id] = bytes(snapshot.state)
        elif frame.kind == KIND_SEATS:
            change: SeatsRecord = _decode(_SEATS, frame.payload, "seats record")
            if change.state_id != len(steps) - 1 or len(change.seats) != n_seats:
                raise ReplayError(f"A seat change after step {change.state_id} is out of place.")
            seat_changes.append(change)
        elif frame.kind == KIND_END:
            end = _decode(_END, frame.payload, "end record")
            if end.steps != len(steps) - 1:
                raise ReplayError(
                    f"The end record says {end.steps} steps, but the replay has {len(steps) - 1}."
                )
            if hashlib.sha256(data[: frame.offset]).hexdigest() != end.digest:
                raise ReplayError("The replay's digest does not match its contents.")
        else:
            raise ReplayError("The replay has a second header record.")
    return Replay(
        path=path,
        frames=frames,
        header=header,
        game=game,
        config=config,
        steps=steps,
        snapshots=snapshots,
        end=end,
        seat_changes=seat_changes,
    )


def open_replay(path: Path | str, game: Game | None = None) -> Replay:
    """Open a replay or table log. ``game`` defaults to the registered game the file names.

    Refuses (with `ReplayError`) foreign files, unknown format versions, damage in the middle,
    oversized records and out-of-order records. A torn tail is cut back to the last whole
    record in memory (the file is not changed); ``replay.truncated_at`` says where.
    """
    path = Path(path)
    return read_replay(read_file_bytes(path), game, path=path)
