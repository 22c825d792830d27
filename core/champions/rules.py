"""NASCAR Champions rules: setup, who is asked, what they may do, and resolving an action.

Owns the spec's §2–§4 as transitions: the setup draws in N-CHANCE order, the turn (roll, Shift
Gears, choose three dice, resolve in die order), the task queue (dice, card draws, card targets,
moves, turning cars, crash neighbours), the red-line Sponsor hand-out, finishing places, the lap
end (N-LAP-END, or the N-LAP-LIMIT call in ``track_order``), scoring, lap 2 and the game end. A decision with one legal answer is taken automatically
(N-DECISIONS); ``roll`` is always asked.

Must not: fold events (``fold``), hide information (``views``), or draw chance anywhere but
``roll``, ``shift_gears``, setup/lap-2 shuffles and an N-DECK-EMPTY reshuffle.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from core.champions.config import LAPS, N_CARS, ChampionsConfig, money_table
from core.champions.data import COMPONENTS
from core.champions.fold import HANDLERS, crash_neighbours
from core.champions.model import (
    Action,
    CarBlocked,
    CardDrawn,
    CardResolved,
    CardTargetsChosen,
    CarFinished,
    CarLeftBackwards,
    CarMoved,
    CarOwned,
    CarsSelected,
    CarTurnedBackwards,
    CarTurnedForward,
    ChampionsState,
    ChooseCar,
    ChooseCrashNeighbour,
    ChooseDestination,
    ChooseDice,
    ChooseLastCar,
    ChooseTargets,
    DeckShuffled,
    DiceChosen,
    DiceRolled,
    DieResolved,
    DieTask,
    DrawTask,
    EndCardTask,
    Event,
    GameEnded,
    GearsShifted,
    GridPlaced,
    LapCalled,
    LapEnded,
    LapStarted,
    LastCarChosen,
    LastCarTask,
    LeaveBackwards,
    MoneyAwarded,
    MoveTask,
    NeighbourTask,
    RedLineCrossed,
    Roll,
    ShiftGears,
    Space,
    SponsorDealt,
    SponsorsRevealed,
    TargetTask,
    Task,
    TurnBackTask,
    TurnForward,
    TurnStarted,
)
from core.champions.track import can_step, canonical_path, move_ends
from core.game import BreaksRule, GameOver, NotYourTurn
from core.resolution import Resolution
from core.rng import Chance, shuffled

__all__ = [
    "advance",
    "is_legal",
    "last_cars",
    "legal",
    "new_state",
    "pending",
    "play",
    "ranking",
    "resolve",
    "setup",
    "step",
    "track_order",
]

TRACK = COMPONENTS.track
N_DICE = len(COMPONENTS.dice.dice)
N_FACES = len(COMPONENTS.dice.faces)
KEEP = 3
ASKING = ("choose_car", "roll", "choose_dice", "resolve")
_DICE_CHOICES = tuple(ChooseDice(dice=combo) for combo in combinations(range(1, N_DICE + 1), KEEP))
"""Every choice of three dice, in `legal`'s order (frozen structs: shared by every call)."""
_DICE_KEPT = frozenset(choice.dice for choice in _DICE_CHOICES)
_NO_ANSWER = frozenset({DieTask, DrawTask, TurnBackTask, EndCardTask})
"""Task types that never ask the player (`_options` is None for them)."""


# --------------------------------------------------------------------------- setup


def new_state(config: ChampionsConfig, n_seats: int) -> ChampionsState:
    return ChampionsState(config=config, n_seats=n_seats)


class _Run(Resolution[ChampionsState]):
    """One resolution (`core.resolution`): the events of one step, folded as they go."""

    __slots__ = ()

    def __init__(self, state: ChampionsState, rng: Chance) -> None:
        super().__init__(state, rng, HANDLERS)


def setup(config: ChampionsConfig, n_seats: int, rng: Chance) -> list[Event]:
    """N-FIVE-CARS, N-CAR-CHOICE, N-CHANCE's setup draws, N-GRID, N-FIRST-PLAYER."""
    numbers = [0] * N_CARS
    for colour in range(N_CARS):
        options = COMPONENTS.numbers_for(colour)
        numbers[colour] = (
            config.black_car if colour == 0 else config.blue_car if colour == 1 else options[0]
        )
    run = _Run(new_state(config, n_seats), rng)
    run.emit(CarsSelected(numbers=tuple(numbers)))
    if config.car_assignment == "random":
        drivers = shuffled(rng, list(range(N_CARS)))
        run.emit(*(CarOwned(seat=s, car=drivers[s]) for s in range(n_seats)))
        _start_lap(run, 1)
    _advance(run)
    return run.events


