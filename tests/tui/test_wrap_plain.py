"""The race log's own wrapping of printable ASCII (`wrap_plain`, `_divide_ascii`) cuts lines
exactly where Rich's does."""

from __future__ import annotations

import random

from rich._wrap import divide_line
from rich.console import Console
from rich.text import Text

from tui.widgets.common import _divide_ascii, wrap_plain

WORDS = [
    "P1",
    "rolls",
    "a",
    "6",
    "and",
    "moves",
    "on",
    " ",
    "x",
    "Bea's",
    "(rule",
    "G-SAVE).",
    "loooooooooooooooooooooooooooooooooooong",
]


def _texts(seed: int, count: int):
    rnd = random.Random(seed)
    for _ in range(count):
        parts = (rnd.choice(WORDS) + rnd.choice(["", " ", "  "]) for _ in range(rnd.randint(0, 14)))
        yield "".join(parts), rnd.randint(1, 45)


def test_divide_ascii_breaks_where_rich_does():
    for text, width in _texts(3, 20000):
        assert _divide_ascii(text, width) == divide_line(text, width, fold=True), (text, width)


def test_wrap_plain_is_richs_fold_wrap():
    console = Console(width=200)
    for text, width in _texts(4, 3000):
        want = [line.plain for line in Text(text).wrap(console, width, overflow="fold")] or [""]
        assert wrap_plain(text, width) == want, (text, width)
