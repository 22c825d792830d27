"""`-` slows the bots and the replay down, `+` speeds them up, and the choice is saved."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tui.conftest import ME, go500_app, make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.app import OpenReplay
from tui.screens.go500 import Go500TableScreen
from tui.screens.replay import ReplayScreen
from tui.settings import ANIMATION_DELAYS


def saved_speed(folder: Path) -> str:
    data = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
    return str(data["identities"][ME.id]["animation"])


async def test_minus_is_slower_and_plus_is_faster_at_a_table(tmp_path: Path):
    app = go500_app(data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, Go500TableScreen))
        assert app.settings.animation == "normal"
        await pilot.press("minus")
        assert app.settings.animation == "slow"
        assert saved_speed(tmp_path) == "slow"
        assert app.settings.bot_delay > ANIMATION_DELAYS["normal"]
        await pilot.press("plus", "plus")
        assert app.settings.animation == "fast"
        assert saved_speed(tmp_path) == "fast"
        assert app.settings.bot_delay < ANIMATION_DELAYS["normal"]


async def test_minus_and_plus_in_the_replay_viewer(tmp_path: Path, replay_file: Path):
    app = make_app(start=OpenReplay(path=str(replay_file)), data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("plus")
        assert app.settings.animation == "fast"
        await pilot.press("minus", "minus")
        assert app.settings.animation == "slow"
        assert saved_speed(tmp_path) == "slow"
