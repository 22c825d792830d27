"""NASCAR Champions board in the theme's palette (issue 14): the oval's cars and dice and the
scoreboard's chips take the colour-blind-safe colours of `tui/styles/vars.tcss` when the
player's setting asks for them (the app's ``-colour-blind`` class), as Go 500's board does."""

from __future__ import annotations

from typing import Any

from tests.tui.test_champions_screen import champions_app, open_table, wait_for
from tui.theme import COLOURS, champions_car_styles
from tui.widgets.champions import ChampionsScoreboard, OvalTrack, car_style

NAMES = ("black", "blue", "red", "green", "yellow")


def _backgrounds(widget: Any) -> set[str]:
    return {
        str(span.style.bgcolor.name)
        for line in widget.render().split("\n")
        for span in line.spans
        if not isinstance(span.style, str) and span.style.bgcolor is not None
    }


def test_car_styles_come_from_the_theme_both_ways():
    for colour, name in enumerate(NAMES):
        assert car_style(colour).bgcolor.name == COLOURS[f"champions-{name}"]
        assert car_style(colour, True).bgcolor.name == COLOURS[f"champions-cb-{name}"]
    assert champions_car_styles(True) != champions_car_styles(False)
    # red and green, the pair most colour-blind players confuse, are changed
    assert COLOURS["champions-cb-red"] != COLOURS["champions-red"]
    assert COLOURS["champions-cb-green"] != COLOURS["champions-green"]


async def test_the_oval_and_scoreboard_switch_to_the_colour_blind_palette():
    app = champions_app("me,random", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        await wait_for(pilot, lambda: screen.acting_seat() is not None)
        await pilot.press("3")  # Red #24: the cars go onto the grid
        await wait_for(pilot, lambda: any(c.row is not None for c in screen.fold.state.cars))
        await pilot.pause()
        usual = {COLOURS[f"champions-{n}"] for n in ("red", "green")}
        safe = {COLOURS[f"champions-cb-{n}"] for n in ("red", "green")}
        oval = screen.query_one(OvalTrack)
        assert _backgrounds(oval) & usual
        assert not _backgrounds(oval) & safe
        app.set_class(True, "-colour-blind")
        screen.redraw()
        await pilot.pause()
        assert _backgrounds(oval) & safe
        assert not _backgrounds(oval) & usual
        board = screen.query_one(ChampionsScoreboard)
        chips = {
            str(span.style.bgcolor.name)
            for span in board.board_text().spans
            if not isinstance(span.style, str) and span.style.bgcolor is not None
        }
        assert chips, "the scoreboard shows car chips"
        assert not chips & {COLOURS[f"champions-{n}"] for n in ("blue", "red", "green", "yellow")}
