"""Clean untrusted text at the network boundary (STYLE.md #15).

Owns the allow-lists for nicknames, chat lines and anything from a client that ends up in a
log line. Rich and Textual do not strip ESC, so a nickname such as ``"\\x1b]0;pwned\\x07"`` would
reach every other screen raw; everything a client types passes through here first.

Must not: do I/O or know about tables, sessions or games.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "CHAT_MAX",
    "NICK_MAX",
    "clean_chat",
    "clean_for_log",
    "clean_nickname",
    "nickname_error",
]

NICK_MAX = 16
CHAT_MAX = 200
_NICK_RE = re.compile(r"^[A-Za-z0-9_.-]{1,16}$")
# Unicode categories allowed in chat: letters, marks, numbers, punctuation, symbols.
# Everything else (controls Cc, formats Cf such as bidi overrides, separators other than the
# plain space, surrogates, private use, unassigned) is dropped.
_CHAT_OK = ("L", "N", "P", "S")


def nickname_error(raw: str) -> str | None:
    """Why ``raw`` cannot be a nickname, as one sentence, or None if it can."""
    if not raw:
        return "A nickname needs at least one character."
    if len(raw) > NICK_MAX:
        return f"A nickname has at most {NICK_MAX} characters."
    if not _NICK_RE.match(raw):
        return "A nickname may use only letters, digits, '.', '_' and '-'."
    return None


def clean_nickname(raw: str, fallback: str = "player") -> str:
    """``raw`` reduced to the nickname alphabet and cut to ``NICK_MAX`` (never empty).

    >>> clean_nickname("\\x1b[31mAnn\\x07")
    '31mAnn'
    """
    kept = "".join(ch for ch in raw if ch.isascii() and (ch.isalnum() or ch in "._-"))
    return kept[:NICK_MAX] or fallback


def clean_chat(raw: str) -> str:
    """One chat line: allow-listed printable characters only, runs of spaces kept single.

    >>> clean_chat("hi\\x1b]0;x\\x07 there\\n")
    'hi]0;x there'
    """
    out: list[str] = []
    for ch in raw:
        if ch in " \t\r\n":
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if unicodedata.category(ch)[0] in _CHAT_OK:
            out.append(ch)
    return "".join(out).strip()[:CHAT_MAX]


def clean_for_log(raw: str, limit: int = 80) -> str:
    """A client-supplied string (client version, username) safe for one log line.

    >>> clean_for_log("SSH-2.0-x\\x1b[2J y")
    'SSH-2.0-x?[2J?y'
    """
    return "".join(ch if 0x21 <= ord(ch) < 0x7F else "?" for ch in raw[:limit])
