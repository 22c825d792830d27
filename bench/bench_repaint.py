"""CPU per repaint of each game's real table screen (`bench.repaint`), target ≤ 3 ms.

``repaint_cpu_ms_<game>``: the median process CPU per step shown to one spectator of a network
table at 80x24, from the hub's step to the frame's bytes through the real SSH driver.
``repaint_cpu_ms_4_spectators_<game>``: the same per viewer when four spectators watch the table
(as in the load benchmark): one draws, the others get its frames (`net.mirror`) and fold only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bench import QUICK
from bench.repaint import GAMES, repaint_cpu_ms


def run() -> Iterator[dict[str, Any]]:
    steps = 30 if QUICK else 80
    for game in GAMES:
        yield {
            "bench": f"repaint_cpu_ms_{game}",
            "value": round(repaint_cpu_ms(game, steps), 2),
            "unit": "ms CPU",
            "target": 3,
            "steps": steps,
        }
    for game in GAMES:
        yield {
            "bench": f"repaint_cpu_ms_4_spectators_{game}",
            "value": round(repaint_cpu_ms(game, steps, viewers=4), 2),
            "unit": "ms CPU per viewer",
            "target": 3,
            "steps": steps,
        }
