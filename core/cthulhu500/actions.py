"""Cthulhu 500 actions: what a seat may answer to a decision (spec §9 "Decisions").

Owns the tagged union of action structs. Card ids name cards; `None` means "no target".
Must not: validate or resolve anything (the engine does).
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "Action",
    "AddCrew",
    "AttemptPass",
    "ChooseContagionTarget",
    "ChooseVehicle",
    "DeclineFreeTest",
    "Discard",
    "DrawCount",
    "EndActions",
    "KeepRoll",
    "PassReaction",
    "PitChoice",
    "PitStop",
    "PlayAction",
    "PlayReaction",
    "Reroll",
    "SetupDiscard",
    "SponsorDiscard",
    "TakeFreeTest",
    "UseFlag",
]


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
