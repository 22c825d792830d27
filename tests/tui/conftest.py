"""Shared pieces for TUI tests: a real in-process hub, a fixed identity, deterministic apps.

Apps run with animations off and bot delay 0; replays are written by the real replay writer at a
fixed time so snapshots never drift (STYLE #12).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from core import registry
from core.game import Seat, Table, config_from_options
from net.hub import Identity
from net.local_hub import LocalHub
from replays import save_finished_table
from tests.fakegame import GAME as DASH
from tui.app import SpeedwayApp
from tui.launch import start_for_play

ME = Identity(id="local:ann", nickname="Ann")
FIXED = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def make_app(
    *,
    start: Any = None,
    data_dir: Path | None = None,
    games: dict[str, Any] | None = None,
    network: bool = False,
) -> SpeedwayApp:
    # A fixed commitment salt: the race log's first line shows the commitment (snapshots).
    hub = LocalHub(
        None, persist=False, bot_delay=0, games=games, lobby_interval=0.0, salt=lambda: bytes(16)
    )
    return SpeedwayApp(
        hub,
        ME,
        data_dir=data_dir,
        start=start,
        animate=False,
        bot_delay=0,
        games=games,
        network=network,
    )


def go500_app(
    seats: str = "me,cautious,bold", seed: int = 3, data_dir: Path | None = None, **options: Any
) -> SpeedwayApp:
    return make_app(start=start_for_play("go500", seats, seed, options, ME), data_dir=data_dir)


def dash_app(seats: list[Any], seed: int = 1) -> SpeedwayApp:
    from net.hub import TableSpec
    from tui.app import StartTable

    spec = TableSpec(game="dash", seats=seats, seed=seed, bot_delay=0)
    games = {"dash": DASH}
    return make_app(start=StartTable(spec=spec, hot=[]), games=games)


def write_replay(
    folder: Path,
    seed: int = 5,
    bots: tuple[str, ...] = ("cautious", "bold", "optimal"),
    **options: Any,
) -> Path:
    """A finished bot game saved by the real replay writer (fixed creation time)."""
    game = registry.get("go500")
    seats = [Seat(name=f"{b.title()}", bot=b) for b in bots]
    table = Table(game, config_from_options(game, options), seats, seed)
    table.run_bots()
    return save_finished_table(table, folder, now=FIXED)


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    return write_replay(tmp_path / "replays")