def _deal_sponsor(run: _Run, seat: int, reason: Any) -> None:
    state = run.state
    if state.sponsor_count <= 0 or state.sponsor_deck is None:
        return  # an empty Sponsor deck gives nothing
    run.emit(SponsorDealt(seat=seat, colour=state.sponsor_deck[0], reason=reason))


def _start_lap(run: _Run, lap: int) -> None:
    """Shuffle Sponsor then Checkered Flag, bonus Sponsors, the grid, the first player."""
    config, n = run.state.config, run.state.n_seats
    sponsor = shuffled(run.rng, sorted(COMPONENTS.sponsor_colours))
    run.emit(DeckShuffled(deck="sponsor", size=len(sponsor), order=tuple(sponsor)))
    flag = shuffled(run.rng, [c.id for c in COMPONENTS.cards])
    run.emit(DeckShuffled(deck="flag", size=len(flag), order=tuple(flag)))
    if config.two_player_sponsor and n <= 2 and (lap == 1 or config.bonus_sponsor_again_lap2):
        for seat in range(n):
            _deal_sponsor(run, seat, "bonus")
    if lap == 1:
        order = tuple(shuffled(run.rng, list(range(N_CARS))))
    else:
        order = tuple(reversed(run.state.lap_places[-1]))
    run.emit(GridPlaced(lap=lap, order=order))
    first = next(s for c in order if (s := run.state.owner(c)) is not None)
    run.emit(TurnStarted(seat=first, lap=lap))


# --------------------------------------------------------------------------- who and what


def pending(state: ChampionsState) -> tuple[int, ...]:
    return (state.active,) if state.phase in ASKING else ()


def track_order(state: ChampionsState) -> list[int]:
    """The cars on the track, the one ahead first (backwards or blocked ones too).

    A car's row is how far round the lap it is, so a higher row is ahead (N-LAST-CAR's last car
    is the lowest row); cars side by side in one row: the inside lane first (N-LAP-LIMIT).
    """
    on = [(c.space, c.colour) for c in state.cars if c.on_track and c.space is not None]
    return [colour for (row, lane), colour in sorted(on, key=lambda x: (-x[0][0], x[0][1]))]


def last_cars(state: ChampionsState) -> list[int]:
    """N-LAST-CAR: the cars on the track in the lowest row (backwards or blocked ones too)."""
    order = track_order(state)
    if not order:
        return []
    low = state.cars[order[-1]].row
    return sorted(c for c in order if state.cars[c].row == low)


_occupied_last: tuple[Any, int, frozenset[Space]] = (None, -1, frozenset())
"""The cars `_occupied` was asked of last (by identity: a state that moves no car keeps its
``cars`` tuple), the car left out and the answer."""


def _occupied(state: ChampionsState, but: int) -> frozenset[Space]:
    """``state.occupied(but=but)``, kept from the last ask: a move's ends and then the move
    itself ask it of the same cars."""
    global _occupied_last
    cars, left_out, spaces = _occupied_last
    if cars is state.cars and left_out == but:
        return spaces
    spaces = state.occupied(but=but)
    _occupied_last = (state.cars, but, spaces)
    return spaces


def _ends(state: ChampionsState, colour: int, steps: int) -> list[Any]:
    car = state.cars[colour]
    assert car.space is not None
    return move_ends(
        TRACK,
        car.space,
        steps,
        _occupied(state, colour),
        partial_moves=state.config.partial_moves,
        dead_end_steering=state.config.dead_end_steering,
    )


_last: tuple[Any, Any, list[Action] | None] = (None, None, None)
"""The state and task `_options` answered last, and its answers (read only). A step that stops
at a decision has just listed its answers; the next step checks its action against them, on the
very state the table kept: asked again by identity (states are frozen), they are not worked out
twice. Only a cache: the answers are a function of the state and the task."""


def _options(state: ChampionsState, task: Task) -> list[Action] | None:
    """The answers a task asks of the active player, or None when it needs no decision (the
    list is shared: read it, do not change it)."""
    global _last
    if type(task) in _NO_ANSWER:
        return None
    last = _last
    if last[0] is state and last[1] is task:
        return last[2]
    answers = _answers(state, task)
    _last = (state, task, answers)
    return answers


