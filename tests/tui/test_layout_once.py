"""`tui.layout_once`: a widget's new size and a screen's hidden toasts no longer ask for a
second layout of the screen, and what is drawn does not change (scrollbars still come and go,
toasts still show)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Label, Static

import tui.app  # noqa: F401  (installs the fix, as every app does)


class _Plain(Screen[None]):
    def compose(self) -> ComposeResult:
        with Vertical():
            for i in range(8):
                yield Label(f"row {i}")
        yield Static("footer")


class _Scrolling(Screen[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scroll"):
            for i in range(40):
                yield Label(f"row {i}")


class _Counting(App[None]):
    def __init__(self, screen: Screen[None]) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


async def test_a_widgets_new_size_asks_for_no_second_layout():
    """Textual's ``virtual_size`` is a layout reactive: every widget's first size asked for the
    whole screen to be laid out again."""
    async with _Counting(_Plain()).run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        label = pilot.app.screen.query(Label).first()
        label._layout_required = False
        assert label._size_updated(Size(30, 1), Size(30, 1), Size(40, 12)), "a resize is due"
        assert label.virtual_size == Size(30, 1)
        assert not label._layout_required


async def test_a_scrollbar_that_comes_or_goes_still_asks_for_a_layout():
    async with _Counting(_Scrolling()).run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        scroll = pilot.app.screen.query_one("#scroll", VerticalScroll)
        assert scroll.show_vertical_scrollbar
        scroll._layout_required = False
        scroll._size_updated(scroll.size, Size(38, 5), scroll.container_size)
        assert not scroll.show_vertical_scrollbar, "five rows fit: the scrollbar goes"
        assert scroll._layout_required, "and the container is laid out without it"


async def test_a_scrolling_container_still_gets_its_scrollbar():
    async with _Counting(_Scrolling()).run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        scroll = pilot.app.screen.query_one("#scroll", VerticalScroll)
        assert scroll.show_vertical_scrollbar
        assert scroll.virtual_size.height == 40
        assert scroll.max_scroll_y == 40 - scroll.scrollable_content_region.height


async def test_notifications_still_show_as_toasts():
    async with _Counting(_Plain()).run_test(size=(60, 12), notifications=True) as pilot:
        await pilot.pause()
        rack = pilot.app.screen.query_one("ToastRack")
        assert not rack.display
        pilot.app.notify("Seat 2 is yours")
        await pilot.pause()
        await pilot.pause()
        assert rack.display
        assert "Seat 2 is yours" in str(pilot.app.screen.query_one("Toast").render())


async def test_a_screen_without_notifications_is_not_laid_out_for_its_hidden_toasts():
    """Showing no toasts on a screen that opens set the hidden rack's display inline, which
    counts as a change and lays the screen out again."""
    async with _Counting(_Plain()).run_test(size=(60, 12), notifications=True) as pilot:
        await pilot.pause()
        second = _Plain()
        await pilot.app.push_screen(second)
        await pilot.pause()
        rack = second.query_one("ToastRack")
        assert not rack.display
        assert not rack.styles.inline.has_rule("display"), "the rack was restyled: a layout"
