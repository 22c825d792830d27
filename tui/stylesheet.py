"""One parse of each piece of CSS per process, shared by every app (every SSH session).

Owns `SharedStylesheet`. Each Textual app parses all of its CSS (the app's .tcss files and every
widget class's DEFAULT_CSS) when it starts, and again for each widget class it mounts for the
first time. In one server process the same CSS with the same variables is parsed by every
session: about half of the CPU an app takes to start, a pause for every other player. Parsed
rules depend only on the CSS text, where it came from, and the CSS variables (theme), so they
are kept in one cache per set of variables for the whole process; a theme change switches to
that theme's cache instead of clearing the shared one.

Also: a screen is not restyled as a whole when it is first shown (it was styled as it mounted;
see `_on_screen_resume` below).

Textual is pinned exactly (pyproject); this relies on `Stylesheet._parse_cache`,
`set_variables` and `ScreenResume.refresh_styles`. Must not: share anything that an app changes (parsed rule sets are only read).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen

__all__ = ["SharedStylesheet", "share"]

_CACHES: dict[tuple[tuple[str, str], ...], LRUCache[tuple[Any, ...], Any]] = {}

# `Stylesheet.apply` tests every rule set of the sheet for membership in a set, once per node
# it styles: ~200 hashes a node, each a Python call (`RuleSet.__hash__` returns ``id(self)``).
# The same identity hash, in C.
RuleSet.__hash__ = object.__hash__  # type: ignore[method-assign]


def _cache_for(variables: dict[str, str]) -> LRUCache[tuple[Any, ...], Any]:
    key = tuple(sorted(variables.items()))
    cache = _CACHES.get(key)
    if cache is None:
        while len(_CACHES) >= 16:  # a few themes; never unbounded
            _CACHES.pop(next(iter(_CACHES)))
        cache = _CACHES[key] = LRUCache(256)
    return cache


class SharedStylesheet(Stylesheet):
    """A `Stylesheet` whose parse cache is the process-wide one for its variables."""

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)  # clears this sheet's own caches...
        self._parse_cache = _cache_for(variables)  # ...then joins the shared one


def share(stylesheet: Stylesheet) -> Stylesheet:
    """Turn an app's fresh stylesheet into a `SharedStylesheet` (same variables, shared parses)."""
    stylesheet.__class__ = SharedStylesheet
    stylesheet._parse_cache = _cache_for(stylesheet._variables)
    return stylesheet


# A screen is styled as its widgets mount; Textual then restyles every node of it again when it
# is first shown (`ScreenResume(refresh_styles=True)`), a second full pass over the stylesheet:
# ~12 % of a login's CPU on the server (py-spy), 10-20 % of opening the new-game form. Skipped
# for a screen's first showing only (every snapshot is unchanged); on later resumes (back from a
# modal or another screen) the refresh stays: the theme or the app's classes may have changed.
_screen_resume = Screen._on_screen_resume


def _on_screen_resume(self: Screen[Any], event: events.ScreenResume) -> None:
    if not getattr(self, "_speedway_shown", False):
        self._speedway_shown = True  # type: ignore[attr-defined]
        event.refresh_styles = False
    _screen_resume(self, event)


Screen._on_screen_resume = _on_screen_resume  # type: ignore[method-assign]
