"""Coaching at local tables: off by default; when on, the solver's stop/roll values (Go 500)
and the chance to pass (Cthulhu 500) appear on the coaching line under the status line."""

from __future__ import annotations

import msgspec

from core.cthulhu500.model import DActions
from tests.tui.conftest import go500_app
from tests.tui.test_cthulhu_screen import cthulhu_app, my_move, open_table
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.go500 import Go500TableScreen, stage_of
from tui.settings import Settings
from tui.widgets.coach import CoachLine


def _coach(screen) -> str | None:
    line = screen.query_one(CoachLine)
    return str(line.render()) if line.has_class("-shown") else None


async def _go500_decision(pilot, coaching: bool) -> Go500TableScreen:
    app = pilot.app
    app.apply_settings(msgspec.structs.replace(app.settings, coaching=coaching))
    await wait_for(
        pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
    )
    screen = app.screen
    for _ in range(80):
        await wait_for(pilot, lambda: screen.acting_seat() == 0)
        if stage_of(screen.fold.state, 0) == "decide":
            break
        await pilot.press("r")
    await pilot.pause()
    return screen


def test_coaching_is_off_by_default():
    assert Settings().coaching is False


async def test_go500_coach_shows_stop_now_against_roll_on_when_asked():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _go500_decision(pilot, coaching=False)
        assert _coach(screen) is None
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _go500_decision(pilot, coaching=True)
        text = _coach(screen)
        assert text is not None
        assert text.startswith("Coach: stop now")
        assert "roll on" in text
        await pilot.press("s")  # stopping ends the decision: the line goes away
        await wait_for(pilot, lambda: _coach(screen) is None)


async def test_cthulhu_coach_gives_the_chance_to_pass_during_actions():
    app = cthulhu_app("me,shrewd", seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        app.apply_settings(msgspec.structs.replace(app.settings, coaching=True))
        screen = await open_table(app, pilot)
        for _ in range(40):
            assert await my_move(pilot, screen)
            top = screen.fold.state.stack[-1] if screen.fold.state.stack else None
            if isinstance(top, DActions):
                break
            await pilot.press("enter")  # setup discard, draws, windows: the highlighted answer
            await pilot.pause()
        await wait_for(pilot, lambda: _coach(screen) is not None)
        assert "a pass now wins" in _coach(screen)


async def _network_go500(coaching_allowed: bool, my_setting: bool) -> str | None:
    """A network table (the real hub and app), me against a bot: what my coach line says."""
    from net.hub import Identity, SeatSpec, TableSpec
    from net.local_hub import LocalHub
    from tui.app import OpenTable, SpeedwayApp

    me = Identity(id="test:me", nickname="me")
    hub = LocalHub(None, persist=False, bot_delay=0.0, lobby_interval=0.0)
    seats = [
        SeatSpec(kind="human", name="Me", identity=me.id),
        SeatSpec(kind="bot", name="Bot", bot="cautious"),
    ]
    spec = TableSpec(game="go500", seats=seats, seed=3, coaching=coaching_allowed)
    table_id = await hub.create_table(spec, me)
    app = SpeedwayApp(
        hub, me, start=OpenTable(table_id=table_id, seat=0), animate=False, network=True
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _go500_decision(pilot, coaching=my_setting)
        assert screen.fold.table.coaching is coaching_allowed
        text = _coach(screen)
    await hub.close()
    return text


async def test_network_tables_coach_only_when_the_creator_allowed_it_and_then_everyone():
    assert await _network_go500(coaching_allowed=False, my_setting=True) is None
    allowed = await _network_go500(coaching_allowed=True, my_setting=False)
    assert allowed is not None, "allowed by the creator: shown whatever the player's setting"
    assert allowed.startswith("Coach: stop now")
