"""`speedway serve`: the asyncssh server that runs one Speedway app per SSH session.

Owns the SSH side of the hub (DESIGN.md "Table, hub, server"; STYLE.md #13-16): the host key
(generated once into ``DATA/keys/``, 0600, never silently replaced), identity (the client key's
SHA-256 fingerprint, bound after auth, plus a nickname chosen on the first visit), guests
(``--allow-guests``: keyboard-interactive without a password, no seat reservation), the
non-interactive commands ``replays`` and ``replay ID`` (a private table's replay only for its
players and invitees, `net.replay_access`), and the chain of guards around each
session, sshd-style:

* pre-auth (`net.guards.Admission`): sshd's MaxStartups start:rate:full random early drop,
  a per-source cap on unauthenticated connections, per-source penalties for failed,
  abandoned and grace-exceeding logins, a per-source connection rate; a refused client reads
  why and when to retry (the disconnect reason, one line); a login grace time, an
  auth-attempt cap; KEX, MAC and cipher lists that ssh-audit passes; a neutral version string;
  no agent, X11, TCP/UNIX forwarding, SFTP, SCP, subsystems or shell commands (asyncssh's line
  editor off);
* authenticated connections without a session (`ssh -N`): capped and timed out;
* per session: a PTY is required for play; terminal size clamped (0x0 handled); keepalive;
  idle timeout; input limited in bytes and in key events (a flood is slowed by pausing
  reads, then dropped with a sentence); wrong invite codes throttled; a bounded output buffer (a client that stops reading is
  dropped and keeps its seat); at most ``max_sessions`` apps (a friendly "full" line beyond),
  at most 4 app start-ups at once; an exception barrier that ends only that session;
* one structured log line per connect, auth failure and disconnect;
* SIGTERM/SIGINT: stop accepting, tell players, flush and fsync the table logs, close.

The app itself is injected (``app_factory``): net never imports tui.

Must not: import tui, do rules, or write table files itself (that is `net.local_hub`).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import contextvars
import functools
import gc
import io
import logging
import os
import secrets
import signal
import stat
import sys
import time
import unicodedata
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import asyncssh
import msgspec

from net.collector import Collector
from net.guards import Admission, Bucket, Refusal, Tries, source_of
from net.hub import Hub, HubError, Identity, TableInfo, TableSpec, Watch
from net.local_hub import LocalHub
from net.players import PlayerBook
from net.replay_access import ReplayAccess
from net.sanitize import NICK_MAX, clean_for_log, nickname_error, normalise_nickname
from net.ssh_driver import SSHDriver, clamp_size

__all__ = ["AppFactory", "Limits", "SpeedwayServer", "load_or_create_host_key", "serve"]

log = logging.getLogger("speedway.server")

AppFactory = Callable[..., Any]
"""``app_factory(hub=, identity=, driver_class=, data_dir=) -> textual.app.App``; an app may
offer ``release()``, called once the session is over to cut its reference cycles."""
RELEASE_AFTER = 1.0  # seconds after a session's app ended: its last callbacks have run

SERVER_VERSION = "Server"  # neutral: no software name or version on the wire
_SAFE_ALGS = (
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
)
# What ssh-audit passes: hybrid post-quantum and curve25519 key exchange, DH groups of at least
# 4096 bits with SHA-2; encrypt-then-MAC SHA-2 MACs (GCM needs none). No SHA-1, no NIST curves,
# no group-exchange (a client could ask for a small group), no 64-bit tags. Strict KEX
# (Terrapin) is always offered by asyncssh >= 2.14.2.
_KEX_ALGS = (
    "mlkem768x25519-sha256",
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
    "diffie-hellman-group18-sha512",
    "diffie-hellman-group16-sha512",
)
_MAC_ALGS = (
    "hmac-sha2-256-etm@openssh.com",
    "hmac-sha2-512-etm@openssh.com",
    "umac-128-etm@openssh.com",
)


def _offered(wanted: tuple[str, ...], available: list[bytes]) -> list[str]:
    """``wanted`` in order, keeping only what this asyncssh build implements."""
    have = {a.decode() for a in available}
    return [a for a in wanted if a in have]


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """Every guard's number in one place (defaults from shared/notes/ssh-textual.md §7 and
    sshd's: MaxStartups 10:30:100, PerSourcePenalties, UnusedConnectionTimeout)."""

    max_sessions: int = 100
    # Pre-auth (sshd MaxStartups start:rate:full): from ``startups_begin`` unauthenticated
    # connections on, a new one is dropped with ``startups_rate`` % chance, rising linearly
    # to certain at ``max_startups``.
    startups_begin: int = 10
    startups_rate: int = 30
    max_startups: int = 100
    per_source_startups: int = 4  # unauthenticated connections per source at once
    per_source_per_minute: int = 60  # new connections per source address per minute
    penalty_min: float = 15.0  # PerSourcePenalties: refuse once this much has accrued ...
    penalty_max: float = 600.0  # ... for at most this long
    max_refusing: int = 32  # refused connections told why at once (beyond: closed silently)
    refuse_linger: float = 5.0  # a refused connection is closed after this at the latest
    max_auth_attempts: int = 6
    login_grace: float = 30.0
    # Authenticated connections without a session (`ssh -N`): at most this many, this long.
    max_unused: int = 20
    unused_timeout: float = 60.0
    keepalive_interval: float = 30.0
    keepalive_count: int = 3
    idle_timeout: float = 30 * 60.0
    input_burst: int = 256 * 1024  # bytes a client may send at once (pastes)
    input_rate: int = 16 * 1024  # bytes per second sustained
    key_burst: int = 200  # key/mouse events a client may send at once
    key_rate: float = 40.0  # key/mouse events per second sustained (then reading pauses)
    flood_drop: float = 10.0  # seconds of paused input within a minute before a drop
    invite_tries: int = 5  # wrong invite codes per identity (guests: per address) ...
    invite_window: float = 60.0  # ... per this many seconds
    new_nicknames_per_hour: int = 10  # nicknames bound per source address per hour
    nickname_expiry: float = 7 * 86400.0  # a key that never sat at a table loses its name
    output_buffer: int = 512 * 1024
    max_app_starts: int = 4
    app_start_timeout: float = 20.0
    prompt_timeout: float = 120.0
    shutdown_grace: float = 3.0


