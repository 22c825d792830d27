"""Nicknames across machines: two `PlayerBook`s with their own data dirs share one real Redis
(`net.shared_names`). A key's name follows it to the other machine; a name, or one that looks
like it, taken on one machine is refused on the other; an expired binding frees its name."""

from __future__ import annotations

from net.players import PlayerBook
from net.shared_names import SharedNames


def books(url: str, tmp_path, clock=None):
    kw = {"clock": clock} if clock is not None else {}
    a = PlayerBook(tmp_path / "a", shared=SharedNames(url), **kw)
    b = PlayerBook(tmp_path / "b", shared=SharedNames(url), **kw)
    return a, b


def test_a_name_bound_on_one_machine_is_known_and_held_on_the_other(redis_server, tmp_path):
    a, b = books(redis_server.url, tmp_path)
    assert a.bind("SHA256:ann", "Zoë") is None
    assert b.nickname("SHA256:ann") == "Zoë"  # the same key, on the other machine
    assert b.nickname("SHA256:bob") is None
    refused = b.bind("SHA256:bob", "Zoe")  # a look-alike of a name held elsewhere
    assert refused is not None
    assert "taken" in refused
    assert b.bind("SHA256:bob", "Bob") is None
    assert a.is_taken("Bob", by="SHA256:eve")
    assert not a.is_taken("Bob", by="SHA256:bob")
    # Ann renames herself on b: her old name is free again everywhere.
    assert b.bind("SHA256:ann", "Annie") is None
    assert a.bind("SHA256:eve", "Zoe") is None


def test_an_expired_binding_frees_its_name_on_every_machine(redis_server, tmp_path):
    now = [1000.0]
    a, b = books(redis_server.url, tmp_path, clock=lambda: now[0])
    assert a.bind("SHA256:ann", "Ann") is None  # never played: expires after 7 days
    assert b.bind("SHA256:bob", "Ann") is not None
    now[0] += 8 * 86400
    assert b.bind("SHA256:bob", "Ann") is None
    assert b.nickname("SHA256:bob") == "Ann"
