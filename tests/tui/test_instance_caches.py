"""`tui.instance_caches`: Textual's memoised methods no longer keep their instances alive.

Before the patch, each of these instances stayed reachable from a process-wide
`functools.lru_cache` after its owner dropped it (a widget's styles cache with all its lines,
a session's key parser and colour filter); now reference counting frees each at once, and
every method still returns what Textual's own computes."""

from __future__ import annotations

import gc
import weakref

from rich.color import Color as RichColor
from rich.style import Style
from rich.terminal_theme import MONOKAI
from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.color import Color
from textual.filter import ANSIToTruecolor
from textual.style import Style as TextualStyle

import tui.app  # noqa: F401 - installs the patches, as every Speedway process does
from tui.instance_caches import _installed


def _freed_without_the_collector(make_and_use: object) -> bool:
    gc.disable()
    try:
        ref = make_and_use()  # type: ignore[operator]
        return ref() is None
    finally:
        gc.enable()


def _freed_by_a_collection(make_and_use: object) -> bool:
    """For what is a cycle of its own (a parser and its generator): nothing else holds it."""
    ref = make_and_use()  # type: ignore[operator]
    gc.collect()
    return ref() is None


def test_the_patches_are_installed_with_the_app():
    assert _installed


def test_a_styles_cache_dies_with_its_widget_and_inner_outer_is_unchanged():
    base, background = Color(10, 20, 30), Color(200, 100, 0, 0.5)

    def use() -> weakref.ref[StylesCache]:
        cache = StylesCache()
        inner, outer = cache.get_inner_outer(base, background)
        assert inner == TextualStyle(background=base + background)
        assert outer == TextualStyle(background=base)
        return weakref.ref(cache)

    assert _freed_without_the_collector(use)


def test_a_sessions_key_parser_dies_and_still_parses_extended_keys():
    def use() -> weakref.ref[XTermParser]:
        parser = XTermParser()
        keys = parser._parse_extended_key("\x1b[97;5u")
        assert keys is not None
        assert [key.key for key in keys] == ["ctrl+a"]
        assert parser._parse_extended_key("\x1b[97;5u") is keys  # cached, per parser
        assert parser._parse_extended_key("not a key") is None
        return weakref.ref(parser)

    assert _freed_by_a_collection(use)


def test_a_sessions_colour_filter_dies_and_still_maps_system_colours():
    def use() -> weakref.ref[ANSIToTruecolor]:
        flt = ANSIToTruecolor(MONOKAI)
        style = flt.truecolor_style(Style(color="red"), RichColor.parse("black"))
        assert style.color is not None
        assert style.color.triplet is not None
        assert style.color.triplet == RichColor.parse("red").get_truecolor(MONOKAI)
        return weakref.ref(flt)

    assert _freed_without_the_collector(use)
