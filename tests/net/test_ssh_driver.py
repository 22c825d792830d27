"""SSHDriver without a network: a fake channel collects bytes; the real app code runs on it.

Checks (shared/notes/ssh-textual.md §6): alt screen + first frame come out, keys and a lone ESC
arrive, resizes are clamped, invalid UTF-8 is replaced, and every exit restores the terminal
and frees the parser (the lru_cache leak)."""

from __future__ import annotations

import asyncio
import functools

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from net.ssh_driver import ENTER_SEQ, LEAVE_SEQ, SSHDriver
from tests.net.sshclient import plain

T = 10.0


class FakeChannel:
    def __init__(self) -> None:
        self.out = bytearray()
        self.closing = False

    def write(self, data: bytes) -> None:
        self.out += data

    def is_closing(self) -> bool:
        return self.closing


class Probe(App[None]):
    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("escape", "esc", "Esc"),
        Binding("plus", "plus", "Plus"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.count = 0
        self.escapes = 0
        self.keys: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("PROBE 0", id="probe")

    def on_key(self, event) -> None:
        self.keys.append(event.key)

    def action_plus(self) -> None:
        self.count += 1
        self.query_one("#probe", Static).update(f"PROBE {self.count}")

    def action_esc(self) -> None:
        self.escapes += 1


async def until(cond) -> None:
    async def loop():
        while not cond():  # noqa: ASYNC110 - bounded poll
            await asyncio.sleep(0.01)

    await asyncio.wait_for(loop(), T)


async def test_driver_renders_takes_keys_and_restores_the_terminal():
    chan = FakeChannel()
    drivers: list[SSHDriver] = []
    app = Probe(driver_class=functools.partial(SSHDriver, channel=chan, on_attach=drivers.append))
    task = asyncio.ensure_future(app.run_async(size=(60, 20)))
    await until(lambda: b"PROBE 0" in chan.out)
    assert chan.out.startswith(ENTER_SEQ.encode())
    (driver,) = drivers
    driver.feed(b"+")
    await until(lambda: b"PROBE 1" in chan.out)
    driver.feed(b"\x1b")  # a lone ESC arrives after ESCDELAY without another key
    await until(lambda: app.escapes == 1)
    driver.feed(b"\xff\xc3(")  # invalid UTF-8 becomes U+FFFD, no exception
    driver.resize(10_000, 0)
    await until(lambda: app.size == (240, 24))
    driver.feed(b"q")
    await asyncio.wait_for(task, T)
    assert chan.out.endswith(LEAVE_SEQ.encode())
    assert driver._parser is None  # closed: the parser no longer pins the app
    assert "PROBE 1" in plain(bytes(chan.out))


async def test_restore_is_written_once_even_if_called_again():
    chan = FakeChannel()
    drivers: list[SSHDriver] = []
    app = Probe(driver_class=functools.partial(SSHDriver, channel=chan, on_attach=drivers.append))
    task = asyncio.ensure_future(app.run_async(size=(40, 12)))
    await until(lambda: b"PROBE 0" in chan.out)
    app.exit()
    await asyncio.wait_for(task, T)
    drivers[0].restore_terminal()
    assert chan.out.count(LEAVE_SEQ.encode()) == 1


async def test_a_held_arrow_key_coalesces_while_the_app_is_busy_but_typing_never_does():
    chan = FakeChannel()
    drivers: list[SSHDriver] = []
    app = Probe(driver_class=functools.partial(SSHDriver, channel=chan, on_attach=drivers.append))
    task = asyncio.ensure_future(app.run_async(size=(40, 12)))
    await until(lambda: b"PROBE 0" in chan.out)
    (driver,) = drivers
    held = 500
    # One burst, as a terminal auto-repeating "down" sends it to a server that is behind.
    count = driver.feed(b"\x1b[B" * held)
    assert count == held  # every event is counted against the session's key budget
    typed = driver.feed(b"aaaa")
    assert typed == 4
    await until(lambda: app.keys.count("a") == 4)
    downs = app.keys.count("down")
    print(f"held arrow: {held} sent, {downs} delivered, {driver.coalesced} coalesced")
    assert downs + driver.coalesced == held
    assert 1 <= downs < held // 10
    assert app.keys.count("a") == 4  # typed characters are never coalesced
    driver.feed(b"q")
    await asyncio.wait_for(task, T)


async def test_a_sequence_the_parser_chokes_on_is_dropped_and_the_session_goes_on():
    chan = FakeChannel()
    drivers: list[SSHDriver] = []
    app = Probe(driver_class=functools.partial(SSHDriver, channel=chan, on_attach=drivers.append))
    task = asyncio.ensure_future(app.run_async(size=(40, 12)))
    await until(lambda: b"PROBE 0" in chan.out)
    (driver,) = drivers
    driver.feed(b"\x1b[2:B")  # Textual's parser raises ValueError on this (found by atheris)
    assert driver.parse_errors == 1
    driver.feed(b"+")
    await until(lambda: b"PROBE 1" in chan.out)
    driver.feed(b"q")
    await asyncio.wait_for(task, T)
