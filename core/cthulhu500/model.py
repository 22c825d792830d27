"""Cthulhu 500 data types: the state, the engine's work stack, the actions and the events.

Owns the plain, readable shape of a race (pack order as seats leader first, laps, damage, crews,
Mods, Tires, hands as card ids, the piles) and the *tasks* of the resolution stack. The stack is
how nested decisions (a reaction window inside a passing test inside a pit stop) wait for an
answer: every task is a small frozen struct, the top one is being resolved, and a decision task
on top is what `pending`/`legal` ask about. The stack is public information. Also the tagged
union of actions (what a seat may answer; card ids name cards, `None` means "no target") and of
events (everything that happens; hidden cards are `None` in a redacted event).

Must not: contain rules logic; every function here is a pure accessor.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from core.cthulhu500.config import Config

__all__ = [
    "HIDDEN",
    "Action",
    "ActionTaken",
    "ActionsEnded",
    "ActionsGranted",
    "AddCrew",
    "AttemptPass",
    "CardDealt",
    "CardDrawn",
    "CardPlayed",
    "CardTakenFromDiscard",
    "CardsDiscarded",
    "ChainResolved",
    "CheckeredFlagDrawn",
    "ChooseContagionTarget",
    "ChooseVehicle",
    "Contagion",
    "ContagionEnded",
    "ContagionMarked",
    "ContagionStruck",
    "CrewAdded",
    "CrewMoved",
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
    "DamageAbsorbed",
    "DamageMove",
    "DamagePrevented",
    "Damaged",
    "Decision",
    "DeckReshuffled",
    "DeckShuffled",
    "DeclineFreeTest",
    "DieRerolled",
    "Discard",
    "DrawCount",
    "DriverMoved",
    "DriverSet",
    "EffectFizzled",
    "EndActions",
    "Event",
    "FlagPlaced",
    "FlagUsed",
    "Flow",
    "FreeTestDeclined",
    "InPlayDiscarded",
    "KeepRoll",
    "ModAttached",
    "NitrousAdded",
    "PackFormed",
    "PackTieRolled",
    "PassCancelled",
    "PassDeclared",
    "PassDiceRolled",
    "PassReaction",
    "PassResolved",
    "PassSide",
    "Passed",
    "PitChoice",
    "PitStop",
    "PitStopped",
    "PlayAction",
    "PlayReaction",
    "RaceEnded",
    "RepairRolled",
    "Reroll",
    "SetupDiscard",
    "SetupDiscardChosen",
    "SetupDiscardsRevealed",
    "SponsorDiscard",
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
    "TakeFreeTest",
    "Task",
    "TiresAttached",
    "TurnStarted",
    "UseFlag",
    "Vehicle",
    "VehicleAssigned",
    "VehicleCardDiscarded",
    "VehiclesSetAside",
    "VehiclesSwapped",
]

HIDDEN = 0
"""The placeholder id of a card a viewer may not see (in another seat's hand)."""


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


# --------------------------------------------------------------------------- actions
# What a seat may answer to a decision (spec §9 "Decisions"). Card ids name cards; `None`
# means "no target".


class ChooseVehicle(msgspec.Struct, frozen=True, tag="choose_vehicle"):
    marker: int


class SetupDiscard(msgspec.Struct, frozen=True, tag="setup_discard"):
    cards: tuple[int, ...]


class PlayAction(msgspec.Struct, frozen=True, kw_only=True, tag="play_action"):
    card: int
    target_seat: int | None = None
    target_card: int | None = None
    to_seat: int | None = None


class AddCrew(msgspec.Struct, frozen=True, tag="add_crew"):
    card: int
    seat: int


class AttemptPass(msgspec.Struct, frozen=True, tag="attempt_pass"):
    pass


class PitStop(msgspec.Struct, frozen=True, tag="pit_stop"):
    pass


class PitChoice(msgspec.Struct, frozen=True, kw_only=True, tag="pit_choice"):
    kind: Literal["mod", "tires", "driver", "repair"]
    card: int | None = None
    replace: int | None = None


class TakeFreeTest(msgspec.Struct, frozen=True, tag="take_free_test"):
    pass


class DeclineFreeTest(msgspec.Struct, frozen=True, tag="decline_free_test"):
    pass


class PlayReaction(msgspec.Struct, frozen=True, tag="play_reaction"):
    card: int


class PassReaction(msgspec.Struct, frozen=True, tag="pass_reaction"):
    pass


class Reroll(msgspec.Struct, frozen=True, tag="reroll"):
    pass


class KeepRoll(msgspec.Struct, frozen=True, tag="keep_roll"):
    pass


class ChooseContagionTarget(msgspec.Struct, frozen=True, tag="choose_contagion_target"):
    card: int


class UseFlag(msgspec.Struct, frozen=True, tag="use_flag"):
    pass


class EndActions(msgspec.Struct, frozen=True, tag="end_actions"):
    pass


class Discard(msgspec.Struct, frozen=True, tag="discard"):
    cards: tuple[int, ...]


class DrawCount(msgspec.Struct, frozen=True, tag="draw_count"):
    count: int


class SponsorDiscard(msgspec.Struct, frozen=True, tag="sponsor_discard"):
    card: int


Action = (
    ChooseVehicle
    | SetupDiscard
    | PlayAction
    | AddCrew
    | AttemptPass
    | PitStop
    | PitChoice
    | TakeFreeTest
    | DeclineFreeTest
    | PlayReaction
    | PassReaction
    | Reroll
    | KeepRoll
    | ChooseContagionTarget
    | UseFlag
    | EndActions
    | Discard
    | DrawCount
    | SponsorDiscard
)


# --------------------------------------------------------------------------- events
# Everything that happens (spec §9 "Happenings"). Hidden cards are `None` in a redacted event
# (a dealt or drawn card for other seats, the setup choice before the reveal, every shuffled
# order); events that move the pack carry the new line so a fold never recomputes it.


class VehicleAssigned(msgspec.Struct, frozen=True, kw_only=True, tag="vehicle_assigned"):
    seat: int
    marker: int


class VehiclesSetAside(msgspec.Struct, frozen=True, kw_only=True, tag="vehicles_set_aside"):
    markers: tuple[int, ...]


class FlagPlaced(msgspec.Struct, frozen=True, kw_only=True, tag="flag_placed"):
    card: int


class DeckShuffled(msgspec.Struct, frozen=True, kw_only=True, tag="deck_shuffled"):
    count: int
    order: tuple[int, ...] | None = None


class CardDealt(msgspec.Struct, frozen=True, kw_only=True, tag="card_dealt"):
    seat: int
    card: int | None = None


class SetupDiscardChosen(msgspec.Struct, frozen=True, kw_only=True, tag="setup_discard_chosen"):
    seat: int
    cards: tuple[int, ...] | None = None


class SetupDiscardsRevealed(
    msgspec.Struct, frozen=True, kw_only=True, tag="setup_discards_revealed"
):
    cards: tuple[tuple[int, ...], ...]


class PackTieRolled(msgspec.Struct, frozen=True, kw_only=True, tag="pack_tie_rolled"):
    seat: int
    value: int


class PackFormed(msgspec.Struct, frozen=True, kw_only=True, tag="pack_formed"):
    pack: tuple[int, ...]


class TurnStarted(msgspec.Struct, frozen=True, kw_only=True, tag="turn_started"):
    seat: int
    turn: int
    actions: int


class ActionTaken(msgspec.Struct, frozen=True, kw_only=True, tag="action_taken"):
    seat: int
    kind: str
    left: int


class FlagUsed(msgspec.Struct, frozen=True, kw_only=True, tag="flag_used"):
    seat: int


class ActionsGranted(msgspec.Struct, frozen=True, kw_only=True, tag="actions_granted"):
    seat: int
    count: int


class ActionsEnded(msgspec.Struct, frozen=True, kw_only=True, tag="actions_ended"):
    seat: int


class NitrousAdded(msgspec.Struct, frozen=True, kw_only=True, tag="nitrous_added"):
    seat: int
    bonus: int


class CardPlayed(msgspec.Struct, frozen=True, kw_only=True, tag="card_played"):
    seat: int
    card: int
    target_seat: int | None = None
    target_card: int | None = None
    to_seat: int | None = None
    on_card: int | None = None


class ChainResolved(msgspec.Struct, frozen=True, kw_only=True, tag="chain_resolved"):
    cards: tuple[int, ...]
    cancelled: tuple[bool, ...]


class InPlayDiscarded(msgspec.Struct, frozen=True, kw_only=True, tag="in_play_discarded"):
    cards: tuple[int, ...]


class EffectFizzled(msgspec.Struct, frozen=True, kw_only=True, tag="effect_fizzled"):
    card: int
    seat: int


class CrewAdded(msgspec.Struct, frozen=True, kw_only=True, tag="crew_added"):
    seat: int
    card: int
    to_seat: int


class CrewMoved(msgspec.Struct, frozen=True, kw_only=True, tag="crew_moved"):
    from_seat: int
    to_seat: int
    card: int


class DriverMoved(msgspec.Struct, frozen=True, kw_only=True, tag="driver_moved"):
    from_seat: int
    to_seat: int
    card: int
    replaced: int | None = None


class DriverSet(msgspec.Struct, frozen=True, kw_only=True, tag="driver_set"):
    seat: int
    card: int
    old: int | None = None


class PassDeclared(msgspec.Struct, frozen=True, kw_only=True, tag="pass_declared"):
    attacker: int
    defender: int
    kind: str


class PassCancelled(msgspec.Struct, frozen=True, kw_only=True, tag="pass_cancelled"):
    attacker: int
    defender: int
    stage: str


class PassDiceRolled(msgspec.Struct, frozen=True, kw_only=True, tag="pass_dice_rolled"):
    attacker: int
    defender: int
    attacker_die: int
    defender_die: int


class DieRerolled(msgspec.Struct, frozen=True, kw_only=True, tag="die_rerolled"):
    seat: int
    old: int
    new: int


class PassSide(msgspec.Struct, frozen=True, kw_only=True):
    """One side of a passing test, item by item (C-PASS-TEST step 4): the die, current Speed,
    the driver's Drive, the equipment counted (``equipment``) and its sum before the cap
    (``equipment_sum``), the card bonus and the cards behind it, and Nitrous (attacker only)."""

    die: int
    speed: int
    drive: int
    equipment: int
    equipment_sum: int
    bonus: int = 0
    cards: tuple[int, ...] = ()
    nitrous: int = 0


class PassResolved(msgspec.Struct, frozen=True, kw_only=True, tag="pass_resolved"):
    attacker: int
    defender: int
    attacker_total: int
    defender_total: int
    outcome: str
    nitrous: int = 0
    attacker_side: PassSide | None = None
    defender_side: PassSide | None = None
    cap: int | None = None


class Passed(msgspec.Struct, frozen=True, kw_only=True, tag="passed"):
    attacker: int
    defender: int
    lap: bool
    pack: tuple[int, ...]


class DamageMove(msgspec.Struct, frozen=True, kw_only=True, tag="damage_move"):
    mover: int
    target: int
    outcome: str
    pack: tuple[int, ...]


class VehiclesSwapped(msgspec.Struct, frozen=True, kw_only=True, tag="vehicles_swapped"):
    a: int
    b: int
    pack: tuple[int, ...]


class Damaged(msgspec.Struct, frozen=True, kw_only=True, tag="damaged"):
    seat: int


class DamagePrevented(msgspec.Struct, frozen=True, kw_only=True, tag="damage_prevented"):
    seat: int


class DamageAbsorbed(msgspec.Struct, frozen=True, kw_only=True, tag="damage_absorbed"):
    seat: int
    card: int


class PitStopped(msgspec.Struct, frozen=True, kw_only=True, tag="pit_stopped"):
    seat: int


class FreeTestDeclined(msgspec.Struct, frozen=True, kw_only=True, tag="free_test_declined"):
    seat: int


class ModAttached(msgspec.Struct, frozen=True, kw_only=True, tag="mod_attached"):
    seat: int
    card: int
    replaced: int | None = None


class TiresAttached(msgspec.Struct, frozen=True, kw_only=True, tag="tires_attached"):
    seat: int
    card: int
    replaced: int | None = None


class RepairRolled(msgspec.Struct, frozen=True, kw_only=True, tag="repair_rolled"):
    seat: int
    die: int
    total: int
    need: int
    success: bool


class VehicleCardDiscarded(msgspec.Struct, frozen=True, kw_only=True, tag="vehicle_card_discarded"):
    seat: int
    card: int
    reason: str


class CardTakenFromDiscard(
    msgspec.Struct, frozen=True, kw_only=True, tag="card_taken_from_discard"
):
    """``card`` leaves the (public) discard pile; ``hand_card`` is it as the hand shows it
    (``None`` for other seats: hands are owner-only even when the card is known)."""

    seat: int
    card: int
    hand_card: int | None = None


class ContagionMarked(msgspec.Struct, frozen=True, kw_only=True, tag="contagion_marked"):
    card: int
    caster: int
    seat: int
    target: int
    turn: int


class ContagionStruck(msgspec.Struct, frozen=True, kw_only=True, tag="contagion_struck"):
    card: int
    seat: int
    target: int


class ContagionEnded(msgspec.Struct, frozen=True, kw_only=True, tag="contagion_ended"):
    card: int
    reason: str


class CardsDiscarded(msgspec.Struct, frozen=True, kw_only=True, tag="cards_discarded"):
    seat: int
    cards: tuple[int, ...]
    reason: str


class CardDrawn(msgspec.Struct, frozen=True, kw_only=True, tag="card_drawn"):
    seat: int
    card: int | None = None


class DeckReshuffled(msgspec.Struct, frozen=True, kw_only=True, tag="deck_reshuffled"):
    count: int
    order: tuple[int, ...] | None = None


class CheckeredFlagDrawn(msgspec.Struct, frozen=True, kw_only=True, tag="checkered_flag_drawn"):
    seat: int


class RaceEnded(msgspec.Struct, frozen=True, kw_only=True, tag="race_ended"):
    ranking: tuple[int, ...]
    laps: tuple[int, ...]
    reason: str


class Flow(msgspec.Struct, frozen=True, kw_only=True, tag="flow"):
    """The engine's work stack after a step (public; says who is asked what)."""

    stack: tuple[Task, ...]


Event = (
    VehicleAssigned
    | VehiclesSetAside
    | FlagPlaced
    | DeckShuffled
    | CardDealt
    | SetupDiscardChosen
    | SetupDiscardsRevealed
    | PackTieRolled
    | PackFormed
    | TurnStarted
    | ActionTaken
    | FlagUsed
    | ActionsGranted
    | ActionsEnded
    | NitrousAdded
    | CardPlayed
    | ChainResolved
    | InPlayDiscarded
    | EffectFizzled
    | CrewAdded
    | CrewMoved
    | DriverMoved
    | DriverSet
    | PassDeclared
    | PassCancelled
    | PassDiceRolled
    | DieRerolled
    | PassResolved
    | Passed
    | DamageMove
    | VehiclesSwapped
    | Damaged
    | DamagePrevented
    | DamageAbsorbed
    | PitStopped
    | FreeTestDeclined
    | ModAttached
    | TiresAttached
    | RepairRolled
    | VehicleCardDiscarded
    | CardTakenFromDiscard
    | ContagionMarked
    | ContagionStruck
    | ContagionEnded
    | CardsDiscarded
    | CardDrawn
    | DeckReshuffled
    | CheckeredFlagDrawn
    | RaceEnded
    | Flow
)
