"""`NotCopied`: a step is on this disk but not yet in its Redis copy (`net.log_mirror`).

Its own module so that a process without a bus (local play, `speedway serve` alone) never
imports Redis's client: `net.local_hub` needs only this exception, and importing `redis` took
~100 ms of every `speedway play`'s start.
"""

from __future__ import annotations

import errno

__all__ = ["NotCopied"]


class NotCopied(OSError):
    """A step is on this disk but its copy could not reach Redis, and another machine is live
    on the bus (``LogMirror.must_copy``): it could take the table over from the copy, so the
    step must not be acknowledged until the copy has it."""

    def __init__(self, table_id: str) -> None:
        super().__init__(errno.EAGAIN, "the copy in Redis could not be written")
        self.table_id = table_id
