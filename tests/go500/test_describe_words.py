"""Go 500 log lines say what the rules did: automatic stops, a caution with one driver racing,
the final round's grammar (scripted dice through real chance)."""

from __future__ import annotations

from core.go500 import GAME
from core.go500.model import CautionCut, FinalRoundStarted, Roll, SaveAndRoll, Stop, TurnEnded
from tests.go500.helpers import PIT, act, of, roll, table

A, B = 0, 1
NAMES = ["Ann", "Bob", "Cy"]


def words(event: object) -> str:
    text = GAME.describe(event, NAMES)
    assert text is not None
    return text


def test_g_auto_stop_reads_as_automatic_not_chosen():
    s = table([450, 0])
    s, events = act(s, A, Roll(), roll("GREEN", [20, 20, 10, 0, 0], 10))
    end = of(events, TurnEnded)[0]
    assert end.kind == "green_stop"
    assert end.auto == "line"
    assert "automatically" in words(end)
    assert "stops under the green flag" not in words(end)


def test_g_auto_decision_nothing_left_to_roll_reads_as_automatic():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", [15, 20, 5, 0, "C"], 30))
    s, events = act(
        s, A, SaveAndRoll(dice=["T1", "T2", "T3", "T4", "T5"]), roll("GREEN", [], "FLAT")
    )
    end = of(events, TurnEnded)[0]
    assert end.auto == "no_dice"
    assert words(end).startswith("Ann has no dice left to roll")


def test_g_green_a_chosen_stop_reads_as_chosen():
    s = table([0, 0])
    s, _ = act(s, A, Roll(), roll("GREEN", [15, 20, 5, 0, "C"], 30))
    s, events = act(s, A, Stop())
    end = of(events, TurnEnded)[0]
    assert end.auto is None
    assert words(end) == "Ann stops under the green flag with 95 miles showing."


def test_g_caution_with_one_driver_racing_does_not_say_no_sole_leader():
    s = table([0], mode="time_trial")
    s, events = act(s, A, Roll(), [*roll("YELLOW", [0] * 5, 10), PIT["CAUTION"]])
    cut = of(events, CautionCut)[0]
    assert cut.alone
    assert "sole leader" not in words(cut)
    assert "nobody else is still racing" in words(cut)


def test_g_caution_shared_lead_still_says_no_sole_leader():
    s = table([300, 300, 10], current=2)
    s, events = act(s, 2, Roll(), [*roll("YELLOW", [0] * 5, 10), PIT["CAUTION"]])
    cut = of(events, CautionCut)[0]
    assert not cut.alone
    assert "no sole leader" in words(cut)


def test_g_final_round_grammar_for_one_and_for_several_drivers():
    assert words(FinalRoundStarted(drivers=(0,))) == "Final round: Ann takes one more turn."
    assert words(FinalRoundStarted(drivers=(0, 2))) == "Final round: Ann and Cy take one more turn."


def test_events_without_the_new_fields_encode_as_before():
    """omit_defaults: a chosen stop and a cut encode without ``auto``/``alone`` (old bytes)."""
    import msgspec

    assert b"auto" not in msgspec.msgpack.encode(TurnEnded(seat=0, kind="pit", showing=5))
    assert b"alone" not in msgspec.msgpack.encode(CautionCut(trigger=0, cut=1, total=9))



# ------------------------------------------------------------------ the table screen's words
KEYS = {"roll": "r", "save": "SAVEKEYS", "stop": "s", "paint": "PAINTKEY"}


def test_the_turn_prompt_is_worded_in_core_around_the_screens_keys():
    from core.go500.describe import turn_prompt

    s = table([0, 0])
    assert turn_prompt(s, A, NAMES, KEYS) == "Ann: r to roll."
    s, _ = act(s, A, Roll(), roll("GREEN", [20, 20, 10, 0, 0], 10))
    # The picked dice read in die order, whatever order they were picked in.
    assert turn_prompt(s, A, NAMES, KEYS, {"P", "T2"}) == (
        "Ann: SAVEKEYS to save (saving T2, P); r roll the rest, s stop."
    )
    assert "saving none" in turn_prompt(s, A, NAMES, KEYS)


def test_the_paint_prompt_uses_the_screens_key_and_shortens_to_fit():
    from core.go500.describe import paint_prompt

    wide = paint_prompt("Ann", [(2, "Bob"), (3, "Cy")], 80, "PAINTKEY")
    assert wide == "Ann: Tradin' Paint — PAINTKEY to hit: 2 Bob, 3 Cy."
    narrow = paint_prompt("Ann", [(2, "Bob"), (3, "Cy")], 36, "PAINTKEY")
    assert narrow == "Ann: Tradin' Paint — hit 2 Bob, 3 Cy"


def test_the_headline_of_a_step_is_its_most_important_call_out():
    from core.go500.config import Go500Config
    from core.go500.describe import callout, headline
    from core.go500.model import CheckeredFlag, InTheGroove, KnockedOut, PoleWon

    config = Go500Config()
    assert headline([PoleWon(seat=0, order=(0, 1))], NAMES, config) == callout(
        PoleWon(seat=0, order=(0, 1)), NAMES, config
    )
    text, tone = headline(
        [InTheGroove(seat=0), KnockedOut(seat=1), CheckeredFlag(seat=2)], NAMES, config
    )
    assert text.startswith("🏁 CHECKERED FLAG — Cy wins!")
    assert text.endswith("(+2 more in the log)")
    assert tone == "good"
    assert headline([CautionCut(trigger=0, cut=None, total=0)], NAMES, config) is not None
    assert headline([], NAMES, config) is None


def test_tray_captions_and_driver_tags():
    from core.go500.describe import driver_tags, tray_caption

    assert tray_caption(NAMES, 0, qualifying=55) == "Ann qualifies: 55 miles"
    assert tray_caption(NAMES, 1) == "Bob to roll"
    assert tray_caption(NAMES, 1, rolled=True, extra=True) == "Bob's dice (extra turn)"
    assert tray_caption(NAMES, 1, rolled=True, acting=2) == "Bob's last roll — Cy to roll"
    assert tray_caption(NAMES, None) == ""
    s = table([0, 0], order=[1, 0])
    assert driver_tags(s, 1, [], placed=False) == "pole"
    assert driver_tags(s, 0, [1, 0], placed=True) == "2nd"


def test_go500_actions_are_labelled_by_its_describe():
    from core.go500.model import ChoosePaintTarget

    assert GAME.describe_action(Stop(), NAMES) == "Stop"
    assert GAME.describe_action(SaveAndRoll(dice=["T1", "P"]), NAMES) == (
        "Save T1, P and roll the rest"
    )
    assert GAME.describe_action(ChoosePaintTarget(driver=2), NAMES) == "Trade paint with Cy"
