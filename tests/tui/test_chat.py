"""Table chat at a network table: `t` opens a prompt, Enter sends through the hub, every
viewer's race log shows the sanitised line; local tables have no chat key."""

from __future__ import annotations

import asyncio

from net.hub import ChatLine, Identity, SeatSpec, TableSpec
from tests.tui.conftest import ME, make_app
from tests.tui.test_pilot_go500 import wait_for
from tui.screens.go500 import Go500TableScreen
from tui.screens.table import ChatPrompt
from tui.widgets.common import RaceLog


def log_text(screen) -> str:
    return "\n".join(strip.text for strip in screen.query_one(RaceLog).lines)


async def test_chat_line_reaches_every_viewer_and_the_log():
    app = make_app(network=True)
    bob = Identity(id="ssh:bob", nickname="Bob")
    async with app.run_test(size=(100, 30)) as pilot:
        spec = TableSpec(
            game="go500",
            seats=[
                SeatSpec(kind="human", identity=ME.id, name="Ann"),
                SeatSpec(kind="human", identity=bob.id, name="Bob"),
            ],
            seed=2,
        )
        table_id = await app.hub.create_table(spec, ME)
        app.open_table(table_id, 0)
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        table = app.screen
        bob_sees: list[ChatLine] = []

        async def follow_bob() -> None:
            async for update in app.hub.watch(table_id, bob, 1):
                if isinstance(update, ChatLine):
                    bob_sees.append(update)
                    return

        task = asyncio.create_task(follow_bob())
        await pilot.pause()
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatPrompt))
        await pilot.press(*"never mind", "escape")
        await wait_for(pilot, lambda: app.screen is table)
        assert "says:" not in log_text(table)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatPrompt))
        await pilot.press(*"good \x1b[31mluck", "enter")
        await wait_for(pilot, lambda: app.screen is table and "Ann says:" in log_text(table))
        await asyncio.wait_for(task, 5)
        assert bob_sees[0].nickname == "Ann"
        assert "\x1b" not in bob_sees[0].text
        assert bob_sees[0].text.startswith("good")
        assert "Ann says: good" in log_text(table)


async def test_local_tables_have_no_chat_key():
    app = make_app(network=False)
    async with app.run_test(size=(100, 30)) as pilot:
        spec = TableSpec(
            game="go500",
            seats=[
                SeatSpec(kind="human", identity=ME.id, name="Ann"),
                SeatSpec(kind="bot", bot="bold"),
            ],
            seed=2,
        )
        table_id = await app.hub.create_table(spec, ME)
        app.open_table(table_id, 0)
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        await pilot.press("t")
        await pilot.pause()
        assert not isinstance(app.screen, ChatPrompt)


async def _open_network_table(app, pilot):
    bob = Identity(id="ssh:bob", nickname="Bob")
    spec = TableSpec(
        game="go500",
        seats=[
            SeatSpec(kind="human", identity=ME.id, name="Ann"),
            SeatSpec(kind="human", identity=bob.id, name="Bob"),
        ],
        seed=2,
    )
    table_id = await app.hub.create_table(spec, ME)
    app.open_table(table_id, 0)
    await wait_for(
        pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
    )
    return app.screen


async def test_a_long_paste_is_cut_to_the_limit_and_sent():
    from textual import events

    from tui.screens.table import ChatInput

    app = make_app(network=True)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await _open_network_table(app, pilot)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatPrompt))
        box = app.screen.query_one(ChatInput)
        box.post_message(events.Paste("paste " * 100 + "\nsecond line"))
        await pilot.pause()
        assert len(box.value) == ChatPrompt.MAX_LENGTH  # cut, not refused
        assert box.value.startswith("paste paste")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is table and "Ann says: paste" in log_text(table))


async def test_a_rate_limited_line_stays_in_the_prompt():
    from tui.screens.table import ChatInput

    app = make_app(network=True)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await _open_network_table(app, pilot)
        for i in range(app.hub.chat_burst):
            await app.hub.chat(table.table_id, ME, f"line {i}")
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatPrompt))
        prompt = app.screen
        await pilot.press(*"one too many", "enter")
        error = prompt.query_one("#chat-error")
        await wait_for(pilot, lambda: "too fast" in str(error.render()))
        assert app.screen is prompt  # still open ...
        assert prompt.query_one(ChatInput).value == "one too many"  # ... with the line in it
        assert "one too many" not in log_text(table)
