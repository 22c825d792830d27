"""Benchmarks: `make bench` prints one JSON line per figure."""