# ---------------------------------------------------------------------------- host key


def load_or_create_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The server's host key from ``DATA/keys/``; created once (0600), never replaced.

    A key file that is unreadable, invalid or readable by others is refused with one sentence:
    clients pin the host key, so replacing it silently would look like an attack to them.
    """
    keys = Path(data_dir) / "keys"
    path = keys / "ssh_host_ed25519_key"
    if path.exists():
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            raise ValueError(
                f"The host key {path} is readable by others (mode {mode:o}); "
                "run `chmod 600` on it and start again."
            )
        try:
            return asyncssh.read_private_key(str(path))
        except (OSError, asyncssh.KeyImportError) as err:
            raise ValueError(
                f"The host key {path} cannot be read ({err}); fix or move it away "
                "(Speedway never replaces a host key silently)."
            ) from None
    keys.mkdir(parents=True, exist_ok=True)
    os.chmod(keys, 0o700)
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, key.export_private_key())
        os.fsync(fd)
    finally:
        os.close(fd)
    (keys / "ssh_host_ed25519_key.pub").write_bytes(key.export_public_key())
    from replays.log import fsync_dir

    fsync_dir(keys)
    log.info("event=host_key_created path=%s", path)
    return key


# ---------------------------------------------------------------------------- colour


def _color_system(term: str, colorterm: str) -> Any:
    """Pitfall 5: each session's colour depth comes from its own TERM, not the server's."""
    from rich.color import ColorSystem

    if colorterm.lower() in ("truecolor", "24bit") or term.endswith("-direct"):
        return ColorSystem.TRUECOLOR
    if "256" in term:
        return ColorSystem.EIGHT_BIT
    return ColorSystem.STANDARD


# ---------------------------------------------------------------------------- server


class SpeedwayServer:
    """The listening server: shared hub, guards, sessions. Use `start`, then `shutdown`."""

    def __init__(
        self,
        hub: Hub,
        app_factory: AppFactory,
        *,
        host_key: asyncssh.SSHKey,
        data_dir: Path | None,
        limits: Limits | None = None,
        allow_guests: bool = False,
        players: PlayerBook | None = None,
        bench_hooks: bool = False,
    ) -> None:
        self.hub = hub
        # Load benchmark only: a session's SPEEDWAY_START environment variable picks the app's
        # first screen (``watch:TABLE`` or ``create:GAME:BOT,BOT,...``), through the same hub
        # calls the screens make.
        self.bench_hooks = bench_hooks
        self.collector = Collector()
        self.app_factory = app_factory
        self.host_key = host_key
        self.data_dir = data_dir
        self.limits = limits or Limits()
        self.allow_guests = allow_guests
        self.access = ReplayAccess(data_dir)
        self.players = (
            players
            if players is not None
            else PlayerBook(data_dir, expiry=self.limits.nickname_expiry)
        )
        self.sessions: set[_Session] = set()
        self.app_sessions = 0
        lim = self.limits
        self.admission = Admission(
            startups_begin=lim.startups_begin,
            startups_rate=lim.startups_rate,
            max_startups=lim.max_startups,
            per_source_startups=lim.per_source_startups,
            per_source_per_minute=lim.per_source_per_minute,
            penalty_min=lim.penalty_min,
            penalty_max=lim.penalty_max,
            clock=time.monotonic,
        )
        self.refusing = 0  # refused connections being told why
        self.unused = 0  # authenticated connections without a session
        self.invite_tries = Tries(lim.invite_tries, lim.invite_window, clock=time.monotonic)
        self.told = Tries(1, 10.0, clock=time.monotonic)  # a source hears "refused" once a 10 s
        self.new_nicknames = Tries(lim.new_nicknames_per_hour, 3600.0, clock=time.monotonic)
        self._startups: asyncio.Semaphore | None = None
        self._listener: Any = None
        self._watchdog: asyncio.Task[None] | None = None
        self._gc_ticks: asyncio.Task[None] | None = None
        self.closing = False
        self.port = 0

    @property
    def startups(self) -> asyncio.Semaphore:
        if self._startups is None:
            self._startups = asyncio.Semaphore(self.limits.max_app_starts)
        return self._startups

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> int:
        """Listen on ``host``:``port`` (``reuse_port``: one of several workers on one port)."""
        lim = self.limits
        self._listener = await asyncssh.create_server(
            lambda: _Connection(self),
            host,
            port,
            reuse_port=reuse_port or None,
            server_host_keys=[self.host_key],
            server_version=SERVER_VERSION,
            login_timeout=lim.login_grace,
            keepalive_interval=lim.keepalive_interval,
            keepalive_count_max=lim.keepalive_count,
            encryption_algs=list(_SAFE_ALGS),
            kex_algs=_offered(_KEX_ALGS, asyncssh.kex.get_kex_algs()),
            mac_algs=_offered(_MAC_ALGS, asyncssh.mac.get_mac_algs()),
            compression_algs=None,
            gss_host=None,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            line_editor=False,
            encoding=None,
            window=256 * 1024,
        )
        sockets = self._listener.sockets
        self.port = sockets[0].getsockname()[1] if sockets else port
        await self.hub.start()
        self._watchdog = asyncio.get_running_loop().create_task(
            self._watch_idle(), context=contextvars.Context()
        )
        self._gc_ticks = asyncio.get_running_loop().create_task(
            self._tick_collector(), context=contextvars.Context()
        )
        return self.port

    # ------------------------------------------------------------ pre-auth guards

    @property
    def unauthenticated(self) -> int:
        """Connections admitted that have not finished authentication."""
        return self.admission.pending

    def admit(self, addr: str) -> Refusal | None:
        """Why a new connection from ``addr`` is refused, or None to let it in (counted as
        unauthenticated until `Admission.release`)."""
        if self.closing:
            return Refusal("shutting_down", 60)
        return self.admission.admit(addr)

    async def _tick_collector(self) -> None:
        while True:
            await asyncio.sleep(self.collector.period)
            self.collector.tick(self.app_sessions)

    async def _watch_idle(self) -> None:
        period = max(0.05, min(30.0, self.limits.idle_timeout / 4))
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for session in list(self.sessions):
                if now - session.last_input > self.limits.idle_timeout:
                    session.drop("idle", "You were idle too long; your seat is kept.")

    # ------------------------------------------------------------ shutdown

    async def shutdown(self, message: str = "The server is shutting down.") -> None:
        """Stop accepting, tell players, flush and fsync the logs, close every session."""
        if self.closing:
            return
        self.closing = True
        log.info("event=shutdown sessions=%d", len(self.sessions))
        if self._listener is not None:
            self._listener.close()
        if self._watchdog is not None:
            self._watchdog.cancel()
        if self._gc_ticks is not None:
            self._gc_ticks.cancel()
        await self.hub.close(message)
        for session in list(self.sessions):
            session.drop("shutdown", f"{message} Your seat is kept; come back later.")
        deadline = time.monotonic() + self.limits.shutdown_grace
        while self.sessions and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        for session in list(self.sessions):
            session.close_connection()
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._listener.wait_closed(), 2.0)


def _cut_cycles(conn: object, transport: object) -> None:
    """A closed connection's reference cycles, cut so reference counting frees it at once.

    asyncssh keeps the handler of the next packet as a bound method of the connection
    (``_recv_handler``) and asyncio's socket transport its read callback as one of its own
    (``_read_ready_cb``); neither is cleared on close. Each ended session's connection — its
    keys, ciphers, logger, options, socket — then waited for a full collection, which a busy
    server never runs (`net.collector`): memory grew with every login. Called a while after
    the connection was lost (nothing reads them any more); a name a version lacks is skipped."""
    for obj, name in ((conn, "_recv_handler"), (transport, "_read_ready_cb")):
        if obj is not None and name in getattr(obj, "__dict__", ()):
            setattr(obj, name, None)


class _Connection(asyncssh.SSHServer):
    """One TCP connection: admission, authentication, identity, one session at most.

    A refused connection is not simply closed: it is told why and when to retry in the
    disconnect reason (OpenSSH prints it as one line), then closed within
    ``refuse_linger``; beyond ``max_refusing`` such connections at once, it is closed at once.
    """

    def __init__(self, server: SpeedwayServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.addr = "?"
        self.authed = False
        self.counted = False
        self.refused: Refusal | None = None
        self.refusing = False
        self.attempts = 0
        self.key: asyncssh.SSHKey | None = None
        self.guest = False
        self.username = ""
        self.identity_id = ""
        self.sessions = 0
        self.started = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None
        self._transport: object = None
        self._unused = False
        self.lost = False  # the connection is gone (a session may still be ending after it)

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self._transport = getattr(conn, "_transport", None)  # for _cut_cycles
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.addr = str(peer[0])
        self.peer = f"{peer[0]}:{peer[1]}"
        refusal = self.server.admit(self.addr)
        client = clean_for_log(str(conn.get_extra_info("client_version") or ""))
        loop = asyncio.get_running_loop()
        if refusal is not None:
            self.refused = refusal
            log.warning(
                "event=refused peer=%s reason=%s retry=%d",
                self.peer,
                refusal.reason,
                refusal.retry_after,
            )
            told = self.server.told
            key = source_of(self.addr)
            if self.server.refusing >= self.server.limits.max_refusing or told.wait(key):
                loop.call_soon(conn.abort)  # told recently (or too many): no handshake at all
            else:
                told.hit(key)
                self.server.refusing += 1
                self.refusing = True
                self._timer = loop.call_later(self.server.limits.refuse_linger, conn.abort)
            return
        self.counted = True
        log.info("event=connect peer=%s client=%s", self.peer, client or "-")

    def _release(self, offence: str | None) -> None:
        if self.counted:
            self.counted = False
            self.server.admission.release(self.addr, offence)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _set_unused(self, unused: bool) -> None:
        """Count this connection among those without a session (and time it out)."""
        if unused == self._unused:
            return
        self._unused = unused
        self._cancel_timer()
        if not unused:
            self.server.unused -= 1
            return
        self.server.unused += 1
        lim = self.server.limits
        if self.server.unused > lim.max_unused:
            self._disconnect(
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                "Speedway: too many connections without a session are open; "
                "please try again in 60 s.",
                "unused_cap",
            )
            return
        self._timer = asyncio.get_running_loop().call_later(
            lim.unused_timeout,
            self._disconnect,
            asyncssh.DISC_BY_APPLICATION,
            f"Speedway: no session was opened within {lim.unused_timeout:g} s; goodbye.",
            "unused_timeout",
        )

    def _disconnect(self, code: int, reason: str, word: str) -> None:
        log.info("event=disconnecting peer=%s reason=%s", self.peer, word)
        if self.conn is not None:
            self.conn.disconnect(code, reason)

    def session_ended(self) -> None:
        self.sessions -= 1
        # A session's app often finishes after its connection is gone (a closed terminal):
        # that connection is not "without a session", it is no connection at all. Counted, it
        # stayed counted for good, and 20 of them locked every new login out.
        if self.sessions <= 0 and self.authed and not self.lost and not self.server.closing:
            self._set_unused(True)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._cancel_timer()
        if self.conn is not None:
            asyncio.get_running_loop().call_later(
                RELEASE_AFTER, _cut_cycles, self.conn, self._transport
            )
        self._transport = None
        if self.refusing:
            self.refusing = False
            self.server.refusing -= 1
        if self._unused:
            self._unused = False
            self.server.unused -= 1
        if self.counted and not self.authed:
            if self.username:
                offence = "authfail"
            elif time.monotonic() - self.started >= self.server.limits.login_grace * 0.9:
                offence = "grace"
            else:
                offence = "noauth"
            self._release(offence)
            log.warning(
                "event=auth_failure peer=%s user=%s attempts=%d penalty=%s reason=%s",
                self.peer,
                clean_for_log(self.username) or "-",
                self.attempts,
                offence,
                clean_for_log(str(exc)) if exc else "closed",
            )
        if self.refused is None:
            log.info(
                "event=disconnect peer=%s identity=%s seconds=%.1f reason=%s",
                self.peer,
                self.identity_id or "-",
                time.monotonic() - self.started,
                clean_for_log(str(exc), 120) if exc else "closed",
            )

    def begin_auth(self, username: str) -> bool:
        if self.refused is not None and self.conn is not None:
            # The one line a refused client reads: OpenSSH prints the disconnect reason
            # ("Received disconnect from HOST port P:12: Speedway: ...; try again in N s.").
            message = self.refused.message
            asyncio.get_running_loop().call_soon(
                self.conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, message
            )
            return True
        self.username = username
        return True

    def _count_attempt(self) -> bool:
        if self.refused is not None:
            return False
        self.attempts += 1
        if self.attempts > self.server.limits.max_auth_attempts:
            if self.conn is not None:
                asyncio.get_running_loop().call_soon(
                    self.conn.disconnect,
                    asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                    "Speedway: too many authentication attempts.",
                )
            return False
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for the unsigned probe and again for the signed attempt; asyncssh checks the
        # signature only after we say yes, so the identity is bound in auth_completed to the
        # key of the *last* validation (probe key A, sign with key B => identity B).
        if not self._count_attempt():
            return False
        self.key = key
        self.guest = False
        return True

    def password_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return self.server.allow_guests and self.refused is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        if not self.server.allow_guests or not self._count_attempt():
            return False
        self.guest = True
        self.key = None
        return True

    def auth_completed(self) -> None:
        self.authed = True
        self._release(None)
        if self.key is not None and not self.guest:
            self.identity_id = self.key.get_fingerprint("sha256")
        else:
            self.guest = True
            self.identity_id = "guest:" + secrets.token_hex(6)
        log.info("event=auth peer=%s identity=%s guest=%s", self.peer, self.identity_id, self.guest)
        self._set_unused(True)

    def session_requested(self) -> Any:
        if not self.authed or self.sessions >= 1:
            return False  # one session per connection (sshd MaxSessions 1)
        self.sessions += 1
        self._set_unused(False)
        return _Session(self)


class SessionHub:
    """The hub as one SSH session sees it (a `net.hub.Hub`): every call goes to the shared hub,
    and the watches this session opened are closed when it ends (so its seats turn "away" even
    if the app never closed them itself). Wrong invite codes are throttled per identity (guests,
    whose identity is new on every connection: per source address), and sitting at a table
    marks the key as having played (its nickname then never expires).

    Every method of the protocol is written out here (no ``__getattr__``), so a method the
    shared hub grows is not reachable from a session until it is declared on `net.hub.Hub`.
    ``start`` and ``close`` belong to the server, not to a session: here they do nothing.
    """

    def __init__(
        self,
        hub: Hub,
        server: SpeedwayServer | None = None,
        throttle_key: str = "",
    ) -> None:
        self._hub = hub
        self._server = server
        self._throttle_key = throttle_key
        self._watches: list[Watch] = []

    def tables(self, who: Identity) -> list[TableInfo]:
        return self._hub.tables(who)

    def watch_lobby(self, who: Identity) -> AsyncIterator[list[TableInfo]]:
        return self._hub.watch_lobby(who)

    def watch(self, table_id: str, who: Identity, seat: int | None) -> Watch:
        w = self._hub.watch(table_id, who, seat)
        self._watches = [x for x in self._watches if not x.closed]
        self._watches.append(w)
        return w

    def _played(self, who: Identity) -> None:
        if self._server is not None and not who.guest:
            self._server.players.played(who.id)

    async def create_table(self, spec: TableSpec, who: Identity) -> str:
        table_id = await self._hub.create_table(spec, who)
        self._played(who)
        return table_id

    async def take_seat(self, table_id: str, seat: int, who: Identity) -> None:
        await self._hub.take_seat(table_id, seat, who)
        self._played(who)

    async def join_private(self, code: str, who: Identity) -> str:
        tries = self._server.invite_tries if self._server is not None else None
        key = self._throttle_key or who.id
        if tries is not None and (wait := tries.wait(key)):
            raise HubError("rate-limited", f"Too many wrong invite codes; try again in {wait} s.")
        try:
            return await self._hub.join_private(code, who)
        except HubError as err:
            if tries is not None and err.kind == "no-such-table":
                tries.hit(key)
            raise

    async def leave(self, table_id: str, who: Identity) -> None:
        await self._hub.leave(table_id, who)

    async def abandon(self, table_id: str, who: Identity) -> None:
        await self._hub.abandon(table_id, who)

    async def submit(
        self, table_id: str, who: Identity, seat: int, action: Any, state_id: int
    ) -> None:
        await self._hub.submit(table_id, who, seat, action, state_id)

    async def hint(self, table_id: str, who: Identity, seat: int, bot: str | None) -> Any:
        return await self._hub.hint(table_id, who, seat, bot)

    async def chat(self, table_id: str, who: Identity, text: str) -> None:
        await self._hub.chat(table_id, who, text)

    def invite_code(self, table_id: str, who: Identity) -> str | None:
        return self._hub.invite_code(table_id, who)

    async def start(self) -> None:
        """The server starts the shared hub; a session has nothing to start."""

    async def close(self, message: str = "The server is shutting down.") -> None:
        """A session ending closes its own watches only (`close_watches`)."""

    async def close_watches(self) -> None:
        for w in self._watches:
            await w.close()
        self._watches.clear()


class _LinePrompt:
    """A one-line editor over raw PTY bytes (before any app runs): UTF-8 (invalid bytes are
    dropped), echo, backspace, Enter. Escape sequences and control characters are swallowed;
    only printable characters reach the line (and the echo), at most ``limit`` of them."""

    def __init__(self, write: Callable[[bytes], None], limit: int = 32) -> None:
        self._write = write
        self._limit = limit
        self._buf: list[str] = []
        self._escape = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        self.done: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    def feed(self, data: bytes) -> None:
        for ch in self._decoder.decode(data):
            if self.done.done():
                return
            code = ord(ch)
            if self._escape and code < 0x20:
                self._escape = 0  # a control character ends a broken escape (ECMA-48): act on it
            if self._escape == 1:
                self._escape = 2 if ch in "[O" else 0  # CSI / SS3
                continue
            if self._escape == 2:
                if 0x40 <= code <= 0x7E:
                    self._escape = 0
                continue
            if code == 0x1B:
                self._escape = 1
            elif code in (0x0D, 0x0A):
                self._write(b"\r\n")
                self.done.set_result("".join(self._buf))
            elif code in (0x03, 0x04):  # Ctrl+C, Ctrl+D
                self._write(b"\r\n")
                self.done.set_result(None)
            elif code in (0x7F, 0x08):
                if self._buf:
                    gone = self._buf.pop()
                    cols = 2 if unicodedata.east_asian_width(gone) in "WF" else 1
                    self._write(b"\b" * cols + b" " * cols + b"\b" * cols)
            elif ch.isprintable() and len(self._buf) < self._limit:
                if unicodedata.category(ch)[0] == "M" and not self._buf:
                    continue  # a combining mark with nothing to combine with
                self._buf.append(ch)
                self._write(ch.encode("utf-8"))

    def cancel(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


class _Session(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One SSH channel: an exec command, or the nickname prompt and then one app."""

    def __init__(self, conn: _Connection) -> None:
        self.conn = conn
        self.server = conn.server
        self.chan: Any = None
        self.term: str | None = None
        self.size = (80, 24)
        self.command: str | None = None
        self.driver: SSHDriver | None = None
        self.app: Any = None
        self.prompt: _LinePrompt | None = None
        self.pending_input = bytearray()
        self.task: asyncio.Task[None] | None = None
        self.last_input = time.monotonic()
        self.ended = False
        self.counted_app = False
        self.drop_reason: str | None = None
        self.drop_message: str | None = None
        self.eof = False  # the client closed its input: leave quietly
        self._starting = False  # the app runs but has not drawn its first frame
        self._exit_pending = False
        lim = self.server.limits
        self._bytes = Bucket(rate=lim.input_rate, burst=lim.input_burst, clock=time.monotonic)
        self._keys = Bucket(rate=lim.key_rate, burst=lim.key_burst, clock=time.monotonic)
        self._dropped_input = 0
        self._reading_paused = False
        self._pauses: deque[tuple[float, float]] = deque()  # (when, seconds) in the last minute
        self.key_events = 0
        self.keys_discarded = 0  # input bytes dropped unparsed while over the key budget
        self._writable = asyncio.Event()
        self._writable.set()

    # ------------------------------------------------------------ asyncssh callbacks

    def connection_made(self, chan: Any) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=self.server.limits.output_buffer)

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], modes: Any
    ) -> bool:
        self.term = term_type or "xterm"
        self.size = clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info(
            "event=refused_subsystem peer=%s name=%s", self.conn.peer, clean_for_log(subsystem)
        )
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        return None

    def session_started(self) -> None:
        self.task = asyncio.get_running_loop().create_task(
            self._run(), context=contextvars.Context()
        )

    def data_received(self, data: bytes, datatype: int | None) -> None:
        now = time.monotonic()
        if self._bytes.spend(len(data)) > 0:
            self._bytes.spend(-len(data))  # refused bytes cost nothing
            if self._dropped_input == 0:
                log.warning("event=input_rate_limited peer=%s", self.conn.peer)
            self._dropped_input += len(data)
            return
        self.last_input = now
        if self.prompt is not None:
            self.prompt.feed(data)
        elif self.driver is not None:
            debt = self._keys.spend(0)
            if debt > 0:
                # Still over the key budget (bytes that queued up while reading was paused):
                # discarded unparsed, so a flood costs the loop almost nothing.
                self.keys_discarded += len(data)
                self._slow_down(debt)
                return
            try:
                events = self.driver.feed(data)
            except Exception:
                log.exception("event=session_error peer=%s where=input", self.conn.peer)
                self.drop("error", "Something went wrong; please reconnect.")
                return
            self.key_events += events
            pause = self._keys.spend(events)
            if pause > 0:
                self._slow_down(pause)
        elif len(self.pending_input) < 16 * 1024:
            self.pending_input += data

    def _slow_down(self, pause: float) -> None:
        """Input events beyond the budget: stop reading (SSH flow control holds the client's
        keys back) until the budget is paid; paused too long within a minute: drop."""
        if self._reading_paused or self.chan is None:
            return
        now = time.monotonic()
        while self._pauses and now - self._pauses[0][0] > 60.0:
            self._pauses.popleft()
        if sum(p for _, p in self._pauses) >= self.server.limits.flood_drop:
            log.warning("event=input_flood peer=%s events=%d", self.conn.peer, self.key_events)
            self.drop(
                "flood",
                "Your terminal sent keys faster than anyone can play, so this session ends; "
                "your seat is kept.",
            )
            return
        pause = min(pause, 5.0)
        self._pauses.append((now, pause))
        if len(self._pauses) == 1:
            log.info("event=input_slowed peer=%s", self.conn.peer)
        self._reading_paused = True
        self.chan.pause_reading()
        asyncio.get_running_loop().call_later(pause, self._resume_reading)

    def _resume_reading(self) -> None:
        self._reading_paused = False
        if self.chan is not None and not self.chan.is_closing() and not self.ended:
            self.chan.resume_reading()

    def terminal_size_changed(self, width: int, height: int, pw: int, ph: int) -> None:
        self.size = clamp_size(width, height)
        if self.driver is not None:
            self.driver.resize(width, height)

    def eof_received(self) -> bool:
        # `ssh HOST replays </dev/null` sends EOF at once: keep the channel half-open so the
        # output still goes out (returning False would close it under the command).
        if self.command is None:
            self.eof = True
            self._end_app()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self._end_app()
        self._writable.set()
        if self.task is not None and not self.task.done() and self.app is None:
            self.task.cancel()

    def pause_writing(self) -> None:
        if self.command is not None:
            self._writable.clear()  # a download: wait for the client to catch up
            return
        # A client that stopped reading: drop it rather than buffer without bound. Its seat is
        # kept (the hub marks it away when its watch closes).
        log.warning("event=slow_client peer=%s", self.conn.peer)
        self.close_connection()

    def resume_writing(self) -> None:
        self._writable.set()

    # ------------------------------------------------------------ helpers

    def write(self, data: bytes) -> None:
        if self.chan is not None and not self.chan.is_closing():
            self.chan.write(data)

    def line(self, text: str) -> None:
        end = b"\r\n" if self.term is not None else b"\n"
        self.write(text.encode("utf-8", errors="replace") + end)

    def exit(self, status: int) -> None:
        if self.chan is not None and not self.chan.is_closing():
            self.chan.exit(status)

    def close_connection(self) -> None:
        self.ended = True
        self._end_app()
        if self.conn.conn is not None:
            self.conn.conn.close()

    def drop(self, reason: str, message: str) -> None:
        """End this session politely: stop the app, then say one line and close."""
        self.drop_reason = reason
        self.drop_message = message
        if self.app is not None:
            self._end_app()
        elif self.prompt is not None:
            self.prompt.cancel()
        else:
            self.line(message)
            self.exit(1)

    def _end_app(self) -> None:
        if self.prompt is not None:
            self.prompt.cancel()
        app = self.app
        if app is not None and self._starting:
            # Exiting an app before its first frame tears screens down half-built (a query
            # then fails in a screen's mount); end it as soon as it has drawn once.
            self._exit_pending = True
            return
        if app is not None:
            with contextlib.suppress(Exception):
                app.exit()

    # ------------------------------------------------------------ the session's life

    async def _run(self) -> None:
        status = 0
        try:
            if self.command is not None:
                status = await self._exec(self.command)
            elif self.term is None:
                self.line("Speedway needs a terminal: connect with `ssh -t` (or plain `ssh HOST`).")
                status = 1
            elif self.server.app_sessions >= self.server.limits.max_sessions:
                self.line("Speedway is full right now; please try again in a few minutes.")
                log.info("event=full peer=%s", self.conn.peer)
                status = 1
            elif self.server.closing:
                self.line("The server is shutting down; please try again later.")
                status = 1
            else:
                status = await self._interactive()
        except asyncio.CancelledError:
            status = 1
        except Exception as err:  # the per-session barrier: log one line, end this session only
            log.error(
                "event=session_error peer=%s error=%s",
                self.conn.peer,
                clean_for_log(f"{type(err).__name__}: {err}", 200),
            )
            if self.driver is not None:
                self.driver.restore_terminal()
            self.line("Sorry, something went wrong on the server; please reconnect.")
            status = 1
        finally:
            self.exit(status)  # closes the channel after its data; the connection stays
            self.conn.session_ended()

    async def _interactive(self) -> int:
        self.server.app_sessions += 1
        self.server.sessions.add(self)
        try:
            identity = await self._identify()
            if identity is None:
                if self.drop_message:
                    self.line(self.drop_message)
                elif self.eof:
                    self.line("Goodbye.")
                return 0
            return await self._run_app(identity)
        finally:
            self.server.app_sessions -= 1
            self.server.sessions.discard(self)

    async def _ask(self, question: str) -> str | None:
        self.write(question.encode())
        self.prompt = _LinePrompt(self.write, limit=32)
        if self.pending_input:
            data, self.pending_input = bytes(self.pending_input), bytearray()
            self.prompt.feed(data)
        try:
            return await asyncio.wait_for(
                asyncio.shield(self.prompt.done), self.server.limits.prompt_timeout
            )
        except TimeoutError:
            self.line("")
            self.line("No answer; goodbye.")
            return None
        finally:
            self.prompt = None

    async def _identify(self) -> Identity | None:
        conn = self.conn
        book = self.server.players
        if not conn.guest:
            known = book.nickname(conn.identity_id)
            if known is not None:
                return Identity(id=conn.identity_id, nickname=known)
        self.line("Welcome to Speedway!" + (" (guest)" if conn.guest else ""))
        source = source_of(conn.addr)
        for _ in range(5):
            answer = await self._ask(
                f"Choose a nickname (letters and digits of any script, '.', '_', '-'; "
                f"up to {NICK_MAX}): "
            )
            if answer is None or self.ended:
                return None
            nick, notes = normalise_nickname(answer)
            error = nickname_error(nick)
            if error is None and notes:
                # Something was dropped or changed: show it before anything is bound.
                self.line(f"Your nickname would be {nick} ({'; '.join(notes)}).")
                sure = await self._ask(f"Use {nick}? (y/n): ")
                if sure is None or self.ended:
                    return None
                if sure.strip().lower() not in ("y", "yes"):
                    continue
            if error is None and conn.guest and book.is_taken(nick):
                error = f"The nickname {nick} belongs to a player with a key; choose another."
            if error is None and not conn.guest:
                wait = self.server.new_nicknames.wait(source)
                if wait:
                    self.line(
                        f"Too many new nicknames came from your address; try again in {wait} s."
                    )
                    return None
                error = book.bind(conn.identity_id, nick)
                if error is None:
                    self.server.new_nicknames.hit(source)
            if error is None:
                log.info("event=nickname identity=%s nickname=%s", conn.identity_id, nick)
                return Identity(id=conn.identity_id, nickname=nick, guest=conn.guest)
            self.line(error)
        self.line("Too many tries; goodbye.")
        return None

    async def _run_app(self, identity: Identity) -> int:
        first_frame = asyncio.Event()

        def attach(driver: SSHDriver) -> None:
            self.driver = driver
            if self.pending_input:
                data, self.pending_input = bytes(self.pending_input), bytearray()
                asyncio.get_running_loop().call_soon(driver.feed, data)

        def shown() -> None:
            first_frame.set()
            self._starting = False
            if self._exit_pending:  # the client left while the app was starting: end it now
                self._end_app()

        driver_class = functools.partial(
            SSHDriver, channel=self.chan, on_attach=attach, on_first_frame=shown
        )
        conn = self.conn
        throttle = f"addr:{source_of(conn.addr)}" if conn.guest else conn.identity_id
        hub = SessionHub(self.server.hub, self.server, throttle)
        async with self.server.startups:  # at most N apps starting at once (pitfall 12)
            if self.eof:  # input ended before the app began: nothing to start
                self.line("Goodbye.")
                return 0
            if self.ended or self.server.closing:
                return 1
            env = self.chan.get_environment() if self.chan is not None else {}
            extra: dict[str, Any] = {}
            if self.server.bench_hooks and env.get("SPEEDWAY_START"):
                extra["start"] = str(env["SPEEDWAY_START"])
            app = self.server.app_factory(
                hub=hub,
                identity=identity,
                driver_class=driver_class,
                data_dir=self.server.data_dir,
                **extra,
            )
            with contextlib.suppress(Exception):
                app.console._color_system = _color_system(
                    self.term or "", str(env.get("COLORTERM", ""))
                )
            # Pitfall 11: no Rich traceback on the server's stderr; one log line instead.
            app.error_console = _quiet_console()
            self.app = app
            self._starting = True
            run = asyncio.get_running_loop().create_task(
                app.run_async(size=self.size, mouse=True), context=contextvars.Context()
            )
            waiter = asyncio.ensure_future(first_frame.wait())
            await asyncio.wait(
                {run, waiter},
                timeout=self.server.limits.app_start_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
            waiter.cancel()
            if first_frame.is_set():
                self.server.collector.session_built()
            if self._starting:  # no first frame within the start timeout (or it ended)
                self._starting = False
                if self._exit_pending:
                    self._end_app()
        try:
            await run
        finally:
            # An app that can cut its own reference cycles (tui.release) leaves no garbage
            # for a full collection: reference counting frees it once its last callbacks ran.
            release = getattr(app, "release", None)
            self.server.collector.session_ended(
                self.server.app_sessions - 1, garbage=not callable(release)
            )
            await hub.close_watches()
            if self.driver is not None:
                self.driver.restore_terminal()
            self.app = None
            if callable(release):
                asyncio.get_running_loop().call_later(RELEASE_AFTER, release)
        error = getattr(app, "_exception", None)
        if error is not None and (self.eof or self.drop_reason is not None):
            # The client had already left (EOF) or was being dropped: an error from a screen
            # torn down half-built is part of leaving, not a failure to report to them.
            log.info(
                "event=app_error_while_leaving peer=%s error=%s",
                self.conn.peer,
                clean_for_log(f"{type(error).__name__}: {error}", 200),
            )
            error = None
        if error is not None:
            log.error(
                "event=app_error peer=%s identity=%s error=%s",
                self.conn.peer,
                identity.id,
                clean_for_log(f"{type(error).__name__}: {error}", 200),
            )
            self.line("Sorry, the game screen failed; please reconnect.")
            return 1
        if self.drop_message:
            self.line(self.drop_message)
        elif self.eof:
            self.line("Goodbye.")
        else:
            self.line("Thanks for playing Speedway.")
        return 0

    # ------------------------------------------------------------ exec commands

    async def _exec(self, command: str) -> int:
        words = command.split()
        log.info("event=exec peer=%s command=%s", self.conn.peer, clean_for_log(command))
        who = self.conn.identity_id
        if words == ["replays"]:
            for line in _replay_lines(self.server.access, who):
                self.line(line)
            return 0
        if len(words) == 2 and words[0] == "replay":
            replay_id = words[1]
            path = self.server.access.path(replay_id, who)  # not allowed == not there
            if path is None:
                self.line(f"speedway: there is no replay called {clean_for_log(replay_id)}.")
                return 2
            with open(path, "rb") as f:  # noqa: ASYNC230 - small reads between drains
                while chunk := f.read(32 * 1024):
                    await self._writable.wait()
                    if self.ended:
                        return 1
                    self.write(chunk)
            return 0
        self.line(
            "speedway: unknown command; use `ssh HOST` to play, `ssh HOST replays` to list "
            "games, or `ssh HOST replay ID > race.replay`."
        )
        return 2


def _quiet_console() -> Any:
    from rich.console import Console

    return Console(file=io.StringIO(), markup=False, highlight=False)


def _replay_lines(access: ReplayAccess, identity: str) -> list[str]:
    """``ssh HOST replays``: one line per finished game ``identity`` may see, newest first."""
    infos = [i for i in access.visible(identity) if i.finished]
    if not infos:
        return ["No finished games yet."]
    lines = [
        f"{info.path.stem}  {info.title}  {info.date}  {', '.join(info.players)}  {info.summary}"
        for info in infos
    ]
    lines.append("Download one with: ssh HOST replay ID > race.replay")
    return ["".join(ch for ch in line if ch.isprintable()) for line in lines]


# ---------------------------------------------------------------------------- entry point


def _setup_logging() -> None:
    root = logging.getLogger("speedway")
    if not root.handlers:
        handler = logging.StreamHandler(sys.__stderr__)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)


