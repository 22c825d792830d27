"""The replay/log file format: write, read, verify, seek and export Speedway game logs.

Imports only `core`. Every decoder refuses bad input with `ReplayError` (one sentence).

The modules: `format` (bytes and framing), `log` (`LogWriter` for a live table), `reader`
(`open_replay`, `Replay`, seeking), `verify` (re-simulation and the seed commitment), `recover`
(`restore_table` after a crash), `store` (the replays folder), `export` (JSON and transcript),
`cli_commands` (``speedway replay``), `errors` (`ReplayError`, `LogBroken`) and `paths` (the
data folder).
"""

from replays.errors import LogBroken, ReplayError
from replays.log import LogWriter
from replays.reader import Replay, open_replay, read_replay
from replays.recover import restore_table
from replays.store import ReplayInfo, list_replays, publish_log, save_finished_table
from replays.verify import VerifyReport, verify

__all__ = [
    "LogBroken",
    "LogWriter",
    "Replay",
    "ReplayError",
    "ReplayInfo",
    "VerifyReport",
    "list_replays",
    "open_replay",
    "publish_log",
    "read_replay",
    "restore_table",
    "save_finished_table",
    "verify",
]
