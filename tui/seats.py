"""Seat lists in words: ``me,optimal,bold,hot:Ann`` -> the hub's `SeatSpec` list.

Owns the seat mini-language shared by ``speedway play --seats`` and the new-game form:
``me`` = you, ``hot`` or ``hot:NAME`` = another human at this keyboard (hot-seat), anything else
= a bot of the chosen game, ``open`` = a seat anyone may take (network tables). Must not import
textual or create tables.
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


def parse_seats(game: Game, words: Sequence[str], me: Identity) -> list[SeatSpec]:
    """Turn seat words into seat specs, with unique display names; bad words get one sentence."""
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

    for raw in words:
        word = raw.strip()
        low = word.lower()
        if not word:
            raise ConfigError("A seat is empty; write me, hot, hot:NAME or a bot name.")
        if low == "me":
            specs.append(SeatSpec(kind="human", name=unique(me.nickname), identity=me.id))
        elif low == "hot" or low.startswith("hot:"):
            hot_count += 1
            name = word[4:].strip() if ":" in word else f"Player {len(specs) + 1}"
            name = unique(name[:20] or f"Player {len(specs) + 1}")
            specs.append(SeatSpec(kind="human", name=name, identity=hot_identity(name).id))
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
