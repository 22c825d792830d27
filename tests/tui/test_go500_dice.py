"""The dice tray draws each die's look directly (`die_segments`): the same segments as Rich's
rendering of `draw_die`, for every die, face and mark, in both palettes (a line without spans
in its own style: Rich's `Text.render` drops it, `render_text` keeps it)."""

from __future__ import annotations

import itertools

import pytest
from rich.console import Console
from rich.segment import Segment

from core.go500.config import Go500Config
from tui.widgets.go500 import ROW_DICE, DieView, die_segments, draw_die


@pytest.mark.parametrize("colour_blind", [False, True])
def test_every_look_is_drawn_as_rich_renders_it(colour_blind):
    console = Console()
    config = Go500Config()
    looks = 0
    for die in (*ROW_DICE, "PIT", "CR"):
        for face, flags in itertools.product(
            [None, *range(6)], itertools.product([0, 1], repeat=6)
        ):
            saved, removed, lost, selected, empty, pickable = map(bool, flags)
            view = DieView(die, face, saved, removed, lost, selected, empty, pickable)
            want = [
                list(t.render(console)) if t.spans else [Segment(t.plain, t.style or None)]
                for t in draw_die(view, config, colour_blind)
            ]
            assert die_segments(view, config, colour_blind, console) == want, view
            looks += 1
    assert looks == 9 * 7 * 64
