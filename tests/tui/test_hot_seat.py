"""Hot-seat at one keyboard: a game of hot-seat players only opens, the first screen with hidden
cards is covered, and handing over shows a "your turn" banner that lasts until that player moves (issue 13)."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from core.go500.model import Stop
from tests.tui.conftest import go500_app
from tests.tui.test_champions_screen import wait_for
from tests.tui.test_cthulhu_screen import cthulhu_app
from tui.screens.cthulhu500 import CthulhuTableScreen
from tui.screens.go500 import Go500TableScreen
from tui.screens.table import PassKeyboard


async def test_a_game_of_hot_seat_players_only_opens_at_the_first_seat():
    app = go500_app("hot:A,hot:B", seed=3, race_length=400)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None,
        )
        screen = app.screen
        assert screen.perspective == 0
        assert screen.fold.seat == 0
        assert screen.acting_seat() == 0
        assert "do not hold" not in str(screen.query_one("#status").render())


async def test_the_first_hidden_card_screen_of_a_hot_seat_game_is_covered():
    app = cthulhu_app("hot:A,hot:B", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PassKeyboard))
        assert app.screen.player == "A"
        shot = app.export_screenshot().replace("&#160;", " ")
        assert "Your hand" not in shot, "the first player's hand must not show through"
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CthulhuTableScreen) and app.screen.fold is not None,
        )
        assert app.screen.perspective == 0


async def test_one_player_alone_gets_no_cover():
    app = cthulhu_app("me,random", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CthulhuTableScreen) and app.screen.fold is not None,
        )
        await pilot.pause()
        assert not isinstance(app.screen, PassKeyboard)


async def hand_over(pilot, screen) -> None:
    """Play seat 0 (Ann) until the keyboard passes to seat 1 (Bea)."""
    await wait_for(pilot, lambda: screen.acting_seat() == 0)
    for _ in range(40):
        if screen.acting_seat() == 1:
            break
        await pilot.press("s" if screen.legal_now() and _can_stop(screen) else "r")
        await wait_for(pilot, lambda: screen.acting_seat() is not None)
    assert screen.acting_seat() == 1
    await pilot.pause()


def banner(screen) -> Static:
    return screen.query_one("#turn-banner", Static)


@pytest.mark.parametrize(("seed", "bea_plays_on"), [(1, True), (2, False)])
async def test_handing_over_the_keyboard_shows_a_lasting_your_turn_banner(seed, bea_plays_on):
    app = go500_app("me,hot:Bea", seed=seed, race_length=400)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        screen = app.screen
        assert not banner(screen).display, "no banner before any hand-over"
        await hand_over(pilot, screen)
        assert banner(screen).display
        assert "Bea, your turn." in str(banner(screen).render())
        assert banner(screen).region.height == 1
        assert not app._notifications, "a banner, not a toast"
        await pilot.pause(0.5)
        assert banner(screen).display, "it lasts until Bea moves"
        state_id = screen.fold.state_id
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.fold.state_id > state_id)
        await pilot.pause()
        if bea_plays_on:  # still Bea's turn: her move took the banner away
            assert screen.acting_seat() == 1
            assert not banner(screen).display, "Bea moved: the banner goes"
        else:  # her move ended her turn: the keyboard passed back to Ann
            assert screen.acting_seat() == 0
            assert "Ann, your turn." in str(banner(screen).render())


async def test_the_banner_comes_after_the_cover_at_a_hidden_card_table():
    app = cthulhu_app("hot:A,hot:B", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PassKeyboard))
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CthulhuTableScreen) and app.screen.fold is not None,
        )
        screen = app.screen
        for _ in range(200):  # A answers until the keyboard passes to B (behind the cover)
            if isinstance(app.screen, PassKeyboard):
                break
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, PassKeyboard) or screen.acting_seat() is not None,
            )
            if isinstance(app.screen, PassKeyboard):
                break
            legal = screen.legal_now()
            if legal:
                screen.submit(legal[0])
            await pilot.pause()
        assert isinstance(app.screen, PassKeyboard)
        assert app.screen.player == "B"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.perspective == 1)
        await wait_for(pilot, lambda: banner(screen).display)
        assert "B, your turn." in str(banner(screen).render())


def _can_stop(screen) -> bool:
    return any(isinstance(a, Stop) for a in screen.legal_now())


async def test_a_toast_does_not_cover_the_status_line():
    """The end-of-race notice (a toast) sits above the result line, footer of one or two rows."""
    from textual.widgets._toast import Toast

    from tui.widgets.common import StatusLine

    for app, kind in (
        (go500_app("me,cautious", seed=3), Go500TableScreen),
        (cthulhu_app("me,random", seed=7), CthulhuTableScreen),
    ):
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_for(
                pilot,
                lambda a=app, k=kind: isinstance(a.screen, k) and a.screen.fold is not None,
            )
            screen = app.screen
            screen.notify(
                "The race is over: Ann wins with a very long sentence to wrap.", timeout=30
            )
            await pilot.pause()
            await pilot.pause(0.3)
            toasts = list(app.screen.query(Toast))
            assert toasts
            status = screen.query_one(StatusLine).region
            for toast in toasts:
                assert not toast.region.overlaps(status), (toast.region, status)
