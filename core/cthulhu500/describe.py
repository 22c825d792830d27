"""Cthulhu 500 events in words, for the race log and `replay --print`.

Owns every word of the game: one readable English sentence per event kind, the menu label of
each action (`action_text`), a decision's menu title (`prompt_text`) and the status line of
what the table waits for (`decision_text`). Screens show these and add key hints only. A
redacted event (a hidden card is `None`) is described without the card, so a sentence never
reveals what its reader may not see.
Must not: look at anything but the event (or the view it was offered in) and the seat names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.cthulhu500.data import CARDS, card, name_of
from core.cthulhu500.model import (
    ActionsEnded,
    ActionsGranted,
    ActionTaken,
    AddCrew,
    AttemptPass,
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    CardTakenFromDiscard,
    ChainResolved,
    CheckeredFlagDrawn,
    ChooseContagionTarget,
    ChooseVehicle,
    ContagionEnded,
    ContagionMarked,
    ContagionStruck,
    CrewAdded,
    CrewMoved,
    DActions,
    DamageAbsorbed,
    Damaged,
    DamageMove,
    DamagePrevented,
    DChain,
    DChooseVehicle,
    DContagion,
    DDiscard,
    DDrawCount,
    DeckReshuffled,
    DeckShuffled,
    DeclineFreeTest,
    DFreeTest,
    DieRerolled,
    Discard,
    DPitChoice,
    DrawCount,
    DReroll,
    DriverMoved,
    DriverSet,
    DSetupDiscard,
    DSponsor,
    DWindow,
    EffectFizzled,
    EndActions,
    FlagPlaced,
    FlagUsed,
    Flow,
    FreeTestDeclined,
    InPlayDiscarded,
    KeepRoll,
    ModAttached,
    NitrousAdded,
    PackFormed,
    PackTieRolled,
    PassCancelled,
    PassDeclared,
    PassDiceRolled,
    Passed,
    PassReaction,
    PassResolved,
    PassSide,
    PitChoice,
    PitStop,
    PitStopped,
    PlayAction,
    PlayReaction,
    RaceEnded,
    RepairRolled,
    Reroll,
    SetupDiscard,
    SetupDiscardChosen,
    SetupDiscardsRevealed,
    SponsorDiscard,
    State,
    TakeFreeTest,
    TiresAttached,
    TPassTest,
    TurnStarted,
    UseFlag,
    VehicleAssigned,
    VehicleCardDiscarded,
    VehiclesSetAside,
    VehiclesSwapped,
)
from core.cthulhu500.rules.board import (
    ahead,
    attack_equipment,
    defend_equipment,
    drive,
    fixit,
    speed,
)
from core.cthulhu500.rules.engine import ranking
from core.cthulhu500.rules.passing import pass_sides, side_total

__all__ = [
    "action_text",
    "card_facts",
    "card_timing",
    "decision_text",
    "describe",
    "free_test_text",
    "prompt_text",
    "reroll_text",
    "side_text",
    "standings_text",
    "vehicle_lines",
]

_OUTCOMES = {
    "swap": "{m} moves up past {t}: they swap places.",  # C-DMOVE: the one behind moves up
    "not_adjacent": "{m} is not directly behind {t}: nobody moves.",
    "seam_blocked": "{m} would cross the seam past {t}: blocked, nobody moves.",
    "seam_circle": "{m} gives up the lead and drops in front of {t}.",
    "seam_swap": "{m} and {t} swap across the seam: {t} leads, {m} is last.",
}


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(name_of(c) for c in cards) if cards else "nothing"


def side_text(name: str, side: PassSide, cap: int | None) -> str:
    """One side of a passing test itemised, e.g. "Ann die 4 + Speed 3 + Drive 2 + equipment 4
    (6, cap 4) + Slingshot 2 = 15" (C-PASS-TEST step 4, C-EQUIP-CAP)."""
    parts = [f"die {side.die}", f"Speed {side.speed}", f"Drive {side.drive}"]
    if side.equipment or side.equipment_sum:
        equipment = f"equipment {side.equipment}"
        if side.equipment != side.equipment_sum:
            equipment += f" ({side.equipment_sum}, cap {cap})"
        parts.append(equipment)
    listed = 0
    for cid in side.cards:
        parts.append(f"{name_of(cid)} {card(cid).param}")
        listed += card(cid).param
    if side.bonus != listed:
        parts.append(f"bonus {side.bonus - listed}")
    if side.nitrous:
        parts.append(f"Nitrous {side.nitrous}")
    return f"{name} " + " + ".join(parts) + f" = {side_total(side)}"


