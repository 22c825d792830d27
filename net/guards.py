"""Who may open a new SSH connection now: sshd's MaxStartups, PerSourceMaxStartups and
PerSourcePenalties, plus a per-source connection rate, as one small bookkeeping class.

Owns `Admission` (counts of unauthenticated connections in total and per source network,
random early drop between ``startups_begin`` and ``max_startups``, a per-minute connection
rate per source, and penalties a source earns by failing auth, leaving without trying, or
exceeding the login grace time) and `Refusal` (why, as one sentence, and when to retry).
Memory is bounded: at most ``max_tracked`` sources are remembered (least recently seen first
out), as wish's LRU of rate limiters does.

Must not: touch sockets or asyncssh (the server asks and acts), or read the wall clock (the
clock is injected; monotonic in the server).
"""

from __future__ import annotations

import ipaddress
import math
import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

__all__ = ["PENALTIES", "Admission", "Bucket", "Refusal", "Tries", "source_of"]

PENALTIES: dict[str, float] = {
    "authfail": 5.0,  # tried to log in and failed
    "noauth": 1.0,  # connected and left without trying
    "grace": 10.0,  # held a slot for the whole login grace time
}
"""Seconds a source's penalty grows per offence (sshd's PerSourcePenalties defaults)."""


class Refusal(msgspec.Struct, frozen=True):
    """Why a connection is refused (a log word and a sentence) and when to try again."""

    reason: str
    retry_after: int

    @property
    def message(self) -> str:
        words = {
            "shutting_down": "The server is shutting down",
            "penalty": "Too many failed or abandoned logins came from your address",
            "rate_limited": "Too many new connections came from your address",
            "per_source": "Your address already has too many logins in progress",
            "too_many_unauthenticated": "The server has too many logins in progress",
        }
        why = words.get(self.reason, "The server cannot take your connection now")
        return f"Speedway: {why}; please try again in {self.retry_after} s."


def source_of(addr: str) -> str:
    """The network a peer address is counted in: the address itself for IPv4 (/32), its /64
    for IPv6 (one host usually owns a whole /64).

    >>> source_of("192.0.2.7"), source_of("2001:db8::1:2:3:4")
    ('192.0.2.7', '2001:db8::/64')
    """
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass
class _Source:
    hits: deque[float] = field(default_factory=deque)  # connection times in the last minute
    pending: int = 0  # unauthenticated connections now
    penalty_until: float = 0.0
    penalised: bool = False  # the penalty reached ``penalty_min`` and now refuses


