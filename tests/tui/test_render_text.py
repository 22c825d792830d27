"""`render_text` gives the segments Rich's `Text.render` gives, for texts built by appending
(drawn directly) and for others (left to Rich) — except that a text without spans keeps its
own style (Rich's `render` drops it; a header set in bold showed unstyled)."""

from __future__ import annotations

import random

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text

from tui.widgets.common import render_text

STYLES = [
    "",
    "bold",
    "dim",
    "bold red",
    Style(bold=True),
    Style(color="green", bgcolor="black"),
    Style(dim=False),
    Style.null(),
    Style(reverse=True, italic=True),
]


def _text(rnd: random.Random) -> Text:
    text = Text(style=rnd.choice(STYLES))
    for _ in range(rnd.randint(0, 6)):
        text.append(rnd.choice(["", "a", "│", "hello ", "✸ 20", " · "]), style=rnd.choice(STYLES))
    if rnd.random() < 0.2:
        text.stylize(rnd.choice(STYLES[1:]), rnd.randint(0, 3), rnd.randint(0, 12))
    if rnd.random() < 0.1:
        start = rnd.randint(0, len(text.plain))
        text.spans.append(Span(start, rnd.randint(start, len(text.plain)), "bold"))
    if rnd.random() < 0.2:
        text.truncate(rnd.randint(0, 10), overflow="ellipsis")
    return text


def _rich(text: Text, console: Console) -> list[Segment]:
    if text.spans or not text.style:
        return list(text.render(console))
    return [Segment(text.plain, console.get_style(text.style))]


def test_render_text_is_rich_render():
    console = Console()
    rnd = random.Random(5)
    for _ in range(5000):
        text = _text(rnd)
        assert render_text(text, console) == _rich(text, console), repr(text)


def test_a_text_without_spans_keeps_its_own_style():
    console = Console()
    assert render_text(Text("Drivers", style="bold"), console) == [
        Segment("Drivers", Style(bold=True))
    ]
    assert render_text(Text("plain"), console) == [Segment("plain")]
