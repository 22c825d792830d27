"""The `speedway` command line: argument parsing only.

Owns the click commands and their exit codes (0 success, 2 bad file or arguments, with one line
on stderr). Each command hands off to the module that owns the work: `tui.launch` (play, replay
viewer), `tui.sim` (headless bot games), `replays.cli_commands` (verify, print, export) and
`net.server` (serve). Textual is imported only by the commands that open a screen.
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import click

from core.game import ConfigError


def _version() -> str:
    try:
        return version("speedway")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


def _fail(message: str) -> None:
    click.echo(f"speedway: {message}", err=True)
    sys.exit(2)


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            _fail(f"option {pair!r} must look like key=value.")
        out[key.strip()] = value.strip()
    return out


data_option = click.option(
    "--data",
    "data",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="SPEEDWAY_DATA",
    default=None,
    help="Data folder (default: the user data dir; env SPEEDWAY_DATA).",
)


class OneLineErrors(click.Group):
    """The README's promise: a bad argument is one line on stderr (``speedway: ...``) and exit
    code 2 — not click's usage block."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as err:  # `speedway` alone: the help
            click.echo(err.ctx.get_help() if err.ctx is not None else str(err))
            sys.exit(2)
        except click.UsageError as err:
            message = err.format_message()
            _fail(message if message.endswith(".") else message + ".")
        except click.ClickException as err:
            click.echo(f"speedway: {err.format_message()}", err=True)
            sys.exit(err.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "--version", "-V", prog_name="speedway")
def main() -> None:
    """Speedway: Go 500, Cthulhu 500 and NASCAR Champions in your terminal."""


@main.command()
@click.argument("game", required=False)
@click.option("--seats", help="Comma-separated seats: me, hot (another human here) or a bot name.")
@click.option("--seed", type=int, default=None, help="Fixed seed (default: a fresh secret one).")
@click.option("-o", "--option", "option", multiple=True, help="Game option key=value.")
@data_option
def play(
    game: str | None,
    seats: str | None,
    seed: int | None,
    option: tuple[str, ...],
    data: Path | None,
) -> None:
    """Open the Speedway app (optionally straight at a local GAME table)."""
    from tui.launch import play as launch_play

    launch_play(game=game, seats=seats, seed=seed, options=_options(option), data=data)


@main.command()
@click.argument("game")
@click.option("--players", type=int, default=None, help="Number of seats (default: the game's).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--bots", default=None, help="Comma-separated bot names, one per seat (cycled).")
@click.option("--games", type=int, default=1, show_default=True, help="How many games to play.")
@click.option(
    "--save",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write each game's verified replay into this folder.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game on stdout.")
@click.option("--mode", default=None, help="Game mode (Go 500: oval, time_trial, multi_game, cup).")
@click.option("--length", type=int, default=None, help="Race length in miles (Go 500).")
@click.option("--hours", type=int, default=None, help="Time Trial length in rounds (Go 500).")
@click.option("-o", "--option", "option", multiple=True, help="Game option key=value.")
def sim(
    game: str,
    players: int | None,
    seed: int,
    bots: str | None,
    games: int,
    save: Path | None,
    as_json: bool,
    mode: str | None,
    length: int | None,
    hours: int | None,
    option: tuple[str, ...],
) -> None:
    """Play whole bot games of GAME headless and print the results."""
    from tui.sim import SimRequest, run_sim

    options: dict[str, object] = dict(_options(option))
    for key, value in (("mode", mode), ("race_length", length), ("hours", hours)):
        if value is not None:
            options[key] = value
    request = SimRequest(
        game=game,
        players=players,
        seed=seed,
        bots=[b.strip() for b in bots.split(",")] if bots else [],
        games=games,
        save=save,
        as_json=as_json,
        options=options,
    )
    try:
        code = run_sim(request, echo=click.echo, progress=sys.stderr.isatty() and not as_json)
    except (ConfigError, KeyError) as err:
        _fail(str(err).strip("'\""))
    sys.exit(code)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--verify", is_flag=True, help="Re-simulate every event and check the seed commitment."
)
@click.option("--print", "print_", is_flag=True, help="Print a readable transcript of the game.")
@click.option("--export", type=click.Choice(["json"]), default=None, help="Write a copy to stdout.")
@click.option(
    "--analyse",
    "--analyze",
    "analyse",
    is_flag=True,
    help="Value every decision: skill, luck and turning points per player.",
)
@click.option("--json", "as_json", is_flag=True, help="With --analyse: everything as JSON.")
@click.option(
    "--rollouts",
    type=int,
    default=None,
    help="With --analyse: rollouts per option (default: Champions 7, Cthulhu 500 8).",
)
@click.option(
    "--horizon",
    type=int,
    default=None,
    help="With --analyse: rounds each rollout plays before valuing (0: to the end of the "
    "lap, the Champions default; Cthulhu 500: 1).",
)
@data_option
def replay(
    file: Path,
    verify: bool,
    print_: bool,
    export: str | None,
    analyse: bool,
    as_json: bool,
    rollouts: int | None,
    horizon: int | None,
    data: Path | None,
) -> None:
    """Open a replay FILE in the viewer, or verify, print, export or analyse it."""
    if (
        verify
        or print_
        or export
        or analyse
        or as_json
        or rollouts is not None
        or horizon is not None
    ):
        from replays.cli_commands import run_replay_command

        sys.exit(
            run_replay_command(
                file,
                verify=verify,
                print_=print_,
                export=export,
                analyse=analyse,
                as_json=as_json,
                rollouts=rollouts,
                horizon=horizon,
            )
        )
    from tui.launch import view_replay

    view_replay(file, data=data)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=2222, show_default=True, help="Port to listen on.")
