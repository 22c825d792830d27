"""`net.mirror.Mirror`: who leads, who follows, who is told to draw again, and when."""

from __future__ import annotations

from net.mirror import Mirror


class Member:
    def __init__(self, name: str) -> None:
        self.name = name
        self.got: list[bytes] = []
        self.full_frames_sent_to: list[str] = []

    def write_bytes(self, data: bytes) -> None:
        self.got.append(data)

    def paint_full_to(self, other: Member) -> None:  # type: ignore[override]
        self.full_frames_sent_to.append(other.name)


def test_the_first_member_leads_and_each_joiner_gets_one_full_frame() -> None:
    mirror = Mirror()
    a, b, c = Member("a"), Member("b"), Member("c")
    told: list[str] = []
    assert mirror.join(a, "k", lambda: told.append("a")) is False
    assert mirror.join(b, "k", lambda: told.append("b")) is True
    assert mirror.join(c, "k", lambda: told.append("c")) is True
    assert mirror.role(a) == "leader"
    assert mirror.role(b) == mirror.role(c) == "follower"
    assert mirror.followers(a) == [b, c]
    assert mirror.followers(b) == []
    assert a.full_frames_sent_to == ["b", "c"]
    assert mirror.groups() == {"k": 3}
    assert told == []


def test_a_follower_that_leaves_is_told_to_draw_again_and_nobody_else() -> None:
    mirror = Mirror()
    a, b, c = Member("a"), Member("b"), Member("c")
    told: list[str] = []
    for m in (a, b, c):
        mirror.join(m, "k", lambda m=m: told.append(m.name))
    mirror.leave(b)
    assert told == ["b"]
    assert mirror.role(b) is None
    assert mirror.followers(a) == [c]
    mirror.leave(b)  # leaving twice is nothing
    assert told == ["b"]


def test_a_leader_that_leaves_hands_over_to_the_next_which_draws_again() -> None:
    mirror = Mirror()
    a, b, c = Member("a"), Member("b"), Member("c")
    told: list[str] = []
    for m in (a, b, c):
        mirror.join(m, "k", lambda m=m: told.append(m.name))
    mirror.leave(a)
    assert told == ["b"]  # the new leader catches up; its frames then reach c
    assert mirror.role(b) == "leader"
    assert mirror.followers(b) == [c]
    mirror.leave(b)
    mirror.leave(c)
    assert mirror.groups() == {}
    assert told == ["b", "c"]


def test_groups_are_by_key_and_joining_another_key_leaves_the_first() -> None:
    mirror = Mirror()
    a, b, c = Member("a"), Member("b"), Member("c")
    told: list[str] = []
    mirror.join(a, "k1", lambda: told.append("a"))
    mirror.join(b, "k2", lambda: told.append("b"))
    assert mirror.role(a) == mirror.role(b) == "leader"
    mirror.join(c, "k1", lambda: told.append("c"))
    mirror.join(c, "k2", lambda: told.append("c2"))
    assert told == ["c"]  # it left k1 as a follower (drew again), then follows b
    assert mirror.groups() == {"k1": 1, "k2": 2}
    assert mirror.followers(b) == [c]
