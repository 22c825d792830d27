"""The Go 500 golden playthrough: one full seeded 4-bot Oval race as a readable transcript.

`python -m tests.go500.golden` rewrites `golden/oval_seed1.txt`; `test_golden.py` regenerates
the transcript and diffs it against the committed file. A diff is a rules (or bot) change:
read it before accepting it.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from core import registry
from core.game import Seat, Table

GOLDEN = Path(__file__).parent / "golden" / "oval_seed1.txt"
SEED = 1
BOTS = ("cautious", "bold", "random", "cautious")


def _action(action: object) -> str:
    data = msgspec.to_builtins(action)
    tag = data.pop("type") if isinstance(data, dict) and "type" in data else str(data)
    args = ", ".join(f"{k}={v}" for k, v in data.items()) if isinstance(data, dict) else ""
    return f"{tag}({args})"


def transcript(seed: int = SEED) -> str:
    game = registry.get("go500")
    seats = [Seat(name=f"{bot.capitalize()}-{i + 1}", bot=bot) for i, bot in enumerate(BOTS)]
    table = Table(game, game.default_config(), seats, seed)
    table.run_bots()
    names = table.names
    lines = [
        f"# Go 500 golden playthrough: Oval, default options, seed {seed}",
        f"# seats: {', '.join(names)}",
        "",
    ]
    for step in table.history:
        if step.seat is not None:
            lines.append(f"> {names[step.seat]}: {_action(step.action)}")
        for event in step.events:
            text = game.describe(event, names)
            if text is not None:
                lines.append(f"  {text}")
    result = table.result()
    assert result is not None
    lines += ["", f"# result: {result.summary}; ranking {[names[s] for s in result.ranking]}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    GOLDEN.write_text(transcript())
    print(f"wrote {GOLDEN}")
