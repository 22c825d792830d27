"""The one theme: the boards' colours, read from `tui/styles/vars.tcss` and made into Rich styles.

Owns `COLOURS` (every ``$name: #rrggbb;`` of vars.tcss, the single place a colour is written) and
the styles the boards draw with: seat and car chips (with the colour-blind palette), Go 500's
flags and dice, Champions' car colours, the pick highlight and the damaged mark. The same
variables reach the .tcss files through `SpeedwayApp.get_css_variables`.

Must not: draw anything, hold game state, or write a colour of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

from rich.style import Style

__all__ = [
    "CHAMPIONS_CAR_STYLES",
    "CHAMPIONS_FLAG_DIE",
    "COLOURS",
    "DAMAGED",
    "DIE_STYLES",
    "PICK",
    "RED_LINE",
    "SEAT_STYLES",
    "flag_styles",
    "read_variables",
    "seat_colours",
]

VARS = Path(__file__).parent / "styles" / "vars.tcss"


def read_variables(path: Path = VARS) -> dict[str, str]:
    """The ``$name: value;`` lines of a variables file, by name."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\s*\$([\w-]+)\s*:\s*([^;]+);", line)
        if match:
            out[match.group(1)] = match.group(2).strip()
    return out


COLOURS = read_variables()


def _numbered(prefix: str) -> tuple[str, ...]:
    keys = sorted(
        (k for k in COLOURS if re.fullmatch(rf"{prefix}-\d+", k)),
        key=lambda k: int(k.rsplit("-", 1)[1]),
    )
    return tuple(COLOURS[k] for k in keys)


_SEATS = _numbered("seat")
_SEATS_CB = _numbered("seat-cb")


def seat_colours(colour_blind: bool = False) -> tuple[str, ...]:
    """Seat colours in seat order: the first six for drivers; eight for Cthulhu's seats."""
    return _SEATS_CB if colour_blind else _SEATS


SEAT_STYLES = tuple(Style(color="black", bgcolor=c, bold=True) for c in _SEATS)
"""A seat number on its colour (Cthulhu 500's seat chips)."""


def _flags(prefix: str) -> dict[str, Style]:
    ink = {"green": "white", "yellow": "black", "red": "white", "black": "white"}
    return {
        kind: Style(color=ink[kind], bgcolor=COLOURS[f"{prefix}-{kind}"], bold=True) for kind in ink
    }


_FLAGS = _flags("flag")
_FLAGS_CB = _flags("flag-cb")


def flag_styles(colour_blind: bool = False) -> dict[str, Style]:
    """Go 500's flag faces by kind (green, yellow, red, black)."""
    return _FLAGS_CB if colour_blind else _FLAGS


DIE_STYLES = {
    "F": Style(color="black", bgcolor=COLOURS["die-flag"]),
    "T": Style(color="white", bgcolor=COLOURS["die-track"]),
    "P": Style(color="white", bgcolor=COLOURS["die-power"]),
    "PIT": Style(color="black", bgcolor=COLOURS["die-pit"]),
    "CR": Style(color="white", bgcolor=COLOURS["die-crash"]),
}
"""Go 500's dice bodies by kind."""

CHAMPIONS_CAR_STYLES = tuple(
    Style(color=ink, bgcolor=COLOURS[f"champions-{name}"], bold=True)
    for name, ink in (
        ("black", "white"),
        ("blue", "white"),
        ("red", "white"),
        ("green", "black"),
        ("yellow", "black"),
    )
)
"""Champions' car colours in colour order, a car's number printed on its colour."""
CHAMPIONS_FLAG_DIE = Style(color="black", bgcolor=COLOURS["champions-flag-die"], bold=True)
RED_LINE = Style(color=COLOURS["red-line"], bold=True)
PICK = Style(color="black", bgcolor=COLOURS["pick"], bold=True)
"""What the player has picked (cards to discard, a destination)."""
DAMAGED = Style(color="white", bgcolor=COLOURS["damaged"], bold=True)
