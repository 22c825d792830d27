"""core/game.py Table: state ids, stale and out-of-turn refusals, game over, bots."""

from __future__ import annotations

import msgspec
import pytest

from core.game import GameOver, NotYourTurn, Seat, StaleAction, Table, config_from_options
from core.rng import ScriptedChance
from tests.fakegame import GAME, Roll, Stop


def table(**kw) -> Table:
    return Table(GAME, GAME.default_config(), [Seat(name="Ann"), Seat(name="Bob")], 1, **kw)


def test_state_id_rises_and_stale_actions_are_refused():
    t = table()
    assert t.state_id == 0
    assert t.pending() == (0,)
    t.submit(0, Roll(), 0)
    assert t.state_id == 1
    with pytest.raises(StaleAction, match="moved on"):
        t.submit(1, Roll(), 0)
    with pytest.raises(NotYourTurn, match="not Ann's turn"):
        t.submit(0, Roll(), 1)


def test_game_over_refuses_more_actions():
    t = table()
    t.submit(0, Stop())
    t.submit(1, Stop())
    assert t.result() is not None
    assert t.pending() == ()
    with pytest.raises(GameOver):
        t.submit(0, Roll())


def test_scripted_chance_drives_setup_and_steps():
    # deck shuffle of 10 cards = 9 draws, then one die
    t = table(chance=ScriptedChance([0] * 9 + [5]))
    t.submit(0, Roll())
    assert t.state.steps == (6, 0)


def test_config_from_options_converts_and_refuses():
    assert config_from_options(GAME, {"goal": "12"}).goal == 12
    with pytest.raises(ValueError, match="Dash option goal takes a whole number, not far"):
        config_from_options(GAME, {"goal": "far"})


def test_bots_play_to_the_end_deterministically():
    def run() -> list:
        t = Table(GAME, GAME.default_config(), [Seat(name="a", bot="random")] * 3, 11)
        t.run_bots()
        return t.history

    assert run() == run()


def test_config_from_options_takes_structured_options_as_json():
    from core import registry

    go500 = registry.get("go500")
    config = config_from_options(go500, {"schedule": '[["Daytona", 400], ["Talladega", 600]]'})
    assert [tuple(race) for race in msgspec.to_builtins(config.schedule)] == [
        ("Daytona", 400),
        ("Talladega", 600),
    ]
    with pytest.raises(ValueError, match="needs JSON"):
        config_from_options(go500, {"schedule": "Daytona"})


def test_result_summary_for_puts_the_players_names_in():
    from core.game import Result

    result = Result(ranking=[2, 0, 1], scores=[10, 5, 12], summary="seat 3 wins; seat 12 is not")
    assert result.summary_for(["Ann", "Bea", "Cy"]) == "Cy wins; seat 12 is not"
    assert result.summary_for([]) == "seat 3 wins; seat 12 is not"