TURN_TIMER = 120.0
"""Default seconds per decision at a server table (`speedway serve --turn-timer`)."""


async def run_server(
    *,
    host: str,
    port: int,
    data: Path,
    app_factory: AppFactory,
    limits: Limits,
    allow_guests: bool,
    bot_delay: float = 0.6,
    ready: Callable[[SpeedwayServer], None] | None = None,
    games: Mapping[str, Any] | None = None,
    turn_timer: float | None = TURN_TIMER,
    bench_hooks: bool = False,
    bus: str | None = None,
    reuse_port: bool = False,
    lease: float = 3.0,
) -> None:
    """Run until SIGTERM/SIGINT, then shut down gracefully (``games``: tests inject theirs).

    ``turn_timer``: seconds a seated player has for each decision before the seat's bot makes it
    (None: no limit), so a player who stays connected but never moves cannot hold a table.
    ``bus`` (``redis://HOST:PORT/N``): share one lobby with every process on that bus
    (`net.bus_hub`); ``reuse_port``: one of several workers listening on one port;
    ``lease``: seconds a table's ownership lasts unless renewed (a dead owner's tables move
    after that).
    """
    key = load_or_create_host_key(data)
    if games is None:
        # Load every game now: a first import inside a session would stall every session.
        from core import registry

        registry.all_games()
    local = LocalHub(
        data,
        bot_delay=bot_delay,
        persist=True,
        games=games,
        network=True,
        turn_timer=turn_timer,
        restore=bus is None,  # on a bus, a table comes back in the process that wins its lease
        mirror=(mirror := _mirror(bus)),
    )
    from net.trace import from_environment

    local.trace = trace = from_environment()
    hub: Hub = local
    if bus is not None:
        from net.bus import Bus
        from net.bus_hub import BusHub

        hub = BusHub(local, Bus(bus, lease=lease), game=local.find_game, mirror=mirror)
    players = None
    if bus is not None:  # nicknames shared with every machine on the bus
        from net.shared_names import SharedNames

        players = PlayerBook(data, expiry=limits.nickname_expiry, shared=SharedNames(bus))
    server = SpeedwayServer(
        hub,
        app_factory,
        host_key=key,
        data_dir=data,
        limits=limits,
        allow_guests=allow_guests,
        bench_hooks=bench_hooks,
        players=players,
    )
    bound = await server.start(host, port, reuse_port=reuse_port)
    server.collector.install()  # full collections only at quiet moments (net.collector)
    flusher = None
    if trace is not None:
        flusher = asyncio.get_running_loop().create_task(
            _flush_trace(trace), context=contextvars.Context()
        )
    # Pitfall 14: everything loaded so far lives as long as the server; keep it out of the
    # full collections that would otherwise walk it on every generation-2 pass.
    gc.collect()
    gc.freeze()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    fingerprint = key.get_fingerprint("sha256")
    shown = host if host not in ("0.0.0.0", "::", "") else "THIS-HOST"
    print(f"Speedway server listening on {host} port {bound}", flush=True)
    print(f"Host key fingerprint: {fingerprint}", flush=True)
    print(f"Join with: ssh -p {bound} {shown}", flush=True)
    log.info("event=listening host=%s port=%d fingerprint=%s", host, bound, fingerprint)
    if ready is not None:
        ready(server)
    await stop.wait()
    await server.shutdown()
    if flusher is not None and trace is not None:
        flusher.cancel()
        trace.close()
    log.info("event=stopped")


