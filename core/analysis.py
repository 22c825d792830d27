"""Replay analysis: the shared shapes, the luck/skill identity, and finding a game's analyser.

Owns `Option`, `Decision`, `Segment`, `PlayerSummary`, `TurningPoint`, `Analysis` and
`Settings`; `Chain`, which turns a seat's valued decisions into losses and luck so that the
identity below holds by construction; `summarise` and `turning_points`; and `analyse`, which
finds the analyser of a game by its id (like `core.registry`) and runs it.

**The identity.** A *segment* is a stretch of one seat's play valued in one unit (a Go 500
turn, a Champions lap). It opens with ``expected``, the value of the position before chance
and the seat acted, and closes with ``realised``, what the stretch actually gave. Inside it,
each decision ``i`` has ``best_i`` (the value of the best option) and ``chosen_i``:

* ``loss_i = best_i - chosen_i`` (never negative) — skill;
* ``luck`` is everything else: ``best_1 - expected`` before the first decision (the segment's
  ``opening_luck``), ``best_{i+1} - chosen_i`` between decisions, ``realised - chosen_last``
  after the last. Rivals' decisions in between count as luck for this seat.

The sums telescope, so for every player and unit::

    sum(realised - expected) == luck - skill_loss

`check_identity` verifies it on a finished analysis.

**Settings.** A `Settings` field left None takes the game's default (`resolve`; Champions rolls
out to the end of the lap, Cthulhu 500 one round ahead); an analysis records them resolved, and
`cache_tag` keys a cache by the resolved values and the analyser's revision, so a changed
default never serves an old analysis.

Must not: do I/O, read a clock, use `random`, or know any game's rules.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Sequence
from math import sqrt
from typing import Any, NamedTuple

import msgspec

from core.rng import Pcg32

__all__ = [
    "Analysis",
    "Chain",
    "ChanceNode",
    "Decision",
    "Option",
    "PlayerSummary",
    "Progress",
    "Segment",
    "Settings",
    "TurningPoint",
    "UnitTotals",
    "Watch",
    "analyse",
    "analysis_seed",
    "cache_tag",
    "check_identity",
    "has_analyser",
    "played",
    "resolve",
    "summarise",
    "turning_points",
]

FORMAT = "speedway-analysis/1"
DEFAULT_ROLLOUTS = 8
"""Rollouts per option for the games valued by simulation (Cthulhu 500; Champions: 7)."""
CHAMPIONS_ROLLOUTS = 7
"""Champions plays each rollout to the end of the lap: 7 keep a whole replay under 30 s."""
TURNING_POINTS = 10
EPS = 1e-9

Progress = Callable[[int, int], None]
"""``progress(done, total)``: steps analysed so far (the TUI's progress bar)."""
Watch = Callable[["Decision"], None]
"""``watch(decision)``: a decision as soon as it is valued (its luck is not known yet)."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """What an analysis depends on besides the game itself (part of the cache key).

    None: the game's default (`resolve`). An `Analysis` holds them resolved.
    """

    rollouts: int | None = None
    """Rollouts per option, for the games valued by simulation."""
    horizon: int | None = None
    """Rounds a rollout plays before the position is valued (0: to the end of the lap)."""


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """One answer the seat could have given, and its value (``spread``: rollouts' std. error)."""

    label: str
    value: float
    spread: float | None = None


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """One valued decision: step ``step`` is the seat's answer; values in ``unit``.

    ``loss`` is what the chosen option gave up against the best; ``luck`` what chance (and the
    rivals) gave between this decision and the seat's next valued moment (see the identity).
    ``costly`` marks a loss above the game's threshold for the unit.
    """

    step: int
    seat: int
    kind: str
    unit: str
    options: list[Option]
    chosen: int
    best: int
    loss: float
    luck: float = 0.0
    costly: bool = False
    note: str = ""


class ChanceNode(msgspec.Struct, frozen=True, kw_only=True):
    """A moment decided by chance alone, with the exact chance of each outcome (in %).

    ``happened`` is the index of the outcome that came about.
    """

    step: int
    seat: int
    kind: str
    outcomes: list[Option]
    happened: int
    note: str = ""


class Segment(msgspec.Struct, frozen=True, kw_only=True):
    """A stretch of one seat's play in one unit: a Go 500 turn, a Champions lap."""

    seat: int
    unit: str
    start: int
    end: int
    expected: float
    realised: float
    opening_luck: float = 0.0
    what: str = ""
    """Where the opening luck came from, in words ("on the turn's first roll")."""


class UnitTotals(msgspec.Struct, frozen=True, kw_only=True):
    unit: str
    skill_loss: float
    luck: float
    expected: float
    realised: float
    decisions: int


class PlayerSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One seat over the whole game; ``skill_loss`` and ``luck`` in the analysis's ``unit``."""

    seat: int
    name: str
    skill_loss: float
    luck: float
    decisions: int
    costly: int
    by_unit: list[UnitTotals]


class TurningPoint(msgspec.Struct, frozen=True, kw_only=True):
    """One of the largest swings: a costly decision or a big piece of luck, at ``step``."""

    step: int
    seat: int
    kind: str
    swing: float
    unit: str
    text: str


class Analysis(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    game: str
    unit: str
    units: list[str]
    settings: Settings
    seed: int
    players: list[PlayerSummary]
    decisions: list[Decision]
    segments: list[Segment]
    turning_points: list[TurningPoint]
    notes: list[str]
    chances: list[ChanceNode] = []
    sampled: bool = False
    """Whether values come from rollouts (``settings`` matter) or are exact."""


# --------------------------------------------------------------------------- the chain


class Chain:
    """Builds one seat's segments: open, then valued decisions, then close.

    Keeps the arithmetic of the identity in one place; analysers only supply values.
    """

    def __init__(self, thresholds: dict[str, float], watch: Watch | None = None) -> None:
        self.thresholds = thresholds
        self.watch = watch
        self.decisions: list[Decision] = []
        self.segments: list[Segment] = []
        self._open: dict[int, _OpenSegment] = {}

    def is_open(self, seat: int) -> bool:
        return seat in self._open

    def open(self, seat: int, unit: str, step: int, expected: float | None, what: str = "") -> None:
        """Start a segment; ``expected=None``: it is the first decision's best value."""
        if seat in self._open:
            raise ValueError(f"seat {seat} already has an open segment")
        self._open[seat] = _OpenSegment(unit=unit, start=step, expected=expected, what=what)

    def decide(
        self,
        seat: int,
        step: int,
        kind: str,
        options: Sequence[Option],
        chosen: int,
        note: str = "",
    ) -> None:
        """Record a decision inside the seat's open segment."""
        seg = self._open[seat]
        best = _best_index(options)
        best_value = options[best].value
        chosen_value = options[chosen].value
        loss = max(0.0, best_value - chosen_value)
        if loss < EPS:
            loss = 0.0
        if seg.expected is None:
            seg.expected = best_value
        if seg.pending is None:
            seg.opening_luck = best_value - seg.expected
        else:
            prev, prev_chosen = seg.pending
            seg.done.append(msgspec.structs.replace(prev, luck=best_value - prev_chosen))
        decision = Decision(
            step=step,
            seat=seat,
            kind=kind,
            unit=seg.unit,
            options=list(options),
            chosen=chosen,
            best=best,
            loss=loss,
            costly=loss > self.thresholds.get(seg.unit, 0.0),
            note=note,
        )
        seg.pending = (decision, chosen_value)
        if self.watch is not None:
            self.watch(decision)

    def close(self, seat: int, step: int, realised: float) -> None:
        """End the seat's segment with what it actually gave."""
        seg = self._open.pop(seat)
        if seg.pending is not None:
            prev, prev_chosen = seg.pending
            seg.done.append(msgspec.structs.replace(prev, luck=realised - prev_chosen))
        expected = seg.expected if seg.expected is not None else realised
        self.decisions.extend(seg.done)
        self.segments.append(
            Segment(
                seat=seat,
                unit=seg.unit,
                start=seg.start,
                end=step,
                expected=expected,
                realised=realised,
                opening_luck=seg.opening_luck if seg.done else realised - expected,
                what=seg.what,
            )
        )

    def single(
        self, seat: int, step: int, kind: str, unit: str, options: Sequence[Option], chosen: int
    ) -> None:
        """A decision that is its own segment (nothing random follows it in its unit)."""
        outer = self._open.pop(seat, None)
        self.open(seat, unit, step, None)
        self.decide(seat, step, kind, options, chosen)
        self.close(seat, step, options[chosen].value)
        if outer is not None:
            self._open[seat] = outer

    def single_chance(
        self, seat: int, unit: str, step: int, expected: float, realised: float, what: str
    ) -> None:
        """A moment of pure chance that is its own segment (kept apart from any open one)."""
        outer = self._open.pop(seat, None)
        self.open(seat, unit, step, expected, what=what)
        self.close(seat, step, realised)
        if outer is not None:
            self._open[seat] = outer

    def close_all(self, step: int, realised: Callable[[int, str], float | None]) -> None:
        """Close every open segment (the replay ended).

        ``realised`` None: nothing was realised yet, so the segment closes at the last chosen
        value (no luck after it), or is dropped if it has no decision.
        """
        for seat in sorted(self._open):
            seg = self._open[seat]
            value = realised(seat, seg.unit)
            if value is None and seg.pending is not None:
                value = seg.pending[1]
            if value is None:
                del self._open[seat]
            else:
                self.close(seat, step, value)


class _OpenSegment:
    def __init__(self, unit: str, start: int, expected: float | None, what: str) -> None:
        self.unit = unit
        self.what = what
        self.start = start
        self.expected = expected
        self.opening_luck = 0.0
        self.pending: tuple[Decision, float] | None = None
        self.done: list[Decision] = []


def _best_index(options: Sequence[Option]) -> int:
    """The first option of the highest value (ties go to the earlier, as the bots do)."""
    best = 0
    for i, option in enumerate(options):
        if option.value > options[best].value + EPS:
            best = i
    return best


# --------------------------------------------------------------------------- summaries


def summarise(
    names: Sequence[str],
    units: Sequence[str],
    decisions: Sequence[Decision],
    segments: Sequence[Segment],
) -> list[PlayerSummary]:
    """Per seat: skill (sum of losses) and luck (sum of luck), per unit and in ``units[0]``."""
    out = []
    for seat, name in enumerate(names):
        by_unit = []
        for unit in units:
            mine = [d for d in decisions if d.seat == seat and d.unit == unit]
            segs = [s for s in segments if s.seat == seat and s.unit == unit]
            by_unit.append(
                UnitTotals(
                    unit=unit,
                    skill_loss=_round(sum(d.loss for d in mine)),
                    luck=_round(sum(d.luck for d in mine) + sum(s.opening_luck for s in segs)),
                    expected=_round(sum(s.expected for s in segs)),
                    realised=_round(sum(s.realised for s in segs)),
                    decisions=len(mine),
                )
            )
        main = by_unit[0]
        out.append(
            PlayerSummary(
                seat=seat,
                name=name,
                skill_loss=main.skill_loss,
                luck=main.luck,
                decisions=sum(1 for d in decisions if d.seat == seat),
                costly=sum(1 for d in decisions if d.seat == seat and d.costly),
                by_unit=by_unit,
            )
        )
    return out


def check_identity(analysis: Analysis, tolerance: float = 1e-6) -> list[str]:
    """Where ``sum(realised - expected) == luck - skill_loss`` fails (empty: it holds)."""
    bad = []
    for player in analysis.players:
        for t in player.by_unit:
            lhs = t.realised - t.expected
            rhs = t.luck - t.skill_loss
            if abs(lhs - rhs) > tolerance * max(1.0, abs(lhs)):
                bad.append(f"seat {player.seat} {t.unit}: {lhs} != {rhs}")
    return bad


def turning_points(
    decisions: Sequence[Decision],
    segments: Sequence[Segment],
    names: Sequence[str],
    limit: int = TURNING_POINTS,
) -> list[TurningPoint]:
    """The largest swings, biggest first: costly decisions and the largest pieces of luck.

    Swings are compared within a unit relative to that unit's largest, so a 40-mile loss and a
    30-point win-chance swing both make the list.
    """
    points: list[tuple[float, int, TurningPoint]] = []
    scale: dict[str, float] = {}
    for d in decisions:
        scale[d.unit] = max(scale.get(d.unit, 0.0), d.loss, abs(d.luck))
    for seg in segments:
        scale[seg.unit] = max(scale.get(seg.unit, 0.0), abs(seg.opening_luck))
    for index, d in enumerate(decisions):
        who = names[d.seat] if d.seat < len(names) else f"seat {d.seat + 1}"
        unit_scale = scale.get(d.unit) or 1.0
        if d.loss > EPS:
            text = (
                f"{who} chose {d.options[d.chosen].label}; {d.options[d.best].label} was "
                f"{_fmt(d.loss)} {d.unit} better"
            )
            tp = TurningPoint(
                step=d.step, seat=d.seat, kind="decision", swing=-d.loss, unit=d.unit, text=text
            )
            points.append((d.loss / unit_scale, index * 2, tp))
        if abs(d.luck) > EPS:
            word = "good" if d.luck > 0 else "bad"
            text = f"{who}: {word} luck after {d.options[d.chosen].label}, {_sign(d.luck)} {d.unit}"
            tp = TurningPoint(
                step=d.step, seat=d.seat, kind="luck", swing=d.luck, unit=d.unit, text=text
            )
            points.append((abs(d.luck) / unit_scale, index * 2 + 1, tp))
    base = 2 * len(decisions)
    for index, seg in enumerate(segments):
        if abs(seg.opening_luck) <= EPS:
            continue
        who = names[seg.seat] if seg.seat < len(names) else f"seat {seg.seat + 1}"
        unit_scale = scale.get(seg.unit) or max(abs(seg.opening_luck), 1.0)
        word = "good" if seg.opening_luck > 0 else "bad"
        where = seg.what or "before deciding"
        text = f"{who}: {word} luck {where}, {_sign(seg.opening_luck)} {seg.unit}"
        tp = TurningPoint(
            step=seg.start,
            seat=seg.seat,
            kind="luck",
            swing=seg.opening_luck,
            unit=seg.unit,
            text=text,
        )
        points.append((abs(seg.opening_luck) / unit_scale, base + index, tp))
    points.sort(key=lambda p: (-p[0], p[1]))
    return [p[2] for p in points[:limit]]


def _round(x: float) -> float:
    """Values are rounded to 6 places so float noise never changes a byte of the output."""
    return round(x, 6) + 0.0


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def _sign(x: float) -> str:
    return f"{x:+.1f}"


# --------------------------------------------------------------------------- entry point


class _Analyser(NamedTuple):
    module: str
    defaults: Settings
    """The game's settings where a `Settings` field is None."""
    revision: int
    """Raised when the analyser's output changes for the same settings (part of the cache key)."""
    laps: bool = False
    """Whether a horizon of 0 means "to the end of the lap" (else the least horizon is 1)."""


_ANALYSERS: dict[str, _Analyser] = {
    # exact values: the settings change nothing but are recorded (and keyed) all the same
    "go500": _Analyser("core.go500.analysis", Settings(rollouts=DEFAULT_ROLLOUTS, horizon=1), 1),
    # rollouts to the lap's scoring (revision 2: that default and its notes)
    "champions": _Analyser(
        "core.champions.analysis", Settings(rollouts=CHAMPIONS_ROLLOUTS, horizon=0), 2, True
    ),
    # one round of shrewd play (a horizon of 0 is taken as 1: it has no lap to play out)
    "cthulhu500": _Analyser(
        "core.cthulhu500.analysis", Settings(rollouts=DEFAULT_ROLLOUTS, horizon=1), 1
    ),
}


def has_analyser(game_id: str) -> bool:
    return game_id in _ANALYSERS


def _analyser(game_id: str) -> _Analyser:
    found = _ANALYSERS.get(game_id)
    if found is None:
        raise KeyError(f"There is no analysis for the game {game_id!r}.")
    return found


def resolve(game_id: str, settings: Settings) -> Settings:
    """``settings`` with every field left None set to the game's default.

    >>> resolve("champions", Settings(rollouts=3))
    Settings(rollouts=3, horizon=0)
    """
    analyser = _analyser(game_id)
    defaults = analyser.defaults
    horizon = defaults.horizon if settings.horizon is None else settings.horizon
    if horizon is not None and not analyser.laps:
        horizon = max(1, horizon)  # (recorded so: the summary says what was played)
    return Settings(
        rollouts=defaults.rollouts if settings.rollouts is None else settings.rollouts,
        horizon=horizon,
    )


def played(settings: Settings) -> tuple[int, int]:
    """``(rollouts, horizon)`` of resolved settings (every analyser is given them so)."""
    if settings.rollouts is None or settings.horizon is None:
        raise ValueError(f"{settings!r} is not resolved for a game (core.analysis.resolve)")
    return settings.rollouts, settings.horizon


def cache_tag(game_id: str, settings: Settings) -> str:
    """What of the analysis a cache must match besides the game: analyser and settings.

    >>> cache_tag("champions", Settings())
    'champions analysis r2|rollouts=7|horizon=0'
    """
    rollouts, horizon = played(resolve(game_id, settings))
    revision = _analyser(game_id).revision
    return f"{game_id} analysis r{revision}|rollouts={rollouts}|horizon={horizon}"


def rollout_chance(seed: int, step: int, index: int) -> Pcg32:
    """The chance stream ``index`` of the rollouts at ``step`` (same seed, same numbers)."""
    return Pcg32(seed ^ ((step * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)), stream=index)


def rollout_option(label: str, values: Sequence[float]) -> Option:
    """An option valued by rollouts: their mean, and its standard error as the spread."""
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1)
    return Option(label=label, value=mean, spread=sqrt(var / len(values)))


def analysis_seed(content: bytes) -> int:
    """A 64-bit seed from a replay's game content (so the same game gives the same analysis)."""
    return int.from_bytes(hashlib.blake2b(content, digest_size=8).digest(), "big")


def analyse(
    game_id: str,
    start: Any,
    steps: Sequence[Any],
    names: Sequence[str],
    settings: Settings,
    seed: int,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> Analysis:
    """Analyse a game: ``start`` is the state before step 0's events, ``steps`` every step.

    ``seed`` seeds all sampling (derive it from the replay's content with `analysis_seed`);
    ``progress`` hears how many steps are done, ``watch`` every decision as it is valued.
    Fields of ``settings`` left None take the game's defaults (`resolve`).
    """
    module = importlib.import_module(_analyser(game_id).module)
    settings = resolve(game_id, settings)
    result: Analysis = module.analyse(start, steps, names, settings, seed, progress, watch)
    return result


def finish(
    game_id: str,
    unit: str,
    units: Sequence[str],
    names: Sequence[str],
    chain: Chain,
    settings: Settings,
    seed: int,
    notes: Sequence[str] = (),
    chances: Sequence[ChanceNode] = (),
    sampled: bool = False,
) -> Analysis:
    """Assemble an `Analysis` from a finished chain (decisions in step order)."""
    decisions = sorted(chain.decisions, key=lambda d: (d.step, d.seat))
    decisions = [_rounded(d) for d in decisions]
    segments = sorted(chain.segments, key=lambda s: (s.start, s.seat))
    segments = [
        msgspec.structs.replace(
            s,
            expected=_round(s.expected),
            realised=_round(s.realised),
            opening_luck=_round(s.opening_luck),
        )
        for s in segments
    ]
    used = [u for u in units if any(s.unit == u for s in segments)] or [unit]
    main = unit if unit in used else used[0]
    ordered = [main, *(u for u in used if u != main)]
    return Analysis(
        format=FORMAT,
        game=game_id,
        unit=main,
        units=ordered,
        settings=settings,
        seed=seed,
        players=summarise(names, ordered, decisions, segments),
        decisions=decisions,
        segments=segments,
        turning_points=turning_points(decisions, segments, names),
        notes=list(notes),
        sampled=sampled,
        chances=[
            msgspec.structs.replace(
                c, outcomes=[msgspec.structs.replace(o, value=_round(o.value)) for o in c.outcomes]
            )
            for c in chances
        ],
    )


def _rounded(d: Decision) -> Decision:
    options = [
        Option(
            label=o.label,
            value=_round(o.value),
            spread=None if o.spread is None else _round(o.spread),
        )
        for o in d.options
    ]
    return msgspec.structs.replace(d, options=options, loss=_round(d.loss), luck=_round(d.luck))
