"""Per-identity settings (theme, animation speed, colour-blind palette, coaching) in JSON.

Owns the `Settings` struct and reading/writing it in the data folder. The file maps identity ids
to settings, so one server's SSH players each keep their own and nothing is process-global.
Must not import textual; a broken or missing file gives the defaults, never a traceback.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

import msgspec

__all__ = ["ANIMATION_DELAYS", "THEMES", "Settings", "load_settings", "save_settings"]

Speed = Literal["slow", "normal", "fast", "instant"]

# Seconds between bot actions (and dice animation frames) for each animation speed, slowest
# first: one step along this order is "faster" (`+`), one step back "slower" (`-`).
ANIMATION_DELAYS: dict[str, float] = {"slow": 1.4, "normal": 0.7, "fast": 0.3, "instant": 0.0}
THEMES = ["textual-dark", "textual-light", "nord", "gruvbox", "monokai", "dracula"]


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    theme: str = "textual-dark"
    animation: Speed = "normal"
    colour_blind: bool = False
    coaching: bool = False
    """At local tables: the solver's stop/roll values (Go 500), the chance to pass (Cthulhu)."""

    @property
    def bot_delay(self) -> float:
        return ANIMATION_DELAYS[self.animation]


def _path(data_dir: Path) -> Path:
    return data_dir / "settings.json"


def _read_all(data_dir: Path) -> dict[str, object]:
    try:
        raw = json.loads(_path(data_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def load_settings(data_dir: Path | None, identity: str) -> Settings:
    """This identity's settings, or the defaults."""
    if data_dir is None:
        return Settings()
    entry = _read_all(data_dir).get("identities", {})
    mine = entry.get(identity) if isinstance(entry, dict) else None
    try:
        return msgspec.convert(mine or {}, Settings)
    except msgspec.ValidationError:
        return Settings()


def save_settings(data_dir: Path | None, identity: str, settings: Settings) -> None:
    """Write this identity's settings (atomically: temp file, then rename)."""
    if data_dir is None:
        return
    data = _read_all(data_dir)
    identities = data.get("identities")
    if not isinstance(identities, dict):
        identities = {}
    identities[identity] = msgspec.to_builtins(settings)
    data["identities"] = identities
    data_dir.mkdir(parents=True, exist_ok=True)
    tmp = _path(data_dir).with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, _path(data_dir))