@click.option("--max-sessions", type=int, default=100, show_default=True)
@click.option("--allow-guests", is_flag=True, help="Let clients without a key in, as guests.")
@click.option(
    "--turn-timer",
    type=click.FloatRange(min=0),
    default=120.0,
    show_default=True,
    help="Seconds a player has for each decision before their seat's bot makes it (0: no limit).",
)
@click.option("--bench-hooks", is_flag=True, hidden=True, help="Load benchmark only.")
@click.option("--bus", default=None, help="Share one lobby over Redis: redis://HOST:PORT/N.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Server processes on this port (needs --bus).")  # fmt: skip
@data_option
def serve(
    host: str,
    port: int,
    max_sessions: int,
    allow_guests: bool,
    turn_timer: float,
    bench_hooks: bool,
    bus: str | None,
    workers: int,
    data: Path | None,
) -> None:
    """Run the SSH server: players join with `ssh -p PORT HOST`."""
    from net.server import serve as run_server

    _preload_screens()
    limits = None
    if bench_hooks:
        from net.server import Limits

        # The load generator connects every client from 127.0.0.1: the per-source guards (the
        # connection rate, unauthenticated connections per source, penalties, new nicknames per
        # hour) would refuse it, and it logs in many at once; every other guard stays as deployed.
        many = 1_000_000
        limits = Limits(
            per_source_per_minute=many,
            per_source_startups=many,
            startups_begin=many,
            max_startups=many,
            penalty_min=1e12,
            new_nicknames_per_hour=many,
        )
    run_server(
        host=host,
        port=port,
        data=data,
        max_sessions=max_sessions,
        allow_guests=allow_guests,
        app_factory=ssh_app_factory,
        turn_timer=turn_timer or None,
        bench_hooks=bench_hooks,
        limits=limits,
        bus=bus,
        workers=workers,
    )


def _preload_screens() -> None:
    """Import the app and every screen now: a first import inside one SSH session would stall
    every session of the server for a second or more."""
    import importlib
    import pkgutil

    import tui.screens
    import tui.widgets

    importlib.import_module("tui.app")
    for package in (tui.screens, tui.widgets):
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{module.name}")


def ssh_app_factory(
    *,
    hub: Any,
    identity: Any,
    driver_class: Any,
    data_dir: Path | None,
    start: str | None = None,
) -> Any:
    """One app per SSH session, injected into net.server (net never imports tui).

    ``start`` (load benchmark only, `speedway serve --bench-hooks`): ``watch:TABLE`` opens that
    table as a spectator, ``create:GAME:BOT,BOT,...`` creates a table of bots and watches it.
    """
    from tui.app import OpenLobby, OpenTable, SpeedwayApp, StartTable

    first: Any = OpenLobby()
    if start is not None:
        kind, _, rest = start.partition(":")
        if kind == "watch":
            first = OpenTable(table_id=rest)
        elif kind == "create":
            from core import registry
            from net.hub import TableSpec
            from tui.seats import parse_seats

            game, _, bots = rest.partition(":")
            seats = parse_seats(registry.get(game), bots.split(","), identity)
            first = StartTable(spec=TableSpec(game=game, seats=seats))
    return SpeedwayApp(
        hub,
        identity,
        data_dir=data_dir,
        start=first,
        driver_class=driver_class,
        network=True,
    )


if __name__ == "__main__":  # pragma: no cover
    main(prog_name=os.path.basename(sys.argv[0]))
