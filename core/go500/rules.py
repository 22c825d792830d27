"""Go 500 rules: setup, who is asked, what is legal, and resolving one action into events.

Owns every rule of rules/go500.md §2–§6 (rule IDs in comments and refusal sentences). Each
resolution runs in a `_Run` (a `core.resolution.Resolution`): it emits an event, folds it at
once and reads the folded state for the next rule, so the stepped state and the replayed fold
cannot disagree. `step` accepts exactly the actions `legal` lists; `_refusal` words the rest.
All chance is drawn from the `Chance` passed in, in the spec's order.

Must not: touch I/O, a clock or `random`; decide anything in `evolve`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from core.game import BreaksRule, GameOver, NotYourTurn
from core.go500.config import Go500Config, uses_auto_stop
from core.go500.data import CUP_POINTS, points_for_place
from core.go500.fold import HANDLERS
from core.go500.model import (
    DIE_IDS,
    DIE_INDEX,
    FACES,
    FLAG_DIE,
    POWER_DIE,
    RACING_DICE,
    TRACK_DICE,
    AutoStop,
    BigOneRolled,
    BigOneStarted,
    CautionCut,
    ChaosKind,
    ChaosStruck,
    CheckeredFlag,
    ChoosePaintTarget,
    CrashDieRolled,
    CupPointsAwarded,
    DiceRolled,
    DiceSaved,
    DriverFinished,
    Effect,
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
    RaceEnded,
    RaceStarted,
    RemovalReason,
    Roll,
    RoundEnded,
    RoundStarted,
    SaveAndRoll,
    SeasonEnded,
    Stop,
    TurnEnded,
    TurnOver,
    TurnStarted,
    TurnState,
)
from core.go500.tables import Tables, tables_for
from core.resolution import Resolution
from core.rng import Chance

__all__ = [
    "advance",
    "cup_standings",
    "is_legal",
    "lead_bonuses",
    "legal",
    "pending",
    "race_ranking",
    "resolve",
    "save_refusal",
    "saveable",
    "setup",
    "stage_of",
    "step",
]

_CHAOS_SCALE = 10000
_ROLL = Roll()
_STOP = Stop()


# --------------------------------------------------------------------------- helpers


def _pos(state: Go500State, seat: int) -> int:
    return state.order.index(seat)


def _in_turn_order_from(state: Go500State, seat: int) -> list[int]:
    k = _pos(state, seat)
    return [*state.order[k:], *state.order[:k]]


def race_ranking(state: Go500State) -> tuple[int, ...]:
    """The §6 ranking of the race now (G-RANK-TIE: equal totals, earlier in turn order first)."""
    order = state.order or tuple(range(state.n))
    pos = {seat: i for i, seat in enumerate(order)}
    totals = state.totals
    out = state.out
    later_out_first = tuple(reversed(state.out_order))

    def by_total(seats: Sequence[int]) -> list[int]:
        return sorted(seats, key=lambda s: (-totals[s], pos[s]))

    mode = state.config.mode
    if mode in ("oval", "cup"):
        rest = [s for s in order if not out[s] and s not in state.finish_order]
        return (*state.finish_order, *by_total(rest), *later_out_first)
    if mode == "multi_game":
        done = [s for s in order if state.finished[s]]
        rest = [s for s in order if not out[s] and not state.finished[s]]
        return (*by_total(done), *by_total(rest), *later_out_first)
    rest = [s for s in order if not out[s]]
    return (*by_total(rest), *later_out_first)


def lead_bonuses(config: Go500Config, led: Sequence[int]) -> tuple[int, ...]:
    """G-CUP lead bonuses from rounds led per seat."""
    most = max(led, default=0)
    return tuple(
        (config.lead_bonus if rounds >= 1 else 0)
        + (config.most_led_bonus if most >= 1 and rounds == most else 0)
        for rounds in led
    )


def cup_standings(
    points: Sequence[int], results: Sequence[Sequence[int]], n: int
) -> tuple[int, ...]:
    """G-CUP-STANDINGS: points, then most 1sts, 2nds, …, then the better most recent place."""
    places = [[0] * n for _ in range(n)]
    for ranking in results:
        for place, seat in enumerate(ranking):
            places[seat][place] += 1
    last = {seat: place for place, seat in enumerate(results[-1])} if results else {}

    def key(seat: int) -> tuple[Any, ...]:
        return (-points[seat], *(-c for c in places[seat]), last.get(seat, n), seat)

    return tuple(sorted(range(n), key=key))


# --------------------------------------------------------------------------- asked / legal


def stage_of(state: Go500State, seat: int | None) -> str:
    """What ``seat`` would do now: "qualify", or its turn's stage ("roll", "decide" after a
    green flag, "paint", "done"); "" for no seat.

    >>> from core.go500.fold import new_state
    >>> stage_of(new_state(Go500Config(), 2), 0)
    'qualify'
    """
    if seat is None:
        return ""
    if state.phase == "qualifying":
        return "qualify"
    turn = state.turns[seat] if 0 <= seat < len(state.turns) else None
    return turn.stage if turn is not None else "roll"


def pending(state: Go500State) -> tuple[int, ...]:
    """The seats being asked, in the order they should act.

    Sequential modes ask one seat. Multi-Game asks every driver whose turn this round is not
    over, in turn order (G-MULTI-GAME: bots act in turn order, each finishing its turn before
    the next starts), a turn already under way first.
    """
    if state.phase == "over":
        return ()
    if state.phase == "qualifying":
        return () if state.qual_next is None else (state.qual_next,)
    if state.config.mode == "multi_game":
        todo = [seat for seat in state.order if state.round_todo[seat]]
        started = [seat for seat in todo if _under_way(state.turns[seat])]
        return (*started, *(seat for seat in todo if seat not in started))
    cur = state.current
    if cur is None:
        return ()
    turn = state.turns[cur]
    if turn is None or turn.stage == "done":
        return ()
    return (cur,)


def _under_way(turn: TurnState | None) -> bool:
    """A turn that has rolled and is not over (its driver should finish it first)."""
    return turn is not None and turn.rolls > 0 and turn.stage != "done"


def saveable(turn: TurnState) -> list[int]:
    """Dice that may be saved now: in play, unsaved, not struck by Lost Wheel this roll."""
    return [
        i for i in RACING_DICE if not turn.saved[i] and not turn.removed[i] and not turn.lost[i]
    ]


def _rollable(turn: TurnState) -> list[int]:
    return [i for i in RACING_DICE if not turn.saved[i] and not turn.removed[i]]


def legal(state: Go500State, seat: int) -> list[Any]:
    if seat not in pending(state):
        return []
    if state.phase == "qualifying":
        return [_ROLL]
    turn = state.turns[seat]
    assert turn is not None
    if turn.stage == "roll":
        return [_ROLL]
    if turn.stage == "paint":
        return [ChoosePaintTarget(driver=d) for d in turn.paint_candidates]
    return list(_decisions(tuple(saveable(turn)), len(_rollable(turn))))


def is_legal(state: Go500State, seat: int, action: Any) -> bool:
    """``action in legal(state, seat)`` for a seat `pending` asks (and an action as `_canonical`
    leaves it), without listing every save (tests/go500/test_is_legal.py compares the two)."""
    kind = type(action)
    if state.phase == "qualifying":
        return kind is Roll
    turn = state.turns[seat]
    assert turn is not None
    if turn.stage == "roll":
        return kind is Roll
    if turn.stage == "paint":
        return kind is ChoosePaintTarget and action.driver in turn.paint_candidates
    if kind is Stop:
        return True
    if kind is not SaveAndRoll or not isinstance(action.dice, list):
        return False
    return tuple(action.dice) in _saves(tuple(saveable(turn)), len(_rollable(turn)))


@lru_cache(maxsize=256)
def _saves(saveable: tuple[int, ...], rolling: int) -> frozenset[tuple[str, ...]]:
    """The dice of every save `_decisions` offers."""
    return frozenset(tuple(a.dice) for a in _decisions(saveable, rolling) if type(a) is SaveAndRoll)


@lru_cache(maxsize=256)
def _decisions(saveable: tuple[int, ...], rolling: int) -> tuple[Any, ...]:
    """Stop, then every save leaving a die to roll, smallest first (G-GREEN, G-SAVE)."""
    actions: list[Any] = [_STOP]
    for size in range(len(saveable) + 1):
        if rolling - size < 1:
            break
        for combo in combinations(saveable, size):
            actions.append(SaveAndRoll(dice=[DIE_IDS[i] for i in combo]))
    return tuple(actions)


# --------------------------------------------------------------------------- the run


class _Run(Resolution[Go500State]):
    """One resolution (`core.resolution`), with the table's options and dice tables at hand."""

    __slots__ = ("auto_stop", "cfg", "tab")

    def __init__(self, state: Go500State, rng: Chance) -> None:
        super().__init__(state, rng, HANDLERS)
        self.cfg = state.config
        self.tab: Tables = tables_for(state.config.circle_values)
        self.auto_stop = uses_auto_stop(state.config)

    # ---------------------------------------------------------------- race start

    def start_race(self, race: int) -> None:
        cfg = self.cfg
        if cfg.mode == "cup":
            name, length = cfg.schedule[race]
        else:
            name, length = {
                "oval": ("Oval race", cfg.race_length),
                "multi_game": ("Multi-Game race", cfg.race_length),
                "time_trial": (f"{cfg.hours}-hour Time Trial", 0),
            }[cfg.mode]
        self.emit(RaceStarted(race=race, name=name, length=length))
        if self.state.n == 1:
            self.emit(PoleWon(seat=0, order=(0,)))
            self.start_racing()

    def start_racing(self) -> None:
        s = self.state
        if self.cfg.mode == "multi_game":
            self.emit(RoundStarted(round=s.round, drivers=s.order))
        else:
            self.emit(TurnStarted(seat=s.order[0]))

    # ---------------------------------------------------------------- qualifying

    def _qual_roll(self, seat: int, reroll: bool) -> None:
        below = self.rng.below
        miles = self.tab.die_miles[1]
        faces = tuple(below(FACES) for _ in TRACK_DICE)
        self.emit(
            QualifyingRolled(
                seat=seat, faces=faces, score=sum(miles[f] for f in faces), reroll=reroll
            )
        )

    def qualify(self, seat: int) -> None:
        """G-QUALIFY: one roll of T1–T5; after the last seat, automatic tie re-rolls.

        A re-roll only orders the tied drivers among themselves: a driver who was never tied
        for the top never takes the pole, however low the re-rolls come out.
        """
        self._qual_roll(seat, False)
        if self.state.qual_next is not None:
            return
        scores = self.state.qual_scores
        best = max(score or 0 for score in scores)
        tied = [i for i in range(self.state.n) if scores[i] == best]
        while len(tied) > 1:
            for i in tied:
                self._qual_roll(i, True)
            scores = self.state.qual_scores
            best = max(scores[i] or 0 for i in tied)
            tied = [i for i in tied if scores[i] == best]
        pole = tied[0]
        n = self.state.n
        self.emit(PoleWon(seat=pole, order=tuple((pole + k) % n for k in range(n))))
        self.start_racing()

    # ---------------------------------------------------------------- a roll

    def roll(self, seat: int) -> None:
        """G-ROLL-ORDER: F, then each unsaved in-play die T1…T5, P (G-CHAOS per draw)."""
        turn = self.state.turns[seat]
        assert turn is not None
        tab = self.tab
        below = self.rng.below
        removed = list(turn.removed)
        to_roll = [i for i in RACING_DICE if not turn.saved[i] and not removed[i]]
        if not self.cfg.table_chaos:
            flag = below(FACES)
            faces: list[int | None] = [below(FACES) for _ in to_roll]
            dice = ("F", *(DIE_IDS[i] for i in to_roll))
            rolled: dict[int, int | None] = dict(zip(to_roll, faces, strict=True))
            all_faces: tuple[int | None, ...] = (flag, *faces)
        else:
            flag, rolled = self._chaos_roll(seat, to_roll, removed)
            dice = ("F", *(DIE_IDS[i] for i in rolled))
            all_faces = (flag, *rolled.values())
        current = list(turn.faces)
        current[FLAG_DIE] = flag
        for i, face in rolled.items():
            current[i] = face
        after = self.state.turns[seat]
        assert after is not None
        removed = list(after.removed)
        showing = 0
        circles = 0
        miles = tab.die_miles
        circle = tab.circle
        for i in RACING_DICE:
            if removed[i]:
                continue
            face = current[i]
            if face is None:
                continue
            showing += miles[i][face]
            if face == circle[i]:
                circles += 1
        self.emit(DiceRolled(seat=seat, dice=dice, faces=all_faces, showing=showing))
        if not removed[POWER_DIE] and current[POWER_DIE] == tab.flat:
            self.emit(PowerDieRemoved(seat=seat, reason="flat"))  # G-FLAT
            removed[POWER_DIE] = True
        if circles == len(RACING_DICE):  # G-GROOVE: all six in play and CIRCLE, whatever the flag
            self.emit(InTheGroove(seat=seat))
            self.emit(TurnEnded(seat=seat, kind="groove", showing=showing))
            self.record(seat, tab.max_turn, None)
            return
        kind = tab.flag_kind[flag]
        if kind == "green":
            total = self.state.totals[seat]
            if self.auto_stop and total + showing >= self.state.race_length:
                self.green_stop(seat, auto="line")  # G-AUTO-STOP
                return
            t = self.state.turns[seat]
            assert t is not None
            if not _rollable(t):
                self.green_stop(seat, auto="no_dice")  # G-AUTO-DECISION: nothing left to roll
            return
        if kind == "yellow":
            self.pit(seat)
        elif kind == "red":
            self.crash(seat)
        else:
            self.emit(TurnEnded(seat=seat, kind="penalty", showing=showing))  # G-BLACK-FLAG
            self.record(seat, 0, None)

    def _chaos_roll(
        self, seat: int, to_roll: list[int], removed: list[bool]
    ) -> tuple[int, dict[int, int | None]]:
        """G-CHAOS: a chance draw after each face draw; strikes emitted in draw order."""
        below = self.rng.below
        cfg = self.cfg
        lost_at = cfg.lost_wheel_bp
        rub_at = lost_at + cfg.rubbin_bp
        debris_at = rub_at + cfg.debris_bp

        def strike(x: int) -> ChaosKind | None:
            if x < lost_at:
                return "lost_wheel"
            if x < rub_at:
                return "rubbin"
            if x < debris_at:
                return "debris"
            return None

        flag = below(FACES)
        x = below(_CHAOS_SCALE)
        kind = strike(x)
        if kind is not None:
            redraw = below(FACES)
            self.emit(ChaosStruck(seat=seat, die="F", kind=kind, face=flag, x=x, redraw=redraw))
            if kind != "debris" and not removed[POWER_DIE]:
                reason: RemovalReason = "lost_wheel" if kind == "lost_wheel" else "rubbin"
                self.emit(PowerDieRemoved(seat=seat, reason=reason))
                removed[POWER_DIE] = True
            flag = redraw
        rolled: dict[int, int | None] = {}
        for i in to_roll:
            if removed[i]:
                continue  # a P removed earlier in this roll is not rolled
            face = below(FACES)
            x = below(_CHAOS_SCALE)
            kind = strike(x)
            if kind is None:
                rolled[i] = face
            elif kind == "debris":
                redraw = below(FACES)
                self.emit(
                    ChaosStruck(
                        seat=seat, die=DIE_IDS[i], kind="debris", face=face, x=x, redraw=redraw
                    )
                )
                rolled[i] = redraw
            else:
                self.emit(ChaosStruck(seat=seat, die=DIE_IDS[i], kind=kind, face=face, x=x))
                if kind == "rubbin":
                    removed[i] = True
                rolled[i] = None
        return flag, rolled

    # ---------------------------------------------------------------- endings (G-END)

    def green_stop(self, seat: int, auto: AutoStop | None = None) -> None:
        showing = self._showing(seat)
        self.emit(TurnEnded(seat=seat, kind="green_stop", showing=showing, auto=auto))
        self.record(seat, showing, None)

    def _showing(self, seat: int) -> int:
        turn = self.state.turns[seat]
        assert turn is not None
        return turn.showing

    def pit(self, seat: int) -> None:
        """G-PIT: roll the Pit Die; CAUTION leaves a caution pending."""
        showing = self._showing(seat)
        self.emit(TurnEnded(seat=seat, kind="pit", showing=showing))
        face = self.rng.below(FACES)
        self.emit(PitDieRolled(seat=seat, face=face))
        effect: Effect | None = "caution" if face == self.tab.pit_caution else None
        self.record(seat, showing + self.tab.pit_miles[face], effect)

    def crash(self, seat: int) -> None:
        """G-CRASH: roll the Crash Die; BIG X is behind the wall, CRASH starts a Big One."""
        showing = self._showing(seat)
        self.emit(TurnEnded(seat=seat, kind="crash", showing=showing))
        face = self.rng.below(FACES)
        self.emit(CrashDieRolled(seat=seat, face=face))
        if face == self.tab.crash_big_x:
            self.emit(KnockedOut(seat=seat))  # G-BEHIND-WALL: nothing recorded
            if self.cfg.mode == "multi_game":
                self.end_multi_turn(seat)
            else:
                self.after_event(seat)
            return
        effect: Effect | None = "big_one" if face == self.tab.crash_crash else None
        self.record(seat, showing + self.tab.crash_miles[face], effect)

    def record(self, seat: int, miles: int, effect: Effect | None) -> None:
        """Step 8 (G-MAX-TURN, G-STALL), then the finish check and the track event."""
        cap = self.tab.max_turn
        capped = miles > cap
        if capped:
            miles = cap
        raw = self.state.totals[seat] + miles
        self.emit(
            MilesRecorded(seat=seat, miles=miles, total=max(0, raw), capped=capped, stalled=raw < 0)
        )
        mode = self.cfg.mode
        before = self.cfg.finish_check == "before_track_event"
        if before and mode != "time_trial":
            self.finish_check(seat)
        if mode == "multi_game":
            if effect is not None:
                if effect == "big_one" and self.cfg.tradin_paint:
                    effect = "paint"
                if effect == "paint":
                    others = self._paint_candidates(seat)
                    if len(others) >= 2:
                        self.emit(PaintTargetNeeded(seat=seat, candidates=others))
                        return
                    target = others[0] if others else None
                    self.emit(EffectQueued(seat=seat, effect="paint", target=target))
                else:
                    self.emit(EffectQueued(seat=seat, effect=effect))
            self.end_multi_turn(seat)
            return
        if effect == "caution":
            self.caution(seat)
        elif effect == "big_one":
            if self.cfg.tradin_paint:
                others = self._paint_candidates(seat)
                if len(others) >= 2:
                    self.emit(PaintTargetNeeded(seat=seat, candidates=others))
                    return  # the driver chooses (G-TRADIN-PAINT)
                self.paint(seat, others[0] if others else None)
            else:
                self.big_one(seat)
        self.after_event(seat)

    def _paint_candidates(self, seat: int) -> tuple[int, ...]:
        s = self.state
        return tuple(d for d in _in_turn_order_from(s, seat) if d != seat and s.racing(d))

    def choose_paint(self, seat: int, target: int) -> None:
        if self.cfg.mode == "multi_game":
            self.emit(EffectQueued(seat=seat, effect="paint", target=target))
            self.end_multi_turn(seat)
            return
        self.paint(seat, target)
        self.after_event(seat)

    def after_event(self, seat: int) -> None:
        """Step 11 (finish check after the track event) and step 12."""
        if self.cfg.finish_check == "after_track_event" and self.cfg.mode != "time_trial":
            self.finish_check(seat)
        self.next_turn(seat)

    # ---------------------------------------------------------------- track events

    def finish_check(self, seat: int) -> None:
        """G-FINISH / G-CHECKERED."""
        s = self.state
        if s.racing(seat) and s.totals[seat] >= s.race_length:
            self.emit(DriverFinished(seat=seat, total=s.totals[seat]))
            if self.cfg.mode != "multi_game" and s.checkered is None:
                self.emit(CheckeredFlag(seat=seat))

    def caution(self, trigger: int) -> None:
        """G-CAUTION: a sole leader among those still racing drops to the next best total."""
        s = self.state
        racing = [d for d in range(s.n) if s.racing(d)]
        if len(racing) >= 2:
            best = max(s.totals[d] for d in racing)
            leaders = [d for d in racing if s.totals[d] == best]
            if len(leaders) == 1:
                second = max(s.totals[d] for d in racing if d != leaders[0])
                self.emit(CautionCut(trigger=trigger, cut=leaders[0], total=second))
                return
        self.emit(CautionCut(trigger=trigger, cut=None, total=0, alone=len(racing) < 2))

    def _crash_roll(self, seat: int, paint: bool) -> None:
        face = self.rng.below(FACES)
        total = self.state.totals[seat]
        tab = self.tab
        if face == tab.crash_crash:  # no loss, and no new Big One
            self.emit(BigOneRolled(seat=seat, face=face, total=total, paint=paint))
        elif face == tab.crash_big_x and self.cfg.big_x_in_big_one == "out":
            self.emit(BigOneRolled(seat=seat, face=face, total=total, paint=paint))
            self.emit(KnockedOut(seat=seat))
        else:
            loss = -50 if face == tab.crash_big_x else tab.crash_miles[face]
            raw = total + loss
            self.emit(
                BigOneRolled(seat=seat, face=face, total=max(0, raw), stalled=raw < 0, paint=paint)
            )

    def big_one(self, trigger: int) -> None:
        """G-BIG-ONE: every driver still racing rolls CR once, from the trigger driver on."""
        self.emit(BigOneStarted(seat=trigger))
        for d in _in_turn_order_from(self.state, trigger):
            if self.state.racing(d):
                self._crash_roll(d, False)

    def paint(self, trigger: int, target: int | None) -> None:
        """G-TRADIN-PAINT: the trigger driver rolls CR if still racing, then the target."""
        self.emit(PaintTraded(seat=trigger, target=target))
        if self.state.racing(trigger):
            self._crash_roll(trigger, True)
        if target is not None and self.state.racing(target):
            self._crash_roll(target, True)

    # ---------------------------------------------------------------- step 12

    def _leaders(self) -> tuple[int, ...]:
        s = self.state
        alive = [d for d in s.order if not s.out[d]]
        if not alive:
            return ()
        best = max(s.totals[d] for d in alive)
        if best <= 0:
            return ()
        return tuple(d for d in alive if s.totals[d] == best)

    def end_round(self) -> None:
        self.emit(RoundEnded(round=self.state.round, leaders=self._leaders()))

    def next_turn(self, seat: int) -> None:
        """Step 12: G-LAST-RUNNING, the Groove extra turn, the final round, the next driver."""
        s = self.state
        mode = self.cfg.mode
        turn = s.turns[seat]
        assert turn is not None
        anyone = any(s.racing(d) for d in range(s.n))
        if mode in ("oval", "cup"):
            not_out = sum(1 for d in range(s.n) if not s.out[d])
            if not anyone or (not s.finish_order and not_out <= 1):
                self.end_round()
                self.end_race()
                return
        elif not anyone:
            self.end_round()
            self.end_race()
            return
        if turn.groove and s.racing(seat):
            self.emit(TurnStarted(seat=seat, extra=True, final=turn.final))
            return
        here = _pos(s, seat)
        if mode in ("oval", "cup") and s.checkered is not None:
            if not self.cfg.final_round:
                self.end_round()
                self.end_race()
                return
            if not s.in_final_round:
                after = _in_turn_order_from(s, s.checkered)[1:]
                self.emit(FinalRoundStarted(drivers=tuple(d for d in after if s.racing(d))))
            nxt = next((d for d in self.state.final_queue if self.state.racing(d)), None)
            if nxt is None:
                self.end_round()
                self.end_race()
                return
            if _pos(s, nxt) <= here:
                self.end_round()
            self.emit(TurnStarted(seat=nxt, final=True))
            return
        nxt = next(d for d in [*_in_turn_order_from(s, seat)[1:], seat] if s.racing(d))
        if _pos(s, nxt) <= here:
            ended = s.round
            self.end_round()
            if mode == "time_trial" and ended >= self.cfg.hours:
                self.end_race()
                return
        self.emit(TurnStarted(seat=nxt))

    # ---------------------------------------------------------------- Multi-Game

    def end_multi_turn(self, seat: int) -> None:
        s = self.state
        turn = s.turns[seat]
        assert turn is not None
        if turn.groove and s.racing(seat):
            self.emit(TurnStarted(seat=seat, extra=True))
            return
        self.emit(TurnOver(seat=seat))
        if not any(self.state.round_todo):
            self.end_multi_round()

    def end_multi_round(self) -> None:
        """G-MULTI-GAME: queued effects by trigger turn order, finish checks, the race end."""
        s = self.state
        pos = {d: i for i, d in enumerate(s.order)}
        queue = sorted(enumerate(s.queued), key=lambda iq: (pos[iq[1].seat], iq[0]))
        for _, q in queue:
            if q.effect == "caution":
                self.caution(q.seat)
            elif q.effect == "big_one":
                self.big_one(q.seat)
            else:
                self.paint(q.seat, q.target)
        if self.cfg.finish_check == "after_track_event":
            for d in s.order:
                self.finish_check(d)
        self.end_round()
        s = self.state
        not_out = sum(1 for d in range(s.n) if not s.out[d])
        anyone = any(s.racing(d) for d in range(s.n))
        if s.finish_order or not anyone or not_out <= 1:
            self.end_race()
            return
        self.emit(RoundStarted(round=s.round, drivers=tuple(d for d in s.order if s.racing(d))))

    # ---------------------------------------------------------------- race end

    def end_race(self) -> None:
        s = self.state
        ranking = race_ranking(s)
        self.emit(RaceEnded(race=s.race, ranking=ranking, totals=s.totals))
        if self.cfg.mode != "cup":
            return
        table = CUP_POINTS.by_name[self.cfg.cup_points]
        points = [0] * s.n
        for place, seat in enumerate(ranking, start=1):
            points[seat] = points_for_place(table, place)
        bonus = lead_bonuses(self.cfg, s.led)
        season = tuple(p + a + b for p, a, b in zip(s.points, points, bonus, strict=True))
        results = self.state.results
        standings = cup_standings(season, results, s.n)
        self.emit(
            CupPointsAwarded(
                race=s.race, points=tuple(points), bonus=bonus, season=season, standings=standings
            )
        )
        if s.race + 1 < len(self.cfg.schedule):
            self.start_race(s.race + 1)
        else:
            self.emit(SeasonEnded(standings=standings, points=season))


