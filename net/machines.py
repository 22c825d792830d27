"""The machine registry of a bus: which machines have a live process on it right now.

Owns `machine_id`, the registry scripts (`HEARTBEAT`, `LEAVE`) and `others`. A *machine* here is
the domain of the data dir's lock files (`net.persist`: ``DATA/tables/ID.lock``, flock): the
processes of one kernel that share one data dir. Within one machine a table still owned by a
live process (its lock file held) is never taken over by another of that machine's processes,
even when its owner is cut off from Redis; only a process of *another* machine could do that.
So an owner that loses the bus needs to pause its tables (`net.bus_hub`, fencing) only if
another machine was live on the bus when it last reached Redis.

Registry: the sorted set ``machines`` (members ``MACHINE|WORKER``, scored with the moment, in
Redis's own clock, when the entry expires). Every process adds itself and reads the others in
one script (`HEARTBEAT`), with its lease renewals (`net.leases`) and with every lease claim
(`net.bus.Bus.claim`): a process is registered before it can own anything, and an owner knows,
from its last contact with Redis, whether another machine was live then. Entries expire after
`ttl` (ten leases: a process that misses a few heartbeats still counts); a process that closes
takes its own entry out (`LEAVE`), its machine's other processes keep theirs.

Must not: decide anything (the bus hub does), or touch tables.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from pathlib import Path

__all__ = ["HEARTBEAT", "LEAVE", "TTL_LEASES", "Peers", "machine_id", "others"]

log = logging.getLogger("speedway.bus")

TTL_LEASES = 10  # a registry entry lives this many leases after its last heartbeat

# KEYS[1] machines. ARGV: our member, ttl ms. Adds (or refreshes) us, drops expired entries,
# returns every live member (ours too). The clock is Redis's own, so machines' clocks never
# matter. (replicate_commands: before Redis 5, a write after TIME needs it; a no-op since.)
HEARTBEAT = """
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""
# KEYS[1] machines. ARGV[1] our member.
LEAVE = "return redis.call('ZREM', KEYS[1], ARGV[1])"

_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


def _boot_id() -> str:
    """This kernel's boot id (random at every boot; shared by its containers, which see the same
    flock locks), else ``"-"`` (no /proc: the hostname alone tells machines apart)."""
    try:
        return _BOOT_ID.read_text().strip().replace("-", "")[:12] or "-"
    except OSError:
        return "-"


def machine_id(data_dir: Path | None) -> str:
    """``HOST/BOOT/DEV-INODE`` of the data dir's ``tables/`` (where the lock files are): equal
    for exactly the processes whose lock files see each other (one kernel, one data dir,
    however it is named). Without a data dir there are no lock files: the process is a machine
    of its own (to every other process, even of this host: it may take a table over, so an
    owner then pauses rather than plays on)."""
    host = socket.gethostname().replace("|", "_") or "host"
    try:
        st = None
        if data_dir is not None:  # the folder of the lock files (`net.persist`), made if new
            root = data_dir / "tables"
            root.mkdir(parents=True, exist_ok=True)
            os.chmod(root, 0o700)
            st = os.stat(root)
    except OSError:
        st = None  # (unusable: a machine of its own, as without a data dir)
    if st is None:
        return f"{host}/{_boot_id()}/p{os.getpid()}-{secrets.token_hex(4)}"
    return f"{host}/{_boot_id()}/{st.st_dev:x}-{st.st_ino:x}"


def others(members: list[bytes] | list[str], machine: str) -> set[str]:
    """The machines other than ``machine`` among a `HEARTBEAT` answer."""
    out: set[str] = set()
    for raw in members:
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        name = text.rpartition("|")[0]
        if name != machine:
            out.add(name)
    return out


class Peers:
    """What one process knows of the other machines on its bus: the registry as it was at its
    last contact with Redis (a `HEARTBEAT` answer, from the lease keeper's thread or the event
    loop; the latest sent wins)."""

    def __init__(self, machine: str, worker: str, lease: float) -> None:
        self.machine = machine
        self.member = f"{machine}|{worker}"
        self.ttl_ms = int(lease * TTL_LEASES * 1000)
        self.others: frozenset[str] | None = None  # None: Redis not reached yet
        self._at = float("-inf")
        self._lock = threading.Lock()

    def args(self) -> list[str | int]:
        return [self.member, self.ttl_ms]

    def saw(self, members: list[bytes] | list[str], sent: float) -> None:
        """A `HEARTBEAT` answer to a call sent at ``sent`` (monotonic)."""
        seen = frozenset(others(members, self.machine))
        with self._lock:
            if sent >= self._at:
                self._at = sent
                if seen != self.others and self.others is not None:
                    log.info("event=machines machine=%s others=%d", self.machine, len(seen))
                self.others = seen

    @property
    def alone(self) -> bool:
        """At our last contact with Redis, no other machine had a live process on the bus (so
        none can take a table of ours over: `net.bus_hub` keeps playing when the bus is lost).
        Not known yet counts as not alone."""
        others = self.others
        return others is not None and not others
