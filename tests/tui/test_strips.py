"""`tui.strips`: Textual's `Strip` gives the same results without keeping itself in its caches,
so a dropped strip is freed by reference counting, not left as a cycle for the collector."""

from __future__ import annotations

import gc

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

import tui.app  # noqa: F401  (installs the fix, as every app does)


def _strip() -> Strip:
    return Strip([Segment("hello", Style(bold=True)), Segment(" world")])


def test_results_are_unchanged():
    s = _strip()
    assert s.divide([11]) == [s]
    assert [p.text for p in s.divide([5, 11])] == ["hello", " world"]
    assert [p.text for p in s.divide([5, 11, 40])] == ["hello", " world"]
    assert s.crop_extend(0, 11, None) is s
    assert s.crop_extend(0, 14, None).text == "hello world   "
    assert s.crop_extend(6, 11, None).text == "world"


def test_a_used_strip_leaves_no_cycle_behind():
    gc.collect()
    gc.disable()
    try:
        for _ in range(200):
            s = _strip()
            s.divide([11])
            s.crop_extend(0, 11, None)
            s.crop_extend(0, 20, None)
            s.divide([5, 11])
            del s
        assert gc.collect() == 0, "every strip was freed when it was dropped"
    finally:
        gc.enable()


def test_caches_still_work_and_unknown_names_still_fail():
    s = _strip()
    assert s.crop(0, 5).text == "hello"
    assert s.crop(0, 5) is s.crop(0, 5), "the crop cache, made on first use, works"
    with pytest.raises(AttributeError, match="no_such_thing"):
        s.no_such_thing  # noqa: B018
