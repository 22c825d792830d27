"""Go 500 `evolve`: the pure fold of one event onto the state.

Owns how each event changes the state, and `new_state`. Must not: draw chance, decide
anything the rules decide (the events carry every outcome), or read the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from msgspec.structs import replace

from core.go500.config import Go500Config
from core.go500.model import (
    DIE_INDEX,
    POWER_DIE,
    BigOneRolled,
    BigOneStarted,
    CautionCut,
    ChaosStruck,
    CheckeredFlag,
    CrashDieRolled,
    CupPointsAwarded,
    DiceRolled,
    DiceSaved,
    DriverFinished,
    EffectQueued,
    FinalRoundStarted,
    Go500State,
    InTheGroove,
    KnockedOut,
    MilesRecorded,
    PaintTargetNeeded,
    PaintTraded,
    PitDieRolled,
    PoleWon,
    PowerDieRemoved,
    QualifyingRolled,
    Queued,
    RaceEnded,
    RaceStarted,
    RoundEnded,
    RoundStarted,
    SeasonEnded,
    TurnEnded,
    TurnOver,
    TurnStarted,
    TurnState,
)
from core.resolution import fold_by_type

__all__ = ["HANDLERS", "evolve", "new_state"]

T = TypeVar("T")


def new_state(config: Go500Config, n: int) -> Go500State:
    """The empty table: nothing raced yet (the setup events start race 1)."""
    return Go500State(
        config=config,
        n=n,
        race=-1,
        race_length=config.race_length,
        totals=(0,) * n,
        finished=(False,) * n,
        out=(False,) * n,
        qual_scores=(None,) * n,
        turns=(None,) * n,
        round_todo=(False,) * n,
        led=(0,) * n,
        points=(0,) * n,
    )


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _turn(state: Go500State, seat: int, turn: TurnState) -> Go500State:
    return replace(state, turns=_set(state.turns, seat, turn))


def _cur(state: Go500State, seat: int) -> TurnState:
    turn = state.turns[seat]
    assert turn is not None
    return turn


def _race_started(state: Go500State, e: RaceStarted) -> Go500State:
    n = state.n
    return replace(
        state,
        phase="qualifying",
        race=e.race,
        race_name=e.name,
        race_length=e.length,
        totals=(0,) * n,
        finished=(False,) * n,
        out=(False,) * n,
        finish_order=(),
        out_order=(),
        qual_scores=(None,) * n,
        qual_next=0 if n > 1 else None,
        pole=None,
        order=(),
        current=None,
        turns=(None,) * n,
        round=1,
        round_todo=(False,) * n,
        queued=(),
        checkered=None,
        final_queue=(),
        in_final_round=False,
        led=(0,) * n,
        ranking=(),
    )


def _qualifying_rolled(state: Go500State, e: QualifyingRolled) -> Go500State:
    scores = _set(state.qual_scores, e.seat, e.score)
    if e.reroll:
        return replace(state, qual_scores=scores)
    nxt = e.seat + 1 if e.seat + 1 < state.n else None
    return replace(state, qual_scores=scores, qual_next=nxt)


def _pole_won(state: Go500State, e: PoleWon) -> Go500State:
    return replace(state, pole=e.seat, order=e.order, phase="turn", qual_next=None)


def _round_started(state: Go500State, e: RoundStarted) -> Go500State:
    todo = [False] * state.n
    turns = list(state.turns)
    for seat in e.drivers:
        todo[seat] = True
        turns[seat] = TurnState(seat=seat)
    return replace(state, round=e.round, round_todo=tuple(todo), turns=tuple(turns))


def _turn_started(state: Go500State, e: TurnStarted) -> Go500State:
    turns = _set(state.turns, e.seat, TurnState(seat=e.seat, extra=e.extra, final=e.final))
    if state.config.mode == "multi_game":
        return replace(state, turns=turns)
    queue = state.final_queue
    if e.final and not e.extra and e.seat in queue:
        queue = queue[queue.index(e.seat) + 1 :]
    return replace(state, turns=turns, current=e.seat, final_queue=queue)


def _dice_rolled(state: Go500State, e: DiceRolled) -> Go500State:
    t = _cur(state, e.seat)
    faces = list(t.faces)
    lost = [False] * 7
    removed = t.removed
    for die, face in zip(e.dice, e.faces, strict=True):
        i = DIE_INDEX[die]
        faces[i] = face
        if face is None and not removed[i]:
            lost[i] = True
    return _turn(
        state,
        e.seat,
        replace(
            t,
            faces=tuple(faces),
            lost=tuple(lost),
            showing=e.showing,
            rolls=t.rolls + 1,
            stage="decide",
        ),
    )


def _chaos_struck(state: Go500State, e: ChaosStruck) -> Go500State:
    if e.kind != "rubbin" or e.die == "F":
        return state
    t = _cur(state, e.seat)
    i = DIE_INDEX[e.die]
    return _turn(
        state,
        e.seat,
        replace(t, removed=_set(t.removed, i, True), saved=_set(t.saved, i, False)),
    )


def _power_removed(state: Go500State, e: PowerDieRemoved) -> Go500State:
    t = _cur(state, e.seat)
    return _turn(
        state,
        e.seat,
        replace(t, removed=_set(t.removed, POWER_DIE, True), saved=_set(t.saved, POWER_DIE, False)),
    )


def _dice_saved(state: Go500State, e: DiceSaved) -> Go500State:
    t = _cur(state, e.seat)
    saved = list(t.saved)
    for die in e.dice:
        saved[DIE_INDEX[die]] = True
    return _turn(state, e.seat, replace(t, saved=tuple(saved)))


def _groove(state: Go500State, e: InTheGroove) -> Go500State:
    return _turn(state, e.seat, replace(_cur(state, e.seat), groove=True))


def _turn_ended(state: Go500State, e: TurnEnded) -> Go500State:
    t = _cur(state, e.seat)
    return _turn(state, e.seat, replace(t, end=e.kind, showing=e.showing, stage="done"))


def _pit(state: Go500State, e: PitDieRolled) -> Go500State:
    return _turn(state, e.seat, replace(_cur(state, e.seat), pit=e.face))


def _crash(state: Go500State, e: CrashDieRolled) -> Go500State:
    return _turn(state, e.seat, replace(_cur(state, e.seat), crash=e.face))


def _miles(state: Go500State, e: MilesRecorded) -> Go500State:
    state = _turn(state, e.seat, replace(_cur(state, e.seat), miles=e.miles))
    return replace(state, totals=_set(state.totals, e.seat, e.total))


def _knocked_out(state: Go500State, e: KnockedOut) -> Go500State:
    return replace(state, out=_set(state.out, e.seat, True), out_order=(*state.out_order, e.seat))


def _finished(state: Go500State, e: DriverFinished) -> Go500State:
    return replace(
        state,
        finished=_set(state.finished, e.seat, True),
        finish_order=(*state.finish_order, e.seat),
    )


def _checkered(state: Go500State, e: CheckeredFlag) -> Go500State:
    return replace(state, checkered=e.seat)


def _paint_needed(state: Go500State, e: PaintTargetNeeded) -> Go500State:
    t = _cur(state, e.seat)
    return _turn(state, e.seat, replace(t, stage="paint", paint_candidates=e.candidates))


def _queued(state: Go500State, e: EffectQueued) -> Go500State:
    t = _cur(state, e.seat)
    if t.stage == "paint":
        state = _turn(state, e.seat, replace(t, stage="done", paint_candidates=()))
    return replace(state, queued=(*state.queued, Queued(e.seat, e.effect, e.target)))


def _caution(state: Go500State, e: CautionCut) -> Go500State:
    if e.cut is None:
        return state
    return replace(state, totals=_set(state.totals, e.cut, e.total))


def _paint_traded(state: Go500State, e: PaintTraded) -> Go500State:
    t = state.turns[e.seat]
    if t is not None and t.stage == "paint":
        return _turn(state, e.seat, replace(t, stage="done", paint_candidates=()))
    return state


def _big_one_rolled(state: Go500State, e: BigOneRolled) -> Go500State:
    return replace(state, totals=_set(state.totals, e.seat, e.total))


def _turn_over(state: Go500State, e: TurnOver) -> Go500State:
    return replace(state, round_todo=_set(state.round_todo, e.seat, False))


def _final_round(state: Go500State, e: FinalRoundStarted) -> Go500State:
    return replace(state, in_final_round=True, final_queue=e.drivers)


def _round_ended(state: Go500State, e: RoundEnded) -> Go500State:
    led = list(state.led)
    for seat in e.leaders:
        led[seat] += 1
    return replace(state, round=e.round + 1, led=tuple(led), queued=())


def _race_ended(state: Go500State, e: RaceEnded) -> Go500State:
    phase = state.phase if state.config.mode == "cup" else "over"
    return replace(
        state,
        ranking=e.ranking,
        results=(*state.results, e.ranking),
        phase=phase,
        current=None,
        round_todo=(False,) * state.n,
    )


def _cup_points(state: Go500State, e: CupPointsAwarded) -> Go500State:
    earned = tuple(p + b for p, b in zip(e.points, e.bonus, strict=True))
    return replace(
        state,
        race_points=(*state.race_points, earned),
        points=e.season,
        standings=e.standings,
    )


def _season_ended(state: Go500State, e: SeasonEnded) -> Go500State:
    return replace(state, phase="over", standings=e.standings, points=e.points)


def _nothing(state: Go500State, e: Any) -> Go500State:
    return state


# One handler per event class: `evolve` folds by it, and so does a step as it emits.
HANDLERS: dict[type[Any], Callable[[Go500State, Any], Go500State]] = {
    RaceStarted: _race_started,
    QualifyingRolled: _qualifying_rolled,
    PoleWon: _pole_won,
    RoundStarted: _round_started,
    TurnStarted: _turn_started,
    DiceRolled: _dice_rolled,
    ChaosStruck: _chaos_struck,
    PowerDieRemoved: _power_removed,
    DiceSaved: _dice_saved,
    InTheGroove: _groove,
    TurnEnded: _turn_ended,
    PitDieRolled: _pit,
    CrashDieRolled: _crash,
    MilesRecorded: _miles,
    KnockedOut: _knocked_out,
    DriverFinished: _finished,
    CheckeredFlag: _checkered,
    PaintTargetNeeded: _paint_needed,
    EffectQueued: _queued,
    CautionCut: _caution,
    BigOneStarted: _nothing,
    PaintTraded: _paint_traded,
    BigOneRolled: _big_one_rolled,
    TurnOver: _turn_over,
    FinalRoundStarted: _final_round,
    RoundEnded: _round_ended,
    RaceEnded: _race_ended,
    CupPointsAwarded: _cup_points,
    SeasonEnded: _season_ended,
}


evolve = fold_by_type("Go 500", HANDLERS)
"""Fold one event onto the state (pure; never draws chance)."""
