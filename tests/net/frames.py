"""Helpers for SSH tests that compare what clients' terminals show with the apps' renders:
the real app factory, bounded waits, and a terminal emulator (pyte) over a client's bytes."""

from __future__ import annotations

import asyncio
from typing import Any

import pyte

from tests.net.sshclient import T, Term

SIZE = (80, 24)


def app_factory(**kw: Any) -> Any:
    from tui.cli import ssh_app_factory

    return ssh_app_factory(**kw)


async def until(cond: Any, within: float = T) -> None:
    async def loop() -> None:
        while not cond():  # noqa: ASYNC110 - bounded poll of the server
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), within)


async def quiet(terms: list[Term], gap: float = 0.4) -> None:
    """Until no client has received anything for ``gap`` seconds."""
    for _ in range(int(T / gap)):
        before = [len(t.out) for t in terms]
        await asyncio.sleep(gap)
        if [len(t.out) for t in terms] == before:
            return
    raise AssertionError("the clients never went quiet")


def shown(term: Term, size: tuple[int, int] = SIZE) -> list[str]:
    """What the client's terminal shows, line by line (its bytes fed to an emulator)."""
    screen = pyte.Screen(*size)
    pyte.ByteStream(screen).feed(term.out)
    return [line.rstrip() for line in screen.display]


def rendered(app: Any) -> list[str]:
    """What the app renders now, line by line."""
    strips = app.screen._compositor.render_strips()
    return ["".join(s.text for s in strip).rstrip() for strip in strips]


def session_of(server: Any, key: Any) -> Any:
    """The server's session of the client that logged in with ``key``."""
    fp = key.get_fingerprint("sha256")
    return next(s for s in server.sessions if s.conn.identity_id == fp and s.app is not None)
