"""The copy of a table's files in Redis (`net.log_mirror`) after Redis was down, on a real
redis-server: what the disk got meanwhile reaches Redis by `catch_up` (the bus hub calls it
once Redis answers), without waiting for the table's next write; a deletion that failed is made
then too."""

from __future__ import annotations

import pytest

import net.log_mirror as log_mirror
from net.log_mirror import LogMirror


def stored(mirror: LogMirror, tid: str) -> bytes:
    return b"".join(f[b"data"] for _id, f in mirror.redis.xrange(f"speedway:tables:{tid}:log"))


@pytest.fixture
def quick_retry(monkeypatch):
    monkeypatch.setattr(log_mirror, "RETRY_PAUSE", 0.0)


def test_what_the_disk_got_while_redis_was_down_is_copied_when_it_is_back(
    redis_server, tmp_path, quick_retry
):
    mirror = LogMirror(redis_server.url)
    log = tmp_path / "t1.log"
    log.write_bytes(b"record one;")
    mirror.files("t1", {"seed": b"7", "meta": b"{}"})
    mirror.log_tail("t1", log)
    assert stored(mirror, "t1") == b"record one;"
    redis_server.stop()
    log.write_bytes(b"record one;record two;")
    mirror.log_tail("t1", log)  # fails: the disk has it
    mirror.files("t1", {"meta": b"{seats}"})
    assert mirror.lagging() == ["t1"]
    redis_server.start()  # (AOF: what Redis had is back)
    mirror.catch_up("t1", log)  # no new write of the table needed
    assert stored(mirror, "t1") == b"record one;record two;"
    assert mirror.redis.get("speedway:tables:t1:meta") == b"{seats}"
    assert mirror.lagging() == []
    mirror.catch_up("t1", log)  # (nothing owed: nothing sent twice)
    assert stored(mirror, "t1") == b"record one;record two;"


def test_a_copy_whose_deletion_failed_is_deleted_when_redis_is_back(
    redis_server, tmp_path, quick_retry
):
    mirror = LogMirror(redis_server.url)
    log = tmp_path / "t2.log"
    log.write_bytes(b"steps")
    mirror.tokens["t2"] = 5  # (its epoch here)
    mirror.files("t2", {"seed": b"42", "meta": b"{}"})
    mirror.log_tail("t2", log)
    redis_server.stop()
    mirror.drop("t2")  # the race is over: its copy (and the seed) must go
    assert mirror.lagging() == ["t2"]
    redis_server.start()
    mirror.catch_up("t2", None)  # (the hub no longer plays it)
    assert mirror.redis.get("speedway:tables:t2:seed") is None
    assert stored(mirror, "t2") == b""
    assert mirror.lagging() == []


def test_a_table_gone_from_here_is_not_copied_any_more(redis_server, tmp_path, quick_retry):
    mirror = LogMirror(redis_server.url)
    log = tmp_path / "t3.log"
    log.write_bytes(b"mine")
    redis_server.stop()
    mirror.log_tail("t3", log)
    assert mirror.lagging() == ["t3"]
    redis_server.start()
    mirror.catch_up("t3", None)  # let go meanwhile (another owns it now): nothing written
    assert stored(mirror, "t3") == b""
    assert mirror.lagging() == []
