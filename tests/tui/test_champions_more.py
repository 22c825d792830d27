"""NASCAR Champions, issue 13: the lap-end summary waits for a key (places, revealed sponsors,
payouts) and the final results name the tie-break (N-TIEBREAK) when it decided places; money is
written one way."""

from __future__ import annotations

from core.champions.config import ChampionsConfig
from core.champions.describe import money_words, tiebreak_text
from core.champions.model import ChampionsState
from tests.tui.test_champions_screen import champions_app, open_table, wait_for
from tui.screens.champions_modals import LapSummary


def _answer_key(screen) -> str:
    state = screen.fold.state
    if state.phase == "choose_car":
        return "1"
    if state.phase == "roll":
        return "r"
    if state.phase == "choose_dice":
        return "enter" if len(screen.picked) == 3 else str(1 + len(screen.picked))
    return "1"


async def test_the_lap_summary_waits_for_enter_and_holds_the_table():
    app = champions_app("me,random", seed=3, lap_turn_limit=2)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        for _ in range(400):
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, LapSummary)
                    or (screen.acting_seat() == 0 and bool(screen.legal_now()))
                ),
            )
            if isinstance(app.screen, LapSummary):
                break
            await pilot.press(_answer_key(screen))
            await pilot.pause()
        summary = app.screen
        assert isinstance(summary, LapSummary)
        assert summary.title_words == "Lap 1 is over"
        text = "\n".join(summary.lines)
        assert "Lap 1 is over:" in text  # the places
        assert "Sponsors revealed." in text
        for name in screen.fold.names:
            assert f"{name} earns $" in text
        assert "Money so far: " in text
        history = len(screen.fold.history)
        for _ in range(5):
            await pilot.pause()
        assert app.screen is summary, "it waits for a key"
        assert len(screen.fold.history) == history, "the table waits behind it"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen)


def test_n_tiebreak_is_named_when_equal_money_was_decided_by_lap_two():
    state = ChampionsState(
        config=ChampionsConfig(),
        n_seats=3,
        seat_car=(0, 1, 2),
        money=(300000, 450000, 300000),
        lap_places=((0, 1, 2, 3, 4), (4, 2, 1, 0, 3)),
    )
    lines = tiebreak_text([1, 2, 0], state, ["Ann", "Bob", "Cy"])
    assert len(lines) == 1
    assert lines[0].startswith("Cy and Ann both have $300,000: Cy ranks higher")
    assert "2nd in lap 2" in lines[0]
    assert "4th" in lines[0]
    assert "rule N-TIEBREAK" in lines[0]
    assert tiebreak_text([1, 0, 2], msgspec_replace(state, money=(1, 2, 3)), ["A", "B", "C"]) == []


def msgspec_replace(state, **changes):
    import msgspec

    return msgspec.structs.replace(state, **changes)


def test_money_is_written_one_way():
    assert money_words(325000) == "$325,000"
    assert money_words(0) == "$0"


async def test_card_text_and_end_message_are_whole_at_80x24():
    from core.champions.data import COMPONENTS
    from tests.tui.test_champions_screen import my_move, oval_lines
    from tui.widgets.champions import OvalTrack

    def infield_words() -> str:
        x, y, w, h = screen.query_one(OvalTrack).geometry.infield()
        rows = [line[x : x + w] for line in oval_lines(screen)[y : y + h]]
        return " ".join(" ".join(rows).split())

    app = champions_app("me,promoter", seed=7, lap_turn_limit=6)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        cards = 0
        for _ in range(400):
            if not await my_move(pilot, screen):
                break
            state = screen.fold.state
            if state.card_in_play is not None:
                card = COMPONENTS.cards[state.card_in_play]
                words = " ".join(f"Card: {card.name} — {card.text}".split())
                shown = infield_words()
                if len(words) <= 80:
                    assert words in shown, "a card of up to three lines is shown whole"
                else:
                    assert words[:50] in shown
                cards += 1
            await pilot.press(_answer_key(screen))
            await pilot.pause()
        assert cards > 0, "the game should have put a card in play on this seat's move"
        assert screen.fold.result() is not None
        await pilot.pause()
        winner = screen.fold.names[screen.fold.result().ranking[0]]
        assert f"Race over — {winner} is the Champion" in infield_words()


