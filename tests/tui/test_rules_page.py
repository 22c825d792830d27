"""Rules pages are laid out once per process (`tui.widgets.rulespage`): on a server every
session runs on one event loop, and one player opening the rules page held every other
table's step back for 50-80 ms while a `Static` laid the whole page out again."""

from __future__ import annotations

from tests.tui.conftest import make_app
from tui.screens.rules import RulesScreen
from tui.widgets.rulespage import RulesPage


async def test_rules_pages_are_laid_out_once_for_every_session() -> None:
    """Two apps (two SSH sessions) showing the same page at the same width share its lines."""
    pages = []
    for _ in range(2):
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.show_rules("cthulhu500")
            for _ in range(50):
                await pilot.pause(0.01)
                if isinstance(app.screen, RulesScreen) and app.screen.query(RulesPage):
                    break
            await pilot.pause()
            page = app.screen.query_one("#cthulhu500 RulesPage", RulesPage)
            width = page.scrollable_content_region.width
            assert width > 0
            pages.append(page.lines(width))
            before = page.scroll_offset.y
            await pilot.press("pagedown")
            await pilot.pause()
            assert page.scroll_offset.y > before, "PgDn scrolls the page"
    assert pages[0] is pages[1], "the second session reused the first one's lines"
    assert len(pages[0]) > 24
