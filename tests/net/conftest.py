"""Fixtures of the network tests: a real redis-server of their own (see `redis_server.py`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.net.redis_server import RedisServer


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()
