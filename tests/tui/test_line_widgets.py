"""The line-drawn widgets of `tui.widgets.common`: the race log, the action list, `LineBox`.

They exist for speed (a repaint touches only changed rows), so these tests pin what a player sees
and what gets repainted: the log keeps every line, wraps to the box and again on resize, turns a
page instead of shifting every row, scrolls back with the wheel and says how much is newer; the
action list highlights, scrolls the highlight into view, picks by Enter and by click; a `LineBox`
repaints only the rows whose text changed.
"""

from __future__ import annotations

from typing import Any

import hypothesis
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region

from tui.fold import LogLine
from tui.widgets.common import ActionChosen, ActionList, LineBox, RaceLog


class Host(App[None]):
    CSS = """
    RaceLog { width: 30; height: 8; }
    ActionList { width: 30; height: 6; }
    LineBox { width: 30; height: 3; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[Any] = []

    def compose(self) -> ComposeResult:
        yield RaceLog(id="log")
        yield ActionList(id="actions")
        yield LineBox(id="box")

    def on_action_chosen(self, message: ActionChosen) -> None:
        self.chosen.append(message.action)


def spy_refreshes(widget: Any) -> list[tuple[Region, ...]]:
    """The regions of every later ``refresh`` of ``widget`` (it still refreshes)."""
    dirty: list[tuple[Region, ...]] = []
    original = widget.refresh

    def spy(*regions: Region, **kwargs: Any) -> Any:
        dirty.append(regions)
        return original(*regions, **kwargs)

    widget.refresh = spy
    return dirty


def lines(n: int, start: int = 0) -> list[LogLine]:
    return [LogLine(0, None, f"line {i}") for i in range(start, start + n)]


def shown(log: RaceLog) -> list[str]:
    return [log.render_line(y).text.strip() for y in range(log.content_size.height)]


async def test_the_log_fills_then_turns_a_page_and_keeps_the_newest_line_visible():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        log = app.query_one(RaceLog)
        log.set_lines(lines(3))
        await pilot.pause()
        assert shown(log)[:3] == ["line 0", "line 1", "line 2"]
        for i in range(3, 40):
            log.add_lines(lines(1, i))
            await pilot.pause()
            rows = shown(log)
            assert f"line {i}" in rows, "the newest line is always on screen"
            # lines never move while the page fills: the row above the newest is the one before
            k = rows.index(f"line {i}")
            assert k == 0 or rows[k - 1] == f"line {i - 1}"
        assert len(log.texts) == 40, "the log keeps every line"


async def test_the_page_shown_depends_on_the_lines_not_on_their_batches_or_the_first_draw():
    """A table's log gets its lines in batches as fast as the hub sends them, before or after
    the box is first drawn; the page it shows must be the same every time (a snapshot of a
    table under a loaded machine once showed another page)."""
    pages: list[list[str]] = []
    for batches, draw_first in [
        ([1] * 30, True),  # line by line, drawn in between
        ([7, 1, 9, 13], True),  # in uneven batches
        ([30], True),  # all at once
        ([1] * 30, False),  # everything before the box is first drawn
        ([4, 26], False),
    ]:
        app = Host()
        async with app.run_test(size=(80, 30)) as pilot:
            log = app.query_one(RaceLog)
            log.set_lines(lines(5))
            if draw_first:
                await pilot.pause()
            start = 5
            for n in batches:
                log.add_lines(lines(n, start))
                start += n
                if draw_first:
                    await pilot.pause()
            await pilot.pause()
            pages.append(shown(log))
    assert "line 34" in pages[0]
    assert all(page == pages[0] for page in pages), pages


async def test_adding_a_line_repaints_only_its_rows_until_the_page_turns():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        log = app.query_one(RaceLog)
        log.set_lines(lines(2))
        await pilot.pause()
        dirty = spy_refreshes(log)
        log.add_lines(lines(1, 2))
        assert dirty == [(Region(0, 2, log.content_size.width, 1),)]


async def test_long_lines_wrap_and_rewrap_when_the_box_changes_width():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        log = app.query_one(RaceLog)
        log.set_lines([LogLine(0, None, "word " * 12)])
        await pilot.pause()
        narrow = len(log.lines)
        assert narrow >= 3, "60 characters wrap in a 28-column box"
        log.styles.width = 60
        await pilot.pause()
        await pilot.pause()
        assert len(log.lines) < narrow, "a wider box re-wraps the same line onto fewer rows"


async def test_the_wheel_scrolls_back_and_down_again_follows_the_log():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        log = app.query_one(RaceLog)
        log.set_lines(lines(30))
        await pilot.pause()
        assert shown(log)[-1] == "line 29"
        log._scroll(-3)
        await pilot.pause()
        assert shown(log)[-1] == "line 26"
        assert "3 newer" in str(log.border_subtitle)
        log.add_lines(lines(1, 30))  # while scrolled back the view stays put
        await pilot.pause()
        assert shown(log)[-1] == "line 26"
        log._scroll(10)
        await pilot.pause()
        assert "line 30" in shown(log)
        assert log.border_subtitle is None


async def test_the_action_list_highlights_scrolls_and_picks_by_key_and_click():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        rows = app.query_one(ActionList)
        rows.set_actions([(f"choice {i}", i) for i in range(10)])
        rows.focus()
        await pilot.pause()
        assert rows.option_count == 10
        assert rows.highlighted == 0
        assert rows.get_option_at_index(0).prompt == "1. choice 0"
        assert rows.get_option_at_index(9).prompt == "choice 9", "only 1-9 are numbered"
        for _ in range(7):
            await pilot.press("down")
        assert rows.highlighted == 7
        text = [rows.render_line(y).text for y in range(rows.content_size.height)]
        assert any("choice 7" in t for t in text), "the highlight scrolled into view"
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen == [7]
        rows.set_actions([("first", "a"), ("second", "b")])
        await pilot.pause()
        region = rows.content_region
        await pilot.click(
            ActionList, offset=(region.x - rows.region.x + 2, region.y - rows.region.y + 1)
        )
        await pilot.pause()
        assert app.chosen[-1] == "b"
        assert rows.highlighted == 1


async def test_a_linebox_repaints_only_the_rows_whose_text_changed():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        box = app.query_one(LineBox)
        box.show_lines([Text("a"), Text("b"), Text("c")])
        await pilot.pause()
        dirty = spy_refreshes(box)
        box.show_lines([Text("a"), Text("B"), Text("c")])
        box.show_lines([Text("a"), Text("B"), Text("c")])  # the same again: nothing to paint
        assert dirty == [(Region(0, 1, box.size.width, 1),)]
        assert box.render().plain == "a\nB\nc"


async def test_a_long_log_keeps_few_rows_drawn_and_still_scrolls_back_to_its_start():
    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        log = app.query_one(RaceLog)
        log.set_lines(lines(2))
        await pilot.pause()
        for i in range(2, 1000):
            log.add_lines(lines(1, i))
        await pilot.pause()
        assert len(log._strips) <= RaceLog.KEPT_ROWS + log.content_size.height
        assert "line 999" in shown(log)
        for _ in range(400):
            log._scroll(-3)
        await pilot.pause()
        assert shown(log)[0] == "line 0", "the oldest line is wrapped again on the way back"
        assert len(log.texts) == 1000


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    text=hypothesis.strategies.text(
        alphabet=hypothesis.strategies.sampled_from("ab cd  efg-.,:;!?'()0123456789 "), max_size=120
    ),
    width=hypothesis.strategies.integers(1, 60),
)
def test_the_race_logs_plain_wrap_cuts_lines_as_rich_does(text: str, width: int) -> None:
    from rich.console import Console
    from rich.text import Text

    from tui.widgets.common import wrap_plain

    rich_lines = [str(line) for line in Text(text).wrap(Console(), width, overflow="fold")]
    assert wrap_plain(text, width) == rich_lines
    assert wrap_plain("Zoë wins", width) is None  # not ASCII: Rich's own wrap
