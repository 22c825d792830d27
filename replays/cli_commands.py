"""``speedway replay FILE --verify / --print / --export json / --analyse``: headless commands.

Owns the order of output and the exit codes: 0 on success; 2 for a file we refuse or a replay
that does not verify, with one line ``speedway: <sentence>`` on stderr. Notes (a torn tail that
was ignored) go to stderr too, so stdout holds only the transcript or the JSON document.
Must not: open a screen (the viewer is ``tui.launch``), or change the file.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from core.analysis import Settings
from core.game import Game
from replays.analysis import cached_or_analyse, summary_text
from replays.analysis import to_json as analysis_json
from replays.errors import ReplayError
from replays.export import to_json, transcript
from replays.reader import open_replay
from replays.verify import verify as verify_replay

__all__ = ["run_replay_command"]


def run_replay_command(
    path: Path | str,
    *,
    verify: bool = False,
    print_: bool = False,
    export: str | None = None,
    analyse: bool = False,
    as_json: bool = False,
    rollouts: int | None = None,
    horizon: int | None = None,
    game: Game | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Verify, print and/or export one replay file; return the exit code."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    path = Path(path)
    try:
        if export not in (None, "json"):
            raise ReplayError(f"Replays can be exported only as json, not {export!r}.")
        if (as_json or rollouts is not None or horizon is not None) and not analyse:
            raise ReplayError("--json, --rollouts and --horizon go with --analyse.")
        if rollouts is not None and not 1 <= rollouts <= 10_000:
            raise ReplayError(f"--rollouts must be 1 to 10000, not {rollouts}.")
        if horizon is not None and not 0 <= horizon <= 100:
            raise ReplayError(f"--horizon must be 0 to 100 rounds, not {horizon}.")
        replay = open_replay(path, game)
        if replay.truncated_at is not None:
            err.write(
                f"speedway: note: {path.name} has a torn tail from byte {replay.truncated_at}; "
                f"it was ignored.\n"
            )
        if verify:
            report = verify_replay(replay, game)
            if not report.ok:
                raise ReplayError(report.message)
            stream = err if print_ or export else out
            stream.write(f"{path.name}: {report.message}\n")
            if replay.end is not None:
                stream.write(
                    f"  commitment {replay.header.commitment} = SHA-256({replay.end.seed} || "
                    f"salt {replay.salt.hex()})\n"
                )
        if print_:
            out.write(transcript(replay))
        if export == "json":
            out.write(to_json(replay))
        if analyse:
            settings = Settings(
                rollouts=Settings().rollouts if rollouts is None else rollouts,
                horizon=Settings().horizon if horizon is None else horizon,
            )
            analysis = cached_or_analyse(replay, settings)
            out.write(analysis_json(analysis) if as_json else summary_text(analysis))
    except ReplayError as error:
        err.write(f"speedway: {error}\n")
        return 2
    except Exception as error:  # a game crashing on crafted data must not show a traceback
        err.write(f"speedway: {path.name} could not be read ({type(error).__name__}: {error}).\n")
        return 2
    return 0
