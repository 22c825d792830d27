"""The golden Go 500 playthrough regenerates byte for byte (see tests/go500/golden.py)."""

from __future__ import annotations

from tests.go500.golden import GOLDEN, transcript


def test_golden_oval_playthrough_is_unchanged_g_checkered():
    expected = GOLDEN.read_text()
    actual = transcript()
    assert actual == expected, "golden transcript changed; run `python -m tests.go500.golden`"
    assert "Checkered flag" in actual
