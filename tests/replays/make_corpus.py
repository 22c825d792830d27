"""Regenerate the seed corpus of real files in tests/replays/corpus/ (run by hand).

    .venv/bin/python -m tests.replays.make_corpus

The corpus feeds the fuzz tests and guards the format: every file must keep opening (and the
finished ones verifying) with every later Speedway. A format change that breaks them is a
version bump, not a corpus refresh.
"""

from __future__ import annotations

from pathlib import Path

from core.game import Seat, Table
from replays.log import LogWriter
from tests.fakegame import GAME as DASH
from tests.fakegame import Roll
from tests.replays.helpers import CORPUS, GOLDEN, dash_table, golden_bytes, play_logged, seats


def main() -> None:
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_bytes(golden_bytes())
    CORPUS.mkdir(exist_ok=True)
    for old in CORPUS.iterdir():
        old.unlink()
    play_logged(CORPUS / "finished-2p.replay", seed=1, snapshot_every=3)
    play_logged(CORPUS / "long-3p.replay", seed=2, snapshot_every=3, n=3, goal=40, bot="steady")
    play_logged(CORPUS / "finished-4p.replay", seed=77, snapshot_every=32, n=4)
    play_logged(CORPUS / "unfinished.log", seed=5, finish=False)
    torn = CORPUS / "torn.log"
    play_logged(torn, seed=6, finish=False)
    data = torn.read_bytes()
    torn.write_bytes(data[:-7])
    # A branched game: seats from a past position of seed 1, then fresh chance from seed 99.
    source = dash_table(1)
    for _ in range(3):
        seat = source.pending()[0]
        source.submit(seat, source.bot_action(seat))
    past = [event for step in source.history for event in step.events]
    table = Table(DASH, source.config, seats(2), 99, setup_events=past)
    path = Path(CORPUS / "branched.replay")
    writer = LogWriter.create(
        path, table, fsync=False, branched_from={"source": "finished-2p.replay", "step": 3}
    )
    table_result = None
    while table.pending():
        seat = table.pending()[0]
        writer.append(table.submit(seat, table.bot_action(seat)))
    table_result = table.result()
    assert table_result is not None
    writer.finish(table_result, 99)
    # A game where a seat changed hands mid-game (an open seat taken, then a bot took over).
    table = dash_table(8, goal=30)
    writer = LogWriter.create(CORPUS / "seats-changed.replay", table, fsync=False)
    for i in range(40):
        if not table.pending():
            break
        if i == 2:
            writer.set_seats([Seat(name="Ann", identity="SHA256:ann"), table.seats[1]])
        writer.append(table.submit(table.pending()[0], Roll()))
    result = table.result()
    assert result is not None
    writer.finish(result, 8)


if __name__ == "__main__":
    main()
