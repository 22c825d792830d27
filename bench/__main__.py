"""Run every benchmark module in bench/ and print one JSON line per figure.

Each module `bench/bench_*.py` exposes `run() -> Iterable[dict]`; each dict is one figure with at
least `name`, `value` and `unit`.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys

import bench


def main() -> int:
    names = sorted(
        m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_")
    )
    only = set(sys.argv[1:])
    for name in names:
        if only and name not in only:
            continue
        module = importlib.import_module(f"bench.{name}")
        for figure in module.run():
            print(json.dumps(figure, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
