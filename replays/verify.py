"""Verifying a replay: re-simulate it from the revealed seed and compare every byte.

Owns `verify` and `VerifyReport`, and `resimulate` (shared with crash recovery). Checks, in
order: the seed matches the header's SHA-256 commitment (commit-reveal: the seed was fixed before
the first move and hidden until the end); the generator and rules versions are this Speedway's;
the setup, every recorded action's events and every snapshot equal what `core.game.Table`
produces from that seed and those actions, byte for byte; the recorded result is the game's.

A branched log (header ``branched_from``) takes its step 0 (the source game's past) as given and
re-simulates the rest. An unfinished log has no revealed seed: it can be verified only when
the seed is supplied (the hub keeps it privately).

Must not: write files, or trust any snapshot or event it has not re-derived.
"""

from __future__ import annotations

from typing import Any

import msgspec

from core.game import Game, IllegalAction, Table
from core.rng import RNG_NAME
from replays.format import commitment
from replays.reader import Replay, resolve_game

__all__ = ["VerifyReport", "resimulate", "verify"]

_ENCODER = msgspec.msgpack.Encoder()


class VerifyReport(msgspec.Struct, frozen=True, kw_only=True):
    """What `verify` found: ``ok``, one sentence, and how far it got."""

    ok: bool
    message: str
    steps: int = 0
    """Steps re-simulated and matched (not counting the setup)."""
    events: int = 0
    """Events matched byte for byte."""
    bad_step: int | None = None
    """The first step that did not match, if any."""


def _fail(message: str, steps: int, events: int, bad: int | None) -> tuple[VerifyReport, None]:
    return VerifyReport(ok=False, message=message, steps=steps, events=events, bad_step=bad), None


def _events_match(events: list[Any], raws: list[bytes]) -> bool:
    return len(events) == len(raws) and all(
        _ENCODER.encode(event) == raw for event, raw in zip(events, raws, strict=True)
    )


def resimulate(
    replay: Replay, game: Game | None = None, *, seed: int | None = None
) -> tuple[VerifyReport, Table | None]:
    """Verify (see `verify`) and also return the re-simulated table when everything matched."""
    game = resolve_game(replay.header.game, game if game is not None else replay.game)
    header = replay.header
    if seed is None:
        seed = replay.seed
    if seed is None:
        return _fail(
            "The log is unfinished, so its seed is still secret and it cannot be verified "
            "without that seed.",
            0,
            0,
            None,
        )
    if commitment(seed, replay.salt) != header.commitment:
        return _fail(
            f"The seed {seed} does not match the commitment in the replay's header.", 0, 0, None
        )
    if header.rng != RNG_NAME:
        return _fail(
            f"The replay used the generator {header.rng}, but this Speedway has {RNG_NAME}.",
            0,
            0,
            None,
        )
    if header.rules_version != game.rules_version:
        return _fail(
            f"The replay was played under rules {header.rules_version}, but this Speedway has "
            f"rules {game.rules_version}, so it cannot be re-simulated.",
            0,
            0,
            None,
        )
    if not replay.steps:
        return _fail("The log ends before its setup step, so there is nothing to verify.", 0, 0, 0)
    branched = header.branched_from is not None
    try:
        table = Table(
            game,
            replay.config,
            replay.seats,
            seed,
            setup_events=replay.steps[0].events if branched else None,
        )
    except Exception as err:  # ConfigError, or a game refusing this setup
        return _fail(f"The replay's table cannot be set up again ({err}).", 0, 0, 0)
    events = 0
    if not _events_match(table.history[0].events, replay.raw_steps[0][1]):
        return _fail("The setup does not match what this seed deals.", 0, 0, 0)
    events += len(table.history[0].events)
    for k in range(len(replay.steps)):
        if k > 0:
            step = replay.steps[k]
            action_raw, event_raws = replay.raw_steps[k]
            assert step.seat is not None
            try:
                done = table.submit(step.seat, step.action, k - 1)
            except IllegalAction as err:
                return _fail(f"Step {k} was refused by the rules: {err}", k - 1, events, k)
            except Exception as err:  # a game crashing on a crafted action
                return _fail(
                    f"Step {k} could not be replayed ({type(err).__name__}).", k - 1, events, k
                )
            if _ENCODER.encode(step.action) != action_raw:
                return _fail(f"Step {k}'s action is not stored canonically.", k - 1, events, k)
            if not _events_match(done.events, event_raws):
                return _fail(
                    f"Step {k}'s recorded events differ from what the rules and seed produce.",
                    k - 1,
                    events,
                    k,
                )
            events += len(done.events)
        snapshot = replay.snapshots.get(k)
        if snapshot is not None and _ENCODER.encode(table.state) != snapshot:
            return _fail(
                f"The snapshot after step {k} is not the game's state there.", k, events, k
            )
    steps = len(replay.steps) - 1
    end = replay.end
    if end is not None:
        actual = table.result()
        if actual is None:
            return _fail(
                "The replay claims the game ended, but it is not over after its last step.",
                steps,
                events,
                steps,
            )
        if _ENCODER.encode(actual) != _ENCODER.encode(end.result):
            return _fail(
                "The result recorded in the replay is not the game's result.", steps, events, None
            )
    what = "the seed matches its commitment" if end is not None else "with the given seed"
    if branched:
        what += " (step 0, the game it branched from, taken as given)"
    report = VerifyReport(
        ok=True,
        message=f"Verified {steps} steps and {events} events; {what}.",
        steps=steps,
        events=events,
    )
    return report, table


def verify(replay: Replay, game: Game | None = None, *, seed: int | None = None) -> VerifyReport:
    """Re-simulate ``replay`` from its revealed seed (or ``seed``) and compare every event."""
    return resimulate(replay, game, seed=seed)[0]
