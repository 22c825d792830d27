"""Movement on the NASCAR Champions track: steps, blocked cars, move ends and canonical paths.

Owns N-STEP, N-BLOCKED (for forward cars), N-MOVE (the end options of "move N" and the canonical
path to a chosen end) as pure functions of the track data, the occupied spaces and the options.
A space is ``(row, lane)``; ``FINISH`` (``None``) stands for the finish line as an end.

Must not: know about turns, cards, players or facing (callers check finished and backwards
cars first, N-COLOUR-DIE), or draw chance.

>>> from core.champions.data import COMPONENTS
>>> t = COMPONENTS.track
>>> move_ends(t, (0, 0), 2, frozenset({(2, 0)}))
[(2, 1), (2, 2)]
>>> canonical_path(t, (0, 0), (2, 2), 2, frozenset({(2, 0)}))
[(1, 1), (2, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable

from core.champions.data import Track
from core.memo import memo

__all__ = ["FINISH", "Space", "can_step", "canonical_path", "move_ends", "neighbours", "steps_from"]

Space = tuple[int, int]
FINISH = None
"""The finish line as a move end."""

End = Space | None


def steps_from(track: Track, space: Space, occupied: frozenset[Space]) -> list[Space]:
    """The spaces one step can reach, in canonical order: straight, inside, outside.

    A step from the last row finishes the car; that is not a space, so this returns [] there
    (see ``can_step``).
    """
    return _steps(track.lanes, space, occupied)


# The caches below are keyed by the track's ``lanes`` (all the geometry a step needs; cheaper
# to hash than the whole `Track` on every call).


def _steps(lanes: tuple[int, ...], space: Space, occupied: frozenset[Space]) -> list[Space]:
    """`steps_from` on the lanes alone."""
    row, lane = space
    nxt = row + 1
    if nxt >= len(lanes):
        return []
    width = lanes[nxt]
    return [
        (nxt, c) for c in (lane, lane - 1, lane + 1) if 0 <= c < width and (nxt, c) not in occupied
    ]


def can_step(track: Track, space: Space, occupied: frozenset[Space]) -> bool:
    """N-STEP: a step is possible (always from the last row: it finishes the car)."""
    return space[0] == track.rows - 1 or bool(steps_from(track, space, occupied))


def move_ends(
    track: Track,
    start: Space,
    steps: int,
    occupied: frozenset[Space],
    *,
    partial_moves: bool = True,
    dead_end_steering: bool = True,
) -> list[End]:
    """N-MOVE: the end options of "move ``steps``" from ``start`` (spaces by (row, lane), then
    ``FINISH``). ``occupied`` holds the other cars' spaces. Empty when the car cannot move."""
    return list(_move_ends(track.lanes, start, steps, occupied, partial_moves, dead_end_steering))


@memo
def _move_ends(
    lanes: tuple[int, ...],
    start: Space,
    steps: int,
    occupied: frozenset[Space],
    partial_moves: bool,
    dead_end_steering: bool,
) -> tuple[End, ...]:
    last = len(lanes) - 1
    dead: set[Space] = set()
    finish = False
    frontier: set[Space] = {start}
    for taken in range(1, steps + 1):
        reached: set[Space] = set()
        for space in frontier:
            if space[0] == last:
                finish = True
                continue
            nxt = _steps(lanes, space, occupied)
            if not nxt and taken > 1:
                dead.add(space)
            reached.update(nxt)
        frontier = reached
        if not frontier:
            break
    full = frontier
    # spaces reached on the last step with no way on are ordinary (a) ends, not dead ends
    ends: list[End] = [*sorted(full)]
    if finish:
        ends.append(FINISH)
    if partial_moves and (dead_end_steering or not ends):
        ends = [*sorted(full | dead)]
        if finish:
            ends.append(FINISH)
    return tuple(ends)


@memo
def _reaches(
    lanes: tuple[int, ...], space: Space, end: End, left: int, occupied: frozenset[Space]
) -> bool:
    """Whether a route from ``space`` reaches ``end`` in at most ``left`` more steps."""
    if end is FINISH:
        need = len(lanes) - space[0]
        if need > left:
            return False
        if space[0] == len(lanes) - 1:
            return True
        return any(
            _reaches(lanes, s, end, left - 1, occupied) for s in _steps(lanes, space, occupied)
        )
    if space == end:
        return True
    if space[0] >= end[0] or end[0] - space[0] > left:
        return False
    return any(_reaches(lanes, s, end, left - 1, occupied) for s in _steps(lanes, space, occupied))


def canonical_path(
    track: Track, start: Space, end: End, steps: int, occupied: frozenset[Space]
) -> list[Space]:
    """The spaces entered on the way to ``end`` (for ``FINISH``: up to the last row), taking at
    each step the first of straight, inside, outside from which ``end`` can still be reached."""
    return list(_canonical_path(track.lanes, start, end, steps, occupied))


@memo
def _canonical_path(
    lanes: tuple[int, ...], start: Space, end: End, steps: int, occupied: frozenset[Space]
) -> tuple[Space, ...]:
    path: list[Space] = []
    space = start
    left = steps
    while True:
        if end is not FINISH and space == end:
            return tuple(path)
        if end is FINISH and space[0] == len(lanes) - 1:
            return tuple(path)
        for nxt in _steps(lanes, space, occupied):
            if _reaches(lanes, nxt, end, left - 1, occupied):
                path.append(nxt)
                space = nxt
                left -= 1
                break
        else:
            raise ValueError(f"{end} cannot be reached from {start} in {steps} steps")


def neighbours(track: Track, space: Space, others: Iterable[Space]) -> list[Space]:
    """The up to 8 spaces around ``space`` (no wrap from the last row to row 0) that hold one of
    ``others``, in (row, lane) order."""
    row, lane = space
    around = {
        (r, ln)
        for r in (row - 1, row, row + 1)
        for ln in (lane - 1, lane, lane + 1)
        if (r, ln) != space and 0 <= r < track.rows
    }
    return sorted(s for s in set(others) if s in around)