# --------------------------------------------------------------------------- entry points


def setup(config: Go500Config, state: Go500State, rng: Chance) -> list[Any]:
    run = _Run(state, rng)
    run.start_race(0)
    return run.events


_FLAG_RULE = {"yellow": "G-PIT", "red": "G-CRASH", "black": "G-BLACK-FLAG"}


def _not_asked(state: Go500State, seat: int) -> NotYourTurn:
    who = f"Seat {seat + 1}"
    if state.phase == "qualifying":
        return NotYourTurn(
            f"{who} does not qualify now; drivers qualify in seat order.", "G-QUALIFY"
        )
    turn = state.turns[seat] if 0 <= seat < state.n else None
    if turn is not None and turn.end is not None and turn.stage == "done":
        flag = turn.faces[0]
        tab = tables_for(state.config.circle_values)
        kind = tab.flag_kind[flag] if flag is not None else ""
        if kind in _FLAG_RULE:
            return NotYourTurn(
                f"{who}'s turn ended on the {kind} flag; a {kind} flag ends the turn.",
                _FLAG_RULE[kind],
            )
    if state.config.mode == "multi_game":
        return NotYourTurn(f"{who} has no turn left to play in this round.", "G-MULTI-GAME")
    return NotYourTurn(f"It is not {who}'s turn; drivers race in turn order.", "G-QUALIFY")


