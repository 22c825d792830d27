"""Benchmarks: `make bench` prints one JSON line per figure (format in `bench.__main__`)."""

import os

QUICK = os.environ.get("SPEEDWAY_BENCH_QUICK", "") not in ("", "0")
"""`make bench QUICK=1`: shorter windows and fewer repeats (the whole suite in minutes)."""
