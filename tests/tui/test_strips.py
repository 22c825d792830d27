"""`tui.strips`: Textual's `Strip` gives the same results without keeping itself in its caches,
so a dropped strip is freed by reference counting, not left as a cycle for the collector."""

from __future__ import annotations

import gc

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.color import Color
from textual.filter import DimFilter
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


def test_caches_that_hit_still_work_and_the_others_keep_nothing():
    s = _strip()
    assert s.divide([5, 11]) is s.divide([5, 11]), "the divide cache works"
    assert s.adjust_cell_length(20) is s.adjust_cell_length(20)
    dim = DimFilter()
    assert s.apply_filter(dim, Color(0, 0, 0)) is s.apply_filter(dim, Color(0, 0, 0))
    results = [
        s.crop(0, 5),
        s.crop_extend(0, 14, None),
        s.apply_style(Style(italic=True)),
        s.apply_offsets(1, 2),
    ]
    assert [r.text for r in results] == ["hello", "hello world   ", "hello world", "hello world"]
    assert results[2]._segments[0].style == Style(bold=True, italic=True)
    kept = gc.get_referents(s) + [
        v for c in gc.get_referents(s) if isinstance(c, FIFOCache) for v in c._cache.values()
    ]
    assert not any(r is k for r in results for k in kept), "no result of those four is kept"


def test_unknown_names_still_fail():
    s = _strip()
    with pytest.raises(AttributeError, match="no_such_thing"):
        s.no_such_thing  # noqa: B018


def test_a_new_strip_makes_its_caches_when_first_asked():
    s = _strip()
    assert not any(isinstance(c, FIFOCache) for c in gc.get_referents(s)), "none made yet"
    assert s.adjust_cell_length(20).text == "hello world         "
    assert s.apply_filter(DimFilter(), Color(0, 0, 0)).text == "hello world"
    assert [p.text for p in s.divide([5, 11])] == ["hello", " world"]
    assert sum(isinstance(c, FIFOCache) for c in gc.get_referents(s)) == 3


def test_a_filter_that_changes_nothing_keeps_no_copy():
    from rich.terminal_theme import MONOKAI
    from textual.filter import ANSIToTruecolor

    truecolor = ANSIToTruecolor(MONOKAI)
    black = Color(0, 0, 0)
    plain = Strip([Segment("hello", Style(bold=True, color="#ff0000")), Segment(" world")])
    assert plain.apply_filter(truecolor, black) is plain, "nothing to convert: the strip itself"
    assert plain.apply_filter(truecolor, black) is plain, "and again (from its cache)"
    system = Strip([Segment("hello", Style(color="red")), Segment(" world")])
    converted = system.apply_filter(truecolor, black)
    assert converted is not system
    assert converted.text == "hello world"
    assert converted._segments[0].style.color.triplet is not None, "red became truecolor"
    assert system.apply_filter(truecolor, black) is converted, "the copy is kept and reused"
    dimmed = Strip([Segment("hi", Style(dim=True, color="#ffffff", bgcolor="#000000"))])
    assert dimmed.apply_filter(DimFilter(), black) is not dimmed, "a dim filter still dims"


def test_an_unchanged_filtered_strip_leaves_no_cycle_behind():
    from rich.terminal_theme import MONOKAI
    from textual.filter import ANSIToTruecolor

    truecolor = ANSIToTruecolor(MONOKAI)
    gc.collect()
    gc.disable()
    try:
        for _ in range(200):
            s = _strip()
            assert s.apply_filter(truecolor, Color(0, 0, 0)) is s
            del s
        assert gc.collect() == 0, "every strip was freed when it was dropped"
    finally:
        gc.enable()