def step(state: Go500State, seat: int, action: Any, rng: Chance) -> list[Any]:
    """Accept ``action`` if `legal` lists it (refusing before any draw) and resolve it."""
    return resolve(state, seat, action, rng)[0]


def resolve(state: Go500State, seat: int, action: Any, rng: Chance) -> tuple[list[Any], Go500State]:
    """`step`'s events and the state they fold to (each was folded as it was emitted)."""
    if state.phase == "over":
        raise GameOver()
    if not 0 <= seat < state.n or seat not in pending(state):
        raise _not_asked(state, seat)
    return _resolve(state, seat, action, rng)


def advance(
    state: Go500State, seat: int, action: Any, rng: Chance
) -> tuple[list[Any], Go500State, tuple[int, ...]]:
    """`resolve` for a seat its caller found in `pending` (the game not over), with the seats
    `pending` asks after it."""
    events, after = _resolve(state, seat, action, rng)
    return events, after, pending(after)


def _resolve(
    state: Go500State, seat: int, action: Any, rng: Chance
) -> tuple[list[Any], Go500State]:
    action = _canonical(action)
    if not is_legal(state, seat, action):
        raise _refusal(state, seat, action)
    run = _Run(state, rng)
    if state.phase == "qualifying":
        run.qualify(seat)
    elif isinstance(action, Roll):
        run.roll(seat)
    elif isinstance(action, ChoosePaintTarget):
        run.choose_paint(seat, action.driver)
    elif isinstance(action, Stop):
        run.green_stop(seat)
    else:
        if action.dice:
            run.emit(DiceSaved(seat=seat, dice=tuple(action.dice)))
        run.roll(seat)
    return run.events, run.state


