"""Cthulhu 500 bots: `random` (the default) and `shrewd` (a heuristic player).

Owns bot policies. A bot sees only its seat's view and the legal actions, and draws its own
chance (never the game's). `shrewd` equips its vehicle, attempts passes when its odds are good,
plays reactions when they pay, aims damage and sabotage at the leader, and keeps its hand
lean so it keeps drawing. Must not: read hidden state or change anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.cthulhu500.data import card
from core.cthulhu500.model import (
    HIDDEN,
    AddCrew,
    AttemptPass,
    ChooseContagionTarget,
    ChooseVehicle,
    DActions,
    DChain,
    DChooseVehicle,
    DContagion,
    DDiscard,
    DeclineFreeTest,
    DFreeTest,
    Discard,
    DPitChoice,
    DrawCount,
    DReroll,
    DSetupDiscard,
    DSponsor,
    DWindow,
    EndActions,
    KeepRoll,
    PassReaction,
    PitChoice,
    PitStop,
    PlayAction,
    PlayReaction,
    Reroll,
    SetupDiscard,
    SponsorDiscard,
    State,
    TakeFreeTest,
    TPassTest,
    UseFlag,
)
from core.cthulhu500.rules.board import (
    ahead,
    attack_equipment,
    defend_equipment,
    drive,
    speed,
)
from core.rng import Chance

__all__ = ["BOTS", "random_bot", "shrewd_bot"]


def random_bot(view: State, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    """Any legal action, uniformly."""
    return legal[chance.below(len(legal))]


# --------------------------------------------------------------------------- reckoning

_ACTION_VALUE = {
    "auto_pass_ahead": 6.0,
    "grant_actions": 4.5,
    "draft": 4.0,
    "damage_any": 4.0,
    "nitrous": 3.0,
    "damage_ahead_behind": 3.0,
    "swap_two_ahead": 3.0,
    "discard_equipment": 2.5,
    "contagion": 2.0,
    "poach_crew": 2.0,
    "move_driver": 2.0,
    "repair_now": 1.0,
    "scavenge": 1.0,
}
_REACTION_VALUE = {
    "prevent_damage": 5.0,
    "cancel_pass": 4.0,
    "atk_bonus": 3.0,
    "def_bonus": 3.0,
    "cancel_card": 3.0,
    "cancel_spell": 2.0,
    "repair_on_damage": 2.0,
    "cancel_pit_test": 2.0,
}


def _odds(view: State, x: int, y: int, atk: int = 0, dfn: int = 0) -> tuple[float, float]:
    """P(win), P(tie) for x attacking y, from public stats (known bonuses added)."""
    cap = view.config.equipment_cap
    vx, vy = view.vehicles[x], view.vehicles[y]
    a = speed(vx) + drive(vx) + attack_equipment(vx, cap) + atk
    b = speed(vy) + drive(vy) + defend_equipment(vy, cap) + dfn
    win = sum(1 for i in range(1, 7) for j in range(1, 7) if i + a > j + b)
    tie = sum(1 for i in range(1, 7) for j in range(1, 7) if i + a == j + b)
    return win / 36, tie / 36


def _standing(view: State, seat: int) -> tuple[int, int]:
    order = view.pack.index(seat) if seat in view.pack else view.n
    return (view.vehicles[seat].laps, -order)


def _leader(view: State, me: int) -> int:
    """The rival doing best (most laps, then nearer the front)."""
    rivals = [s for s in range(view.n) if s != me]
    return max(rivals, key=lambda s: _standing(view, s))


def _card_value(view: State, me: int, cid: int) -> float:
    if cid == HIDDEN:
        return 0.0
    spec = card(cid)
    vehicle = view.vehicles[me]
    if spec.type == "action":
        if spec.effect == "repair_now":
            return 4.0 if vehicle.damaged else 0.5
        return _ACTION_VALUE.get(spec.effect or "", 1.0)
    if spec.type == "reaction":
        return _REACTION_VALUE.get(spec.effect or "", 1.0)
    if spec.type in ("mod", "tires"):
        gain = spec.atk + 0.5 * spec.def_
        if spec.effect in ("absorb_damage", "damage_passed"):
            gain += 2.0
        elif spec.effect:
            gain += 1.0
        return 1.0 + gain * 0.6
    if spec.type == "crew":
        if spec.fixit < 0:
            return 1.5  # a gift for a rival's pit crew
        return 1.0 + max(spec.drive - drive(vehicle), 0) + 0.3 * spec.fixit
    return 0.0


def _worst_first(view: State, me: int, cards: Sequence[int]) -> list[int]:
    return sorted(cards, key=lambda c: (_card_value(view, me, c), c))


# --------------------------------------------------------------------------- decisions


def _choose_turn_action(view: State, me: int, legal: Sequence[Any]) -> Any:
    vehicle = view.vehicles[me]
    leader = _leader(view, me)
    in_front = ahead(view.pack, me)
    plays = [a for a in legal if isinstance(a, PlayAction)]

    def play(effect: str) -> list[PlayAction]:
        return [a for a in plays if card(a.card).effect == effect]

    if play("grant_actions"):
        return play("grant_actions")[0]
    if vehicle.damaged:
        rush = play("repair_now")
        if rush:
            return rush[0]
    if play("auto_pass_ahead"):
        return play("auto_pass_ahead")[0]
    pit = PitStop() in legal
    hand = view.hands[me]
    good_gear = any(
        c != HIDDEN
        and card(c).type in ("mod", "tires")
        and (card(c).atk > 0 or card(c).effect == "absorb_damage")
        for c in hand
    )
    if pit and (vehicle.damaged or good_gear or (vehicle.driver is None and _has_driver(view, me))):
        return PitStop()
    # damage: the leader if it is a rival, else the vehicle ahead when that swaps us forward
    for a in play("damage_any"):
        if a.target_seat == leader and _standing(view, leader) >= _standing(view, me):
            return a
    for a in play("damage_any"):
        if a.target_seat == in_front and view.vehicles[in_front].damaged:
            return a
    for a in play("damage_ahead_behind"):
        if view.vehicles[in_front].damaged or a.target_seat == leader:
            return a
    if play("swap_two_ahead"):
        return play("swap_two_ahead")[0]
    for effect in ("discard_equipment", "contagion", "poach_crew"):
        for a in play(effect):
            if a.target_seat == leader:
                return a
    for a in play("move_driver"):
        if a.target_seat == leader and a.to_seat == me:
            return a
    crew_gifts = [
        a for a in legal if isinstance(a, AddCrew) and card(a.card).fixit < 0 and a.seat == leader
    ]
    if crew_gifts:
        return crew_gifts[0]
    win, tie = _odds(view, me, in_front, atk=view.nitrous)
    if play("nitrous") and view.actions_left >= 2 and win < 0.75:
        return play("nitrous")[0]
    if play("draft") and win >= 0.3:
        return play("draft")[0]
    if AttemptPass() in legal and win >= max(0.3, tie):
        return AttemptPass()
    useful_crew = [
        a for a in legal if isinstance(a, AddCrew) and a.seat == me and card(a.card).fixit > 0
    ]
    if useful_crew and vehicle.damaged:
        return useful_crew[0]
    if AttemptPass() in legal and win >= 0.15 and win > tie:
        return AttemptPass()
    if UseFlag() in legal:
        return UseFlag()
    return EndActions()


def _has_driver(view: State, me: int) -> bool:
    return any(
        c != HIDDEN and card(c).type == "crew" and card(c).drive > 0 for c in view.hands[me]
    ) or any(card(c).drive > 0 for c in view.vehicles[me].crew)


def _pit_choice(view: State, me: int, legal: Sequence[PitChoice]) -> PitChoice:
    def score(choice: PitChoice) -> float:
        vehicle = view.vehicles[me]
        if choice.kind == "repair":
            return 10.0
        assert choice.card is not None
        spec = card(choice.card)
        if choice.kind == "driver":
            return 1.0 + 2 * (spec.drive - drive(vehicle))
        gain = spec.atk + 0.6 * spec.def_ + (3 if spec.effect == "absorb_damage" else 0)
        gain += 1 if spec.effect else 0
        if choice.replace is not None:
            old = card(choice.replace)
            gain -= old.atk + 0.6 * old.def_ + (1 if old.effect else 0)
        if choice.kind == "tires" and vehicle.tires is not None:
            old = card(vehicle.tires)
            gain -= old.atk + 0.6 * old.def_
        return gain

    return max(legal, key=score)


def _react(view: State, me: int, top: Any, legal: Sequence[Any]) -> Any:
    cards = [a for a in legal if isinstance(a, PlayReaction)]
    if not cards:
        return PassReaction()
    if isinstance(top, DWindow):
        if top.kind == "try":
            atk = top.atk + (view.nitrous if top.x == view.active else 0)
            win, _tie = _odds(view, top.x, top.y, atk=atk, dfn=top.def_)
            for a in cards:
                effect = card(a.card).effect
                if effect == "cancel_pit_test":
                    return a
                if effect == "atk_bonus" and 0.05 < win < 0.9:
                    return a
                if effect == "def_bonus" and win > 0.1:
                    return a
            return PassReaction()
        return cards[0]  # Lucky Break, Black Flag, Tow Truck always pay
    assert isinstance(top, DChain)
    bottom_seat = top.seats[0]
    cancelled = [False] * len(top.cards)
    for i in range(len(top.cards) - 1, 0, -1):
        if not cancelled[i] and card(top.cards[i]).effect in ("cancel_card", "cancel_spell"):
            cancelled[i - 1] = True
    want = bottom_seat == me or not _hurts(view, me, top)
    if cancelled[0] == (not want):
        return PassReaction()
    return cards[-1] if card(top.cards[-1]).spell else cards[0]


def _hurts(view: State, me: int, chain: DChain) -> bool:
    """Whether the chain's bottom card, taking effect, is bad for ``me``."""
    spec = card(chain.cards[0])
    effect = chain.effect
    if spec.type == "reaction":
        return (
            True  # a rival's reaction (Black Flag, Hold the Line, Lucky Break...) opposes someone
        )
    if effect is not None and me in (effect.target_seat, effect.to_seat):
        return True
    return (
        chain.seats[0] == _leader(view, chain.seats[0])
        and chain.seats[0] != me
        and (_standing(view, chain.seats[0]) > _standing(view, me))
    )


