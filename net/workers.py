"""``speedway serve --workers K``: K server processes on one port, kept alive, drained together.

Owns the supervisor: it resolves the port (a port 0 becomes one free port, held with
SO_REUSEPORT so every worker can bind it too), forks K workers that each run the whole server
(`net.server.run_server` with ``reuse_port``; the kernel spreads new connections over them),
restarts a worker that dies (after a short pause, so a worker that cannot start does not spin),
and on SIGTERM or SIGINT passes the signal to every worker and waits for each to drain (its
sessions told, its tables' logs synced) before it exits.

Must not: run sessions or tables itself (workers do; they share one lobby through the bus),
or import tui.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from types import FrameType

__all__ = ["hold_port", "supervise"]

log = logging.getLogger("speedway.workers")

RESTART_PAUSE = 0.5  # before restarting a worker that died; doubled (to at most 30 s) each
# time it dies again within STEADY seconds of its start, so one that cannot start does not spin
RESTART_MAX = 30.0
STEADY = 10.0
DRAIN_SECONDS = 40.0


def hold_port(host: str, port: int) -> tuple[socket.socket, int]:
    """A bound, not listening, SO_REUSEPORT socket on ``host``:``port`` (0: a free port), so the
    port stays ours while workers come and go. Returns it and the port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host or "0.0.0.0", port))
    return sock, int(sock.getsockname()[1])


def supervise(workers: int, run_worker: Callable[[int], None]) -> int:
    """Run ``run_worker(i)`` in ``workers`` forked processes until SIGTERM/SIGINT; exit code."""
    ctx = multiprocessing.get_context("fork")
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    def start(i: int) -> BaseProcess:
        def child() -> None:
            for sig in (signal.SIGTERM, signal.SIGINT):  # the worker's own loop handles them
                signal.signal(sig, signal.SIG_DFL)
            run_worker(i)

        proc = ctx.Process(target=child, name=f"speedway-worker-{i}", daemon=False)
        proc.start()
        log.info("event=worker-started worker=%d pid=%s", i, proc.pid)
        return proc

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    procs = {i: start(i) for i in range(workers)}
    started = dict.fromkeys(procs, time.monotonic())
    pause = dict.fromkeys(procs, RESTART_PAUSE)
    due: dict[int, float] = {}  # worker -> when to start it again
    try:
        while not stopping:
            time.sleep(0.2)
            now = time.monotonic()
            for i, proc in list(procs.items()):
                if stopping:
                    break
                if i in due:
                    if now >= due[i]:
                        del due[i]
                        procs[i], started[i] = start(i), now
                    continue
                if proc.is_alive():
                    continue
                pause[i] = (
                    min(RESTART_MAX, pause[i] * 2) if now - started[i] < STEADY else RESTART_PAUSE
                )
                log.warning(
                    "event=worker-died worker=%d code=%s: restarting in %.1f s",
                    i,
                    proc.exitcode,
                    pause[i],
                )
                due[i] = now + pause[i]
    finally:
        for proc in procs.values():
            if proc.is_alive() and proc.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + DRAIN_SECONDS
        for proc in procs.values():
            proc.join(max(0.1, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(5)
        for sig, handler in old.items():
            signal.signal(sig, handler)
    codes = [p.exitcode or 0 for p in procs.values()]
    return 0 if all(c in (0, -signal.SIGTERM) for c in codes) else 1
