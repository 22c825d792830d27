"""Readable copies of a replay: the JSON export and the plain-text transcript.

Owns `to_json` (``speedway replay FILE --export json``) and `transcript` (``--print``). Both show
the game only — config, seats, every step's action and events, seed and result — and none of
the file's own metadata (salt, commitment, digest, save time), so two files of the same game
export and print identically. Events are said in words with the game's ``describe``; a seats
record where a bot starts (or stops) playing for an absent player says so in words.

Must not: write files, or show anything of an unfinished game's seed (it has none to show).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from core.game import Seat
from replays.reader import Replay

__all__ = ["action_words", "stand_in_words", "to_document", "to_json", "transcript"]


def to_document(replay: Replay) -> dict[str, Any]:
    """The replay as plain builtins (what `to_json` writes)."""
    header = replay.header
    end = replay.end
    return {
        "format": "speedway-replay/1",
        "game": header.game,
        "title": header.title,
        "rules_version": header.rules_version,
        "rng": header.rng,
        "config": msgspec.to_builtins(replay.config),
        "seats": msgspec.to_builtins(header.seats),
        "branched_from": msgspec.to_builtins(header.branched_from),
        "seat_changes": [
            {"after_step": change.state_id, "seats": msgspec.to_builtins(change.seats)}
            for change in replay.seat_changes
        ],
        "steps": [
            {
                "step": step.state_id,
                "seat": step.seat,
                "action": msgspec.to_builtins(step.action),
                "events": msgspec.to_builtins(step.events),
            }
            for step in replay.steps
        ],
        "finished": end is not None,
        "end": None
        if end is None
        else {"steps": end.steps, "seed": end.seed, "result": msgspec.to_builtins(end.result)},
    }


def to_json(replay: Replay) -> str:
    """A readable, indented JSON document of the whole game (ends with a newline)."""
    encoded = msgspec.json.encode(to_document(replay))
    return msgspec.json.format(encoded, indent=2).decode() + "\n"


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return msgspec.json.encode(value).decode()


def _pairs(data: dict[str, Any]) -> str:
    return ", ".join(f"{key}={_value(value)}" for key, value in data.items())


def action_words(action: Any) -> str:
    """An action as ``tag`` or ``tag(field=value, ...)``.

    >>> action_words({"type": "move", "lane": 2})
    'move(lane=2)'
    """
    data = msgspec.to_builtins(action)
    if isinstance(data, dict):
        fields = dict(data)
        tag = fields.pop("type", None)
        if tag is not None:
            return f"{tag}({_pairs(fields)})" if fields else str(tag)
        return _pairs(fields)
    return _value(data)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _stands_in(seat: Seat) -> bool:
    """A seats record marks a bot playing for an absent player as the bot *and* the player."""
    return seat.bot is not None and seat.identity is not None


def stand_in_words(before: Sequence[Seat], after: Sequence[Seat], step: int) -> list[str]:
    """Sentences for the stretches a bot starts or stops playing for an absent player.

    >>> ann = Seat(name="Ann", identity="SHA256:a")
    >>> stand_in_words([ann], [Seat(name="Ann", bot="optimal", identity="SHA256:a")], 9)
    ['From step 9 the optimal bot plays for Ann, who is away.']
    >>> stand_in_words([Seat(name="Ann", bot="optimal", identity="SHA256:a")], [ann], 12)
    ['From step 12 Ann plays again.']
    """
    out = []
    for old, new in zip(before, after, strict=False):
        if _stands_in(new) and not _stands_in(old):
            out.append(f"From step {step} the {new.bot} bot plays for {new.name}, who is away.")
        elif _stands_in(old) and not _stands_in(new):
            out.append(f"From step {step} {new.name} plays again.")
    return out


def transcript(replay: Replay) -> str:
    """The game in words: header facts, the setup, every step with its action and events."""
    game = replay.game
    header = replay.header
    changes = {change.state_id: change.seats for change in replay.seat_changes}
    seats = list(header.seats)
    names = [seat.name for seat in header.seats]
    lines = [f"{header.title} (rules {header.rules_version}, chance {header.rng})"]
    config = msgspec.to_builtins(replay.config)
    if isinstance(config, dict):
        lines.append(f"Options: {_pairs(config) or 'defaults'}")
    else:
        lines.append(f"Options: {_value(config)}")
    lines.append("Seats:")
    for i, sitter in enumerate(header.seats):
        who = f" (bot {sitter.bot})" if sitter.bot is not None else ""
        lines.append(f"  {i + 1}. {sitter.name}{who}")
    if header.branched_from is not None:
        lines.append(f"Branched from: {_pairs(dict(header.branched_from))}")
    end = replay.end
    lines.append(f"Seed: {end.seed}" if end is not None else "Seed: secret (unfinished game)")
    lines.append("")
    for step in replay.steps:
        if step.state_id == 0:
            lines.append("Setup" if header.branched_from is None else "Setup (branched)")
        else:
            seat = step.seat if step.seat is not None else 0
            who = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
            lines.append(f"Step {step.state_id}: {who}: {action_words(step.action)}")
        for event in step.events:
            words = game.describe(event, names)
            if words:
                lines.append(f"  {words}")
        if step.state_id in changes:
            new = changes[step.state_id]
            lines += [f"  {words}" for words in stand_in_words(seats, new, step.state_id + 1)]
            seats = new
            names = [seat.name for seat in new]
            lines.append(f"  Seats now: {', '.join(names)}.")
    lines.append("")
    if end is None:
        lines.append(f"Unfinished: the log ends after step {replay.last_step}.")
    else:
        result = end.result
        lines.append(f"Result: {result.summary}")
        for place, seat in enumerate(result.ranking):
            name = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
            score = result.scores[seat] if 0 <= seat < len(result.scores) else ""
            lines.append(f"  {_ordinal(place + 1)} {name} {score}".rstrip())
    return "\n".join(lines) + "\n"