def _answers(state: ChampionsState, task: Task) -> list[Action] | None:
    """`_options`, worked out."""
    if type(task) is MoveTask:
        car = state.cars[task.car]
        if not car.on_track:
            return None
        if car.backwards:
            if state.config.turn_forward_optional:
                return [TurnForward(), LeaveBackwards()]
            return None
        ends = _ends(state, task.car, task.steps)
        return [ChooseDestination(end=e) for e in ends] or None
    if type(task) is TargetTask:
        on = [c.colour for c in state.cars if c.on_track]
        want = min(COMPONENTS.cards[task.card].cars, len(on))
        return [ChooseTargets(cars=p) for p in permutations(on, want)] or None
    if type(task) is LastCarTask:
        return [ChooseLastCar(car=c) for c in last_cars(state)] or None
    if type(task) is NeighbourTask:
        return [ChooseCrashNeighbour(car=c) for c in crash_neighbours(state, task.car)] or None
    return None


def legal(state: ChampionsState, seat: int) -> list[Any]:
    """What ``seat`` may do now; empty when it is not asked."""
    if state.phase not in ASKING or seat != state.active:
        return []
    if state.phase == "choose_car":
        taken = set(state.seat_car)
        return [ChooseCar(car=c) for c in range(N_CARS) if c not in taken]
    if state.phase == "roll":
        return [Roll()]
    if state.phase == "choose_dice":
        out: list[Any] = list(_DICE_CHOICES)
        if state.shift_gears[seat] > 0 and not state.shifted:
            out.append(ShiftGears())
        return out
    answers = _options(state, state.queue[0]) if state.queue else None
    return list(answers) if answers else []


# --------------------------------------------------------------------------- resolving


def _refusal(state: ChampionsState, action: Any) -> BreaksRule:
    """The one-sentence reason an action that is not legal now is refused."""
    phase = state.phase
    if phase == "choose_car":
        return BreaksRule(
            "Choose a car of this race that no other player has taken.", "N-CAR-CHOICE"
        )
    if phase == "roll":
        return BreaksRule("Roll the dice to start your turn.", "N-ROLL")
    if phase == "choose_dice":
        if isinstance(action, ShiftGears):
            if state.shifted:
                return BreaksRule("You may shift gears only once in a turn.", "N-SHIFT-GEARS")
            return BreaksRule("You have no Shift Gears left this lap.", "N-SHIFT-GEARS")
        return BreaksRule("Choose exactly three different dice, numbered 1 to 5.", "N-CHOOSE-3")
    head = state.queue[0]
    if isinstance(head, MoveTask):
        if state.cars[head.car].backwards:
            return BreaksRule(
                "This car faces backwards: turn it forward or leave it.", "N-TURN-FORWARD"
            )
        return BreaksRule("The car cannot end its move there.", "N-MOVE")
    if isinstance(head, TargetTask):
        n = COMPONENTS.cards[head.card].cars
        what = "one car" if n == 1 else "two different cars"
        return BreaksRule(f"Name {what} on the track for this card.", "N-CARD-TARGETS")
    if isinstance(head, LastCarTask):
        return BreaksRule("Choose one of the cars in last place.", "N-LAST-CAR")
    return BreaksRule("Choose a car next to the crashed car.", "N-CRASH")


def step(state: ChampionsState, seat: int, action: Any, rng: Chance) -> list[Event]:
    """Validate and resolve one action (no chance is drawn before it is accepted)."""
    return resolve(state, seat, action, rng)[0]


def resolve(
    state: ChampionsState, seat: int, action: Any, rng: Chance
) -> tuple[list[Event], ChampionsState]:
    """`step`'s events and the state they fold to (each was folded as it was emitted)."""
    if state.phase == "over":
        raise GameOver()
    if seat not in pending(state):
        raise NotYourTurn(f"It is not seat {seat + 1}'s turn to act.")
    events, after, _ = advance(state, seat, action, rng)
    return events, after


def advance(
    state: ChampionsState, seat: int, action: Any, rng: Chance
) -> tuple[list[Event], ChampionsState, tuple[int, ...]]:
    """`resolve` for a seat its caller found in `pending` (the game not over), with the seats
    `pending` asks after it."""
    if not is_legal(state, seat, action):
        raise _refusal(state, action)
    run = _run(state, seat, action, rng)
    return run.events, run.state, pending(run.state)


