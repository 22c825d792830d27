"""Start the real server for end-to-end tests: `python -m tests.net.run_server DATA [opts]`.

Uses the real `net.server.run_server` (host key, hub with durable logs, guards) with the Dash
game injected and, unless `--real-app`, the small `tests.net.mini_app` stand-in.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from net.server import Limits, _setup_logging, run_server, serve
from tests.fakegame import GAME as DASH


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("data", type=Path)
    p.add_argument("--guests", action="store_true")
    p.add_argument("--real-app", action="store_true")
    p.add_argument("--bot-delay", type=float, default=0.0)
    p.add_argument("--limit", action="append", default=[], help="name=value")
    p.add_argument("--bus", default=None, help="redis://HOST:PORT/N")
    p.add_argument("--lease", type=float, default=3.0)
    p.add_argument("--workers", type=int, default=1, help="through `net.server.serve`")
    args = p.parse_args()
    values: dict[str, float] = {}
    for item in args.limit:
        k, _, v = item.partition("=")
        values[k] = float(v) if "." in v else int(v)
    limits = Limits(**values)
    if args.real_app:
        from tui.cli import _preload_screens, ssh_app_factory

        _preload_screens()

        factory = ssh_app_factory
        games = None
    else:
        from tests.net.mini_app import make_app

        factory = make_app
        games = {"dash": DASH}
    if args.workers > 1:  # the supervisor of `speedway serve --workers`
        serve(
            "127.0.0.1",
            0,
            args.data,
            app_factory=factory,
            limits=limits,
            allow_guests=args.guests,
            bot_delay=args.bot_delay,
            games=games,
            bus=args.bus,
            lease=args.lease,
            workers=args.workers,
            max_sessions=limits.max_sessions,
        )
        return
    _setup_logging()
    asyncio.run(
        run_server(
            host="127.0.0.1",
            port=0,
            data=args.data,
            app_factory=factory,
            limits=limits,
            allow_guests=args.guests,
            bot_delay=args.bot_delay,
            games=games,
            bus=args.bus,
            lease=args.lease,
        )
    )


if __name__ == "__main__":
    main()
