"""The rules' helper caches stay small (`core.memo`): a long-running server's memory must not
grow by what a hundred races leave in them (issue 11)."""

import functools
import sys
from typing import Any

from core import registry
from core.game import Seat, Table
from core.memo import memo


def _rule_caches() -> dict[str, Any]:
    return {
        f"{name}.{attr}": value
        for name, module in sorted(sys.modules.items())
        if name.startswith("core.")
        for attr, value in vars(module).items()
        if isinstance(value, functools._lru_cache_wrapper)
    }


def test_memo_keeps_at_most_512_answers() -> None:
    square = memo(lambda n: n * n)
    for n in range(2000):
        square(n)
    assert square.cache_info().currsize == 512
    assert square(1999) == 1999 * 1999
    assert square.cache_info().hits == 1


def test_no_rules_cache_grows_past_its_bound_over_many_races() -> None:
    for game_id in ("cthulhu500", "champions"):
        game = registry.get(game_id)
        bots = list(game.bots)
        for seed in range(1, 7):
            seats = [Seat(name=f"b{i}", bot=bots[i % len(bots)]) for i in range(4)]
            Table(game, game.default_config(), seats, seed).run_bots()
    caches = _rule_caches()
    hands_and_routes = [
        "core.cthulhu500.rules.options._hand_effects",
        "core.cthulhu500.rules.options._subsets",
        "core.cthulhu500.rules.board._equipment",
        "core.champions.track._move_ends",
        "core.champions.track._reaches",
    ]
    for name in hands_and_routes:
        assert caches[name].cache_info().maxsize == 512, name
    # The few caches sized on their own are the costly, rarely asked tables (Go 500's optimal
    # play) and small keys: none may hold more than 4,096 answers.
    assert all(c.cache_info().maxsize is not None for c in caches.values())
    assert max(c.cache_info().currsize for c in caches.values()) <= 4096