async def test_car_labels_are_whole_on_every_space_at_80x24_and_wide():
    """Every space of the oval (the red line's neighbours included) shows a backwards car's
    whole label, at 80x24 and in the wide layout."""
    import msgspec

    from tests.tui.test_champions_screen import cell_text

    for size in ((80, 24), (120, 40)):
        app = champions_app("me,random", seed=3)
        async with app.run_test(size=size) as pilot:
            screen = await open_table(app, pilot)
            await wait_for(pilot, lambda s=screen: s.acting_seat() is not None)
            await pilot.pause()
            fold = screen.fold
            base = fold.state
            oval = screen.query_one("#oval")
            wide = oval.geometry.cw >= 6
            for row in range(24):
                for lane in range(3):
                    car = msgspec.structs.replace(
                        base.cars[0], row=row, lane=lane, backwards=True, place=None, number=88
                    )
                    others = tuple(
                        msgspec.structs.replace(c, row=None, lane=None) for c in base.cars[1:]
                    )
                    fold.state = msgspec.structs.replace(base, cars=(car, *others))
                    screen.redraw()
                    label = "«88" + ("R" if wide else "")
                    shown = cell_text(screen, row, lane)
                    assert label[:3] in shown, (size, row, lane, shown)


def test_final_results_line_up_places_names_and_money():
    from core.champions.model import GameEnded, LapEnded
    from tui.screens.champions_modals import lap_summary_lines

    state = ChampionsState(
        config=ChampionsConfig(),
        n_seats=3,
        seat_car=(0, 1, 2),
        money=(85000, 175000, 160000),
        lap_places=((0, 1, 2, 3, 4), (1, 2, 0, 3, 4)),
    )
    events = [
        LapEnded(lap=2, places=(1, 2, 0, 3, 4)),
        GameEnded(ranking=(1, 2, 0), money=(85000, 175000, 160000)),
    ]
    title, lines = lap_summary_lines([(9, None, events)], state, ["root", "Promoter", "Random"])
    assert title == "Final results"
    ranked = [line for line in lines if line[:3] in ("1st", "2nd", "3rd")]
    assert ranked == [
        "1st  Promoter   $175,000",
        "2nd  Random     $160,000",
        "3rd  root        $85,000",
    ]


async def test_a_spectators_lap_summary_goes_on_by_itself(monkeypatch):
    """A spectator's lap summary closes by itself (the race does not wait for spectators); the
    hint says so, and the table behind it plays on afterwards."""
    import tui.screens.champions as champions_screen
    from net.hub import SeatSpec, TableSpec
    from net.local_hub import LocalHub
    from tests.tui.conftest import ME
    from tui.app import OpenTable, SpeedwayApp

    monkeypatch.setattr(champions_screen, "SPECTATOR_LAP_SECONDS", 0.4)
    hub = LocalHub(None, persist=False, bot_delay=0.01, lobby_interval=0.0)
    bots = [SeatSpec(kind="bot", name=b.title(), bot=b) for b in ("promoter", "random")]
    spec = TableSpec(game="champions", seats=bots, options={"lap_turn_limit": 2}, seed=3)
    table_id = await hub.create_table(spec, ME)
    app = SpeedwayApp(
        hub, ME, start=OpenTable(table_id=table_id), animate=False, bot_delay=0, network=True
    )
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        assert screen.perspective is None
        await wait_for(pilot, lambda: isinstance(app.screen, LapSummary), tries=3000)
        summary = app.screen
        assert isinstance(summary, LapSummary)
        assert summary.continue_after == 0.4
        hint = " ".join(str(s.render()) for s in summary.query(".hint"))
        assert "goes on by itself" in hint
        history = len(screen.fold.history)
        await wait_for(pilot, lambda: app.screen is not summary, tries=3000)
        await wait_for(pilot, lambda: len(screen.fold.history) > history, tries=3000)
