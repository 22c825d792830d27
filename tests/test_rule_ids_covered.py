"""Every rule ID of our digital rules (docs/rules/*.md, copied from the shared specs) is named by
at least one test of its game, and every test-named ID exists in the spec (no typos).

A rule ID is `G-…` (Go 500), `C-…` (Cthulhu 500) or `N-…` (NASCAR Champions). Tests name IDs in
their function name (`test_G_CAUTION_…`, dashes as underscores) or docstring (`G-CAUTION`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core import registry

ROOT = Path(__file__).resolve().parents[1]
SPECS = {"go500": "G", "cthulhu500": "C", "champions": "N"}
ID = r"\b{p}[-_][A-Z0-9]+(?:[-_][A-Z0-9]+)*\b"


def spec_ids(game_id: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
    return set(re.findall(ID.format(p=SPECS[game_id] + "(?=-)"), text))


def _test_text(game_id: str) -> str:
    folder = ROOT / "tests" / game_id
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("test_*.py")))


@pytest.mark.parametrize("game_id", [g for g in SPECS if g in registry.game_ids()])
def test_every_rule_id_has_a_test(game_id):
    ids = spec_ids(game_id)
    assert len(ids) > 10
    text = _test_text(game_id).replace("_", "-")
    missing = sorted(i for i in ids if not re.search(re.escape(i) + r"(?![A-Z0-9])", text))
    assert not missing, f"{game_id}: rule IDs with no test naming them: {missing}"
