"""The form's one-widget rows: `NumberField` edits a number with the keys a player expects, and
`SharedLines` (rows drawn once per process) draws exactly what Textual draws without it."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical

from tests.tui.conftest import ME, make_app
from tests.tui.test_pilot_go500 import wait_for
from tests.tui.test_pilot_screens import open_new_game_form
from tui.widgets.choice import Choice
from tui.widgets.number import NumberField
from tui.widgets.shared_lines import SharedLines


class _Form(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical():
            yield Choice([("yes", True), ("no", False)], value=True, id="a", label="Alpha")
            yield NumberField("12", label="Laps", id="laps")
            yield NumberField("", label="Round limit", placeholder="none", id="rounds")
            yield Choice([("one", 1), ("two", 2)], value=2, id="b", label="Beta")


async def test_digits_start_a_new_number_then_extend_it():
    app = _Form()
    async with app.run_test(size=(60, 8)) as pilot:
        laps = app.query_one("#laps", NumberField)
        laps.focus()
        await pilot.pause()
        await pilot.press("4", "0")
        assert laps.value == "40"
        await pilot.press("backspace")
        assert laps.value == "4"
        await pilot.press("right", "right")
        assert laps.value == "6"
        await pilot.press("left")
        assert laps.value == "5"
        await pilot.press("delete")
        assert laps.value == ""
        await pilot.press("x")  # not a digit: ignored
        assert laps.value == ""


async def test_a_minus_may_lead_so_the_game_can_refuse_a_negative_number():
    app = _Form()
    async with app.run_test(size=(60, 8)) as pilot:
        laps = app.query_one("#laps", NumberField)
        laps.focus()
        await pilot.pause()
        await pilot.press("minus", "1", "minus")
        assert laps.value == "-1"


async def test_an_empty_optional_number_shows_its_placeholder():
    app = _Form()
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        text = "".join(s.text for strip in app.screen._compositor.render_strips() for s in strip)
        assert "none" in text
        assert "12" in text


async def _frame(app: App[None], pilot) -> list[str]:
    await pilot.pause()
    return [
        "".join(f"{seg.text}{seg.style!r}" for seg in strip)
        for strip in app.screen._compositor.render_strips()
    ]


async def test_shared_rows_draw_what_textual_draws_focused_or_not():
    frames: dict[bool, list[list[str]]] = {}
    for shared in (True, False):
        SharedLines.SHARED_LINES = shared
        try:
            app = _Form()
            async with app.run_test(size=(60, 8)) as pilot:
                shots = [await _frame(app, pilot)]
                for target in ("#laps", "#b", "#rounds"):
                    app.query_one(target).focus()
                    shots.append(await _frame(app, pilot))
                await pilot.press("7")  # the focused empty row gets a number
                shots.append(await _frame(app, pilot))
                frames[shared] = shots
        finally:
            SharedLines.SHARED_LINES = True
    assert frames[True] == frames[False]
    assert frames[True][1] != frames[True][2], "focus moved: the frame changed"


async def test_the_form_reads_a_typed_number():
    """The new-game form's integer option typed with the keys reaches the table's config."""
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        screen = app.screen
        screen.query_one("#game", Choice).value = "cthulhu500"
        await wait_for(pilot, lambda: bool(screen.query("#opt-round_limit")))
        rounds = screen.query_one("#opt-round_limit", NumberField)
        rounds.focus()
        await pilot.pause()
        await pilot.press("3")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        table = app.hub.table(app.hub.tables(ME)[0].id)
        assert table.config.round_limit == 3
