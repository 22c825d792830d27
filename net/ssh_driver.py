"""A Textual driver that renders one app into one SSH channel, inside the server's event loop.

Owns `SSHDriver` and the process-wide fixes that make many apps share one loop
(shared/notes/ssh-textual.md §3-4): no threads, signals, termios or ``shutil`` terminal size;
output is batched per loop turn and written as bytes to the channel; input bytes go through an
incremental UTF-8 decoder (invalid bytes become U+FFFD, never an exception) into Textual's
``XTermParser``, and a timer calls ``parser.tick()`` so a lone ESC arrives (pitfall 8); a
repeated key (or mouse move) the app has not caught up with is coalesced, and `feed` says how
many events the bytes made so the session can charge its key budget (issue 11 item 3); the
parser's generator is closed on exit so a finished app is not kept alive by the parser's
``lru_cache`` (pitfall 4); ``redirect_stdout``/``redirect_stderr`` are disabled because they
swap the process-global ``sys.stdout`` (pitfall 2). Every exit path restores the client's
terminal (mouse off, cursor on, main screen). A driver can share frames with others
(`net.mirror`): `offer_mirror` joins a group; as a follower it writes nothing of its own app's
and any input or resize first takes it out; as a leader every flush also goes to the followers.

Must not: import tui, read the server's own terminal, or block the loop.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
from collections.abc import Callable
from typing import Any, Protocol

import textual.app
from textual import events
from textual._xterm_parser import XTermParser
from textual.constants import ESCAPE_DELAY
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from net.mirror import MIRROR, MirrorMember

__all__ = ["COALESCED_KEYS", "ENTER_SEQ", "LEAVE_SEQ", "Channel", "SSHDriver", "clamp_size"]

# Pitfall 2: Textual wraps each app's life in redirect_stdout/stderr, which replace the
# *process-wide* sys.stdout; with overlapping sessions it ends up pointing at a dead app.
textual.app.redirect_stdout = contextlib.nullcontext  # type: ignore[attr-defined,assignment]
textual.app.redirect_stderr = contextlib.nullcontext  # type: ignore[attr-defined,assignment]

COALESCED_KEYS = frozenset(
    {"up", "down", "left", "right", "pageup", "pagedown", "home", "end"}
    | {f"{mod}+{k}" for mod in ("shift", "ctrl") for k in ("up", "down", "left", "right")}
)
"""Keys a terminal repeats when held; typed characters are never coalesced."""

MAX_COLS = 240
MAX_ROWS = 80
MIN_COLS = 20
MIN_ROWS = 10

ENTER_SEQ = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"  # mouse
    "\x1b[?25l"  # hide cursor
    "\x1b[?1004h"  # focus reports
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no autowrap
    "\x1b[?2026$p"  # ask whether synchronized output is supported (pitfall 16)
)
LEAVE_SEQ = (
    "\x1b[?7h"
    "\x1b[?2004l"
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
    "\x1b[?1004l"
    "\x1b[?25h"
    "\x1b[0m"
    "\x1b[?1049l"  # leave the alternate screen last
)


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A client's terminal size made safe: 0 means unknown (80x24), then clamped to the limits.

    >>> clamp_size(0, 0), clamp_size(10_000, 10_000), clamp_size(5, 3)
    ((80, 24), (240, 80), (20, 10))
    """
    w = 80 if width <= 0 else width
    h = 24 if height <= 0 else height
    return max(MIN_COLS, min(w, MAX_COLS)), max(MIN_ROWS, min(h, MAX_ROWS))


class Channel(Protocol):
    """What the driver needs of an SSH channel (asyncssh's `SSHServerChannel` fits)."""

    def write(self, data: bytes) -> None: ...

    def is_closing(self) -> bool: ...


