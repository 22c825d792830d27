"""Test helpers: asyncssh clients with a PTY and a text view of what the server drew.

Every wait is bounded; the server is always 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import re

import asyncssh

T = 10.0
_ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]P^_][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[@-Z\\-_]")


def plain(data: bytes) -> str:
    """The bytes a client received with the escape sequences removed."""
    return _ANSI.sub(b"", data).decode("utf-8", errors="replace")


class _KbdIntClient(asyncssh.SSHClient):
    """Answers keyboard-interactive with nothing, as `ssh` does for a prompt-less guest login."""

    def kbdint_auth_requested(self):
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return [""] * len(prompts)


async def connect(port: int, key=None, **kw) -> asyncssh.SSHClientConnection:
    kw.setdefault("known_hosts", None)
    kw.setdefault("username", "player")
    kw.setdefault("agent_path", None)
    kw.setdefault("password_auth", False)
    kw.setdefault("client_keys", [key] if key is not None else [])
    if key is None:
        kw.setdefault("preferred_auth", "keyboard-interactive")
        kw.setdefault("client_factory", _KbdIntClient)
    return await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **kw), T)


class _Collector(asyncssh.SSHClientSession):
    def __init__(self, term: Term) -> None:
        self.term = term

    def data_received(self, data, datatype) -> None:
        self.term.out += data
        self.term.changed.set()

    def exit_status_received(self, status: int) -> None:
        self.term.status = status

    def connection_lost(self, exc) -> None:
        self.term.closed.set()
        self.term.changed.set()


class Term:
    """One client session (PTY unless ``term_type`` is None)."""

    def __init__(self) -> None:
        self.out = b""
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.status: int | None = None
        self.chan = None

    @classmethod
    async def open(
        cls,
        conn,
        *,
        term_type: str | None = "xterm-256color",
        size=(100, 30),
        command: str | None = None,
        **kw,
    ) -> Term:
        t = cls()
        if term_type is not None:
            kw["term_type"] = term_type
            kw["term_size"] = size
        t.chan, _ = await asyncio.wait_for(
            conn.create_session(lambda: _Collector(t), command, encoding=None, **kw), T
        )
        return t

    @property
    def text(self) -> str:
        return plain(self.out)

    async def wait_for(self, needle: str, within: float = T) -> str:
        async def loop() -> str:
            while needle not in self.text:
                if self.closed.is_set():
                    raise AssertionError(f"closed before {needle!r}; got {self.text[-800:]!r}")
                self.changed.clear()
                await self.changed.wait()
            return self.text

        try:
            return await asyncio.wait_for(loop(), within)
        except TimeoutError:
            raise AssertionError(
                f"no {needle!r} within {within}s; got {self.text[-800:]!r}"
            ) from None

    async def wait_closed(self, within: float = T) -> int | None:
        await asyncio.wait_for(self.closed.wait(), within)
        return self.status

    def send(self, data: bytes | str) -> None:
        self.chan.write(data.encode() if isinstance(data, str) else data)
