"""A table screen never dies of a race with the hub: an update that arrives while (or after) the
screen is being removed is dropped, and the session goes on (issue 12: `NoMatches` on leaving)."""

from __future__ import annotations

from net.hub import Identity, SeatSpec, StepUpdate, TableSpec
from tests.tui.conftest import make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.table import TableScreen

BOT = Identity(id="test:bot-owner", nickname="Owner")


async def test_an_update_after_leaving_is_dropped_and_the_app_lives_on():
    app = make_app(network=True)
    async with app.run_test(size=(80, 24)) as pilot:
        spec = TableSpec(
            game="cthulhu500",
            seats=[SeatSpec(kind="bot", name=f"B{i}", bot="random") for i in range(3)],
            bot_delay=1e9,
        )
        table_id = await app.hub.create_table(spec, BOT)
        app.open_table(table_id, None)
        await wait_for(pilot, lambda: getattr(app.screen, "fold", None) is not None)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        late = StepUpdate(state_id=1, seat=0, events=[], pending=[1])
        await pilot.press("escape")
        screen.receive(late)  # the hub's next step, delivered as the screen goes
        await pilot.pause()
        assert screen.leaving
        screen.receive(late)  # and after it is gone
        screen.handle_update(late)
        await pilot.pause()
        assert not isinstance(app.screen, TableScreen)
        assert app.is_running, "the session survives"
        assert app._exception is None
