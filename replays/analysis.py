"""Analysing a replay file: the core analysis run on its steps, its cache, JSON and text.

Owns `analyse_replay` (a `Replay` -> `core.analysis.Analysis`, seeded from the game's content
so the same game and settings give the same bytes), the cache file beside the replay
(``FILE.analysis``: a JSON document keyed by the analysis format, the game's rules version, the
content digest, the analyser's revision and the settings as resolved for the game, so a changed
default is a different key; a stale or damaged cache is ignored and rewritten), `to_json` and
`summary_text`.

Must not: open a screen, or change the replay file itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import msgspec

from core.analysis import (
    FORMAT,
    Analysis,
    Progress,
    Settings,
    Watch,
    analyse,
    analysis_seed,
    cache_tag,
    has_analyser,
)
from replays.errors import ReplayError
from replays.reader import Replay

__all__ = [
    "analyse_replay",
    "cache_path",
    "cached_or_analyse",
    "content_digest",
    "load_cached",
    "save_cache",
    "summary_text",
    "to_json",
]

CACHE_SUFFIX = ".analysis"


class _Cache(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    analysis: Analysis


def content_digest(replay: Replay) -> str:
    """SHA-256 of the game itself: game id, config, seat names and every step's bytes.

    Leaves out the file's salt, commitment and save time, so two files of one game agree.
    """
    h = hashlib.sha256()
    header = replay.header
    for part in (header.game.encode(), bytes(header.config)):
        h.update(len(part).to_bytes(4, "big") + part)
    for name in replay.names:
        raw = name.encode()
        h.update(len(raw).to_bytes(4, "big") + raw)
    for action_raw, event_raws in replay.raw_steps:
        h.update(len(action_raw).to_bytes(4, "big") + action_raw)
        h.update(len(event_raws).to_bytes(4, "big"))
        for raw in event_raws:
            h.update(len(raw).to_bytes(4, "big") + raw)
    return h.hexdigest()


def _key(replay: Replay, settings: Settings) -> str:
    """The cache key: analysis format, the game's rules version, content digest, then the
    analyser's revision and the settings resolved for the game (`core.analysis.cache_tag`)."""
    game = replay.game
    return (
        f"{FORMAT}|{game.id}/{game.rules_version}|{content_digest(replay)}|"
        f"{cache_tag(game.id, settings)}"
    )


def analyse_replay(
    replay: Replay,
    settings: Settings | None = None,
    progress: Progress | None = None,
    watch: Watch | None = None,
) -> Analysis:
    """Analyse every decision of the replay (see `core.analysis`; None: the game's defaults)."""
    settings = settings if settings is not None else Settings()
    game = replay.game
    if not has_analyser(game.id):
        raise ReplayError(f"There is no analysis for {game.title} replays yet.")
    if replay.last_step < 0:
        raise ReplayError("The replay has no steps to analyse.")
    digest = content_digest(replay)
    seed = analysis_seed(bytes.fromhex(digest))
    start = game.new_state(replay.config, len(replay.header.seats))
    return analyse(game.id, start, replay.steps, replay.names, settings, seed, progress, watch)


def cache_path(replay_path: Path | str) -> Path:
    path = Path(replay_path)
    return path.with_name(path.name + CACHE_SUFFIX)


def load_cached(replay: Replay, settings: Settings) -> Analysis | None:
    """The cached analysis of this replay and settings, or None (missing, stale or damaged)."""
    if replay.path is None or not has_analyser(replay.game.id):
        return None
    try:
        raw = cache_path(replay.path).read_bytes()
        cached = msgspec.json.decode(raw, type=_Cache)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if cached.key != _key(replay, settings):
        return None
    return cached.analysis


def save_cache(replay: Replay, analysis: Analysis) -> Path | None:
    """Write the analysis beside the replay (atomically); None if the folder is read-only."""
    if replay.path is None:
        return None
    path = cache_path(replay.path)
    data = msgspec.json.encode(_Cache(key=_key(replay, analysis.settings), analysis=analysis))
    # a name of its own per writer: two viewers of one file never write into each other's
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return None
    return path


def cached_or_analyse(
    replay: Replay, settings: Settings | None = None, progress: Progress | None = None
) -> Analysis:
    """The cached analysis if it fits, else a fresh one (then cached beside the replay)."""
    settings = settings if settings is not None else Settings()
    found = load_cached(replay, settings)
    if found is not None:
        return found
    analysis = analyse_replay(replay, settings, progress)
    save_cache(replay, analysis)
    return analysis


def to_json(analysis: Analysis) -> str:
    """The whole analysis as indented JSON (ends with a newline)."""
    encoded = msgspec.json.encode(analysis)
    return msgspec.json.format(encoded, indent=2).decode() + "\n"


def _num(x: float) -> str:
    return f"{x:+.1f}" if x else "0.0"


def summary_text(analysis: Analysis, names: Sequence[str] | None = None) -> str:
    """Per player skill and luck (per unit), then the turning points, as plain text."""
    horizon = analysis.settings.horizon
    ahead = f"{horizon} round(s) ahead" if horizon else "to the end of the lap"
    how = (
        f"{analysis.settings.rollouts} rollouts per option, {ahead}"
        if analysis.sampled
        else "exact values"
    )
    lines = [f"Analysis of a {analysis.game} replay ({how})", ""]
    width = max([len(p.name) for p in analysis.players] + [6])
    for unit in analysis.units:
        lines.append(f"In {unit}:")
        lines.append(
            f"  {'player':<{width}}  {'decisions':>9}  {'costly':>6}  {'skill loss':>10}  "
            f"{'luck':>8}  {'expected':>9}  {'got':>8}"
        )
        for player in analysis.players:
            t = next(u for u in player.by_unit if u.unit == unit)
            costly = sum(
                1
                for d in analysis.decisions
                if d.seat == player.seat and d.unit == unit and d.costly
            )
            lines.append(
                f"  {player.name:<{width}}  {t.decisions:>9}  {costly:>6}  "
                f"{t.skill_loss:>10.1f}  {_num(t.luck):>8}  {t.expected:>9.1f}  {t.realised:>8.1f}"
            )
        lines.append("")
    lines.append("Turning points (largest swings; open the replay at the step to see it):")
    if not analysis.turning_points:
        lines.append("  none")
    for tp in analysis.turning_points:
        lines.append(f"  step {tp.step:>4}: {tp.text}")
    lines.append("")
    lines.append("skill loss = value given up against the best option; luck = what chance and")
    lines.append("rivals gave beyond what was expected; got - expected = luck - skill loss.")
    for note in analysis.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"
