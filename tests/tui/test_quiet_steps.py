"""The load benchmark's "quiet step" records: a table screen says when a step drew nothing.

A real app, driven by the real `SSHDriver` into a terminal emulator, watches a Cthulhu 500
table of the real hub as a spectator; the test plays the seats through the hub's calls, one
step at a time, and compares the terminal before and after each step with the trace's
``quiet`` records (`net.trace`). Who is asked inside a reaction window is not shown to others,
so some steps change nothing on a spectator's screen; the benchmark must not time those.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import net.trace
from net.hub import SeatSpec, TableSpec
from net.local_hub import LocalHub
from tests.tui.test_shared_frames import BOTS, ME, P1, Viewers

SEED = 15  # with these bots, step 16 passes a reaction on to another seat, showing nothing
STEPS = 20


@pytest.fixture
def trace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SPEEDWAY_TRACE", str(tmp_path / "trace.jsonl"))
    made = net.trace.from_environment()
    assert made is not None
    assert net.trace.active() is made
    yield made
    made.close()
    monkeypatch.setattr(net.trace, "_ACTIVE", None)


async def test_a_step_that_draws_nothing_is_recorded_quiet_and_no_other(trace) -> None:  # type: ignore[no-untyped-def]
    hub = LocalHub(None, persist=False, bot_delay=1e9, lobby_interval=0.0)
    seats = [
        SeatSpec(kind="human", name=f"P{i + 1}", identity=(P1 if i == 0 else ME).id)
        for i in range(4)
    ]
    table_id = await hub.create_table(TableSpec(game="cthulhu500", seats=seats, seed=SEED), ME)
    viewers = Viewers(hub, table_id)
    unchanged: set[int] = set()
    try:
        await viewers.add(1)
        game_table = hub.table(table_id)
        terminal = viewers.terminals[0]
        for _ in range(STEPS):
            before = terminal.text()
            seat = game_table.pending()[0]
            who = P1 if seat == 0 else ME
            action = await hub.hint(table_id, who, seat, BOTS[seat])
            await hub.submit(table_id, who, seat, action, game_table.state_id)
            await viewers.settle()
            if terminal.text() == before:
                unchanged.add(game_table.state_id)
    finally:
        await viewers.close()
    trace.flush()
    records = [json.loads(line) for line in trace.path.read_text().splitlines()]
    quiet = {r["state"] for r in records if r["k"] == "quiet"}
    assert all(r["seat"] is None and r["table"] == table_id for r in records if r["k"] == "quiet")
    assert unchanged, "the seed was chosen for a step a spectator does not see"
    # A step's record is written when the next step arrives: the last one cannot be known.
    assert quiet == unchanged - {game_table.state_id}
