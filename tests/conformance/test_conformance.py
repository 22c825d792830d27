"""The generic conformance suite every game must pass (STYLE.md #8).

Over many seeds and random lines of play: `legal` is non-empty exactly for the seats being asked;
every legal action steps; `resolve` gives `step`'s events and the state they fold to (a `Table`
keeps that state) and `advance` those with the seats `pending` asks next; folding the recorded
events gives the stepped state; every event and action round-trips through msgspec; folding the
events redacted for a seat (or a spectator) gives exactly that seat's `view`; and two processes
with different PYTHONHASHSEED record identical bytes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.game import ConfigError, IllegalAction, Seat, Table
from core.rng import Pcg32

ROOT = Path(__file__).resolve().parents[2]
MAX_STEPS = 5000


def seats_for(game, n: int) -> list[Seat]:
    bot = game.default_bot
    return [Seat(name=f"P{i + 1}", bot=bot) for i in range(n)]


def play_random(game, seed: int, n: int, pick: st.DataObject | None) -> Table:
    """A line of play: bots choose, or hypothesis picks among the legal actions."""
    table = Table(game, game.default_config(), seats_for(game, n), seed)
    for _ in range(MAX_STEPS):
        pending = table.pending()
        if not pending:
            return table
        seat = pending[0] if pick is None else pick.draw(st.sampled_from(pending))
        legal = table.legal(seat)
        if pick is None:
            action = table.bot_action(seat)
        else:
            action = legal[pick.draw(st.integers(0, len(legal) - 1))]
        table.submit(seat, action, table.state_id)
    pytest.fail(f"{game.id}: no result after {MAX_STEPS} steps (seed {seed})")


def fold(game, n: int, events) -> object:
    state = game.new_state(game.default_config(), n)
    for event in events:
        state = game.evolve(state, event)
    return state


def seats_allowed(game, n: int) -> bool:
    """Whether the default config seats ``n`` (a game's modes may seat more or fewer)."""
    try:
        game.check_config(game.default_config(), n)
    except ConfigError:
        return False
    return True


def seat_counts(game) -> list[int]:
    wanted = {game.min_seats, min(game.max_seats, max(game.min_seats, 3)), game.max_seats}
    allowed = [n for n in range(game.min_seats, game.max_seats + 1) if seats_allowed(game, n)]
    return sorted({min(allowed, key=lambda a: abs(a - n)) for n in wanted})


def most_seats(game) -> int:
    return max(seat_counts(game))


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_legal_is_nonempty_exactly_for_pending_seats_and_every_legal_action_steps(game, seed, data):
    n = data.draw(st.sampled_from(seat_counts(game)))
    table = Table(game, game.default_config(), seats_for(game, n), seed)
    for _ in range(MAX_STEPS):
        pending = table.pending()
        for seat in range(n):
            legal = game.legal(table.state, seat)
            assert bool(legal) == (seat in pending), (seat, pending, legal)
        if not pending:
            break
        seat = data.draw(st.sampled_from(pending))
        legal = table.legal(seat)
        # every legal action must step (on a throwaway copy of chance)
        for action in legal[:12]:
            try:
                game.step(table.state, seat, action, Pcg32(seed, 99))
            except IllegalAction as err:  # pragma: no cover - the failure we look for
                pytest.fail(f"legal action {action!r} refused: {err}")
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        table.submit(seat, action, table.state_id)
    assert table.result() is not None


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_resolve_gives_steps_events_and_the_state_they_fold_to(game, seed, data):
    n = data.draw(st.sampled_from(seat_counts(game)))
    table = Table(game, game.default_config(), seats_for(game, n), seed)
    while table.pending():
        seat = data.draw(st.sampled_from(table.pending()))
        legal = table.legal(seat)
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        events, after = game.resolve(table.state, seat, action, Pcg32(seed, 7))
        assert events == game.step(table.state, seat, action, Pcg32(seed, 7))
        state = table.state
        for event in events:
            state = game.evolve(state, event)
        assert after == state
        # advance (what a Table calls, for a seat it found asked) is resolve with who is asked next
        ahead, reached, asked = game.advance(table.state, seat, action, Pcg32(seed, 7))
        assert (ahead, reached, asked) == (events, after, game.pending(after))
        table.submit(seat, action, table.state_id)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_fold_of_events_equals_stepped_state_and_views_are_redacted_folds(game, seed, data):
    n = data.draw(st.sampled_from(seat_counts(game)))
    table = play_random(game, seed, n, data)
    events = [e for step in table.history for e in step.events]
    assert fold(game, n, events) == table.state
    for seat in [None, *range(n)]:
        seen = [r for e in events if (r := game.redact(e, seat)) is not None]
        assert fold(game, n, seen) == game.view(table.state, seat), f"seat {seat}"


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**64 - 1))
def test_events_and_actions_round_trip_through_msgspec(game, seed):
    table = play_random(game, seed, max(2, min(seat_counts(game))), None)
    for step in table.history:
        for event in step.events:
            for codec in (msgspec.msgpack, msgspec.json):
                assert codec.decode(codec.encode(event), type=game.event_type) == event
        if step.action is not None:
            data = msgspec.msgpack.encode(step.action)
            assert msgspec.msgpack.decode(data, type=game.action_type) == step.action
    state_bytes = msgspec.msgpack.encode(table.state)
    assert msgspec.msgpack.decode(state_bytes, type=game.state_type) == table.state


def test_refused_action_draws_no_chance(game):
    table = Table(game, game.default_config(), seats_for(game, most_seats(game)), 7)
    pending = table.pending()
    other = next((s for s in range(most_seats(game)) if s not in pending), None)
    before = table.chance.snapshot()  # type: ignore[attr-defined]
    if other is not None:
        with pytest.raises(IllegalAction):
            table.submit(other, table.legal(pending[0])[0])
    with pytest.raises(IllegalAction):
        table.submit(pending[0], table.legal(pending[0])[0], state_id=table.state_id + 5)
    assert table.chance.snapshot() == before  # type: ignore[attr-defined]


_SCRIPT = """
import hashlib, sys, msgspec
sys.path.insert(0, {root!r})
from tests.conformance.conftest import GAMES
from core.game import Table, Seat
game = GAMES[{gid!r}]
bot = game.default_bot
digest = hashlib.sha256()
for seed in (1, 2, 3):
    t = Table(game, game.default_config(), [Seat(name=f"P{{i}}", bot=bot) for i in range({n})], seed)
    t.run_bots()
    for step in t.history:
        digest.update(msgspec.msgpack.encode(step.events))
print(digest.hexdigest())
"""


def test_identical_bytes_across_hash_seeds(game):
    n = min(most_seats(game), 4)
    script = _SCRIPT.format(root=str(ROOT), gid=game.id, n=n)
    outs = []
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
        outs.append(out.stdout.strip())
    assert outs[0] == outs[1]
    assert len(outs[0]) == 64
    assert hashlib.sha256().hexdigest() != outs[0]
