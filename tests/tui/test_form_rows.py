"""`FormRows` (a whole form in one widget) edits its rows with the keys a player expects and
draws what its rows say; `SharedLines` (a widget's lines kept once per process) draws exactly
what Textual draws without it."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Button

from tests.tui.conftest import ME, make_app
from tests.tui.test_pilot_go500 import wait_for
from tests.tui.test_pilot_screens import open_new_game_form
from tui.widgets import form as form_module
from tui.widgets.form import FormRow, FormRows, heading
from tui.widgets.shared_lines import SharedLines
from tui.widgets.tabbar import TabBar


def _rows() -> list[FormRow]:
    return [
        FormRow.choice("a", "Alpha", [("yes", True), ("no", False)], True),
        FormRow.number("laps", "Laps", "12"),
        heading("gap"),
        heading("words", "Some words"),
        FormRow.number("rounds", "Round limit", "", placeholder="none"),
        FormRow.choice("b", "Beta", [("one", 1), ("two", 2)], 2),
    ]


class _Form(App[None]):
    def compose(self) -> ComposeResult:
        yield FormRows(_rows(), label_width=14, id="form")
        yield Button("Go", id="go")


def _text(form: FormRows) -> list[str]:
    return ["".join(s.text for s in form.render_line(y)) for y in range(form.size.height)]


async def test_digits_start_a_new_number_then_extend_it():
    app = _Form()
    async with app.run_test(size=(60, 10)) as pilot:
        form = app.query_one(FormRows)
        form.focus()
        await pilot.press("down")
        assert form.cursor == "laps"
        await pilot.press("4", "0")
        assert form.value("laps") == "40"
        await pilot.press("backspace")
        assert form.value("laps") == "4"
        await pilot.press("right", "right")
        assert form.value("laps") == "6"
        await pilot.press("left")
        assert form.value("laps") == "5"
        await pilot.press("delete")
        assert form.value("laps") == ""
        await pilot.press("x")  # not a digit: ignored
        assert form.value("laps") == ""


async def test_a_minus_may_lead_so_the_game_can_refuse_a_negative_number():
    app = _Form()
    async with app.run_test(size=(60, 10)) as pilot:
        form = app.query_one(FormRows)
        form.focus()
        form.move_to("laps")
        await pilot.press("minus", "1", "minus")
        assert form.value("laps") == "-1"


async def test_the_cursor_skips_headings_and_hidden_rows_and_choices_go_round():
    app = _Form()
    async with app.run_test(size=(60, 10)) as pilot:
        form = app.query_one(FormRows)
        form.focus()
        form.move_to("laps")
        await pilot.press("down")
        assert form.cursor == "rounds", "the two headings are skipped"
        form.show("b", False)
        await pilot.press("tab")
        assert app.focused is app.query_one("#go", Button), "past the last row: the buttons"
        form.focus()
        form.show("b", True)
        form.move_to("b")
        await pilot.press("right")
        assert form.value("b") == 1, "round from the last choice to the first"
        form.show("b", False)
        assert form.cursor == "rounds", "a hidden row gives the cursor to its neighbour"


async def test_rows_show_values_placeholders_and_headings():
    app = _Form()
    async with app.run_test(size=(60, 10)) as pilot:
        form = app.query_one(FormRows)
        await pilot.pause()
        text = _text(form)
        assert text[0].startswith("Alpha")
        assert "◀ yes ▶" in text[0]
        assert "◀ 12" in text[1]
        assert text[2].strip() == ""
        assert text[3].strip() == "Some words"
        assert "none" in text[4]
        form.show("laps", False)
        await pilot.pause()
        assert "Some words" in _text(form)[2], "a hidden row takes no line"


async def _frames(app: App[None], pilot, targets: list[str]) -> list[list[str]]:
    out = []
    for target in targets:
        app.query_one(target).focus()
        await pilot.pause()
        out.append(
            [
                "".join(f"{seg.text}{seg.style!r}" for seg in strip)
                for strip in app.screen._compositor.render_strips()
            ]
        )
    return out


class _Tabs(App[None]):
    def compose(self) -> ComposeResult:
        yield TabBar([("One", "a"), ("Two", "b")], "b")
        yield Button("Go", id="go")


async def test_shared_lines_draw_what_textual_draws():
    frames: dict[bool, list[list[str]]] = {}
    for shared in (True, False):
        SharedLines.SHARED_LINES = shared
        try:
            app = _Tabs()
            async with app.run_test(size=(40, 6)) as pilot:
                shots = await _frames(app, pilot, ["#go"])
                app.query_one(TabBar).step(1)
                shots += await _frames(app, pilot, ["#go"])
                frames[shared] = shots
        finally:
            SharedLines.SHARED_LINES = True
    assert frames[True] == frames[False]
    assert frames[True][0] != frames[True][1], "another tab: another frame"


async def test_kept_form_lines_are_the_lines_drawn_afresh():
    """A row drawn from the process-wide cache equals one drawn anew (the cache emptied)."""
    app = _Form()
    async with app.run_test(size=(60, 10)) as pilot:
        form = app.query_one(FormRows)
        form.focus()
        form.move_to("b")
        await pilot.pause()
        kept = [form.render_line(y) for y in range(6)]
        form_module._LINES.clear()
        fresh = [form.render_line(y) for y in range(6)]
        assert [list(s) for s in kept] == [list(s) for s in fresh]
        assert kept[5] != kept[0], "the cursor row is drawn in the cursor's colours"


async def test_the_form_reads_a_typed_number():
    """The new-game form's integer option typed with the keys reaches the table's config."""
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_new_game_form(pilot)
        form = app.screen.query_one(FormRows)
        form.set_value("game", "cthulhu500")
        await wait_for(pilot, lambda: form.has_row("opt-round_limit"))
        form.move_to("opt-round_limit")
        await pilot.press("3")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(app.hub.tables(ME)))
        table = app.hub.table(app.hub.tables(ME)[0].id)
        assert table.config.round_limit == 3
