"""Which games the conformance suite checks: every registered game plus the test-only Dash."""

from __future__ import annotations

import pytest

from core import registry
from tests.fakegame import GAME as DASH

GAMES = {**{g.id: g for g in registry.all_games()}, DASH.id: DASH}


@pytest.fixture(params=sorted(GAMES), scope="module")
def game(request: pytest.FixtureRequest):
    return GAMES[request.param]
