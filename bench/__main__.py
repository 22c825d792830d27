"""Run the benchmarks in bench/ and print one JSON line per figure, all in one format.

Each module `bench/bench_*.py` exposes `run() -> Iterable[dict]`. Every line printed is
``{"bench": NAME, "value": X, "unit": U, "target": T or null, "ok": true|false|null, ...}``
(a module may give ``name`` for ``bench``, and ``target`` as a number with ``better`` "lower" or
"higher"; ``ok`` is then worked out here). Extra fields are kept.

    python -m bench                 # every module (``make bench``)
    python -m bench NAME ...        # only bench_NAME (``make bench BENCH=NAME``)
    SPEEDWAY_BENCH_QUICK=1 ...      # shorter windows, the whole suite in under 5 minutes
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import time
from typing import Any

import bench


def normalise(figure: dict[str, Any]) -> dict[str, Any]:
    """One figure in the common format (see the module docstring)."""
    out = dict(figure)
    out["bench"] = out.pop("bench", None) or out.pop("name")
    out.pop("name", None)
    out.setdefault("target", None)
    target, value = out["target"], out.get("value")
    better = out.pop("better", "lower")
    if "ok" not in out:
        if isinstance(target, int | float) and isinstance(value, int | float):
            out["ok"] = value <= target if better == "lower" else value >= target
        else:
            out["ok"] = None
    return out


def main() -> int:
    names = sorted(
        m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_")
    )
    only = {a if a.startswith("bench_") else f"bench_{a}" for a in sys.argv[1:] if a}
    unknown = only - set(names)
    if unknown:
        known = ", ".join(n.removeprefix("bench_") for n in names)
        print(f"bench: no benchmark {', '.join(sorted(unknown))}; they are: {known}", file=sys.stderr)
        return 2
    for name in names:
        if only and name not in only:
            continue
        start = time.monotonic()
        module = importlib.import_module(f"bench.{name}")
        for figure in module.run():
            print(json.dumps(normalise(figure), sort_keys=True), flush=True)
        # How long each module takes (`make bench QUICK=1` is meant to stay under 5 minutes).
        print(f"bench: {name} took {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