def _mirror(bus: str | None) -> Any:
    """On a bus, the copy of every durable table file in Redis (`net.log_mirror`)."""
    if bus is None:
        return None
    from net.log_mirror import LogMirror

    return LogMirror(bus)


async def _flush_trace(trace: Any) -> None:
    while True:
        await asyncio.sleep(1.0)
        trace.flush()


def serve(
    host: str,
    port: int,
    data: Path | None,
    max_sessions: int = 100,
    allow_guests: bool = False,
    app_factory: AppFactory | None = None,
    limits: Limits | None = None,
    bot_delay: float = 0.6,
    turn_timer: float | None = TURN_TIMER,
    bench_hooks: bool = False,
    bus: str | None = None,
    workers: int = 1,
    games: Mapping[str, Any] | None = None,
    lease: float = 3.0,
) -> None:
    """`speedway serve`: blocking; exits 2 with one line when it cannot start.

    ``workers`` > 1 (needs ``bus``): that many processes on one port (`net.workers`).
    ``games`` and ``lease``: tests inject theirs (see `run_server`)."""
    from replays.paths import data_dir as resolve_data_dir

    _setup_logging()
    if app_factory is None:
        print("speedway: serve needs an app factory (run it as `speedway serve`).", file=sys.stderr)
        sys.exit(2)
    if workers < 1 or (workers > 1 and bus is None):
        print(
            "speedway: --workers above 1 needs --bus redis://HOST:PORT/N (the workers share "
            "their lobby through it).",
            file=sys.stderr,
        )
        sys.exit(2)
    folder = resolve_data_dir(data)
    lim = msgspec.structs.replace(limits or Limits(), max_sessions=max_sessions)

    def run_one(bound_port: int, reuse_port: bool) -> None:
        try:
            asyncio.run(
                run_server(
                    host=host,
                    port=bound_port,
                    data=folder,
                    app_factory=app_factory,
                    limits=lim,
                    allow_guests=allow_guests,
                    bot_delay=bot_delay,
                    turn_timer=turn_timer,
                    bench_hooks=bench_hooks,
                    bus=bus,
                    reuse_port=reuse_port,
                    games=games,
                    lease=lease,
                )
            )
        except (ValueError, OSError) as err:
            print(f"speedway: {err}", file=sys.stderr)
            sys.exit(2)

    if workers == 1:
        run_one(port, False)
        return
    from net.workers import hold_port, supervise

    try:
        held, bound = hold_port(host, port)
    except OSError as err:
        print(f"speedway: {err}", file=sys.stderr)
        sys.exit(2)
    load_or_create_host_key(folder)  # once, before the workers race to create it
    # (Each worker prints its "listening on HOST port N" line once it accepts connections.)
    print(f"Speedway: starting {workers} workers; bus {bus}", flush=True)
    try:
        code = supervise(workers, lambda _i: run_one(bound, True))
    finally:
        held.close()
    sys.exit(code)