def describe(event: Any, names: Sequence[str]) -> str | None:
    """One sentence for ``event`` (``None`` for bookkeeping events)."""
    t = type(event)

    def n(seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    if t is Flow:
        return None
    if t is VehicleAssigned:
        return f"{n(event.seat)} drives the {name_of(event.marker)}."
    if t is VehiclesSetAside:
        return f"Unused vehicles leave the race: {_cards(event.markers)}."
    if t is FlagPlaced:
        return "The Checkered Flag lies face up on the discard pile."
    if t is DeckShuffled:
        return f"The deck of {event.count} cards is shuffled."
    if t is CardDealt:
        if event.card is None:
            return f"{n(event.seat)} is dealt a card."
        return f"{n(event.seat)} is dealt {name_of(event.card)}."
    if t is SetupDiscardChosen:
        if event.cards is None:
            return f"{n(event.seat)} secretly chooses cards to discard."
        return f"{n(event.seat)} secretly chooses to discard {_cards(event.cards)}."
    if t is SetupDiscardsRevealed:
        parts = [f"{n(s)} {len(c)}" for s, c in enumerate(event.cards)]
        return "Setup discards revealed: " + ", ".join(parts) + "."
    if t is PackTieRolled:
        return f"{n(event.seat)} rolls {event.value} for pack order."
    if t is PackFormed:
        return "The pack forms: " + ", ".join(n(s) for s in event.pack) + " (leader first)."
    if t is TurnStarted:
        return f"Turn {event.turn}: {n(event.seat)} has {event.actions} actions."
    if t is ActionTaken:
        return None
    if t is FlagUsed:
        return f"{n(event.seat)} waves the promo flag for one more action."
    if t is ActionsGranted:
        return f"{n(event.seat)} gains {event.count} actions."
    if t is ActionsEnded:
        return f"{n(event.seat)} ends their actions."
    if t is NitrousAdded:
        return f"{n(event.seat)} primes +{event.bonus} Nitrous for their next passing test."
    if t is CardPlayed:
        text = f"{n(event.seat)} plays {name_of(event.card)}"
        if event.on_card is not None:
            text += f" on {name_of(event.on_card)}"
        if event.target_card is not None and event.target_seat is not None:
            text += f" targeting {name_of(event.target_card)} of {n(event.target_seat)}"
        elif event.target_card is not None:
            text += f" targeting {name_of(event.target_card)}"
        elif event.target_seat is not None and event.to_seat is not None:
            text += f" ({n(event.target_seat)} and {n(event.to_seat)})"
        elif event.target_seat is not None:
            text += f" on {n(event.target_seat)}"
        return text + "."
    if t is ChainResolved:
        gone = [name_of(c) for c, x in zip(event.cards, event.cancelled, strict=True) if x]
        if not gone:
            return f"{name_of(event.cards[0])} takes effect."
        return f"Cancelled: {', '.join(gone)}."
    if t is InPlayDiscarded:
        return None
    if t is EffectFizzled:
        return f"{name_of(event.card)} finds no target and fizzles."
    if t is CrewAdded:
        where = "their own" if event.seat == event.to_seat else f"{n(event.to_seat)}'s"
        return f"{n(event.seat)} adds {name_of(event.card)} to {where} pit crew."
    if t is CrewMoved:
        return f"{name_of(event.card)} moves from {n(event.from_seat)}'s pit crew to {n(event.to_seat)}'s."
    if t is DriverMoved:
        text = f"{name_of(event.card)} is dragged from {n(event.from_seat)}'s seat to drive for {n(event.to_seat)}"
        if event.replaced is not None:
            text += f"; {name_of(event.replaced)} joins the pit crew"
        return text + "."
    if t is DriverSet:
        text = f"{name_of(event.card)} now drives for {n(event.seat)}"
        if event.old is not None:
            text += f"; {name_of(event.old)} goes to the pit crew"
        return text + "."
    if t is PassDeclared:
        kinds = {
            "normal": "tries to pass",
            "draft": "drafts at",
            "follow": "takes a free test on",
            "pit": "takes a free pit-stop test on",
        }
        return f"{n(event.attacker)} {kinds.get(event.kind, 'tries to pass')} {n(event.defender)}."
    if t is PassCancelled:
        return f"The pass of {n(event.attacker)} on {n(event.defender)} is cancelled."
    if t is PassDiceRolled:
        return f"Dice: {n(event.attacker)} {event.attacker_die}, {n(event.defender)} {event.defender_die}."
    if t is DieRerolled:
        return (
            f"{n(event.seat)} re-rolls the Car of Cthulhu's die: {event.old} becomes {event.new}."
        )
    if t is PassResolved:
        verdict = {"win": "wins", "lose": "fails", "tie": "ties"}[event.outcome]
        if event.attacker_side is None or event.defender_side is None:  # an older replay
            return f"{n(event.attacker)} {event.attacker_total} vs {n(event.defender)} {event.defender_total}: the attacker {verdict}."
        att = side_text(n(event.attacker), event.attacker_side, event.cap)
        dfd = side_text(n(event.defender), event.defender_side, event.cap)
        return f"{att} vs {dfd}: the attacker {verdict}."
    if t is Passed:
        lap = " and earns a lap counter" if event.lap else ""
        return f"{n(event.attacker)} passes {n(event.defender)}{lap}."
    if t is DamageMove:
        return _OUTCOMES[event.outcome].format(m=n(event.mover), t=n(event.target))
    if t is VehiclesSwapped:
        return f"{n(event.a)} and {n(event.b)} swap places through a Gate."
    if t is Damaged:
        return f"{n(event.seat)}'s vehicle is damaged."
    if t is DamagePrevented:
        return f"{n(event.seat)}'s vehicle escapes the damage."
    if t is DamageAbsorbed:
        return f"{n(event.seat)}'s {name_of(event.card)} takes the damage and is discarded."
    if t is PitStopped:
        return f"{n(event.seat)} makes a pit stop."
    if t is FreeTestDeclined:
        return f"{n(event.seat)} declines the free passing test."
    if t is ModAttached:
        extra = f", replacing {name_of(event.replaced)}" if event.replaced is not None else ""
        return f"{n(event.seat)} bolts on {name_of(event.card)}{extra}."
    if t is TiresAttached:
        extra = f", replacing {name_of(event.replaced)}" if event.replaced is not None else ""
        return f"{n(event.seat)} fits {name_of(event.card)}{extra}."
    if t is RepairRolled:
        verdict = "repaired" if event.success else "still damaged"
        return f"{n(event.seat)} repairs: {event.die} for a total of {event.total} vs {event.need}, {verdict}."
    if t is VehicleCardDiscarded:
        return f"{n(event.seat)} loses {name_of(event.card)} ({event.reason})."
    if t is CardTakenFromDiscard:
        return f"{n(event.seat)} takes {name_of(event.card)} from the discard pile."
    if t is ContagionMarked:
        return f"{name_of(event.card)} marks {name_of(event.target)} on {n(event.seat)}'s vehicle."
    if t is ContagionStruck:
        return (
            f"{name_of(event.card)} claims {name_of(event.target)} from {n(event.seat)}'s vehicle."
        )
    if t is ContagionEnded:
        return f"{name_of(event.card)} runs its course and is discarded."
    if t is CardsDiscarded:
        return f"{n(event.seat)} discards {_cards(event.cards)}."
    if t is CardDrawn:
        if event.card is None:
            return f"{n(event.seat)} draws a card."
        return f"{n(event.seat)} draws {name_of(event.card)}."
    if t is DeckReshuffled:
        return f"The discard pile ({event.count} cards, Checkered Flag included) is shuffled into a new draw pile."
    if t is CheckeredFlagDrawn:
        return f"{n(event.seat)} draws the Checkered Flag!"
    if t is RaceEnded:
        laps = ", ".join(f"{n(s)} {event.laps[s]}" for s in event.ranking)
        return f"The race is over. Final order: {laps} laps."
    return None  # pragma: no cover


def action_text(action: Any, names: Sequence[str], view: State | None = None) -> str:
    """A menu label for one legal action, the one wording of screens, prompts and analysis.

    With the ``view`` it was offered in, a pass names the vehicle it tries to pass.
    """
    t = type(action)

    def n(seat: int | None) -> str:
        return "nobody" if seat is None or not 0 <= seat < len(names) else names[seat]

    if t is ChooseVehicle:
        return f"Drive the {name_of(action.marker)}"
    if t is SetupDiscard or t is Discard:
        return f"Discard {_cards(action.cards)}"
    if t is PlayAction:
        text = f"Play {name_of(action.card)}"
        if action.target_card is not None and action.target_seat is not None:
            text += f": {n(action.target_seat)}'s {name_of(action.target_card)}"
        elif action.target_card is not None:
            text += f": take {name_of(action.target_card)}"
        elif action.target_seat is not None:
            text += f": {n(action.target_seat)}"
        if action.to_seat is not None:
            text += f" → {n(action.to_seat)}"
        return text
    if t is AddCrew:
        return f"Add {name_of(action.card)} to {n(action.seat)}'s pit crew"
    if t is AttemptPass:
        target = _passing_whom(view)
        return "Try to pass the vehicle ahead" if target is None else f"Try to pass {n(target)}"
    if t is PitChoice:
        if action.kind == "repair":
            return "Pit: repair test"
        if action.kind == "driver":
            return f"Pit: {name_of(action.card or 0)} drives"
        text = f"Pit: fit {name_of(action.card or 0)}"
        if action.replace is not None:
            text += f" (replacing {name_of(action.replace)})"
        return text
    if t is PlayReaction:
        found = CARDS.get(action.card)
        return f"React: {name_of(action.card)} — {found.text if found is not None else ''}"
    if t is ChooseContagionTarget:
        return f"Contagion strikes {name_of(action.card)}"
    if t is SponsorDiscard:
        return f"Give the Sponsor {name_of(action.card)}"
    if t is DrawCount:
        return f"Draw {action.count} card{'s' if action.count != 1 else ''}"
    labels = {
        PitStop: "Make a pit stop",
        TakeFreeTest: "Take the free passing test",
        DeclineFreeTest: "Decline the free passing test",
        PassReaction: "No reaction (pass)",
        Reroll: "Re-roll the Car of Cthulhu's die",
        KeepRoll: "Keep the roll",
        UseFlag: "Wave the promo Checkered Flag",
        EndActions: "End my actions",
    }
    return labels.get(t, t.__name__)


def _passing_whom(view: State | None) -> int | None:
    """The vehicle the seat asked for its actions would try to pass (None: not known)."""
    if view is None or not view.stack or not isinstance(view.stack[-1], DActions):
        return None
    me, pack = view.stack[-1].seat, view.pack
    if me in pack and len(pack) > 1:
        return pack[pack.index(me) - 1]
    return None


_PROMPTS: dict[type, str] = {
    DChooseVehicle: "Choose your vehicle",
    DSetupDiscard: "Discard for the pack order",
    DActions: "Your actions",
    DDiscard: "Discard any cards you like, then draw",  # C-HAND-LIMIT
    DDrawCount: "How many cards to draw?",
    DSponsor: "The Sponsor wants a card",
    DReroll: "Re-roll or keep?",
    DFreeTest: "A free passing test",
    DPitChoice: "Pit stop: what to do?",
    DContagion: "Where does the contagion jump?",
}


def prompt_text(view: State, names: Sequence[str]) -> str:
    """What the decision on top asks the seat answering it, in a few words (a menu's title)."""
    top = view.stack[-1] if view.stack else None

    def n(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "nobody"

    if isinstance(top, DWindow):
        x, y = n(top.x), (n(top.y) if top.y >= 0 else "")
        if top.kind == "try":
            return f"React? {x} tries to pass {y}"
        if top.kind == "damage":
            return f"React? {x} would be damaged"
        if top.kind == "win":
            return f"React? {x} has just passed {y}"
        return f"React? {x} flips to damaged"
    if isinstance(top, DChain):
        return f"React? {name_of(top.cards[-1])} was played"
    return _PROMPTS.get(type(top), "Your move")


def card_facts(cid: int) -> str:
    """A card in full: name, kind, its numbers and its effect text, e.g.
    "Slingshot — reaction. You try to pass: +2 attacking on this test."."""
    spec = card(cid)
    numbers = []
    if spec.type == "vehicle" or spec.speed or spec.complexity:
        numbers.append(
            f"Speed {spec.speed}, damaged {spec.speed_damaged}; Complexity {spec.complexity}"
        )
    if spec.drive:
        numbers.append(f"Drive {spec.drive}")
    if spec.fixit:
        numbers.append(f"Fixit {spec.fixit}")
    if spec.atk or spec.def_:
        numbers.append(f"Atk {spec.atk}, Def {spec.def_}")
    head = f"{spec.name} — {spec.type}"
    if numbers:
        head += " (" + "; ".join(numbers) + ")"
    return f"{head}. {spec.text}" if spec.text else f"{head}."


_TIMING = {
    "action": "Play it as one of your actions in your own turn (C-PLAY-ACTION); others may"
    " answer it with Ia! Ia! (C-CHAIN).",
    "crew": "Play it as one of your actions into any player's pit crew (C-ADD-CREW); in your"
    " pit stop it may become your driver (C-PIT-DRIVER).",
    "mod": "Attach it to your vehicle in a pit stop, one action (C-PIT-MOD; with 2 attached,"
    " discard one first).",
    "tires": "Fit it to your vehicle in a pit stop, one action (C-PIT-TIRES; the old set is"
    " discarded).",
    "reaction": "Play it in reply, in anyone's turn, at the moment its text names"
    " (C-REACT-WINDOW); it costs no action.",
    "flag": "Never played: drawing it ends the race at once (C-CHECKERED-FLAG).",
    "vehicle": "Not a hand card: vehicles are given out at setup (C-VEHICLES).",
}


def card_timing(cid: int) -> str:
    """When a card may be played, by its kind (the rule it is played under), e.g.
    "Play it in reply, in anyone's turn, at the moment its text names (C-REACT-WINDOW); it
    costs no action." for a reaction."""
    return _TIMING[card(cid).type]


def vehicle_lines(view: State, names: Sequence[str], seat: int) -> list[str]:
    """One vehicle in full, as every player sees it: its place and laps, Speed both ways and
    the one in use, Complexity, the driver's Drive, pit crew Fixit, equipment (with the cap),
    its cards and what each does, the owner's hand size (never its cards) and contagion marks."""
    v = view.vehicles[seat]
    place = (
        f"{view.pack.index(seat) + 1} of {len(view.pack)} in the pack, "
        if seat in view.pack
        else ""
    )
    laps = f"{v.laps} lap{'' if v.laps == 1 else 's'}"
    if not v.marker:
        return [f"{names[seat]}: no vehicle yet. {place}{laps}."]
    spec = card(v.marker)
    state_word = "DAMAGED" if v.damaged else "undamaged"
    lines = [
        f"{names[seat]}'s {spec.name}: {place}{laps}, {state_word}.",
        f"Speed {spec.speed} undamaged, {spec.speed_damaged} damaged (now {speed(v)});"
        f" Complexity {spec.complexity} (a repair test must reach it, C-REPAIR).",
    ]
    if spec.effect is not None:
        lines.append(f"Vehicle: {spec.text}")
    if v.driver is None:
        lines.append("Driver: none (Drive 0, C-NO-DRIVER).")
    else:
        lines.append(f"Driver: {card_facts(v.driver)} (Drive {drive(v)})")
    if v.crew:
        lines.append(f"Pit crew (Fixit {fixit(v)} in all):")
        lines += [f"  {card_facts(c)}" for c in v.crew]
    else:
        lines.append("Pit crew: none (Fixit 0).")
    cap = view.config.equipment_cap
    atk, dfd = attack_equipment(v, cap), defend_equipment(v, cap)
    equipment = f"Equipment: {atk:+d} attacking, {dfd:+d} defending"
    if (atk, dfd) != (attack_equipment(v, None), defend_equipment(v, None)):
        equipment += f" (capped at {cap}, C-EQUIP-CAP)"
    lines.append(equipment + ".")
    lines += [f"  Mod: {card_facts(c)}" for c in v.mods]
    if v.tires is not None:
        lines.append(f"  Tires: {card_facts(v.tires)}")
    hand = len(view.hands[seat]) if seat < len(view.hands) else 0
    lines.append(f"Hand: {hand} card{'' if hand == 1 else 's'} (only its owner sees which).")
    for contagion in view.contagions:
        if contagion.seat == seat:
            lines.append(f"☣ {name_of(contagion.card)} marks {name_of(contagion.target)}.")
    return lines


def standings_text(view: State, names: Sequence[str]) -> str:
    """The race as it stands (C-RANK: most laps, then nearer the front), e.g.
    "Standings: 1 Ann 2 laps · 2 Bob 1 · 3 Cy 1"."""
    if not view.pack:
        return "Standings: the pack has not formed yet."
    parts = []
    for place, seat in enumerate(ranking(view)):
        laps = view.vehicles[seat].laps
        unit = (" lap" if laps == 1 else " laps") if place == 0 else ""
        parts.append(f"{place + 1} {names[seat]} {laps}{unit}")
    return "Standings: " + " · ".join(parts)


def reroll_text(view: State, names: Sequence[str]) -> str:
    """The passing test as it stands while the Car of Cthulhu may re-roll: both totals."""
    test = next((t for t in reversed(view.stack) if isinstance(t, TPassTest)), None)
    if test is None or test.y < 0:
        return ""
    att, dfd = pass_sides(view, test)
    return f"Now {side_text(names[test.x], att, view.config.equipment_cap)} vs {side_text(names[test.y], dfd, view.config.equipment_cap)}."


def free_test_text(view: State, names: Sequence[str]) -> str:
    """Who may take the free passing test against whom, and why (C-FREE-PASS)."""
    top = view.stack[-1] if view.stack else None
    if not isinstance(top, DFreeTest):
        return ""
    me = names[top.seat]
    target = names[ahead(view.pack, top.seat)] if top.seat in view.pack else "the vehicle ahead"
    if top.kind == "pit":
        why = f"because {target} makes a pit stop (rule C-PIT-FREE-TEST)"
    else:
        why = "because their Drafting pass won (rule C-FREE-PASS)"
    return f"{me} may take a free passing test on {target} {why}; it costs no action."


def decision_text(view: State, seat: int | None, names: Sequence[str]) -> str:
    """What the table is waiting for, as ``seat`` may know it (a prompt or a status line)."""
    if view.over:
        return "The race is over."
    top = view.stack[-1] if view.stack else None
    if top is None:
        return "Setting up."
    asked = getattr(top, "seat", None)
    t = type(top)
    if t is DSetupDiscard:
        if seat is not None and not view.setup_done[seat]:
            return "Choose cards to discard in secret: more discarded, nearer the front."
        return "Waiting for the secret setup discards."
    if t is DWindow or t is DChain:
        return "Waiting for reactions."
    who = "You" if asked == seat else names[asked] if isinstance(asked, int) else "Someone"
    if t is DActions:
        return f"{who}: {view.actions_left} action(s) left."
    if t is DDiscard:
        return f"{who}: discard any cards, then draw."
    if t is DFreeTest:
        return f"{who}: take the free passing test? {free_test_text(view, names)}"
    if t is DPitChoice:
        return f"{who}: choose what the pit crew does."
    if t is DReroll:
        return f"{who}: re-roll the Car of Cthulhu's die? {reroll_text(view, names)}"
    if t is DContagion:
        return f"{who}: choose where the contagion jumps."
    if t is DSponsor:
        return f"{who}: the Sponsor That Must Not Be Named wants a card."
    if t is DChooseVehicle:
        return f"{who}: choose a vehicle."
    return f"{who}: decide."
