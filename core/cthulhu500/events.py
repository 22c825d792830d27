"""Cthulhu 500 events: everything that happens, as a tagged union (spec §9 "Happenings").

Owns the event structs. Hidden cards are `None` in a redacted event (a dealt or drawn card for
other seats, the setup choice before the reveal, every shuffled order); events that move the
pack carry the new line so a fold never recomputes it.
Must not: compute anything; `fold.py` applies events and `engine.py` creates them.
"""

from __future__ import annotations

import msgspec

from core.cthulhu500.model import Task

__all__ = ["Event"]


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
