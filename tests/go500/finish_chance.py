"""Builds `core/go500/finish_chance.json`, the optimal bot's shipped one-turn finish chances.

`python -m tests.go500.finish_chance` rewrites it (after a dice data change); the test in
`test_bots.py` checks the shipped numbers against a fresh computation.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from core.go500.optimal import (
    FinishChanceData,
    FinishChanceRow,
    compute_finish_chance,
    dice_fingerprint,
)
from core.go500.tables import tables_for

PATH = Path(__file__).resolve().parents[2] / "core" / "go500" / "data" / "finish_chance.json"
CIRCLES = ((25, 50),)


def build() -> FinishChanceData:
    rows = []
    for circles in CIRCLES:
        top = tables_for(circles).max_turn
        chance = tuple(round(compute_finish_chance(circles, d), 12) for d in range(5, top + 1, 5))
        rows.append(FinishChanceRow(circle_values=circles, chance=chance))
    return FinishChanceData(
        tag="DERIVED",
        note="Chance of reaching 5, 10, ... 175 miles in one turn playing for it "
        "(core.go500.optimal.compute_finish_chance); a cache, rebuilt by tests/go500/finish_chance.py.",
        dice=dice_fingerprint(),
        tables=tuple(rows),
    )


if __name__ == "__main__":
    PATH.write_bytes(msgspec.json.format(msgspec.json.encode(build()), indent=1) + b"\n")
    print(f"wrote {PATH}")
