"""Start the app for `speedway play` and `speedway replay FILE` (called by `tui.cli`).

Owns building the in-process hub (`net.local_hub.LocalHub`) and the local identity, checking a
``--seats`` list before any screen opens (bad input: one line on stderr, exit code 2), and
running `SpeedwayApp`. Local play goes through the hub exactly like network play.
"""

from __future__ import annotations

import getpass
import re
import sys
from pathlib import Path
from typing import Any

from core import registry
from core.game import ConfigError, config_from_options
from net.hub import Identity, TableSpec
from replays.paths import data_dir as resolve_data_dir

__all__ = ["local_identity", "make_hub", "play", "start_for_play", "view_replay"]


def _fail(message: str) -> None:
    print(f"speedway: {message}", file=sys.stderr)
    sys.exit(2)


def local_identity() -> Identity:
    try:
        user = getpass.getuser()
    except Exception:
        user = "you"
    name = re.sub(r"[^\w .-]", "", user)[:20] or "you"
    return Identity(id=f"local:{name}", nickname=name)


def make_hub(data: Path | None) -> Any:
    """The hub of local play: no bot ever plays a local human's seat (a game left is paused)."""
    from net.local_hub import LocalHub

    return LocalHub(data_dir=data, away_bots=False)


def start_for_play(
    game: str,
    seats: str | None,
    seed: int | None,
    options: dict[str, Any],
    me: Identity,
) -> Any:
    """The app's start request for ``speedway play GAME ...`` (raises ConfigError/KeyError)."""
    from tui.app import StartTable
    from tui.seats import hot_identity, parse_seats

    g = registry.get(game)
    if seats:
        words = seats.split(",")
    else:
        bots = list(g.bots)
        words = ["me"] + [bots[i % len(bots)] for i in range(max(1, min(2, g.max_seats - 1)))]
    specs = parse_seats(g, words, me)
    config = config_from_options(g, options)
    g.check_config(config, len(specs))
    hot = [hot_identity(s.name) for s in specs if s.identity and s.identity != me.id]
    spec = TableSpec(game=g.id, seats=specs, options=dict(options), seed=seed)
    return StartTable(spec=spec, hot=hot)


def play(
    *,
    game: str | None,
    seats: str | None,
    seed: int | None,
    options: dict[str, Any],
    data: Path | None,
) -> None:
    """`speedway play [GAME]`: open the app, straight at a new table when GAME is given."""
    from tui.app import SpeedwayApp

    folder = resolve_data_dir(data)
    me = local_identity()
    start = None
    if game is not None:
        try:
            start = start_for_play(game, seats, seed, options, me)
        except (ConfigError, registry.UnknownGame) as err:
            _fail(str(err))
    elif seats or seed is not None or options:
        _fail("--seats, --seed and -o need a GAME, e.g. `speedway play go500 --seats me,optimal`.")
    hub = make_hub(folder)
    app = SpeedwayApp(hub, me, data_dir=folder, start=start, owns_hub=True)
    app.run()


def view_replay(path: Path, *, data: Path | None) -> None:
    """`speedway replay FILE`: the replay viewer (bad files: one line on stderr, exit 2)."""
    from tui.app import OpenReplay, SpeedwayApp

    if not path.is_file():
        _fail(f"no replay file at {path}.")
    from replays import ReplayError, open_replay

    try:
        open_replay(path)
    except ReplayError as err:
        _fail(str(err))
    folder = resolve_data_dir(data)
    app = SpeedwayApp(
        make_hub(folder), local_identity(), data_dir=folder, start=OpenReplay(path=str(path))
    )
    app.run()
