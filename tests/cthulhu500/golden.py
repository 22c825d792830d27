"""The golden playthrough: one full seeded bot game of Cthulhu 500 as readable text.

`python -m tests.cthulhu500.golden` rewrites the committed file; `test_golden.py` regenerates it
and diffs. A diff is a rules change: read it before you accept it.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from core import registry
from core.game import Seat, Table

GOLDEN = Path(__file__).with_name("golden_seed7_3p.txt")
SEED = 7
SEATS = [
    Seat(name="Ann", bot="shrewd"),
    Seat(name="Bob", bot="random"),
    Seat(name="Cy", bot="shrewd"),
]


def transcript() -> str:
    game = registry.get("cthulhu500")
    table = Table(game, game.default_config(), SEATS, SEED)
    table.run_bots()
    names = table.names
    lines = [
        f"Cthulhu 500 golden playthrough: seed {SEED}, seats "
        + ", ".join(f"{s.name} ({s.bot})" for s in SEATS)
    ]
    for step in table.history:
        if step.action is not None:
            action = msgspec.json.encode(step.action).decode()
            lines.append(f"#{step.state_id} {names[step.seat or 0]}: {action}")
        for event in step.events:
            text = game.describe(event, names)
            if text:
                lines.append(f"    {text}")
    result = table.result()
    assert result is not None
    lines.append(
        f"Result: {result.summary}; ranking " + ", ".join(names[s] for s in result.ranking)
    )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    GOLDEN.write_text(transcript())
    print(f"wrote {GOLDEN}")
