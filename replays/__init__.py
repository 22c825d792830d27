"""The replay/log file format: write, read, verify, seek and export Speedway game logs.

Imports only `core`. Every decoder refuses bad input with `ReplayError` (one sentence).
"""
