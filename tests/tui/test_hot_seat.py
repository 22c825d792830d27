"""Hot-seat at one keyboard: a game of hot-seat players only opens, the first screen with hidden
cards is covered, and handing over shows a "your turn" banner (issue 13)."""

from __future__ import annotations

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


async def test_handing_over_the_keyboard_shows_a_your_turn_banner():
    app = go500_app("me,hot:Bea", seed=9, race_length=400)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, Go500TableScreen) and app.screen.fold is not None
        )
        screen = app.screen
        await wait_for(pilot, lambda: screen.acting_seat() == 0)
        for _ in range(40):
            if screen.acting_seat() == 1:
                break
            await pilot.press("s" if screen.legal_now() and _can_stop(screen) else "r")
            await wait_for(pilot, lambda: screen.acting_seat() is not None)
        assert screen.acting_seat() == 1
        await pilot.pause()
        texts = [str(n.message) for n in app._notifications]
        assert "Bea, your turn." in texts


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
