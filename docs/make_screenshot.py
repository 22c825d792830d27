"""Regenerate docs/go500-table.svg: a Go 500 table mid-turn, exported by Textual.

Run from the repository root: ``.venv/bin/python docs/make_screenshot.py``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tui.conftest import go500_app
from tests.tui.test_snapshots import _mid_turn


async def main() -> None:
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _mid_turn(pilot)
        target = Path(__file__).parent / "go500-table.svg"
        app.save_screenshot(filename=target.name, path=str(target.parent))
        print(target)


if __name__ == "__main__":
    asyncio.run(main())
