"""Golden playthrough: one full seeded bot game, human-readable, committed and diffed.

A diff is a rules change: read it. Regenerate with
``SPEEDWAY_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/champions/test_golden.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from core.champions import GAME
from core.game import Seat, Table

GOLDEN = Path(__file__).parent / "golden" / "champions_promoter_random_seed2026.txt"


def transcript() -> str:
    seats = [
        Seat(name="Ava (promoter)", bot="promoter"),
        Seat(name="Ben (random)", bot="random"),
        Seat(name="Cy (promoter)", bot="promoter"),
    ]
    table = Table(GAME, GAME.default_config(), seats, 2026)
    table.run_bots()
    lines = ["# NASCAR Champions golden playthrough: seed 2026, 3 seats, default options", ""]
    for step in table.history:
        if step.seat is None:
            lines.append("== setup")
        else:
            action = msgspec.json.encode(step.action).decode()
            lines.append(f"== #{step.state_id} {table.names[step.seat]}: {action}")
        for event in step.events:
            text = GAME.describe(event, table.names)
            lines.append(f"   {text}")
    result = table.result()
    assert result is not None
    lines += ["", f"Result: {result.summary}; ranking {result.ranking}; money {result.scores}"]
    return "\n".join(lines) + "\n"


def test_golden_playthrough_matches_committed_transcript():
    text = transcript()
    if os.environ.get("SPEEDWAY_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.exists(), "run with SPEEDWAY_UPDATE_GOLDEN=1 to write the golden file"
    assert text == GOLDEN.read_text(encoding="utf-8")
    assert "NASCAR Champion" in text
    assert "Lap 2 grid" in text
