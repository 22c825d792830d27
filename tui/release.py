"""The reference cycles of an ended app or a closed screen, cut so reference counting frees it.

Owns `release`. Every Textual node points back at its parent and its children, its styles and
bindings at the node, its workers at the node that started them, and the screens' result
callbacks at the app: an ended SSH session's app is about 11,000 objects held only by cycles,
and so is each closed rules page or new-game form. The server switches automatic full
collections off and freezes what sessions build (`net.collector`), so such garbage would stay
until a compaction — a full walk of every session, ~200 ms at 100 sessions — and memory grew by
megabytes per ended session in the load benchmark. `release` walks what a closed root holds —
Textual and Speedway objects and plain containers — and empties the instance dicts of the
closed nodes, their render styles, workers and timers. The cycles are cut there, and reference
counting frees the lot at once (a test checks: nothing left for the collector).

Must not: touch a node that is not closed (a live screen of the same app, another session's
app: the walk never goes through one), go into a driver, a type, a module, a function, or any
core/net object (shared with other sessions), or empty a container; release a root that is not
closed yet.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import gc
import logging
import time
import traceback
import types
from collections.abc import Generator
from typing import Any

from textual.binding import BindingsMap
from textual.cache import FIFOCache, LRUCache
from textual.css.styles import RenderStyles, Styles
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.driver import Driver
from textual.message_pump import MessagePump
from textual.strip import Strip
from textual.timer import Timer
from textual.worker import Worker, WorkerState

__all__ = ["install", "is_closed", "release", "release_in_slices", "releasing"]

log = logging.getLogger("speedway.release")

_CONTAINERS = frozenset(  # exact types: a named tuple (a Segment, a Region) holds no node
    {dict, list, tuple, set, frozenset, collections.deque, types.MethodType, functools.partial}
)
_OWN = ("textual.", "tui.")
# Never gone into: types, modules, functions, the driver (it leads to other sessions), and
# what holds no node but is large — the stylesheet (its parse cache is the process's), and
# the render caches, lines, styles and key maps (the walk took 70 ms through them).
_NEVER = (
    type,
    types.ModuleType,
    types.FunctionType,
    Driver,
    Stylesheet,
    FIFOCache,
    LRUCache,
    Strip,
    Styles,
    BindingsMap,
)


_STEP = 256  # objects walked or emptied between two looks at the clock (release_in_slices)

_installed = False
_VIRTUAL_NODES = "_speedway_virtual_nodes"  # a widget's component-style nodes (install)


def install() -> None:
    """Patch Textual once per process (idempotent) where it leaves cycles that no node refers
    to any more, found only by a full collection. A finished worker: a cancelled one's
    `CancelledError` traceback holds every frame of its coroutines with their locals (the app,
    the screen, the worker) — nothing reads it, a cancellation is not an error and Textual
    logs a failed worker's traceback as it fails — and the worker's task holds a context that
    holds the worker, which holds the task. A restyled widget's old component-style nodes."""
    global _installed
    if _installed:
        return
    _installed = True
    run = Worker._run

    async def run_then_let_go(self: Worker[Any], app: Any) -> None:
        await run(self, app)
        error = self._error
        if self.state is WorkerState.CANCELLED and isinstance(error, BaseException):
            error.__traceback__ = None
        # The task's context holds this worker (`active_worker`) and the worker its task:
        # a finished worker lets go of the task (`wait` and `cancel` read None as done).
        self._task = None

    Worker._run = run_then_let_go  # type: ignore[method-assign]

    # Textual's `LRUCache` keeps its entries in a ring of lists (``[prev, next, key, value]``):
    # a cache dropped or cleared leaves its ring as a cycle that holds every cached value (a
    # screen's `query_one` cache, cleared at every change of its widgets, holds them; a
    # widget's box models their sizes): ~130 objects of every ended session, and more of a
    # long one, for a full collection a busy server never runs. The ring is cut instead.
    def cut_ring(self: LRUCache[Any, Any]) -> None:
        for node in self._cache.values():
            node.clear()

    lru_clear = LRUCache.clear
    lru_discard = LRUCache.discard

    def clear_cutting_ring(self: LRUCache[Any, Any]) -> None:
        cut_ring(self)
        lru_clear(self)

    def discard_cutting_link(self: LRUCache[Any, Any], key: Any) -> None:
        link = self._cache.get(key)
        lru_discard(self, key)
        if link is not None:  # (a ring of one refers to itself)
            link.clear()

    LRUCache.__del__ = cut_ring  # type: ignore[attr-defined]
    LRUCache.clear = clear_cutting_ring  # type: ignore[method-assign]
    LRUCache.discard = discard_cutting_link  # type: ignore[method-assign]

    process = Stylesheet._process_component_classes

    def process_then_let_go(self: Stylesheet, node: DOMNode) -> None:
        # Each restyle of a widget with component classes (a data table, an option list, a
        # screen) makes new virtual nodes; the old ones are cycles (node <-> its styles).
        before = node.__dict__.get(_VIRTUAL_NODES, ())
        process(self, node)
        made = [styles.node for styles in node._component_styles.values()]
        # Kept on the widget too: a removed widget's `_component_styles` is emptied by
        # Textual, and `release` must still reach them.
        node.__dict__[_VIRTUAL_NODES] = made
        for old in before:
            if _virtual(old) and all(old is not new for new in made):
                old.__dict__.clear()

    Stylesheet._process_component_classes = process_then_let_go  # type: ignore[method-assign]


