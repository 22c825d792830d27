"""One golden mechanism for every registered game (STYLE.md #9): each game's seeded bot
playthrough, printed by `replays.export.transcript`, matches its committed file byte for byte.

Regenerate every file with ``.venv/bin/python -m tests.golden`` (see `tests/golden`); a diff is a
rules, bot or wording change: read it before accepting it. A registered game without a golden
playthrough fails here.
"""

from __future__ import annotations

import difflib

import pytest

from core import registry
from tests.golden import GOLDEN_GAMES, golden_path, playthrough


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_golden_playthrough_is_unchanged(game_id: str) -> None:
    assert game_id in GOLDEN_GAMES, f"add {game_id}'s golden playthrough to tests/golden"
    path = golden_path(game_id)
    assert path.exists(), f"{path} is missing: run .venv/bin/python -m tests.golden"
    want = path.read_text(encoding="utf-8")
    got = playthrough(game_id)
    diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), n=1))
    assert got == want, (
        f"{game_id}'s golden playthrough changed; read the diff, then run "
        f".venv/bin/python -m tests.golden\n{diff[:4000]}"
    )
    for sentence in GOLDEN_GAMES[game_id].says:
        assert sentence in got, sentence
    steps = sum(1 for line in got.splitlines() if line.startswith("Step "))
    assert steps > 20, "a golden playthrough is a whole game"


def test_the_golden_files_are_exactly_the_registered_games() -> None:
    files = {path.stem for path in golden_path("x").parent.glob("*.txt")}
    assert files == set(registry.game_ids()) == set(GOLDEN_GAMES)
