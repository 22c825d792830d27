"""Movement on the track: N-STEP, N-MOVE (ends, dead ends, finish, canonical paths), N-BLOCKED."""

from __future__ import annotations

from core.champions.data import COMPONENTS
from core.champions.track import FINISH, can_step, canonical_path, move_ends, neighbours

T = COMPONENTS.track


def test_n_step_straight_or_diagonal_never_sideways_or_back():
    """N-STEP."""
    ends = move_ends(T, (5, 1), 1, frozenset())
    assert ends == [(6, 0), (6, 1), (6, 2)]
    ends = move_ends(T, (5, 0), 1, frozenset())
    assert ends == [(6, 0), (6, 1)]  # no lane -1
    assert all(r == 6 for r, _ in ends)


def test_n_step_target_must_be_empty_and_last_row_always_steps():
    """N-STEP."""
    occupied = frozenset({(6, 0), (6, 1)})
    assert move_ends(T, (5, 0), 1, occupied) == []
    assert not can_step(T, (5, 0), occupied)
    assert can_step(T, (23, 0), frozenset({(0, 0), (0, 1)}))
    assert move_ends(T, (23, 2), 3, frozenset()) == [FINISH]


def test_n_move_finish_ends_the_move_and_steps_are_lost():
    """N-MOVE."""
    ends = move_ends(T, (21, 1), 5, frozenset())
    assert ends == [FINISH]
    assert canonical_path(T, (21, 1), FINISH, 5, frozenset()) == [(22, 1), (23, 1)]


def test_n_move_dead_end_options_follow_the_options():
    """N-MOVE."""
    # example 7a: Yellow (19,0) moves 2; Red (21,0), Green (21,1)
    occ = frozenset({(21, 0), (21, 1)})
    assert move_ends(T, (19, 0), 2, occ) == [(20, 0), (21, 2)]
    assert move_ends(T, (19, 0), 2, occ, partial_moves=False) == [(21, 2)]
    assert move_ends(T, (19, 0), 2, occ, dead_end_steering=False) == [(21, 2)]
    assert canonical_path(T, (19, 0), (21, 2), 2, occ) == [(20, 1), (21, 2)]


def test_n_move_dead_ends_only_when_nothing_else_without_steering():
    """N-MOVE."""
    # example 3: row 11 full, Yellow (7,0) moves 7, Red forward on (10,1)
    occ = frozenset({(11, 0), (11, 1), (11, 2), (10, 1)})
    assert move_ends(T, (7, 0), 7, occ) == [(10, 0), (10, 2)]
    assert move_ends(T, (7, 0), 7, occ, dead_end_steering=False) == [(10, 0), (10, 2)]
    assert move_ends(T, (7, 0), 7, occ, partial_moves=False) == []


def test_n_move_canonical_path_prefers_straight_then_inside_then_outside():
    """N-MOVE."""
    # example 1: Back Burner path for Yellow (2,2) -> (9,1)
    occ = frozenset({(3, 2), (4, 1), (6, 1), (7, 0)})
    path = canonical_path(T, (2, 2), (9, 1), 7, occ)
    assert path == [(3, 1), (4, 0), (5, 0), (6, 0), (7, 1), (8, 1), (9, 1)]
    assert canonical_path(T, (3, 1), (4, 1), 1, frozenset()) == [(4, 1)]
    assert canonical_path(T, (3, 1), (5, 0), 2, frozenset()) == [(4, 1), (5, 0)]


def test_n_blocked_no_first_step_means_no_end():
    """N-BLOCKED."""
    occ = frozenset({(3, 1), (3, 2)})
    assert move_ends(T, (2, 2), 3, occ) == []
    assert not can_step(T, (2, 2), occ)


def test_n_crash_neighbours_are_the_eight_around_without_wrap():
    """N-CRASH."""
    others = [(4, 0), (5, 2), (6, 1), (3, 1), (0, 0)]
    assert neighbours(T, (5, 1), others) == [(4, 0), (5, 2), (6, 1)]
    assert neighbours(T, (23, 0), [(0, 0), (22, 1)]) == [(22, 1)]
