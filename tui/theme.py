"""The one theme: the boards' colours, read from `tui/styles/vars.tcss` and made into Rich styles.

Owns `COLOURS` (every ``$name: #rrggbb;`` of vars.tcss, the single place a colour is written) and
the styles the boards draw with: seat and car chips, Go 500's flags and dice, Champions' car
colours (each of these with its colour-blind palette, chosen by the player's setting: the app's
``-colour-blind`` class), the pick highlight, the browsing cursor and the damaged mark. The same
variables reach the .tcss files through `SpeedwayApp.get_css_variables`.

Must not: draw anything, hold game state, or write a colour of its own.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from rich.style import Style

if TYPE_CHECKING:
    from textual.widget import Widget

__all__ = [
    "CHAMPIONS_CAR_STYLES",
    "CHAMPIONS_FLAG_DIE",
    "COLOURS",
    "CURSOR",
    "DAMAGED",
    "DIE_STYLES",
    "PICK",
    "RED_LINE",
    "SEAT_STYLES",
    "champions_car_styles",
    "colour_blind",
    "flag_styles",
    "read_variables",
    "seat_colours",
    "seat_styles",
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


COLOUR_BLIND_CLASS = "-colour-blind"
"""The app's class while the player's setting asks for the colour-blind-safe palette."""


def colour_blind(widget: Widget) -> bool:
    """Whether ``widget``'s app draws with the colour-blind-safe palette (the usual one while
    the widget is not attached to an app)."""
    return widget.is_attached and COLOUR_BLIND_CLASS in widget.app.classes


def seat_colours(colour_blind: bool = False) -> tuple[str, ...]:
    """Seat colours in seat order: the first six for drivers; eight for Cthulhu's seats."""
    return _SEATS_CB if colour_blind else _SEATS


def _chips(colours: tuple[str, ...]) -> tuple[Style, ...]:
    return tuple(Style(color="black", bgcolor=c, bold=True) for c in colours)


SEAT_STYLES = _chips(_SEATS)
"""A seat number on its colour (Cthulhu 500's seat chips)."""
_SEAT_STYLES_CB = _chips(_SEATS_CB)


def seat_styles(colour_blind: bool = False) -> tuple[Style, ...]:
    """Cthulhu 500's seat chips (black number on the seat's colour), eight of them."""
    return _SEAT_STYLES_CB if colour_blind else SEAT_STYLES


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

def _cars(prefix: str) -> tuple[Style, ...]:
    return tuple(
        Style(color=ink, bgcolor=COLOURS[f"{prefix}-{name}"], bold=True)
        for name, ink in (
            ("black", "white"),
            ("blue", "white"),
            ("red", "white"),
            ("green", "black"),
            ("yellow", "black"),
        )
    )


CHAMPIONS_CAR_STYLES = _cars("champions")
"""Champions' car colours in colour order, a car's number printed on its colour."""
_CHAMPIONS_CAR_STYLES_CB = _cars("champions-cb")


def champions_car_styles(colour_blind: bool = False) -> tuple[Style, ...]:
    """Champions' car colours (black, blue, red, green, yellow), colour-blind-safe when asked."""
    return _CHAMPIONS_CAR_STYLES_CB if colour_blind else CHAMPIONS_CAR_STYLES
CHAMPIONS_FLAG_DIE = Style(color="black", bgcolor=COLOURS["champions-flag-die"], bold=True)
RED_LINE = Style(color=COLOURS["red-line"], bold=True)
PICK = Style(color="black", bgcolor=COLOURS["pick"], bold=True)
"""What the player has picked (cards to discard, a destination)."""
DAMAGED = Style(color="white", bgcolor=COLOURS["damaged"], bold=True)
CURSOR = Style(color="white", bgcolor=COLOURS["cursor"])
"""The row a board's browsing cursor is on (Cthulhu 500's pack and hand)."""
