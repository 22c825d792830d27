"""A spectator's key footer offers no move keys; a seated player's does (issue 13)."""

from __future__ import annotations

import pytest

from net.hub import Identity, SeatSpec, TableSpec
from net.local_hub import LocalHub
from tui.app import OpenTable, SpeedwayApp

ME = Identity(id="test:me", nickname="me")
MOVE_KEYS = {"go500": "r Roll", "cthulhu500": "1-9 Pick", "champions": "r Roll"}


async def footer(game: str, seat: int | None) -> str:
    hub = LocalHub(None, persist=False, bot_delay=1e9, lobby_interval=0.0)
    seats = [
        SeatSpec(kind="human", name=f"P{i}", identity=ME.id if i == 0 else f"test:o{i}")
        for i in range(3)
    ]
    table_id = await hub.create_table(TableSpec(game=game, seats=seats, seed=11), ME)
    who = ME if seat is not None else Identity(id="test:v", nickname="v")
    app = SpeedwayApp(
        hub, who, start=OpenTable(table_id=table_id, seat=seat), animate=False, network=True
    )
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(100):
            if getattr(app.screen, "fold", None) is not None:
                break
            await pilot.pause(0.02)
        await pilot.pause(0.2)
        lines = ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]
    await hub.close()
    return " ".join(lines[-2:])


@pytest.mark.parametrize("game", sorted(MOVE_KEYS))
async def test_spectators_are_not_offered_move_keys(game: str) -> None:
    watching = await footer(game, None)
    playing = await footer(game, 0)
    assert "esc Leave" in watching
    assert "? Rules" in watching
    assert MOVE_KEYS[game] not in watching
    assert MOVE_KEYS[game] in playing
