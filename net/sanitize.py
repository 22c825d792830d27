"""Clean untrusted text at the network boundary (STYLE.md #15).

Owns the allow-lists for nicknames, chat lines and anything from a client that ends up in a
log line. Rich and Textual do not strip ESC, so a nickname such as ``"\\x1b]0;pwned\\x07"`` would
reach every other screen raw; everything a client types passes through here first.

Nicknames: letters and digits of any script plus ``.``, ``_``, ``-``, at most `NICK_MAX`
characters, after NFKC normalisation (which folds compatibility look-alikes such as fullwidth
``Ａ`` or the ``ﬁ`` ligature into plain letters). Letters of one name come from one script (or
from the scripts a language writes together: Latin with Han, Hiragana, Katakana, Hangul or
Bopomofo), so ``Аnn`` with a Cyrillic ``А`` is refused. `nickname_key` folds what is left of the
confusables (Cyrillic/Greek letters that look Latin, accents, ``0``/``o``, ``1``/``l``/``I``) so
that two names that look alike cannot both be bound. `normalise_nickname` says, in words, every
character it dropped or changed, so the player sees it before the name is bound.

Seat names ("Player 2", "Bold 2", a hot-seat player's own name): words in the nickname alphabet
kept apart by single spaces (any Unicode space separator counts as one), trimmed, at most
`NICK_MAX` characters in all. A nickname itself never has a space.

Must not: do I/O or know about tables, sessions or games.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "CHAT_MAX",
    "NICK_MAX",
    "clean_chat",
    "clean_for_log",
    "clean_nickname",
    "clean_seat_name",
    "nickname_error",
    "nickname_key",
    "normalise_nickname",
]

NICK_MAX = 16
CHAT_MAX = 200
NICK_PUNCT = "._-"
MAX_MARKS = 3  # combining marks in a row (a real script needs few; "Zalgo" text needs many)
# Unicode categories allowed in chat: letters, marks, numbers, punctuation, symbols.
# Everything else (controls Cc, formats Cf such as bidi overrides, separators other than the
# plain space, surrogates, private use, unassigned) is dropped.
_CHAT_OK = ("L", "M", "N", "P", "S")
_TOGETHER = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
)
# Letters of other scripts that look like Latin ones (lower case, after casefold).
_LOOKALIKE = str.maketrans(
    {
        **dict.fromkeys("аα", "a"),
        **dict.fromkeys("вβ", "b"),
        **dict.fromkeys("сϲ", "c"),
        **dict.fromkeys("ԁ", "d"),
        **dict.fromkeys("еε", "e"),
        **dict.fromkeys("һ", "h"),
        **dict.fromkeys("іιӏ1i|", "l"),
        **dict.fromkeys("ј", "j"),
        **dict.fromkeys("кκ", "k"),
        **dict.fromkeys("мμ", "m"),
        **dict.fromkeys("пη", "n"),
        **dict.fromkeys("оο0", "o"),
        **dict.fromkeys("рρ", "p"),
        **dict.fromkeys("ԛ", "q"),
        **dict.fromkeys("ѕ", "s"),
        **dict.fromkeys("тτ", "t"),
        **dict.fromkeys("υս", "u"),
        **dict.fromkeys("νѵ", "v"),
        **dict.fromkeys("ԝω", "w"),
        **dict.fromkeys("хχ", "x"),
        **dict.fromkeys("уγ", "y"),
        **dict.fromkeys("ᴢ", "z"),
        "_": "-",
    }
)


def _script(ch: str) -> str | None:
    """The script of a letter, from its Unicode name ("LATIN", "CYRILLIC", "CJK", ...)."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def _allowed(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat.startswith("L") or cat == "Nd" or cat in ("Mn", "Mc") or ch in NICK_PUNCT


def _shown(ch: str) -> str:
    if ch == " ":
        return "a space"
    if ch.isprintable():
        return f"'{ch}'"
    return f"U+{ord(ch):04X}"


def normalise_nickname(raw: str) -> tuple[str, list[str]]:
    """The nickname ``raw`` becomes, and one note per kind of change (empty: unchanged).

    >>> normalise_nickname("Zoë")
    ('Zoë', [])
    >>> normalise_nickname("Ｚoe!\\u202e")
    ('Zoe', ["'Ｚ' became 'Z'", "dropped '!', U+202E"])
    """
    text = unicodedata.normalize("NFC", raw.strip())
    notes: list[str] = []
    changed: list[str] = []
    folded: list[str] = []
    for ch in text:
        compat = unicodedata.normalize("NFKC", ch)
        if compat != ch and compat and all(_allowed(c) for c in compat):
            changed.append(f"{_shown(ch)} became '{compat}'")
            folded.append(compat)
        elif _allowed(ch):
            folded.append(ch)
        else:
            folded.append("\x00" + ch)  # dropped below, in order
    dropped = [s[1] for s in folded if s.startswith("\x00")]
    kept: list[str] = []
    marks = 0
    for piece in folded:
        if piece.startswith("\x00"):
            continue
        for ch in piece:
            if unicodedata.category(ch) in ("Mn", "Mc"):
                if not kept or marks >= MAX_MARKS:
                    dropped.append(ch)
                    continue
                marks += 1
            else:
                marks = 0
            kept.append(ch)
    name = unicodedata.normalize("NFC", "".join(kept))
    notes.extend(dict.fromkeys(changed))
    if dropped:
        notes.append("dropped " + ", ".join(dict.fromkeys(_shown(c) for c in dropped)))
    if len(name) > NICK_MAX:
        notes.append(f"cut to {NICK_MAX} characters")
        name = _cut(name)
    return name, notes


def _cut(name: str) -> str:
    """``name`` cut to `NICK_MAX`, never ending on a space or on a mark cut from its letter."""
    name = name[:NICK_MAX]
    while name and (name[-1] == " " or unicodedata.category(name[-1]) in ("Mn", "Mc")):
        name = name[:-1]
    return name


def nickname_error(raw: str) -> str | None:
    """Why ``raw`` cannot be a nickname, as one sentence, or None if it can."""
    if not raw:
        return "A nickname needs at least one letter or digit."
    if len(raw) > NICK_MAX:
        return f"A nickname has at most {NICK_MAX} characters."
    name, notes = normalise_nickname(raw)
    if notes or name != raw:
        return "A nickname may use only letters and digits (any script), '.', '_' and '-'."
    if not any(unicodedata.category(ch)[0] in "LN" for ch in raw):
        return "A nickname needs at least one letter or digit."
    scripts = {s for s in map(_script, raw) if s is not None}
    if len(scripts) > 1 and not any(scripts <= ok for ok in _TOGETHER):
        words = " and ".join(sorted(s.title() for s in scripts))
        return f"A nickname may not mix scripts ({words}): their letters can look alike."
    return None


def nickname_key(nickname: str) -> str:
    """What two nicknames that look alike have in common (the name is taken if keys match).

    >>> nickname_key("Zoë") == nickname_key("zoe") == nickname_key("ZOE")
    True
    >>> nickname_key("Ann") == nickname_key("Аnn"), nickname_key("Bill") == nickname_key("B1lI")
    (True, True)
    """
    out: list[str] = []
    for ch in unicodedata.normalize("NFKD", nickname.casefold()):
        if (
            unicodedata.category(ch) == "Mn"
            and out
            and (_script(out[-1]) or "LATIN")
            in (
                "LATIN",
                "GREEK",
                "CYRILLIC",
            )
        ):
            continue  # accents on look-alike scripts: "Zoë" looks like "Zoe"
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out)).translate(_LOOKALIKE)


def clean_nickname(raw: str, fallback: str = "player") -> str:
    """``raw`` reduced to the nickname alphabet and cut to ``NICK_MAX`` (never empty).

    >>> clean_nickname("\\x1b[31mAnn\\x07"), clean_nickname("Zoë"), clean_nickname("\\x1b")
    ('31mAnn', 'Zoë', 'player')
    """
    name, _notes = normalise_nickname(raw)
    return name or fallback


def clean_seat_name(raw: str, fallback: str = "player") -> str:
    """A seat's name: each word of ``raw`` as a nickname, one space between words (never empty).

    >>> clean_seat_name("  Player   2 "), clean_seat_name("\\x1b[31mAnn\\x07 Lee"), clean_seat_name(" ")
    ('Player 2', '31mAnn Lee', 'player')
    """
    spaced = "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in raw)
    words = (normalise_nickname(word)[0] for word in spaced.split(" "))
    return _cut(" ".join(word for word in words if word)) or fallback


def clean_chat(raw: str) -> str:
    """One chat line: NFC, allow-listed printable characters only (no controls, no bidi
    overrides, at most a few combining marks in a row), runs of spaces kept single, cut to
    `CHAT_MAX` characters.

    >>> clean_chat("hi\\x1b]0;x\\x07 there\\n")
    'hi]0;x there'
    """
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", raw):
        if ch in " \t\r\n":
            if out and out[-1] != " ":
                out.append(" ")
            continue
        cat = unicodedata.category(ch)
        if cat[0] not in _CHAT_OK:
            continue  # dropped: it neither carries marks nor ends a run of them
        if cat[0] == "M":
            if not out or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(ch)
    # NFC again: dropping a control can bring a mark next to a letter it now composes with.
    return unicodedata.normalize("NFC", "".join(out)).strip()[:CHAT_MAX]


def clean_for_log(raw: str, limit: int = 80) -> str:
    """A client-supplied string (client version, username) safe for one log line.

    >>> clean_for_log("SSH-2.0-x\\x1b[2J y")
    'SSH-2.0-x?[2J?y'
    """
    return "".join(ch if 0x21 <= ord(ch) < 0x7F else "?" for ch in raw[:limit])