def _canonical(action: Any) -> Any:
    """A save names its dice in any order; `legal` lists them in die order (F, T1 … T5, P)."""
    if isinstance(action, SaveAndRoll) and all(d in DIE_INDEX for d in action.dice):
        return SaveAndRoll(dice=sorted(action.dice, key=DIE_INDEX.__getitem__))
    return action


def _refusal(state: Go500State, seat: int, action: Any) -> BreaksRule:
    """The sentence for an action `legal` does not list, naming the rule it breaks."""
    if state.phase == "qualifying":
        return BreaksRule("Qualifying is one roll of the five Track Dice: roll.", "G-QUALIFY")
    turn = state.turns[seat]
    assert turn is not None
    if turn.stage == "roll":
        return BreaksRule(
            "Every turn starts with a roll of all the dice; roll first.", "G-AUTO-DECISION"
        )
    if turn.stage == "paint":
        if not isinstance(action, ChoosePaintTarget):
            return BreaksRule(
                "Choose the driver to trade paint with before anything else.", "G-TRADIN-PAINT"
            )
        names = ", ".join(f"seat {d + 1}" for d in turn.paint_candidates)
        return BreaksRule(
            f"You can trade paint only with a driver still racing: {names}.", "G-TRADIN-PAINT"
        )
    if isinstance(action, SaveAndRoll):
        return save_refusal(turn, action.dice)
    if isinstance(action, Roll):
        return BreaksRule(
            "On a green flag choose dice to save (maybe none) and roll, or stop.", "G-GREEN"
        )
    return BreaksRule("There is no paint to trade now.", "G-TRADIN-PAINT")