def is_legal(state: ChampionsState, seat: int, action: Any) -> bool:
    """``action in legal(state, seat)`` for the seat `pending` asks, without copying the list
    (tests/champions/test_is_legal.py compares the two)."""
    phase = state.phase
    kind = type(action)
    if phase == "roll":
        return kind is Roll
    if phase == "choose_dice":
        if kind is ShiftGears:
            return state.shift_gears[seat] > 0 and not state.shifted
        if kind is not ChooseDice or not isinstance(action.dice, tuple):
            return False
        try:
            return action.dice in _DICE_KEPT
        except TypeError:  # unhashable dice equal none of the choices
            return False
    if phase == "resolve":
        answers = _options(state, state.queue[0]) if state.queue else None
        return answers is not None and action in answers
    return action in legal(state, seat)


def play(state: ChampionsState, seat: int, action: Any, rng: Chance) -> ChampionsState:
    """The state after ``action``, which must be one of ``legal(state, seat)``: `step` without
    the check and the events (a rollout's fast path; the events would fold to this state)."""
    return _run(state, seat, action, rng).state


def _run(state: ChampionsState, seat: int, action: Any, rng: Chance) -> _Run:
    """Resolve an accepted action and every automatic decision after it."""
    run = _Run(state, rng)
    kind = type(action)
    if kind is ChooseCar:
        run.emit(CarOwned(seat=seat, car=action.car))
        if all(c is not None for c in run.state.seat_car):
            _start_lap(run, 1)
    elif kind is Roll:
        run.emit(DiceRolled(seat=seat, faces=_roll(rng)))
    elif kind is ShiftGears:
        run.emit(GearsShifted(seat=seat))
        run.emit(DiceRolled(seat=seat, faces=_roll(rng)))
    elif kind is ChooseDice:
        run.emit(DiceChosen(seat=seat, dice=action.dice))
    else:
        _resolve(run, state.queue[0], action)
    _advance(run)
    return run


def _roll(rng: Chance) -> tuple[int, ...]:
    return tuple([rng.below(N_FACES) for _ in range(N_DICE)])


def _advance(run: _Run) -> None:
    """Take every automatic decision until a player must answer (N-DECISIONS)."""
    while True:
        state = run.state
        if state.phase == "choose_car":
            options = legal(state, state.active)
            if len(options) != 1:
                return
            run.emit(CarOwned(seat=state.active, car=options[0].car))
            if all(c is not None for c in run.state.seat_car):
                _start_lap(run, 1)
            continue
        if state.phase != "resolve":
            return
        if not state.queue:
            limit = state.config.lap_turn_limit
            if limit > 0 and state.turn >= limit:
                _call_lap(run)
                continue
            run.emit(TurnStarted(seat=(state.active + 1) % state.n_seats, lap=state.lap))
            return
        head = state.queue[0]
        answers = _options(state, head)
        if answers is None:
            _resolve(run, head, None)
        elif len(answers) == 1:
            _resolve(run, head, answers[0])
        else:
            return


def _resolve(run: _Run, task: Task, answer: Any) -> None:
    """Resolve the head task, with the player's answer (None when no decision was needed)."""
    state = run.state
    if type(task) is DieTask:
        run.emit(DieResolved(die=task.die, face=state.dice[task.die - 1]))
    elif type(task) is MoveTask:
        _move(run, task, answer)
    elif type(task) is DrawTask:
        _draw_card(run)
    elif type(task) is TargetTask:
        cars = answer.cars if type(answer) is ChooseTargets else ()
        run.emit(CardTargetsChosen(card=task.card, cars=cars))
    elif type(task) is LastCarTask:
        if type(answer) is ChooseLastCar:
            run.emit(LastCarChosen(card=task.card, car=answer.car))
        else:  # no car on the track (cannot happen while a lap runs)
            run.emit(CardTargetsChosen(card=task.card, cars=()))
    elif type(task) is TurnBackTask:
        run.emit(CarTurnedBackwards(car=task.car, card=task.card))
    elif type(task) is NeighbourTask:
        assert type(answer) is ChooseCrashNeighbour
        run.emit(CarTurnedBackwards(car=answer.car, card=task.card))
    elif type(task) is EndCardTask:
        run.emit(CardResolved(card=task.card))
    else:  # pragma: no cover - every task kind is handled above
        raise TypeError(f"unknown task {task!r}")


