"""A table's update stream that fails after it started (a remote watch refused mid-stream) says
why on the status line; the app and the table screen stay, and leaving still works. Leaving
cancels a stream that is waiting: cancelled, not taken for a refusal."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from textual.worker import WorkerState

from net.hub import HubError, SeatSpec, Update, Watch, Welcome
from tests.tui.conftest import ME, dash_app
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.home import HomeScreen
from tui.screens.table import GenericTableScreen
from tui.widgets.common import StatusLine

STOPPED = "This table stopped: its race log could not be written."


class FailsAfterWelcome:
    """The hub's own stream, which raises ``error`` once it has delivered the Welcome."""

    def __init__(self, inner: Watch, error: Exception) -> None:
        self.inner = inner
        self.error = error
        self.closed = False

    def __aiter__(self) -> AsyncIterator[Update]:
        return self._updates()

    async def _updates(self) -> AsyncIterator[Update]:
        async for update in self.inner:
            yield update
            if isinstance(update, Welcome):
                raise self.error

    async def close(self) -> None:
        self.closed = True
        await self.inner.close()


@pytest.mark.parametrize(
    "error",
    [HubError("table-stopped", STOPPED), ValueError(STOPPED)],
    ids=["HubError", "ValueError"],
)
async def test_a_stream_failing_mid_race_is_said_and_the_app_goes_on(error):
    app = dash_app(
        [
            SeatSpec(kind="human", identity=ME.id, name="Ann"),
            SeatSpec(kind="bot", bot="steady", name="Steady"),
        ],
        seed=3,
    )
    real_watch = app.hub.watch
    streams: list[FailsAfterWelcome] = []

    def watch(table_id: str, who, seat):
        streams.append(FailsAfterWelcome(real_watch(table_id, who, seat), error))
        return streams[-1]

    app.hub.watch = watch
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(streams) and streams[0].closed)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GenericTableScreen)
        assert screen.fold is not None  # the Welcome before the failure was shown
        status = screen.query_one(StatusLine)
        assert STOPPED in str(status.render())
        assert status.has_class("-error")
        assert app.is_running
        await pilot.press("escape", "a")  # leave (abandoning the local game): still answers
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert app.is_running


class HangsAfterWelcome(FailsAfterWelcome):
    """The hub's own stream, which waits for ever once it has delivered the Welcome."""

    async def _updates(self) -> AsyncIterator[Update]:
        async for update in self.inner:
            yield update
            if isinstance(update, Welcome):
                await asyncio.Event().wait()


async def test_leaving_cancels_the_stream_and_says_no_error():
    app = dash_app([SeatSpec(kind="human", identity=ME.id, name="Ann")], seed=3)
    real_watch = app.hub.watch
    streams: list[HangsAfterWelcome] = []

    def watch(table_id: str, who, seat):
        streams.append(HangsAfterWelcome(real_watch(table_id, who, seat), RuntimeError()))
        return streams[-1]

    app.hub.watch = watch
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: getattr(app.screen, "fold", None) is not None)
        status = app.screen.query_one(StatusLine)
        (worker,) = [w for w in app.workers if w.group == "watch"]
        await pilot.press("escape", "a")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await wait_for(pilot, lambda: worker.is_finished)
        assert worker.state is WorkerState.CANCELLED  # not ended as if the stream refused
        assert streams[0].closed
        assert not status.has_class("-error")