class SSHDriver(Driver):
    """Render into ``channel``; the session calls `feed` with input and `resize` on changes.

    Built by Textual as ``driver_class(app, debug=, mouse=, size=)``; the server passes a
    ``functools.partial`` binding ``channel`` and ``on_attach`` (which gives the session its
    driver so it can forward input).
    """

    def __init__(
        self,
        app: Any,
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        channel: Channel,
        on_attach: Callable[[SSHDriver], None] | None = None,
        on_first_frame: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.channel = channel
        self._parser: XTermParser | None = XTermParser(debug=False)
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._out: list[str] = []
        self._flush_scheduled = False
        self._tick_handle: asyncio.TimerHandle | None = None
        self._input = False
        self._restored = False
        self._on_first_frame = on_first_frame
        self.bytes_out = 0
        self.writes = 0  # the app's own writes (the load benchmark's "quiet step" check)
        self.coalesced = 0  # input events dropped as repeats of one still queued
        self.parse_errors = 0  # malformed input the parser choked on (dropped, session goes on)
        self._last_key: str | None = None
        self._divert: MirrorMember | None = None  # `paint_full_to`: writes go to that driver only
        self.mirror_key: Any = None
        if on_attach is not None:
            on_attach(self)

    # ---------------------------------------------------------------- output

    def write(self, data: str) -> None:
        self.writes += 1
        if self._divert is not None:
            self._divert.write_bytes(data.encode("utf-8", errors="replace"))
            return
        self._out.append(data)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self._loop.call_soon(self.flush)

    def flush(self) -> None:
        self._flush_scheduled = False
        if not self._out:
            return
        data = "".join(self._out).encode("utf-8", errors="replace")
        self._out.clear()
        if self.mirror_key is not None:
            role = MIRROR.role(self)
            if role == "follower":
                return  # the leader's frames are on this terminal; this app draws nothing
            for follower in MIRROR.followers(self):
                follower.write_bytes(data)
        self.write_bytes(data)

    def write_bytes(self, data: bytes) -> None:
        """Put ``data`` on this session's terminal (its own frames, or its leader's)."""
        if self.channel.is_closing():
            return
        self.channel.write(data)
        self.bytes_out += len(data)
        if self._on_first_frame is not None and self.bytes_out > len(ENTER_SEQ) + 64:
            callback, self._on_first_frame = self._on_first_frame, None
            callback()

    # ---------------------------------------------------------------- shared frames

    @property
    def mirror_role(self) -> str | None:
        """``"leader"``, ``"follower"`` or None (`net.mirror`)."""
        return MIRROR.role(self) if self.mirror_key is not None else None

    def offer_mirror(self, key: Any, catch_up: Callable[[], None]) -> bool:
        """Join the group of sessions that would draw what this one draws (``key``); True if
        this one now follows. ``catch_up`` redraws this app for itself when it stops following
        (its screen is told to draw again, then sends a full frame)."""
        self.flush()
        self.mirror_key = key
        app = self._app

        def draw_again() -> None:
            # Called by whichever session changed the group: run in this app's own context
            # (Textual finds "the app" through a context variable, pitfall 3).
            self.mirror_key = None if MIRROR.role(self) is None else self.mirror_key
            with contextlib.suppress(Exception):
                app.call_later(catch_up)

        follows = MIRROR.join(self, key, draw_again)
        if follows:
            self._out.clear()
        return follows

    def rekey_mirror(self, key: Any) -> bool:
        """Move the group this session leads to ``key`` (`net.mirror.Mirror.rekey`)."""
        if self.mirror_key is None or not MIRROR.rekey(self, key):
            return False
        self.mirror_key = key
        return True

    def leave_mirror(self) -> None:
        """Stop sharing frames (a follower catches up; a leader hands over)."""
        if self.mirror_key is not None:
            MIRROR.leave(self)
            self.mirror_key = None

    def paint_full_to(self, other: MirrorMember) -> None:
        """Send ``other`` (a new follower) one full frame of this app's screen, from this
        app's own context."""
        with contextlib.suppress(Exception):
            self._app.call_later(self._paint_full_now, other)

    def _paint_full_now(self, other: MirrorMember) -> None:
        if MIRROR.role(other) != "follower" or other not in MIRROR.followers(self):
            return  # it left, or this one no longer leads it: its own frame or the new leader's
        app = self._app
        try:
            screen = app.screen
            compositor = screen._compositor
        except Exception:
            return
        self.flush()
        pending = set(compositor._dirty_regions)  # this app's own next update still sends them
        # (with the screens behind: a modal's translucent background shows the one below)
        update = compositor.render_update(full=True, screen_stack=app._background_screens)
        compositor._dirty_regions.update(pending)
        self._divert = other
        try:
            app._display(screen, update)
        finally:
            self._divert = None

    def send_message(self, message: Message) -> None:
        # Everything runs on the loop thread: no run_coroutine_threadsafe Task per event.
        self._app.post_message(message)

    # ---------------------------------------------------------------- input

    def feed(self, data: bytes) -> int:
        """Bytes from the client: decode (invalid UTF-8 -> U+FFFD), parse, deliver.

        Returns how many input events the bytes made (delivered or coalesced), which the
        session charges against its key-event budget.
        """
        parser = self._parser
        if not self._input or parser is None:
            return 0
        self.leave_mirror()  # this session's own input: it draws for itself again
        text = self._decoder.decode(data)
        if not text:
            return 0
        try:
            messages = list(parser.feed(text))
        except Exception:
            # Textual's parser raises on some malformed sequences (``ESC [ 2 : B``, found by
            # atheris) and is dead afterwards: start a fresh one and drop the bad bytes; the
            # session goes on.
            self.parse_errors += 1
            self._new_parser()
            messages = []
        for message in messages:
            self._deliver(message)
        count = len(messages)
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        self._tick_handle = self._loop.call_later(ESCAPE_DELAY + 0.01, self._tick)
        return count

    def _deliver(self, message: Message) -> None:
        """Coalesce repeats the app has not caught up with: a held arrow key (or a mouse
        moving) while the app still has messages queued sends one event, not a backlog."""
        repeat = (
            isinstance(message, events.Key)
            and message.key in COALESCED_KEYS
            and message.key == self._last_key
        ) or (isinstance(message, events.MouseMove) and self._last_key == "<move>")
        if repeat and self._app._message_queue.qsize() > 0:
            self.coalesced += 1
            return
        if isinstance(message, events.Key):
            self._last_key = message.key
        elif isinstance(message, events.MouseMove):
            self._last_key = "<move>"
        else:
            self._last_key = None
        self.process_message(message)

    def _tick(self) -> None:
        self._tick_handle = None
        parser = self._parser
        if parser is None or not self._input:
            return
        try:
            messages = list(parser.tick())
        except Exception:
            self.parse_errors += 1
            self._new_parser()
            return
        for message in messages:
            self._deliver(message)

    def _new_parser(self) -> None:
        old, self._parser = self._parser, XTermParser(debug=False)
        if old is not None:
            with contextlib.suppress(Exception):
                old._tokens.clear()
                old._gen.close()

    def resize(self, width: int, height: int) -> None:
        w, h = clamp_size(width, height)
        self.leave_mirror()
        self._size = (w, h)
        size = Size(w, h)
        self._app.post_message(events.Resize(size, size))

    # ---------------------------------------------------------------- modes

    def start_application_mode(self) -> None:
        self.write(ENTER_SEQ)
        self.flush()
        self._input = True
        w, h = self._size if self._size is not None else (80, 24)
        size = Size(w, h)
        self._app.post_message(events.Resize(size, size))

    def disable_input(self) -> None:
        self._input = False
        self.leave_mirror()
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.restore_terminal()

    def restore_terminal(self) -> None:
        """Undo everything `start_application_mode` did (idempotent; every exit path)."""
        if self._restored:
            return
        self._restored = True
        self.write(LEAVE_SEQ)
        self.flush()

    def close(self) -> None:
        self.disable_input()
        parser, self._parser = self._parser, None
        if parser is not None:
            # Pitfall 4: the parser's generator frame holds the last event, whose sender is the
            # App; the class-level lru_cache keeps the parser. Close it so the App can be freed.
            parser._tokens.clear()
            parser._gen.close()
