"""Nicknames of any script over real SSH, the confirmation of a changed name, look-alikes and
mixed scripts refused, bulk binding throttled, and bindings of keys that never played expire.
(The sanitiser's properties over arbitrary text are in test_properties_net.py.)"""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from net.players import PlayerBook
from net.sanitize import clean_chat, nickname_error, nickname_key, normalise_nickname
from tests.net.sshclient import Term, connect
from tests.net.test_server import KEY_A, KEY_B, join, start  # noqa: F401 - fixture


@pytest.mark.parametrize(
    "name", ["Zoë", "日本語", "山田タロウ", "मनीष", "Ирина", "Σοφία", "김민준", "Anna_B.2", "محمد"]
)
def test_letters_and_digits_of_any_script_are_nicknames(name):
    assert normalise_nickname(name) == (name, [])
    assert nickname_error(name) is None


@pytest.mark.parametrize(
    ("raw", "name", "note"),
    [
        ("Zoe!", "Zoe", "dropped '!'"),
        ("\u202eevil", "evil", "dropped U+202E"),
        ("Ｚｏｅ", "Zoe", "'Ｚ' became 'Z'"),
        ("a b", "ab", "dropped a space"),
        ("x" * 20, "x" * 16, "cut to 16 characters"),
        ("e\u0301" + "\u0301" * 5, "é" + "\u0301" * 3, "dropped"),  # at most 3 marks
    ],
)
def test_a_dropped_or_changed_character_is_said(raw, name, note):
    got, notes = normalise_nickname(raw)
    assert got == name
    assert any(note in n for n in notes), notes


def test_mixed_scripts_and_look_alikes_are_refused():
    assert "mix scripts" in nickname_error("Аnn")  # Cyrillic А
    assert nickname_key("Ann") == nickname_key("Аnn")
    assert nickname_key("paypal") == nickname_key("раураl")  # all-Cyrillic look-alike
    assert nickname_key("Zoë") == nickname_key("zoe")
    assert nickname_key("Bill") == nickname_key("B1lI")
    assert nickname_key("Ann") != nickname_key("Anne")


def test_chat_keeps_accents_drops_controls_and_cuts_long_pastes():
    assert clean_chat("Zoe\u0308 says hi") == "Zoë says hi"
    assert clean_chat("\x1b]52;c;AAAA\x07copy\u202e") == "]52;c;AAAAcopy"
    assert len(clean_chat("x" * 5000)) == 200


class Clock:
    now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_bindings_of_keys_that_never_played_expire(tmp_path):
    clock = Clock()
    book = PlayerBook(tmp_path, expiry=3600.0, clock=clock)
    assert book.bind("fp-a", "Ann") is None
    assert book.bind("fp-b", "Bob") is None
    assert "taken" in book.bind("fp-c", "ann")
    book.played("fp-b")
    clock.now += 3601
    again = PlayerBook(tmp_path, expiry=3600.0, clock=clock)
    assert again.nickname("fp-a") is None  # never played: gone
    assert again.nickname("fp-b") == "Bob"  # played: kept for good
    assert again.bind("fp-c", "Ann") is None
    assert len(again) == 2


def test_old_players_files_still_open_and_count_as_played(tmp_path):
    (tmp_path / "players.json").write_text('{"fp-old": "Olga", "fp-bad": "\\u001b[31m"}')
    book = PlayerBook(tmp_path, expiry=1.0, clock=lambda: 1e12)
    assert book.nickname("fp-old") == "Olga"
    assert book.nickname("fp-bad") is None


async def test_zoe_and_nihongo_bind_as_typed_over_ssh(start):  # noqa: F811
    server = await start()
    conn, term = await join(server, KEY_A, "Zoë")
    await term.wait_for("HELLO Zoë guest=False")
    conn.close()
    conn, term = await join(server, KEY_B, "日本語")
    await term.wait_for("HELLO 日本語 guest=False")
    conn.close()
    assert server.players.nickname(KEY_A.get_fingerprint("sha256")) == "Zoë"


async def test_a_changed_name_is_shown_and_confirmed_before_it_is_bound(start):  # noqa: F811
    server = await start()
    conn, term = await join(server, KEY_A, "Zoe!")
    await term.wait_for("Your nickname would be Zoe (dropped '!')")
    await term.wait_for("Use Zoe? (y/n)")
    assert server.players.nickname(KEY_A.get_fingerprint("sha256")) is None  # nothing bound
    term.send("n\r")
    await term.wait_for("(y/n): n\r\nChoose a nickname", within=5)  # asked again
    term.send("Аnn\r")  # Cyrillic А: refused with a sentence
    await term.wait_for("may not mix scripts")
    term.send("Zoé\r")
    await term.wait_for("HELLO Zoé")
    conn.close()
    other, term2 = await join(server, KEY_B, "zoe")  # looks like Zoé: taken
    await term2.wait_for("taken")
    other.close()


async def test_new_nicknames_per_address_are_throttled(start):  # noqa: F811
    server = await start(new_nicknames_per_hour=2)
    for i in range(2):
        key = asyncssh.generate_private_key("ssh-ed25519")
        conn, term = await join(server, key, f"Bulk{i}")
        await term.wait_for(f"HELLO Bulk{i}")
        conn.close()
    conn = await connect(server.port, asyncssh.generate_private_key("ssh-ed25519"))
    term = await Term.open(conn)
    await term.wait_for("Choose a nickname")
    term.send("Bulk2\r")
    await term.wait_for("Too many new nicknames came from your address; try again in")
    await asyncio.wait_for(term.closed.wait(), 10)
    conn.close()
    assert len(server.players) == 2


async def test_escape_sequences_in_nickname_and_chat_never_reach_another_session_raw(start):  # noqa: F811
    from net.hub import Identity

    server = await start()
    conn, term = await join(server, KEY_A, "Ann")
    await term.wait_for("HELLO Ann")
    term.send("c")
    await term.wait_for("TABLE state=")
    (table_id,) = list(server.hub._rooms)
    hostile = Identity(id="ssh:eve", nickname="\x1b]0;pwned\x07Eve\u202e")
    payloads = [
        "\x1b]0;pwned\x07title",
        "\x1b]52;c;ZXZpbA==\x07clip",
        "\x1b[2J\x1b[31mred",
        "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\",
        "\u202eboom\u2066",
        "[link=https://evil.example/]markup[/link]",
    ]
    sent = 0
    for text in payloads:
        await server.hub.chat(table_id, hostile, text)
        sent += 1
        await term.wait_for("CHAT ")
        server.hub._rooms[table_id].chat_times.clear()  # (not testing the rate limit here)
    await term.wait_for("markup")
    out = term.out
    for raw in (b"\x1b]0;pwned", b"\x1b]52;", b"\x1b]8;;https://evil", b"\x1b[31mred"):
        assert raw not in out
    assert "\u202e".encode() not in out
    assert "\u2066".encode() not in out
    assert "CHAT 0pwnedEve: " in term.text  # the nickname, cleaned
    print(f"hostile chat: {sent} payloads sent, 0 escape sequences reached the other screen")
    conn.close()
