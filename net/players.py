"""Nicknames bound to SSH key fingerprints, kept in the data folder.

Owns ``DATA/players.json`` (fingerprint -> binding, written atomically, mode 0600): a nickname
chosen on a key's first visit is bound to that key, and no other key may take it or a name
that looks like it (`net.sanitize.nickname_key`). A key that sits at a table (creates one or
takes a seat) keeps its nickname for good; the binding of a key that never played expires
``expiry`` seconds after it was made (default 7 days), so names cannot be hoarded in bulk.
Files written before expiry existed (fingerprint -> nickname) are read as played bindings.
Guests are never stored. Several processes may share one data dir (`speedway serve --workers`):
each re-reads the file when it changed on disk before answering, and a change is made under an
exclusive lock on ``players.lock`` as read, change, write, so no process overwrites another's
binding. On a bus across machines (``shared``, `net.shared_names.SharedNames`) bindings are
also kept in Redis: a key known on another machine keeps its nickname here, and a name is
claimed there first, so no two machines bind it to two keys.

Must not: authenticate anyone (the server does) or accept a nickname outside the allow-list.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from net.persist import write_private
from net.sanitize import nickname_error, nickname_key

if TYPE_CHECKING:
    from net.shared_names import SharedNames

__all__ = ["DEFAULT_EXPIRY", "Binding", "PlayerBook"]

DEFAULT_EXPIRY = 7 * 86400.0


class Binding(msgspec.Struct, frozen=True, kw_only=True):
    nickname: str
    bound: float = 0.0  # when (Unix time) it was bound
    played: bool = True  # sat at a table at least once: kept for good


class PlayerBook:
    """fingerprint -> nickname, persisted in ``DATA/players.json``."""

    def __init__(
        self,
        data_dir: Path | None,
        *,
        expiry: float = DEFAULT_EXPIRY,
        clock: Callable[[], float] = time.time,
        shared: SharedNames | None = None,
    ) -> None:
        self.path = None if data_dir is None else Path(data_dir) / "players.json"
        self.shared = shared
        self.expiry = expiry
        self.clock = clock
        self._names: dict[str, Binding] = {}
        self._seen: tuple[int, int] | None = None  # (mtime_ns, size) of the file last read
        self._read()
        if self._expire():
            with self._locked():
                self._save()

    def _read(self) -> None:
        """Read the file again if another process changed it since we last did."""
        if self.path is None:
            return
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return
        if self._seen == (st.st_mtime_ns, st.st_size):
            return
        try:
            raw = msgspec.json.decode(self.path.read_bytes(), type=dict[str, str | Binding])
        except msgspec.DecodeError as err:
            raise ValueError(f"{self.path} is not a valid players file ({err}).") from None
        names = {}
        for k, v in raw.items():
            b = Binding(nickname=v) if isinstance(v, str) else v
            if nickname_error(b.nickname) is None:
                names[k] = b
        self._names = names
        self._seen = (st.st_mtime_ns, st.st_size)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Read, change and write under one exclusive lock (other processes wait)."""
        if self.path is None:
            yield
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path.with_name("players.lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._read()
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _expire(self) -> bool:
        now = self.clock()
        gone = [k for k, b in self._names.items() if not b.played and now - b.bound > self.expiry]
        for k in gone:
            del self._names[k]
        return bool(gone)

    def __len__(self) -> int:
        return len(self._names)

    def nickname(self, fingerprint: str) -> str | None:
        self._read()
        if self._expire():
            with self._locked():
                self._expire()
                self._save()
        b = self._names.get(fingerprint)
        if b is None and self.shared is not None:
            b = self.shared.binding(fingerprint, Binding)  # bound on another machine
            live = b is not None and (b.played or self.clock() - b.bound <= self.expiry)
            if b is not None and live and nickname_error(b.nickname) is None:
                with self._locked():
                    self._names[fingerprint] = b
                    self._save()
                return str(b.nickname)
            return None
        return None if b is None else b.nickname

    def _taken_elsewhere(self, key: str, by: str | None) -> bool:
        """Held by another key on another machine (and not expired there)?"""
        if self.shared is None:
            return False
        holder = self.shared.holder(key)
        if holder is None or holder == by:
            return False
        b = self.shared.binding(holder, Binding)
        if b is None or (not b.played and self.clock() - b.bound > self.expiry):
            self.shared.free(key, holder)  # expired: the name is free again
            return False
        return nickname_key(b.nickname) == key

    def is_taken(self, nickname: str, by: str | None = None) -> bool:
        self._read()
        self._expire()
        key = nickname_key(nickname)
        holders = [k for k, b in self._names.items() if nickname_key(b.nickname) == key and k != by]
        for k in holders:
            if self.shared is None:
                return True
            now = self.shared.binding(k, Binding)  # that key may have renamed elsewhere
            if now is None or nickname_key(now.nickname) == key:
                return True
            self._names[k] = now  # (this file catches up at its next write)
        return self._taken_elsewhere(key, by)

    def bind(self, fingerprint: str, nickname: str) -> str | None:
        """Bind ``nickname`` to ``fingerprint``; return why not (one sentence) or None."""
        error = nickname_error(nickname)
        if error is not None:
            return error
        with self._locked():
            if self.is_taken(nickname, by=fingerprint):
                return (
                    f"The nickname {nickname} is taken (or looks like one that is); choose another."
                )
            old = self._names.get(fingerprint)
            if (
                self.shared is not None
                and self.shared.claim(nickname_key(nickname), fingerprint) is False
            ):
                return (
                    f"The nickname {nickname} is taken (or looks like one that is); choose another."
                )
            binding = Binding(
                nickname=nickname, bound=self.clock(), played=old is not None and old.played
            )
            self._names[fingerprint] = binding
            self._save()
            if self.shared is not None:
                if old is not None and nickname_key(old.nickname) != nickname_key(nickname):
                    self.shared.free(nickname_key(old.nickname), fingerprint)
                self.shared.store(fingerprint, binding)
        return None

    def played(self, fingerprint: str) -> None:
        """``fingerprint`` sat at a table: its nickname no longer expires."""
        self._read()
        b = self._names.get(fingerprint)
        if b is not None and not b.played:
            with self._locked():
                b = self._names.get(fingerprint)
                if b is not None and not b.played:
                    self._names[fingerprint] = played = msgspec.structs.replace(b, played=True)
                    self._save()
                    if self.shared is not None:
                        self.shared.store(fingerprint, played)

    def _save(self) -> None:
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_private(self.path, msgspec.json.encode(dict(sorted(self._names.items()))))
            st = self.path.stat()
            self._seen = (st.st_mtime_ns, st.st_size)
