"""NASCAR Champions analysis: rollout values from the chooser's view only, losses, identity."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from core.analysis import CHAMPIONS_ROLLOUTS, Settings, analyse, check_identity, resolve
from core.champions import GAME, rules
from core.champions import analysis as champions_analysis
from core.champions.analysis import MONEY, guess_table, value_options
from core.champions.data import COMPONENTS
from core.champions.model import ChooseDice, HeldSponsor, Roll
from core.champions.track import move_ends
from core.champions.views import view as seat_view
from core.game import Seat, Step, Table
from core.rng import Pcg32, ScriptedChance
from replays.analysis import (
    analyse_replay,
    cached_or_analyse,
    load_cached,
    save_cache,
    summary_text,
    to_json,
)
from tests.analysis.helpers import saved_replay

SHORT = {"lap_turn_limit": 6}
"""Laps called after six turns: whole games in a few dozen steps."""


def _table_at_first_roll(seed: int) -> Table:
    """A promoter-vs-promoter table where seat 0 is about to roll its first dice."""
    t = Table(
        GAME, GAME.default_config(), [Seat(name=f"p{i}", bot="promoter") for i in (1, 2)], seed
    )
    while not (t.state.phase == "roll" and t.state.active == 0):
        seat = t.pending()[0]
        t.submit(seat, t.bot_action(seat))
    return t


def test_a_choice_that_moves_only_a_rival_costs_money():
    t = _table_at_first_roll(4)
    mine = t.state.seat_car[0]
    rival = t.state.seat_car[1]
    # our car has room on the grid (boxed in, keeping its dice would change nothing)
    car = t.state.cars[mine]
    assert car.space is not None
    assert move_ends(COMPONENTS.track, car.space, 1, t.state.occupied(but=mine))
    # dice 1 and 2 show our colour, dice 3 to 5 the rival's
    faces = [mine, mine, rival, rival, rival]
    t.chance = ScriptedChance(faces)
    t.submit(0, Roll())
    legal = GAME.legal(t.state, 0)
    rival_only = ChooseDice(dice=(3, 4, 5))
    assert rival_only in legal
    # valued to the end of the lap (the default horizon)
    options = value_options(t.state, 0, legal, rollouts=4, seed=1, step=t.state_id)
    chosen = options[legal.index(rival_only)]
    best = max(options, key=lambda o: o.value)
    assert best.value - chosen.value > 0
    assert best.value - chosen.value > chosen.spread  # beyond the rollouts' noise
    # and through the whole chain: the step is flagged with a positive loss
    t.chance = Pcg32(5)
    t.submit(0, rival_only)
    a = analyse(
        "champions",
        GAME.new_state(t.config, 2),
        t.history,
        t.names,
        Settings(rollouts=4),
        1,
    )
    (d,) = [d for d in a.decisions if d.step == t.state_id]
    assert d.unit == MONEY
    assert d.loss > 0
    assert d.options[d.chosen].label.startswith("Keep dice 3, 4, 5")


def _hidden_swapped(state, seat: int):
    """The same table with another seat's hidden base Sponsor swapped with one in the deck."""
    for other, hand in enumerate(state.sponsors):
        if other == seat:
            continue
        for i, held in enumerate(hand):
            if held.source == "base" and state.sponsor_deck:
                new_colour = state.sponsor_deck[0]
                hands = list(state.sponsors)
                row = list(hand)
                row[i] = HeldSponsor(source="base", colour=new_colour)
                hands[other] = tuple(row)
                deck = (held.colour, *state.sponsor_deck[1:])
                return replace(state, sponsors=tuple(hands), sponsor_deck=deck)
    return None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), k=st.integers(1, 60), sample=st.integers(0, 2**32))
def test_the_determinised_table_never_holds_another_seats_hidden_cards(seed, k, sample):
    t = Table(GAME, GAME.config_type(**SHORT), [Seat(name="a", bot="promoter")] * 3, seed)
    for _ in range(k):
        if not t.pending():
            break
        seat = t.pending()[0]
        t.submit(seat, t.bot_action(seat))
    state = t.state
    for seat in range(3):
        view = seat_view(state, seat)
        guess = guess_table(view, seat, Pcg32(sample))
        if guess is None:
            continue
        # what the seat knew is kept; public facts are the view's
        assert guess.sponsors[seat] == state.sponsors[seat]
        assert replace(guess, sponsors=view.sponsors, sponsor_deck=None, flag_deck=None) == view
        # the guess is a function of the view: other tables with the same view guess the same
        alt = _hidden_swapped(state, seat)
        if alt is not None and not state.sponsors_revealed:
            assert seat_view(alt, seat) == view
            assert guess_table(seat_view(alt, seat), seat, Pcg32(sample)) == guess
            if state.phase in ("choose_dice", "resolve") and state.active == seat:
                legal = GAME.legal(state, seat)
                a = value_options(state, seat, legal, rollouts=1, seed=sample, step=k)
                b = value_options(alt, seat, legal, rollouts=1, seed=sample, step=k)
                assert a == b