def is_closed(pump: MessagePump) -> bool:
    """Has this node (or app) stopped for good?"""
    return bool(pump.__dict__.get("_closed", True))


def _virtual(obj: object) -> bool:
    """A plain `DOMNode` that never ran: Textual makes one per component class of a widget
    to hold its styles (`Stylesheet._process_component_classes`); it lives and dies with that
    widget's ``_component_styles``, reached only through a weak reference."""
    return type(obj) is DOMNode and obj.__dict__.get("_task") is None


def _dead(obj: object) -> bool:
    """Does ``obj`` belong to closed nodes only (so emptying it cannot hurt a live one)?"""
    if isinstance(obj, MessagePump):
        return is_closed(obj) or _virtual(obj)
    if isinstance(obj, RenderStyles):
        node = obj.__dict__.get("_node")
        owner = node() if node is not None else None
        return owner is None or _dead(owner)
    if isinstance(obj, Worker):
        owner = obj.__dict__.get("_node")
        return not isinstance(owner, MessagePump) or is_closed(owner)
    if isinstance(obj, Timer):
        target = obj.__dict__.get("_target")
        owner = target() if target is not None else None
        return owner is None or is_closed(owner)
    return False


def release(root: MessagePump, *more: MessagePump) -> int:
    """Cut the cycles held by the closed ``root`` (an ended app, a removed screen) and by the
    closed nodes in ``more`` (an ended app's screens, no longer on its stack); returns how many
    objects were emptied (0 when ``root`` is still running: nothing is touched)."""
    steps = releasing(root, *more)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return int(done.value)


def release_in_slices(root: MessagePump, *more: MessagePump, budget: float = 0.005) -> None:
    """`release`, a slice of at most about ``budget`` seconds per turn of the running event
    loop: an ended session's app is ~40 ms of walking and emptying, and on a server every
    other session waits behind one piece of work that long. What is walked is closed for
    good, so nothing changes under the walk between slices."""
    _Slices(releasing(root, *more), budget).run()


class _Slices:
    """Runs a release's steps a slice per turn of the loop (a bound method rescheduled: a
    closure naming itself would be a cycle, left for a full collection with what it holds)."""

    def __init__(self, steps: Generator[None, None, int], budget: float) -> None:
        self.steps = steps
        self.budget = budget

    def run(self) -> None:
        end = time.perf_counter() + self.budget
        for _ in self.steps:
            if time.perf_counter() >= end:
                asyncio.get_running_loop().call_soon(self.run)
                return


def releasing(root: MessagePump, *more: MessagePump) -> Generator[None, None, int]:
    """`release` as steps: yields after every `_STEP` objects walked or emptied, returns
    how many were emptied."""
    if not is_closed(root):
        return 0
    try:
        doomed = yield from _walk([root, *(node for node in more if is_closed(node))])
        for n, obj in enumerate(doomed, 1):
            if isinstance(obj, Worker):
                _forget_frames(obj.__dict__.get("_error"))
            obj.__dict__.clear()
            if n % _STEP == 0:
                yield
    except Exception:  # a release is an optimisation: never a reason to fail a session's end
        log.exception("event=release_failed root=%s", type(root).__name__)
        return 0
    return len(doomed)


def _forget_frames(error: object) -> None:
    """A cancelled or failed worker keeps its exception, whose traceback keeps every frame of
    the worker's coroutines with their locals (the app, the screen): drop those locals. Its
    frames have all finished (the exception left them)."""
    for _ in range(8):  # the exception and what it was raised during, a few deep
        if not isinstance(error, BaseException):
            return
        traceback.clear_frames(error.__traceback__)
        error = error.__context__ or error.__cause__


def _walk(roots: list[MessagePump]) -> Generator[None, None, list[Any]]:
    seen = {id(root) for root in roots}
    stack: list[Any] = list(roots)
    doomed: list[Any] = []
    walked = 0
    while stack:
        obj = stack.pop()
        walked += 1
        if walked % _STEP == 0:
            yield
        if isinstance(obj, (MessagePump, RenderStyles, Worker, Timer)):
            if not _dead(obj):
                continue  # a live node, or what belongs to one: never emptied, never gone into
            doomed.append(obj)
            if isinstance(obj, RenderStyles):  # a dead widget's component styles: their node
                ref = obj.__dict__.get("_node")
                node = ref() if ref is not None else None
                if _virtual(node) and id(node) not in seen:
                    seen.add(id(node))
                    stack.append(node)
        for ref in gc.get_referents(obj):
            if id(ref) in seen or isinstance(ref, _NEVER):
                continue
            kind = type(ref)
            if kind in _CONTAINERS or (
                kind.__module__.startswith(_OWN) and not issubclass(kind, tuple)
            ):
                seen.add(id(ref))
                stack.append(ref)
    return doomed
