"""The Go 500 board header after the race names the last round the log ended, not the next."""

from __future__ import annotations

from core.game import Seat, Table
from core.go500 import GAME
from core.go500.describe import race_header
from core.go500.model import RoundEnded


def test_the_board_header_after_the_race_names_the_last_round_of_the_log():
    table_ = Table(GAME, GAME.default_config(), [Seat(name=n, bot="bold") for n in ("Ann", "Bob", "Cy")], 4)
    table_.run_bots()
    last = [e for step in table_.history for e in step.events if isinstance(e, RoundEnded)][-1]
    header = race_header(table_.state)
    assert header.endswith(f"round {last.round}")
