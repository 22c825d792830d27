"""Shared frames: sessions whose screens would draw the same bytes get one session's output.

Owns `Mirror` (the process-wide groups) and `MirrorMember` (what a driver implements to take
part). Spectators of one table, watching from the same perspective in terminals of the same
size, theme and colour depth, see identical frames; rendering each frame once per session is
most of a busy server's CPU (issue 11). A session whose screen offers itself with a *key* (the
screen decides what the key must include) joins the group of that key: the first member is the
*leader* and renders as usual, and every byte it writes is also written to the others, the
*followers*, whose own apps keep folding their streams but draw nothing. Joining, a follower is
first sent one full frame of the leader's screen.

A leader whose screen changes the same way for every member (a summary every spectator's
app opens at the same step) moves its group to a new key (`Mirror.rekey`) and goes on
leading. A follower leaves on its first own input (a key, a click, a resize) or screen change: its
screen catches up (one redraw and a full frame of its own), and from then on it renders for
itself. A leader that leaves hands the group to the next follower, which catches up the same
way; its full frame goes to the remaining followers too, so every terminal of the group shows
the new leader's screen from then on. Nothing of a session's own state is shared: only bytes.

Must not: import tui, know what a screen shows, or keep a member that has left.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable
from typing import Protocol

__all__ = ["MIRROR", "Mirror", "MirrorMember", "enabled"]


def enabled() -> bool:
    """Shared frames are on unless ``SPEEDWAY_SHARED_FRAMES=0`` (for before/after figures)."""
    return os.environ.get("SPEEDWAY_SHARED_FRAMES", "1") != "0"


class MirrorMember(Protocol):
    """A session's output, as a group sees it (`net.ssh_driver.SSHDriver`)."""

    def write_bytes(self, data: bytes) -> None:
        """Put ``data`` on this member's terminal as it is."""

    def paint_full_to(self, other: MirrorMember) -> None:
        """Send ``other`` one full frame of this member's current screen."""


class _Group:
    __slots__ = ("catch_up", "members")

    def __init__(self) -> None:
        self.members: list[MirrorMember] = []
        self.catch_up: dict[int, Callable[[], None]] = {}


class Mirror:
    """Groups of members by key; the first member of a group leads."""

    def __init__(self) -> None:
        self._groups: dict[Hashable, _Group] = {}
        self._key_of: dict[int, Hashable] = {}

    def join(self, member: MirrorMember, key: Hashable, catch_up: Callable[[], None]) -> bool:
        """Add ``member`` to ``key``'s group; True if it follows (another member leads).

        ``catch_up`` is called when the member has to draw for itself again (it left as a
        follower, or it takes over the lead); while it follows, it must draw nothing.
        """
        self.leave(member)
        group = self._groups.setdefault(key, _Group())
        group.members.append(member)
        group.catch_up[id(member)] = catch_up
        self._key_of[id(member)] = key
        if len(group.members) == 1:
            return False
        group.members[0].paint_full_to(member)
        return True

    def role(self, member: MirrorMember) -> str | None:
        """``"leader"``, ``"follower"`` or None (not in a group)."""
        key = self._key_of.get(id(member))
        if key is None:
            return None
        return "leader" if self._groups[key].members[0] is member else "follower"

    def followers(self, member: MirrorMember) -> list[MirrorMember]:
        """The members that receive ``member``'s output (empty unless it leads a group)."""
        key = self._key_of.get(id(member))
        if key is None:
            return []
        members = self._groups[key].members
        return members[1:] if members[0] is member else []

    def leave(self, member: MirrorMember) -> None:
        """Take ``member`` out of its group. A follower that leaves catches up; when the leader
        leaves, the next member leads and catches up (its frame reaches the others)."""
        key = self._key_of.pop(id(member), None)
        if key is None:
            return
        group = self._groups[key]
        was_leader = group.members[0] is member
        group.members.remove(member)
        catch_up = group.catch_up.pop(id(member))
        if not group.members:
            del self._groups[key]
        if not was_leader:
            catch_up()
        elif group.members:
            group.catch_up[id(group.members[0])]()

    def rekey(self, member: MirrorMember, key: Hashable) -> bool:
        """Move the group ``member`` leads, followers and all, to ``key`` (its screen changed
        for every member alike, and sessions offering the old key must not join it). False,
        and nothing moves, if ``member`` leads no group or ``key`` has a group already (``key`` being its own key already is fine)."""
        old = self._key_of.get(id(member))
        if old is None or self._groups[old].members[0] is not member:
            return False
        if old == key:
            return True  # already there (a follower that took the lead, at the same step)
        if key in self._groups:
            return False
        group = self._groups.pop(old)
        self._groups[key] = group
        for each in group.members:
            self._key_of[id(each)] = key
        return True

    def groups(self) -> dict[Hashable, int]:
        """Members per key (for tests and the load benchmark's summary)."""
        return {key: len(group.members) for key, group in self._groups.items()}


MIRROR = Mirror()
"""The process's groups: every session of one server process shares them."""
