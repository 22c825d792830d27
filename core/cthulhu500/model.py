"""Cthulhu 500 data types: the table config, the state, and the engine's work stack.

Owns the plain, readable shape of a race (pack order as seats leader first, laps, damage, crews,
Mods, Tires, hands as card ids, the piles) and the *tasks* of the resolution stack. The stack is
how nested decisions (a reaction window inside a passing test inside a pit stop) wait for an
answer: every task is a small frozen struct, the top one is being resolved, and a decision task
on top is what `pending`/`legal` ask about. The stack is public information.

Must not: contain rules logic; every function here is a pure accessor.
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "HIDDEN",
    "Config",
    "Contagion",
    "DActions",
    "DChain",
    "DChooseVehicle",
    "DContagion",
    "DDiscard",
    "DDrawCount",
    "DFreeTest",
    "DPitChoice",
    "DReroll",
    "DSetupDiscard",
    "DSponsor",
    "DWindow",
    "Decision",
    "State",
    "TAssignRandom",
    "TContagionJump",
    "TContagionTick",
    "TDamage",
    "TDeal",
    "TDiscardInPlay",
    "TDraw",
    "TDrawPhase",
    "TEffect",
    "TEndTurn",
    "TFormPack",
    "TNextTurn",
    "TPassTest",
    "TPassWin",
    "TRepair",
    "TStartTurn",
    "TTie",
    "Task",
    "Vehicle",
]

HIDDEN = 0
"""The placeholder id of a card a viewer may not see (in another seat's hand)."""


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table options (spec §5), with their defaults."""

    vehicle_assignment: Literal["random", "choose"] = "random"
    hand_limit: int = 5
    actions_per_turn: int = 2
    draw_per_turn: int = 2
    may_draw_fewer: bool = False
    free_test_may_decline: bool = True
    seam_damage_moves: Literal["blocked", "circle"] = "blocked"
    equipment_cap: int | None = 4
    reaction_prompt: Literal["holders", "everyone"] = "holders"
    exact_pile_counts: bool = False
    promo_flag: bool = False
    round_limit: int | None = None


class Vehicle(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's vehicle: its pair (pack-marker id, 0 before assignment) and what is on it."""

    marker: int = 0
    damaged: bool = False
    laps: int = 0
    driver: int | None = None
    crew: tuple[int, ...] = ()
    mods: tuple[int, ...] = ()
    tires: int | None = None


class Contagion(msgspec.Struct, frozen=True, kw_only=True):
    """A contagion card lying beside a vehicle, with the card it has marked."""

    card: int
    caster: int
    seat: int
    target: int
    turn: int


# --------------------------------------------------------------------------- tasks


class TAssignRandom(msgspec.Struct, frozen=True, tag="t_assign"):
    pass


class TDeal(msgspec.Struct, frozen=True, tag="t_deal"):
    pass


class TFormPack(msgspec.Struct, frozen=True, tag="t_form_pack"):
    pass


class TStartTurn(msgspec.Struct, frozen=True, tag="t_start_turn"):
    seat: int


class TDrawPhase(msgspec.Struct, frozen=True, tag="t_draw_phase"):
    seat: int


class TDraw(msgspec.Struct, frozen=True, tag="t_draw"):
    seat: int
    count: int


class TEndTurn(msgspec.Struct, frozen=True, tag="t_end_turn"):
    seat: int


class TContagionTick(msgspec.Struct, frozen=True, tag="t_contagion_tick"):
    seat: int


class TNextTurn(msgspec.Struct, frozen=True, tag="t_next_turn"):
    seat: int


class TEffect(msgspec.Struct, frozen=True, tag="t_effect"):
    card: int
    seat: int
    target_seat: int | None = None
    target_card: int | None = None
    to_seat: int | None = None


class TDiscardInPlay(msgspec.Struct, frozen=True, tag="t_discard_in_play"):
    cards: tuple[int, ...]


class TPassTest(msgspec.Struct, frozen=True, kw_only=True, tag="t_pass_test"):
    x: int
    kind: Literal["normal", "draft", "follow", "pit"]
    y: int = -1
    c: int = -1
    stage: int = 0
    atk_bonus: int = 0
    def_bonus: int = 0
    bonus_cards: tuple[int, ...] = ()  # the cards behind atk_bonus/def_bonus, in play order
    cancelled: bool = False
    dx: int = 0
    dy: int = 0


class TPassWin(msgspec.Struct, frozen=True, kw_only=True, tag="t_pass_win"):
    x: int
    y: int
    draft: bool = False
    auto: bool = False
    stage: int = 0
    cancelled: bool = False


class TDamage(msgspec.Struct, frozen=True, kw_only=True, tag="t_damage"):
    v: int
    stage: int = 0
    prevented: bool = False


class TTie(msgspec.Struct, frozen=True, kw_only=True, tag="t_tie"):
    x: int
    y: int
    c: int
    stage: int = 0
    x_hit: int = -1
    y_hit: int = -1


class TRepair(msgspec.Struct, frozen=True, kw_only=True, tag="t_repair"):
    seat: int
    kind: Literal["pit", "rush", "tow"]


class TContagionJump(msgspec.Struct, frozen=True, kw_only=True, tag="t_contagion_jump"):
    card: int
    caster: int
    origin: int


# --------------------------------------------------------------------------- decisions


class DChooseVehicle(msgspec.Struct, frozen=True, tag="d_choose_vehicle"):
    seat: int


class DSetupDiscard(msgspec.Struct, frozen=True, tag="d_setup_discard"):
    pass


class DActions(msgspec.Struct, frozen=True, tag="d_actions"):
    seat: int


class DDiscard(msgspec.Struct, frozen=True, tag="d_discard"):
    seat: int


class DDrawCount(msgspec.Struct, frozen=True, tag="d_draw_count"):
    seat: int
    most: int


class DSponsor(msgspec.Struct, frozen=True, tag="d_sponsor"):
    seat: int


class DWindow(msgspec.Struct, frozen=True, kw_only=True, tag="d_window"):
    """A reaction window: `try` (a vehicle tries to pass), `damage` (would be damaged),
    `win` (has just won a pass), `tow` (flipped to damaged)."""

    kind: Literal["try", "damage", "win", "tow"]
    x: int
    y: int = -1
    pit: bool = False
    next_from: int = 0
    passed: tuple[int, ...] = ()
    atk: int = 0
    def_: int = 0
    cards: tuple[int, ...] = ()  # the bonus cards played in this window (for the itemised test)
    settled: bool = False


class DChain(msgspec.Struct, frozen=True, kw_only=True, tag="d_chain"):
    """Cards played on one another, bottom first, waiting for Ia! Ia! or Elder Sign."""

    cards: tuple[int, ...]
    seats: tuple[int, ...]
    effect: TEffect | None = None
    next_from: int = 0
    passed: tuple[int, ...] = ()


class DReroll(msgspec.Struct, frozen=True, tag="d_reroll"):
    seat: int


class DFreeTest(msgspec.Struct, frozen=True, kw_only=True, tag="d_free_test"):
    seat: int
    kind: Literal["pit", "follow"]
    ready: bool = True


class DPitChoice(msgspec.Struct, frozen=True, tag="d_pit_choice"):
    seat: int


class DContagion(msgspec.Struct, frozen=True, kw_only=True, tag="d_contagion"):
    seat: int
    card: int
    caster: int
    vehicle: int


Decision = (
    DChooseVehicle
    | DSetupDiscard
    | DActions
    | DDiscard
    | DDrawCount
    | DSponsor
    | DWindow
    | DChain
    | DReroll
    | DFreeTest
    | DPitChoice
    | DContagion
)
DECISION_TYPES = (
    DChooseVehicle,
    DSetupDiscard,
    DActions,
    DDiscard,
    DDrawCount,
    DSponsor,
    DWindow,
    DChain,
    DReroll,
    DFreeTest,
    DPitChoice,
    DContagion,
)

Task = (
    TAssignRandom
    | TDeal
    | TFormPack
    | TStartTurn
    | TDrawPhase
    | TDraw
    | TEndTurn
    | TContagionTick
    | TNextTurn
    | TEffect
    | TDiscardInPlay
    | TPassTest
    | TPassWin
    | TDamage
    | TTie
    | TRepair
    | TContagionJump
    | DChooseVehicle
    | DSetupDiscard
    | DActions
    | DDiscard
    | DDrawCount
    | DSponsor
    | DWindow
    | DChain
    | DReroll
    | DFreeTest
    | DPitChoice
    | DContagion
)


class State(msgspec.Struct, frozen=True, kw_only=True):
    """A race. Seats own vehicles by index; `pack` lists seats leader first.

    In a view, other seats' hands are `HIDDEN` placeholders, `draw` is empty (its order is
    nobody's to see) and `draw_size` still counts it.
    """

    config: Config
    n: int
    vehicles: tuple[Vehicle, ...]
    set_aside: tuple[int, ...] = ()
    pack: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    draw: tuple[int, ...] = ()
    draw_size: int = 0
    discard: tuple[int, ...] = ()
    in_play: tuple[int, ...] = ()
    contagions: tuple[Contagion, ...] = ()
    setup_done: tuple[bool, ...] = ()
    setup_choice: tuple[tuple[int, ...] | None, ...] = ()
    active: int = -1
    turn: int = 0
    actions_left: int = 0
    nitrous: int = 0
    flag_used: tuple[bool, ...] = ()
    over: bool = False
    ranking: tuple[int, ...] = ()
    stack: tuple[Task, ...] = ()
