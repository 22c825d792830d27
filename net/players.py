"""Nicknames bound to SSH key fingerprints, kept in the data folder.

Owns ``DATA/players.json`` (fingerprint -> binding, written atomically, mode 0600): a nickname
chosen on a key's first visit is bound to that key, and no other key may take it or a name
that looks like it (`net.sanitize.nickname_key`). A key that sits at a table (creates one or
takes a seat) keeps its nickname for good; the binding of a key that never played expires
``expiry`` seconds after it was made (default 7 days), so names cannot be hoarded in bulk.
Files written before expiry existed (fingerprint -> nickname) are read as played bindings.
Guests are never stored.

Must not: authenticate anyone (the server does) or accept a nickname outside the allow-list.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from net.persist import write_private
from net.sanitize import nickname_error, nickname_key

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
    ) -> None:
        self.path = None if data_dir is None else Path(data_dir) / "players.json"
        self.expiry = expiry
        self.clock = clock
        self._names: dict[str, Binding] = {}
        if self.path is not None and self.path.exists():
            try:
                raw = msgspec.json.decode(self.path.read_bytes(), type=dict[str, str | Binding])
            except msgspec.DecodeError as err:
                raise ValueError(f"{self.path} is not a valid players file ({err}).") from None
            for k, v in raw.items():
                b = Binding(nickname=v) if isinstance(v, str) else v
                if nickname_error(b.nickname) is None:
                    self._names[k] = b
        if self._expire():
            self._save()

    def _expire(self) -> bool:
        now = self.clock()
        gone = [k for k, b in self._names.items() if not b.played and now - b.bound > self.expiry]
        for k in gone:
            del self._names[k]
        return bool(gone)

    def __len__(self) -> int:
        return len(self._names)

    def nickname(self, fingerprint: str) -> str | None:
        if self._expire():
            self._save()
        b = self._names.get(fingerprint)
        return None if b is None else b.nickname

    def is_taken(self, nickname: str, by: str | None = None) -> bool:
        self._expire()
        key = nickname_key(nickname)
        return any(nickname_key(b.nickname) == key and k != by for k, b in self._names.items())

    def bind(self, fingerprint: str, nickname: str) -> str | None:
        """Bind ``nickname`` to ``fingerprint``; return why not (one sentence) or None."""
        error = nickname_error(nickname)
        if error is not None:
            return error
        if self.is_taken(nickname, by=fingerprint):
            return f"The nickname {nickname} is taken (or looks like one that is); choose another."
        old = self._names.get(fingerprint)
        self._names[fingerprint] = Binding(
            nickname=nickname, bound=self.clock(), played=old is not None and old.played
        )
        self._save()
        return None

    def played(self, fingerprint: str) -> None:
        """``fingerprint`` sat at a table: its nickname no longer expires."""
        b = self._names.get(fingerprint)
        if b is not None and not b.played:
            self._names[fingerprint] = msgspec.structs.replace(b, played=True)
            self._save()

    def _save(self) -> None:
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_private(self.path, msgspec.json.encode(dict(sorted(self._names.items()))))