def save_refusal(turn: TurnState, dice: Sequence[str]) -> BreaksRule:
    """G-SAVE: why saving ``dice`` is refused on this green flag (the save is not legal).

    A legal save is a subset of the unsaved in-play dice that leaves at least one die to roll;
    screens ask `legal` (or submit and show this sentence) rather than restating it.
    """
    chosen: list[int] = []
    for die in dice:
        i = DIE_INDEX.get(die)
        if i is None:
            known = ", ".join(DIE_IDS[i] for i in RACING_DICE)
            return BreaksRule(f"There is no die {die!r} to save; the dice are {known}.", "G-SAVE")
        if i == FLAG_DIE:
            return BreaksRule("The Flag Die is rolled every time; it cannot be saved.", "G-SAVE")
        if i in chosen:
            return BreaksRule(f"{die} is named twice.", "G-SAVE")
        if turn.removed[i]:
            rule = "G-FLAT" if i == POWER_DIE and turn.faces[POWER_DIE] is not None else "G-CHAOS"
            return BreaksRule(f"{die} is out of play for the rest of this turn.", rule)
        if turn.saved[i]:
            return BreaksRule(f"{die} is already saved.", "G-SAVE")
        if turn.lost[i]:
            return BreaksRule(
                f"{die} came off the track (Lost Wheel) and must be rolled again.", "G-CHAOS"
            )
        chosen.append(i)
    return BreaksRule(
        "You must leave at least one die to roll; stop instead to keep them all.", "G-SAVE"
    )
