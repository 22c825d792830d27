"""A small asyncio TCP proxy between an SSH client and the server that misbehaves on purpose,
after Shopify's toxiproxy: latency with jitter, throttling, fragmented writes, a peer that stops
reading, a cut after N bytes, a reset, a hang. 127.0.0.1 only; one instance per test.

Jitter is a fixed cycle of offsets (tests stay reproducible); ``reset`` closes with SO_LINGER 0,
so the kernel sends RST instead of FIN.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from dataclasses import dataclass, field

_JITTER = (0.0, 0.4, 0.9, 0.2, 0.7, 1.0, 0.1, 0.5)


@dataclass
class Faults:
    latency: float = 0.0  # seconds added to every chunk, each way
    jitter: float = 0.0  # up to this much more, in a fixed cycle
    rate: int = 0  # bytes per second each way (0: unlimited)
    fragment: int = 0  # forward in pieces of at most this many bytes (0: whole chunks)
    cut_after: int = 0  # close both sides after this many bytes server->client (0: never)
    frozen: asyncio.Event = field(default_factory=asyncio.Event)  # forward nothing, close nothing
    stop_reading: asyncio.Event = field(default_factory=asyncio.Event)  # stop reading the server


class ChaosProxy:
    def __init__(self, target_port: int, faults: Faults | None = None) -> None:
        self.target_port = target_port
        self.faults = faults or Faults()
        self.server: asyncio.Server | None = None
        self.port = 0
        self.to_client = 0
        self.to_server = 0
        self._writers: list[asyncio.StreamWriter] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._tick = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    def _delay(self) -> float:
        f = self.faults
        self._tick += 1
        return f.latency + f.jitter * _JITTER[self._tick % len(_JITTER)]

    async def _pipe(self, reader, writer, *, downstream: bool) -> None:
        f = self.faults
        try:
            while True:
                if downstream and f.stop_reading.is_set():
                    await asyncio.sleep(3600)  # the client's side stopped reading
                data = await reader.read(4096)
                if not data:
                    break
                if f.frozen.is_set():
                    await asyncio.sleep(3600)
                if f.latency or f.jitter:
                    await asyncio.sleep(self._delay())
                if downstream and f.cut_after and self.to_client + len(data) >= f.cut_after:
                    keep = f.cut_after - self.to_client
                    writer.write(data[:keep])
                    self.to_client += keep
                    await writer.drain()
                    self.cut()
                    return
                step = f.fragment or len(data)
                for i in range(0, len(data), step):
                    piece = data[i : i + step]
                    writer.write(piece)
                    await writer.drain()
                    if f.rate:
                        await asyncio.sleep(len(piece) / f.rate)
                if downstream:
                    self.to_client += len(data)
                else:
                    self.to_server += len(data)
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            if not f.frozen.is_set():
                with contextlib.suppress(Exception):
                    writer.close()

    async def _serve(self, client_r, client_w) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers += [client_w, server_w]
        up = asyncio.ensure_future(self._pipe(client_r, server_w, downstream=False))
        down = asyncio.ensure_future(self._pipe(server_r, client_w, downstream=True))
        self._tasks += [up, down]
        await asyncio.gather(up, down, return_exceptions=True)

    def cut(self) -> None:
        """Close every connection now (a FIN each way)."""
        for w in self._writers:
            with contextlib.suppress(Exception):
                w.close()

    def reset(self) -> None:
        """Abort every connection with a TCP reset."""
        for w in self._writers:
            sock = w.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(Exception):
                w.transport.abort()

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        self.cut()
        if self.server is not None:
            self.server.close()
