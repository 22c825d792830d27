"""Seat lists in words: ``me,optimal,bold,hot:Ann`` -> the hub's `SeatSpec` list.

Owns the seat mini-language shared by ``speedway play --seats`` and the new-game form:
``me`` = you, ``hot`` or ``hot:NAME`` = another human at this keyboard (hot-seat), anything else
= a bot of the chosen game, ``open`` = a seat anyone may take (network tables). You are one
player, so one seat: a second ``me`` is another human at this keyboard (a hot-seat player named
after its seat, "Player 3"); on a network table, where nobody else plays at your keyboard, it is
refused. Must not import textual or create tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.game import ConfigError, Game
from net.hub import Identity, SeatSpec

__all__ = ["HOT_PREFIX", "bot_title", "hot_identity", "parse_seats"]

HOT_PREFIX = "local:hot:"


def hot_identity(name: str) -> Identity:
    """The identity of a hot-seat human sitting at this keyboard."""
    return Identity(id=f"{HOT_PREFIX}{name}", nickname=name)


def bot_title(bot: str) -> str:
    return bot.replace("_", " ").replace("-", " ").title()


ONE_YOU = (
    "Only one seat can be you; the other players sit down at open seats from their own terminals."
)


def parse_seats(
    game: Game, words: Sequence[str], me: Identity, *, network: bool = False
) -> list[SeatSpec]:
    """Turn seat words into seat specs, with unique display names; bad words get one sentence.

    ``network``: a table others join over SSH (a second ``me`` is refused, not a hot seat)."""
    specs: list[SeatSpec] = []
    used: set[str] = set()
    hot_count = 0

    def unique(name: str) -> str:
        base, n = name, 2
        while name.lower() in used:
            name = f"{base} {n}"
            n += 1
        used.add(name.lower())
        return name

    def hot_seat(name: str) -> SeatSpec:
        name = unique(name[:20] or f"Player {len(specs) + 1}")
        return SeatSpec(kind="human", name=name, identity=hot_identity(name).id)

    for raw in words:
        word = raw.strip()
        low = word.lower()
        if not word:
            raise ConfigError("A seat is empty; write me, hot, hot:NAME or a bot name.")
        if low == "me" and all(s.identity != me.id for s in specs):
            specs.append(SeatSpec(kind="human", name=unique(me.nickname), identity=me.id))
        elif low == "me" and network:
            raise ConfigError(ONE_YOU)
        elif low == "me":  # you sit once: a second "me" is another player at this keyboard
            specs.append(hot_seat(f"Player {len(specs) + 1}"))
        elif low == "hot" or low.startswith("hot:"):
            hot_count += 1
            specs.append(hot_seat(word[4:].strip() if ":" in word else f"Player {len(specs) + 1}"))
        elif low == "open":
            specs.append(SeatSpec(kind="open", name=""))
        elif low in game.bots:
            specs.append(SeatSpec(kind="bot", name=unique(bot_title(low)), bot=low))
        else:
            bots = ", ".join(game.bots)
            raise ConfigError(
                f"{word!r} is not a seat: write me, hot, hot:NAME or one of {game.title}'s "
                f"bots ({bots})."
            )
    if not game.min_seats <= len(specs) <= game.max_seats:
        raise ConfigError(
            f"{game.title} seats {game.min_seats} to {game.max_seats} players, not {len(specs)}."
        )
    return specs
