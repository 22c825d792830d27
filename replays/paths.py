"""Where Speedway keeps its files: one data folder, with fixed subfolders.

Owns the data-folder rule: ``--data DIR`` beats ``SPEEDWAY_DATA`` beats platformdirs' user data
dir. Subfolders: ``replays/`` (finished games), ``tables/`` (logs of unfinished tables),
``keys/`` (server host key), ``settings.json``. Must not create anything it is not asked to.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

__all__ = ["data_dir", "replays_dir", "tables_dir"]


def data_dir(override: Path | str | None = None) -> Path:
    if override is not None:
        return Path(override)
    env = os.environ.get("SPEEDWAY_DATA")
    if env:
        return Path(env)
    return Path(user_data_dir("speedway", appauthor=False))


def replays_dir(override: Path | str | None = None) -> Path:
    return data_dir(override) / "replays"


def tables_dir(override: Path | str | None = None) -> Path:
    return data_dir(override) / "tables"
