"""Nicknames bound to SSH key fingerprints, kept in the data folder.

Owns ``DATA/players.json`` (fingerprint -> nickname, written atomically, mode 0600): a nickname
chosen on a key's first visit is that key's for good, and no other key may take it. Guests are
never stored.

Must not: authenticate anyone (the server does) or accept a nickname outside the allow-list.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from net.persist import write_private
from net.sanitize import nickname_error

__all__ = ["PlayerBook"]


class PlayerBook:
    """fingerprint -> nickname, persisted in ``DATA/players.json``."""

    def __init__(self, data_dir: Path | None) -> None:
        self.path = None if data_dir is None else Path(data_dir) / "players.json"
        self._names: dict[str, str] = {}
        if self.path is not None and self.path.exists():
            try:
                raw = msgspec.json.decode(self.path.read_bytes(), type=dict[str, str])
            except msgspec.DecodeError as err:
                raise ValueError(f"{self.path} is not a valid players file ({err}).") from None
            self._names = {k: v for k, v in raw.items() if nickname_error(v) is None}

    def nickname(self, fingerprint: str) -> str | None:
        return self._names.get(fingerprint)

    def is_taken(self, nickname: str, by: str | None = None) -> bool:
        folded = nickname.casefold()
        return any(v.casefold() == folded and k != by for k, v in self._names.items())

    def bind(self, fingerprint: str, nickname: str) -> str | None:
        """Bind ``nickname`` to ``fingerprint``; return why not (one sentence) or None."""
        error = nickname_error(nickname)
        if error is not None:
            return error
        if self.is_taken(nickname, by=fingerprint):
            return f"The nickname {nickname} is taken; choose another."
        self._names[fingerprint] = nickname
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_private(self.path, msgspec.json.encode(dict(sorted(self._names.items()))))
        return None
