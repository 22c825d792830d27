"""80 columns (issue 13): the Lost Wheel face in full, key labels only on dice that can be
picked, the Tradin' Paint prompt keeps its last choice, refusals keep their "(rule …)"."""

from __future__ import annotations

from core.go500.describe import paint_prompt
from tests.tui.test_champions_screen import wait_for
from tests.tui.test_cthulhu_screen import cthulhu_app, open_table
from tui.widgets.common import StatusLine, fit_two_lines
from tui.widgets.go500 import DieView, draw_die


def _plain(lines) -> str:
    return "\n".join(line.plain for line in lines)


def test_lost_wheel_face_reads_in_full():
    text = _plain(draw_die(DieView("T2", 3, lost=True), None, False))
    assert "LOST" in text
    assert "WHEEL" in text
    assert "NO FAC" not in text


def test_only_dice_that_can_be_picked_show_their_key():
    assert "[2]" in _plain(draw_die(DieView("T2", 3, pickable=True), None, False))
    assert "[2]" not in _plain(draw_die(DieView("T2", 3), None, False))
    assert "[2]" not in _plain(draw_die(DieView("T2", 3, lost=True), None, False))


def test_the_paint_prompt_keeps_every_choice_at_80_columns():
    choices = [(2, "Cautious"), (3, "Bold"), (4, "Optimal"), (5, "Random"), (6, "Beatrice")]
    for width in (78, 118):
        text = paint_prompt("Annabelle", choices, width)
        assert len(text) <= width
        assert "6 Bea" in text, "the last choice is never cut"
    long = [(n, f"Player{n}-with-a-long-name") for n in range(2, 7)]
    text = paint_prompt("Ann", long, 78)
    assert len(text) <= 78
    assert "6 P" in text


def test_a_long_refusal_keeps_its_rule_on_two_lines():
    text = (
        "Ann cannot save the Power Die now: it lost its wheel this roll and every die that lost "
        "its wheel stays in the cup until the next roll, whatever else happens (rule G-LOST-WHEEL)."
    )
    lines = [str(t) for t in fit_two_lines(text, 78)]
    assert len(lines) == 2
    assert all(len(line) <= 78 for line in lines)
    assert lines[1].endswith("(rule G-LOST-WHEEL).")


async def test_the_status_line_grows_to_two_rows_only_for_a_long_error():
    app = cthulhu_app("me,random", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        await wait_for(pilot, lambda: screen.acting_seat() is not None)
        line = screen.query_one(StatusLine)
        long = "x " * 50 + "(rule C-PASS-TEST)."
        screen.status(long, error=True)
        await pilot.pause()
        assert line.size.height == 2
        assert str(line.render()).endswith("(rule C-PASS-TEST).")
        screen.status("All good.")
        await pilot.pause()
        assert line.size.height == 1


def test_table_chaos_gets_a_callout_in_cores_words():
    from core import registry
    from core.go500.describe import describe
    from core.go500.model import ChaosStruck
    from tui.widgets.board import BoardData
    from tui.widgets.go500 import callouts

    event = ChaosStruck(seat=1, die="T3", kind="lost_wheel", face=2, x=17)
    data = BoardData(
        game=registry.get("go500"),
        config=None,
        names=["Ann", "Bea"],
        state=None,
        perspective=0,
        pending=(),
        last_events=[event],
        result=None,
    )
    shown = callouts(data)
    words = describe(event, ["Ann", "Bea"])
    assert words is not None
    assert shown == [(f"✸ TABLE CHAOS — {words.upper()}", "yellow")]
    assert "LOST WHEEL ON BEA'S T3" in shown[0][0]