def _draw_card(run: _Run) -> None:
    """N-CARDS, N-DECK-EMPTY: draw the top Checkered Flag card (reshuffling the discards)."""
    state = run.state
    if state.flag_count <= 0:
        pile = sorted(state.flag_discard)
        run.emit(DeckShuffled(deck="flag", size=len(pile), order=tuple(shuffled(run.rng, pile))))
        state = run.state
    if state.flag_deck is None or not state.flag_deck:  # pragma: no cover - 25 cards suffice
        raise RuntimeError("the Checkered Flag deck and its discards are both empty")
    card = state.flag_deck[0]
    sponsor = COMPONENTS.cards[card].kind == "SPONSOR"
    run.emit(CardDrawn(seat=state.active, card=card, sponsor=sponsor))


def _move(run: _Run, task: MoveTask, answer: Any) -> None:
    """N-COLOUR-DIE's checks (finished, backwards, blocked), then N-MOVE."""
    state = run.state
    car = state.cars[task.car]
    if not car.on_track:
        run.emit(CarBlocked(car=task.car, reason="finished"))
        return
    if car.backwards:
        if type(answer) is LeaveBackwards:
            run.emit(CarLeftBackwards(car=task.car))
        else:
            run.emit(CarTurnedForward(car=task.car))
        return
    assert car.space is not None
    occupied = _occupied(state, task.car)
    if type(answer) is not ChooseDestination:
        blocked = not can_step(TRACK, car.space, occupied)
        run.emit(CarBlocked(car=task.car, reason="blocked" if blocked else "no_end"))
        return
    path = canonical_path(TRACK, car.space, answer.end, task.steps, occupied)
    run.emit(
        CarMoved(car=task.car, start=car.space, path=tuple(path), end=answer.end, steps=task.steps)
    )
    if answer.end is None:
        _finish(run, task.car)
        return
    if not state.red_line_crossed and any(r == TRACK.red_line_row for r, _ in path):
        _red_line(run, task.car)


def _red_line(run: _Run, colour: int) -> None:
    """N-RED-LINE: every player draws a Sponsor card, from the car's owner on, cyclic."""
    state = run.state
    run.emit(RedLineCrossed(car=colour))
    owner = state.owner(colour)
    first = state.active
    if state.config.first_sponsor_drawer == "car_owner" and owner is not None:
        first = owner
    for k in range(state.n_seats):
        _deal_sponsor(run, (first + k) % state.n_seats, "red_line")


def _finish(run: _Run, colour: int) -> None:
    """N-FINISH, N-LAP-END: the next free place; after the 4th, the 5th at once, and the lap ends."""
    run.emit(CarFinished(car=colour, place=len(run.state.places) + 1))
    if len(run.state.places) == N_CARS - 1:
        last = next(c.colour for c in run.state.cars if c.on_track)
        run.emit(CarFinished(car=last, place=N_CARS))
        _end_lap(run)


def _call_lap(run: _Run) -> None:
    """N-LAP-LIMIT: after the limit's last turn the cars on the track finish in track order."""
    state = run.state
    run.emit(LapCalled(lap=state.lap, turns=state.turn))
    for colour in track_order(state):
        run.emit(CarFinished(car=colour, place=len(run.state.places) + 1))
    _end_lap(run)


def _end_lap(run: _Run) -> None:
    """N-LAP-END, N-LAP-SCORE, then N-LAP2-SETUP or N-GAME-END."""
    state = run.state
    lap = state.lap
    run.emit(LapEnded(lap=lap, places=state.places))
    run.emit(SponsorsRevealed(hands=state.sponsors))
    money = money_table(state.config)
    for seat in range(state.n_seats):
        colour = state.seat_car[seat]
        assert colour is not None
        place = state.places.index(colour)
        prize = money.race_prize[lap - 1][place]
        sponsor = 0
        for held in state.sponsors[seat]:
            assert held.colour is not None
            pays = money.base_sponsor if held.source == "base" else money.deck_sponsor
            held_place = state.places.index(held.colour)
            if held_place < len(pays):
                sponsor += pays[held_place]
        run.emit(MoneyAwarded(seat=seat, lap=lap, prize=prize, sponsor=sponsor))
    if lap < LAPS:
        run.emit(LapStarted(lap=lap + 1))
        _start_lap(run, lap + 1)
    else:
        run.emit(GameEnded(ranking=tuple(ranking(run.state)), money=run.state.money))


def ranking(state: ChampionsState) -> list[int]:
    """Seats by total money, high first; N-TIEBREAK: the nearer-first car in lap 2."""
    last_lap = state.lap_places[-1] if state.lap_places else ()

    def key(seat: int) -> tuple[int, int]:
        colour = state.seat_car[seat]
        place = last_lap.index(colour) if colour in last_lap else N_CARS
        return (-state.money[seat], place)

    return sorted(range(state.n_seats), key=key)
