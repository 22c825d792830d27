"""Who may list and download which finished replay, and the opaque ids replays name players by.

Owns ``DATA/keys/replay_ids.key`` (a random secret made once, 0600) and `pseudonym`: a
player's id in a replay file is ``p-`` + 16 hex digits of HMAC-SHA256(secret, identity), the
same for one key on this server and unlinkable to the key's fingerprint without the secret
(guests are ``guest``). Also owns ``DATA/replays/ID.access`` next to a private table's replay:
the pseudonyms of its players, its creator and everyone who had the invite code. A replay with
no access file is public (every table that was not private, and replays from before this
existed). `ReplayAccess.visible` and `ReplayAccess.path` are what `ssh HOST replays`,
`ssh HOST replay ID` and the replay browser of a network session use; a replay a player may
not see is reported exactly like one that does not exist.

Must not: decide what happens at a table, or read the replays' contents beyond
`replays.store.list_replays`.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Iterable
from pathlib import Path

import msgspec

from core.game import Seat
from net.persist import write_private
from replays.store import ReplayInfo, list_replays

__all__ = ["ReplayAccess", "pseudonym", "public_seats"]

_REPLAY_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")


class _Access(msgspec.Struct, frozen=True, kw_only=True):
    private: bool = True
    allowed: list[str] = []


def _secret(data_dir: Path) -> bytes:
    keys = Path(data_dir) / "keys"
    path = keys / "replay_ids.key"
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except FileNotFoundError:
        pass
    keys.mkdir(parents=True, exist_ok=True)
    os.chmod(keys, 0o700)
    data = secrets.token_bytes(32)
    write_private(path, data)
    return data


def pseudonym(secret: bytes, identity: str | None) -> str | None:
    """The opaque per-server id a replay names ``identity`` by (None stays None).

    >>> pseudonym(b"k" * 32, "SHA256:abc") == pseudonym(b"k" * 32, "SHA256:abc")
    True
    >>> pseudonym(b"k" * 32, "guest:1f2e"), pseudonym(b"k" * 32, None)
    ('guest', None)
    """
    if identity is None:
        return None
    if identity.startswith("guest:"):
        return "guest"
    digest = hmac.new(secret, identity.encode(), hashlib.sha256).hexdigest()
    return "p-" + digest[:16]


def public_seats(secret: bytes, seats: Iterable[Seat]) -> list[Seat]:
    """``seats`` as a replay file shows them: nicknames and pseudonyms, never fingerprints."""
    return [
        msgspec.structs.replace(s, identity=pseudonym(secret, s.identity))
        if s.identity is not None
        else s
        for s in seats
    ]


class ReplayAccess:
    """The replays folder of one data dir as each identity may see it."""

    def __init__(self, data_dir: Path | None) -> None:
        self.data_dir = None if data_dir is None else Path(data_dir)
        self.folder = None if self.data_dir is None else self.data_dir / "replays"
        self._key: bytes | None = None

    @property
    def secret(self) -> bytes:
        if self._key is None:
            if self.data_dir is None:
                self._key = secrets.token_bytes(32)  # no data dir: ids for this process only
            else:
                self._key = _secret(self.data_dir)
        return self._key

    def pseudonym(self, identity: str | None) -> str | None:
        return pseudonym(self.secret, identity)

    def restrict(self, replay_id: str, identities: Iterable[str | None]) -> None:
        """Make ``replay_id`` private to ``identities`` (written atomically, 0600)."""
        if self.folder is None:
            return
        allowed = sorted({p for p in map(self.pseudonym, identities) if p and p != "guest"})
        write_private(
            self.folder / f"{replay_id}.access", msgspec.json.encode(_Access(allowed=allowed))
        )

    def may_see(self, replay_id: str, identity: str) -> bool:
        if self.folder is None:
            return False
        path = self.folder / f"{replay_id}.access"
        try:
            access = msgspec.json.decode(path.read_bytes(), type=_Access)
        except FileNotFoundError:
            return True
        except (OSError, msgspec.DecodeError):
            return False  # unreadable: private to everyone rather than public by mistake
        if not access.private:
            return True
        mine = self.pseudonym(identity)
        return mine is not None and mine != "guest" and mine in access.allowed

    def visible(self, identity: str) -> list[ReplayInfo]:
        """Finished and unfinished replays ``identity`` may see, newest first."""
        if self.folder is None or not self.folder.is_dir():
            return []
        return [i for i in list_replays(self.folder) if self.may_see(i.path.stem, identity)]

    def path(self, replay_id: str, identity: str) -> Path | None:
        """The file of ``replay_id`` if it exists and ``identity`` may download it."""
        if self.folder is None or not _REPLAY_ID.match(replay_id):
            return None
        stem = replay_id.removesuffix(".replay")
        path = self.folder / f"{stem}.replay"
        if not path.is_file() or not self.may_see(stem, identity):
            return None
        return path