def shrewd_bot(view: State, seat: int, legal: Sequence[Any], chance: Chance) -> Any:
    """A heuristic player that beats `random` most of the time."""
    if len(legal) == 1:
        return legal[0]
    top = view.stack[-1] if view.stack else None
    me = seat
    if isinstance(top, DActions):
        return _choose_turn_action(view, me, legal)
    if isinstance(top, (DWindow, DChain)):
        return _react(view, me, top, legal)
    if isinstance(top, DPitChoice):
        return _pit_choice(view, me, [a for a in legal if isinstance(a, PitChoice)])
    if isinstance(top, DReroll):
        test = next(t for t in reversed(view.stack) if isinstance(t, TPassTest))
        mine = test.dx if test.x == me else test.dy
        return Reroll() if mine <= 3 else KeepRoll()
    if isinstance(top, DFreeTest):
        target = ahead(view.pack, me)
        win, tie = _odds(view, me, target)
        return TakeFreeTest() if win >= tie else DeclineFreeTest()
    if isinstance(top, (DDiscard, DSetupDiscard)):
        hand = view.hands[me]
        keep = 3 if isinstance(top, DDiscard) else 4
        junk = _worst_first(view, me, hand)[: max(0, len(hand) - keep)]
        best = min(
            (a for a in legal if isinstance(a, (Discard, SetupDiscard))),
            key=lambda a: (abs(len(a.cards) - len(junk)), -sum(1 for c in a.cards if c in junk)),
        )
        return best
    if isinstance(top, DSponsor):
        sponsor = [a for a in legal if isinstance(a, SponsorDiscard)]
        return min(sponsor, key=lambda a: _card_value(view, me, a.card))
    if isinstance(top, DContagion):
        targets = [a for a in legal if isinstance(a, ChooseContagionTarget)]
        victim = top.vehicle

        def hurt(a: ChooseContagionTarget) -> float:
            spec = card(a.card)
            value = spec.atk + spec.def_ + spec.drive + spec.fixit
            return value if victim != me else -value

        return max(targets, key=hurt)
    if isinstance(top, DChooseVehicle):
        pairs = [a for a in legal if isinstance(a, ChooseVehicle)]
        return max(
            pairs, key=lambda a: (card(a.marker).speed + card(a.marker).speed_damaged, -a.marker)
        )
    if DrawCount in {type(a) for a in legal}:
        return max(legal, key=lambda a: getattr(a, "count", -1))
    return legal[chance.below(len(legal))]


BOTS = {"random": random_bot, "shrewd": shrewd_bot}