def test_luck_minus_skill_equals_got_minus_expected_and_bytes_repeat(tmp_path):
    one = saved_replay(tmp_path / "a", "champions", ["promoter", "random"], 2, **SHORT)
    two = saved_replay(tmp_path / "b", "champions", ["promoter", "random"], 2, **SHORT)
    s = Settings(rollouts=2)
    a = analyse_replay(one, s)
    assert a.decisions
    assert check_identity(a) == []
    assert {seg.seat for seg in a.segments} == {0, 1}
    assert all(seg.unit == MONEY for seg in a.segments)
    # realised is the money each seat really won in its laps
    final = one.state_at(one.last_step)
    for seat in (0, 1):
        won = sum(seg.realised for seg in a.segments if seg.seat == seat)
        assert won == pytest.approx(final.money[seat] / 1000)
    assert to_json(a) == to_json(analyse_replay(two, s))
    assert to_json(a) != to_json(analyse_replay(one, Settings(rollouts=3)))
    doc = msgspec.json.decode(to_json(a))
    assert doc["unit"] == MONEY


def test_an_unfinished_game_is_analysed_up_to_its_last_step():
    t = _table_at_first_roll(4)
    for _ in range(6):
        seat = t.pending()[0]
        t.submit(seat, t.bot_action(seat))
    steps: list[Step] = t.history
    a = analyse("champions", GAME.new_state(t.config, 2), steps, t.names, Settings(rollouts=1), 0)
    assert check_identity(a) == []
    assert all(d.step <= t.state_id for d in a.decisions)


_HASH_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
from core.analysis import Settings, analyse
from core.champions import GAME as CH
from core.cthulhu500 import GAME as CT
from core.game import Seat, Table
import hashlib, msgspec
digest = hashlib.sha256()
for game, options in ((CH, {{"lap_turn_limit": 4}}), (CT, {{"round_limit": 3}})):
    config = msgspec.structs.replace(game.default_config(), **options)
    t = Table(game, config, [Seat(name="a", bot="random"), Seat(name="b", bot="random")], 3)
    t.run_bots()
    a = analyse(game.id, game.new_state(config, 2), t.history, t.names, Settings(rollouts=1), 9)
    digest.update(msgspec.json.encode(a))
print(digest.hexdigest())
"""


def test_identical_analysis_bytes_across_hash_seeds():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    outs = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _HASH_SCRIPT.format(root=root)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        outs.append(out.stdout.strip())
    assert outs[0] == outs[1]
    assert len(outs[0]) == 64


def test_the_default_rolls_out_to_the_lap_scoring(monkeypatch):
    assert resolve("champions", Settings()) == Settings(rollouts=CHAMPIONS_ROLLOUTS, horizon=0)
    # a rollout cut before the lap is scored is valued by projected_money: count those
    cut = []

    def projected(state, seat):
        cut.append(state)
        return 0.0

    monkeypatch.setattr(champions_analysis, "projected_money", projected)
    t = Table(GAME, GAME.config_type(**SHORT), [Seat(name="a", bot="promoter")] * 2, 5)
    t.run_bots()
    start = GAME.new_state(t.config, 2)
    a = analyse("champions", start, t.history, t.names, Settings(rollouts=1), 0)
    assert a.settings == Settings(rollouts=1, horizon=0)
    assert a.decisions
    assert cut == []  # every rollout ended with its lap scored (or the game over)
    one_round = analyse("champions", start, t.history, t.names, Settings(rollouts=1, horizon=1), 0)
    assert one_round.decisions
    assert cut  # one round ahead stops while laps still run
    assert all(s.phase in rules.ASKING for s in cut)


def test_a_changed_default_never_serves_an_old_cache(tmp_path):
    replay = saved_replay(tmp_path, "champions", ["promoter", "random"], 2, **SHORT)
    old = analyse_replay(replay, Settings(rollouts=1, horizon=1))  # one round: the old default
    save_cache(replay, old)
    assert load_cached(replay, Settings(rollouts=1, horizon=1)) == old
    assert load_cached(replay, Settings(rollouts=1)) is None
    new = cached_or_analyse(replay, Settings(rollouts=1))
    assert new.settings == Settings(rollouts=1, horizon=0)
    assert "to the lap's scoring" in new.notes[0]
    assert "to the end of the lap" in summary_text(new)
    # the default asked by name and left to the game are one key
    assert load_cached(replay, Settings(rollouts=1, horizon=0)) == new
