"""Rules pages are laid out once per process (`tui.widgets.rulespage`): on a server every
session runs on one event loop, and one player opening the rules page held every other
table's step back for 50-80 ms while a `Static` laid the whole page out again."""

from __future__ import annotations

from tests.tui.conftest import make_app
from tui.screens.rules import RulesScreen
from tui.widgets.rulespage import RulesPage


async def open_rules(app, pilot, game_id: str) -> None:
    """Open the rules page of ``game_id`` and wait until its page and footer are there."""
    from tui.widgets.keys import KeyFooter

    await pilot.pause()
    app.show_rules(game_id)
    for _ in range(50):
        await pilot.pause(0.01)
        screen = app.screen
        if isinstance(screen, RulesScreen) and screen.query(RulesPage) and screen.query(KeyFooter):
            break
    await pilot.pause()


async def test_rules_pages_are_laid_out_once_for_every_session() -> None:
    """Two apps (two SSH sessions) showing the same page at the same width share its lines."""
    pages = []
    for _ in range(2):
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await open_rules(app, pilot, "cthulhu500")
            page = app.screen.query_one(RulesPage)
            assert page.key == "cthulhu500"
            width = page.scrollable_content_region.width
            assert width > 0
            pages.append(page.lines(width))
            before = page.scroll_offset.y
            await pilot.press("pagedown")
            await pilot.pause()
            assert page.scroll_offset.y > before, "PgDn scrolls the page"
    assert pages[0] is pages[1], "the second session reused the first one's lines"
    assert len(pages[0]) > 24


async def test_left_and_right_switch_games_and_a_click_on_a_name_picks_one() -> None:
    from tui.widgets.tabbar import TabBar

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_rules(app, pilot, "go500")
        page = app.screen.query_one(RulesPage)
        await pilot.press("pagedown")
        await pilot.pause()
        assert page.scroll_offset.y > 0
        await pilot.press("right")
        await pilot.pause()
        assert page.key == "cthulhu500"
        assert page.scroll_offset.y == 0, "another game's page opens at its top"
        first = "".join(s.text for s in page.render_line(0))
        assert "Cthulhu 500" in first
        await pilot.press("left", "left")
        await pilot.pause()
        assert page.key == "champions", "left from the first game goes round to the last"
        bar = app.screen.query_one(TabBar)
        await pilot.click(TabBar, offset=(2, 0))  # on "Go 500"
        await pilot.pause()
        assert bar.active == "go500"
        assert page.key == "go500"


async def test_the_footer_says_how_to_switch_games() -> None:
    from tui.widgets.keys import KeyFooter

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_rules(app, pilot, "go500")
        assert "Other game" in app.screen.query_one(KeyFooter).shown