class Admission:
    """Bookkeeping for pre-auth admission (see the module docstring).

    ``admit`` either returns a `Refusal` or counts the connection as pending; every admitted
    connection must later call ``release`` exactly once (authenticated or gone). ``random``
    returns a float in [0, 1) (tests inject a fixed one).
    """

    def __init__(
        self,
        *,
        startups_begin: int,
        startups_rate: int,
        max_startups: int,
        per_source_startups: int,
        per_source_per_minute: int,
        penalty_min: float = 15.0,
        penalty_max: float = 600.0,
        max_tracked: int = 65536,
        clock: Callable[[], float],
        random: Callable[[], float] | None = None,
    ) -> None:
        self.full = max(1, max_startups)
        self.begin = max(0, min(startups_begin, self.full))
        self.rate = max(0, min(startups_rate, 100)) / 100.0
        self.per_source = max(1, per_source_startups)
        self.per_minute = per_source_per_minute
        self.penalty_min = penalty_min
        self.penalty_max = penalty_max
        self.max_tracked = max_tracked
        self.clock = clock
        self.random = random if random is not None else secrets.SystemRandom().random
        self.pending = 0
        self._sources: OrderedDict[str, _Source] = OrderedDict()

    def _source(self, key: str) -> _Source:
        src = self._sources.get(key)
        if src is None:
            src = self._sources[key] = _Source()
            while len(self._sources) > self.max_tracked:
                old_key, old = next(iter(self._sources.items()))
                if old.pending:  # never forget a source with connections in progress
                    self._sources.move_to_end(old_key)
                    if all(s.pending for s in self._sources.values()):
                        break
                    continue
                self._sources.popitem(last=False)
        else:
            self._sources.move_to_end(key)
        return src

    def drop_probability(self) -> float:
        """sshd MaxStartups: 0 below ``begin``, ``rate`` at it, rising linearly to 1 at full."""
        n = self.pending
        if n < self.begin:
            return 0.0
        if n >= self.full:
            return 1.0
        span = self.full - self.begin
        return self.rate + (1.0 - self.rate) * (n - self.begin) / span

    def admit(self, addr: str) -> Refusal | None:
        now = self.clock()
        src = self._source(source_of(addr))
        if src.penalised:
            if now < src.penalty_until:
                return Refusal("penalty", math.ceil(src.penalty_until - now))
            src.penalised = False
        while src.hits and now - src.hits[0] > 60.0:
            src.hits.popleft()
        if len(src.hits) >= self.per_minute:
            return Refusal("rate_limited", max(1, math.ceil(60.0 - (now - src.hits[0]))))
        src.hits.append(now)
        if src.pending >= self.per_source:
            return Refusal("per_source", 10)
        p = self.drop_probability()
        if p >= 1.0 or (p > 0.0 and self.random() < p):
            return Refusal("too_many_unauthenticated", 10)
        src.pending += 1
        self.pending += 1
        return None

    def release(self, addr: str, offence: str | None = None) -> None:
        """An admitted connection authenticated or went away (``offence``: see `PENALTIES`)."""
        src = self._source(source_of(addr))
        if src.pending > 0:
            src.pending -= 1
            self.pending -= 1
        if offence is not None:
            self.penalise(addr, offence)

    def penalise(self, addr: str, offence: str) -> None:
        now = self.clock()
        src = self._source(source_of(addr))
        base = max(src.penalty_until, now)
        src.penalty_until = min(base + PENALTIES.get(offence, 1.0), now + self.penalty_max)
        if src.penalty_until - now >= self.penalty_min:
            src.penalised = True

    def penalty(self, addr: str) -> float:
        """Seconds of penalty ``addr``'s source has now (0 when none)."""
        src = self._sources.get(source_of(addr))
        return 0.0 if src is None else max(0.0, src.penalty_until - self.clock())

    @property
    def tracked(self) -> int:
        return len(self._sources)


class Tries:
    """At most ``limit`` events per key in any ``window`` seconds (wrong invite codes, new
    nicknames), with at most ``max_keys`` keys remembered."""

    def __init__(
        self, limit: int, window: float, *, clock: Callable[[], float], max_keys: int = 4096
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._keys: OrderedDict[str, deque[float]] = OrderedDict()

    def _times(self, key: str) -> deque[float]:
        times = self._keys.get(key)
        if times is None:
            times = self._keys[key] = deque()
            while len(self._keys) > self.max_keys:
                self._keys.popitem(last=False)
        else:
            self._keys.move_to_end(key)
        now = self.clock()
        while times and now - times[0] > self.window:
            times.popleft()
        return times

    def wait(self, key: str) -> int:
        """Seconds until ``key`` may try again (0: now)."""
        times = self._times(key)
        if len(times) < self.limit:
            return 0
        return max(1, math.ceil(self.window - (self.clock() - times[0])))

    def hit(self, key: str) -> None:
        self._times(key).append(self.clock())


class Bucket:
    """A token bucket that may go into debt: `spend` says how long to pause to pay it back.

    >>> b = Bucket(rate=10.0, burst=20, clock=lambda: 0.0)
    >>> b.spend(15), b.spend(10)
    (0.0, 0.5)
    """

    def __init__(self, *, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = float(burst)
        self._time = clock()

    def spend(self, n: float) -> float:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._time) * self.rate)
        self._time = now
        self.tokens -= n
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate
