"""The golden playthrough is regenerated and must match the committed transcript byte for byte."""

from __future__ import annotations

import difflib

from tests.cthulhu500.golden import GOLDEN, transcript


def test_golden_playthrough_matches():
    want = GOLDEN.read_text()
    got = transcript()
    diff = "".join(
        difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now", n=1)
    )
    assert got == want, (
        "rules changed; read the diff, then run python -m tests.cthulhu500.golden\n" + diff[:4000]
    )
    assert "Checkered Flag" in got or "round" in got
