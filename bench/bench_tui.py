"""TUI cost of the heaviest screens: CPU to open each, in one process.

Over SSH every session's app shares one event loop, so the CPU a screen takes to open is a
pause for every other player on the server. Figures (median of five opens, after one warm-up):
``tui_open_cpu_ms_new_game`` (the new-game form: about twenty pickers and the seat rows) and
``tui_open_cpu_ms_rules`` (the rules page of the first game).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

OPENS = 5


async def _open_cpu_ms(key: str, ready: Callable[[Any], bool]) -> float:
    from tests.tui.conftest import make_app

    app = make_app()
    times: list[float] = []
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        for _ in range(OPENS + 1):
            start = time.process_time()
            await pilot.press(key)
            for _ in range(1000):
                if ready(app):
                    break
                await pilot.pause(0.005)
            await pilot.pause()
            times.append((time.process_time() - start) * 1000)
            await pilot.press("escape")
            await pilot.pause()
    return statistics.median(times[1:])


def run() -> Iterator[dict[str, Any]]:
    from tui.screens.newgame import NewGameScreen
    from tui.screens.rules import RulesScreen

    def form_ready(app: Any) -> bool:
        return isinstance(app.screen, NewGameScreen) and bool(app.screen.query("#newgame-form"))

    def rules_ready(app: Any) -> bool:
        return isinstance(app.screen, RulesScreen)

    for name, key, ready in (("new_game", "n", form_ready), ("rules", "r", rules_ready)):
        yield {
            "name": f"tui_open_cpu_ms_{name}",
            "value": round(asyncio.run(_open_cpu_ms(key, ready)), 1),
            "unit": "ms CPU",
        }
