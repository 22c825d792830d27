"""The Cthulhu 500 deck as data: `data/cards.json` decoded into frozen structs and validated at load.

Owns the card table (ids 1–110, names, short effect texts, stats and the effect primitive each
card refers to) and the checks that keep the data honest: every id exactly once, the FACT card
mix per type, vehicle pairs (odd marker, even schematic), known tags, effects and targets.
Rule code reads cards only through `CARDS`/`card()`; it never restates a number from the table.

Must not: know any rule beyond the shape of the data, or do I/O other than reading its own file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import msgspec

from core.game import DataError

__all__ = [
    "ACTION_EFFECTS",
    "CARDS",
    "CHECKERED_FLAG",
    "DECK_IDS",
    "MOD_EFFECTS",
    "REACTION_EFFECTS",
    "Card",
    "DataError",
    "card",
    "load_cards",
    "name_of",
    "pair_of",
]

CardType = Literal["vehicle", "crew", "mod", "tires", "action", "reaction", "flag"]

ACTION_EFFECTS = frozenset(
    {
        "auto_pass_ahead",
        "contagion",
        "draft",
        "nitrous",
        "discard_equipment",
        "poach_crew",
        "repair_now",
        "scavenge",
        "damage_any",
        "damage_ahead_behind",
        "swap_two_ahead",
        "grant_actions",
        "move_driver",
    }
)
REACTION_EFFECTS = frozenset(
    {
        "cancel_card",
        "cancel_spell",
        "def_bonus",
        "atk_bonus",
        "prevent_damage",
        "cancel_pass",
        "repair_on_damage",
        "cancel_pit_test",
    }
)
MOD_EFFECTS = frozenset(
    {
        "damage_passer",
        "damage_passed",
        "absorb_damage",
        "repair_bonus",
        "sponsor_discard",
        "extra_draw",
        "hand_limit",
    }
)
_EFFECTS: dict[str, frozenset[str]] = {
    "vehicle": frozenset({"reroll_once", "tie_immune"}),
    "crew": frozenset({"zombie_fixit"}),
    "mod": MOD_EFFECTS,
    "tires": frozenset(),
    "action": ACTION_EFFECTS,
    "reaction": REACTION_EFFECTS,
    "flag": frozenset(),
}
_TAGS = frozenset({"fungi", "zombie"})
_TARGETS = frozenset(
    {"crew", "mod", "equipment", "pit_crew", "discard_equipment", "vehicle", "driver"}
)

CHECKERED_FLAG = 110


class CardEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One row of `cards.json`: a card and its copies (or a vehicle's two cards)."""

    ids: list[int]
    type: CardType
    name: str
    source: Literal["FACT", "PROPOSED"]
    text: str
    speed: int = 0
    speed_damaged: int = 0
    complexity: int = 0
    drive: int = 0
    fixit: int = 0
    atk: int = 0
    def_: int = msgspec.field(default=0, name="def")
    tags: list[str] = []
    effect: str | None = None
    param: int = 0
    target: str | None = None
    spell: bool = False
    sponsor: bool = False


class CardFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    version: str
    counts: dict[str, int]
    cards: list[CardEntry]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One physical card (copies share everything but the id)."""

    id: int
    type: CardType
    name: str
    text: str
    source: str
    speed: int = 0
    speed_damaged: int = 0
    complexity: int = 0
    drive: int = 0
    fixit: int = 0
    atk: int = 0
    def_: int = 0
    tags: tuple[str, ...] = ()
    effect: str | None = None
    param: int = 0
    target: str | None = None
    spell: bool = False
    sponsor: bool = False


def _validate(data: CardFile) -> dict[int, Card]:
    cards: dict[int, Card] = {}
    per_type: dict[str, int] = {}
    for entry in data.cards:
        if entry.effect is not None and entry.effect not in _EFFECTS[entry.type]:
            raise DataError(f"{entry.name} has an unknown {entry.type} effect {entry.effect!r}.")
        if entry.target is not None and entry.target not in _TARGETS:
            raise DataError(f"{entry.name} has an unknown target {entry.target!r}.")
        for tag in entry.tags:
            if tag not in _TAGS:
                raise DataError(f"{entry.name} has an unknown tag {tag!r}.")
        if entry.type in ("action", "reaction") and entry.effect is None:
            raise DataError(f"{entry.name} is an {entry.type} card without an effect.")
        if entry.spell and (entry.type != "action" or not entry.name.startswith("Spell:")):
            raise DataError(f"{entry.name} is marked a Spell but is not a 'Spell:' action.")
        if entry.sponsor and (entry.type != "mod" or not entry.name.startswith("Sponsor:")):
            raise DataError(f"{entry.name} is marked a Sponsor but is not a 'Sponsor:' mod.")
        if entry.type == "vehicle":
            a, b = [*entry.ids, 0, 0][:2]
            if len(entry.ids) != 2 or a % 2 != 1 or b != a + 1:
                raise DataError(f"{entry.name} must be a pair: an odd marker id and the next id.")
        for cid in entry.ids:
            if cid in cards:
                raise DataError(f"Card id {cid} appears twice ({entry.name}).")
            per_type[entry.type] = per_type.get(entry.type, 0) + 1
            cards[cid] = Card(
                id=cid,
                type=entry.type,
                name=entry.name,
                text=entry.text,
                source=entry.source,
                speed=entry.speed,
                speed_damaged=entry.speed_damaged,
                complexity=entry.complexity,
                drive=entry.drive,
                fixit=entry.fixit,
                atk=entry.atk,
                def_=entry.def_,
                tags=tuple(entry.tags),
                effect=entry.effect,
                param=entry.param,
                target=entry.target,
                spell=entry.spell,
                sponsor=entry.sponsor,
            )
    total = sum(data.counts.values())
    if sorted(cards) != list(range(1, total + 1)):
        raise DataError(f"Card ids must be exactly 1 to {total}, each once.")
    for kind, want in data.counts.items():
        if per_type.get(kind, 0) != want:
            raise DataError(
                f"The deck needs {want} {kind} cards, the data has {per_type.get(kind, 0)}."
            )
    if cards.get(CHECKERED_FLAG) is None or cards[CHECKERED_FLAG].type != "flag":
        raise DataError(f"Card {CHECKERED_FLAG} must be the Checkered Flag.")
    return cards


def load_cards(raw: bytes | None = None) -> dict[int, Card]:
    """Decode and validate the card file (the package's own unless ``raw`` is given)."""
    if raw is None:
        raw = (Path(__file__).parent / "data" / "cards.json").read_bytes()
    try:
        data = msgspec.json.decode(raw, type=CardFile)
    except msgspec.ValidationError as err:
        raise DataError(f"The card file is malformed: {err}.") from None
    except msgspec.DecodeError as err:  # not JSON at all (found by tests/test_decoders_fuzz.py)
        raise DataError(f"The card file is not JSON: {err}.") from None
    return _validate(data)


CARDS: dict[int, Card] = load_cards()
DECK_IDS: tuple[int, ...] = tuple(
    cid for cid in sorted(CARDS) if CARDS[cid].type not in ("vehicle", "flag")
)
"""Cards shuffled into the draw pile at setup (17–109), in canonical order."""


def card(cid: int) -> Card:
    """The card with id ``cid``."""
    return CARDS[cid]


def name_of(cid: int) -> str:
    """A card's name (``"a hidden card"`` for the hidden placeholder 0)."""
    found = CARDS.get(cid)
    return found.name if found is not None else "a hidden card"


def pair_of(marker: int) -> tuple[int, int]:
    """The two card ids of the vehicle whose pack marker is ``marker``."""
    return (marker, marker + 1)
