"""The two errors of the replay layer: a file we refuse to read, and a log we could not write.

Owns `ReplayError` (every reader refusal, one sentence a user can read) and `LogBroken` (a
failed write or fsync of a live table's log: fatal for that table, never retried).
Must not: carry tracebacks or file contents in the message.
"""

from __future__ import annotations

__all__ = ["LogBroken", "ReplayError"]


class ReplayError(Exception):
    """A replay or log file we refuse: ``str(err)`` is one sentence for the user."""


class LogBroken(Exception):
    """Writing a live table's log failed (a write or an fsync). The table must stop.

    After a failed fsync the kernel may already have dropped the dirty pages, so a retry could
    falsely report success (PostgreSQL's "fsyncgate"); the writer refuses every later call.
    """
