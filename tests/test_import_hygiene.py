"""Layering you can see: headless modules never pull in textual (STYLE.md #1).

import-linter (run by `make lint`) checks the static imports; this test checks what actually
lands in sys.modules when each headless module is imported in a fresh interpreter.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def headless_modules() -> list[str]:
    names = ["tui.cli", "tui.sim"]
    for package in ("core", "replays", "net"):
        path = ROOT / package
        names.append(package)
        names += [
            f"{package}.{m.name}"
            for m in pkgutil.walk_packages([str(path)])
            if not m.name.startswith("_")
        ]
    return sorted(set(names))


@pytest.mark.parametrize("module", headless_modules())
def test_headless_module_does_not_import_textual(module):
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import {module}; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'textual', 'asyncssh'} and " + repr(module.split(".")[0]) + " != 'net'); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"{module} imports {out.stdout.strip()} {out.stderr[-500:]}"


def test_core_does_not_import_asyncio_time_or_random():
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
        "before = set(sys.modules); import core.game, core.registry, core.rng; "
        "from core import registry; [registry.get(g) for g in registry.game_ids()]; "
        "new = set(sys.modules) - before; "
        "bad = sorted(m for m in new if m.split('.')[0] in {'asyncio', 'random', 'textual'}); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr[-500:]
