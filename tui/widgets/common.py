"""Small reusable widgets: the race log, the legal-action list, the status line.

Owns widgets that take data from their screen and post `ActionChosen` upward; none of them holds
game state or talks to the hub (STYLE #10). Must not import a game package.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from tui.fold import LogLine
from tui.widgets.fastlines import FastLines


def tag_of(obj: Any) -> str:
    """An action's or task's msgspec tag (``"roll"``), else its class name."""
    config = getattr(type(obj), "__struct_config__", None)
    tag = getattr(config, "tag", None) if config is not None else None
    return str(tag) if isinstance(tag, str) else type(obj).__name__


def update_sized(widget: Static, content: Any, height: int) -> None:
    """`Static.update` that re-lays out the screen only when the content's height changed.

    A relayout reflows and repaints the whole screen; content of the same height only needs
    this widget repainted (STYLE #22).
    """
    same = getattr(widget, "_sized_height", None) == height
    widget._sized_height = height  # type: ignore[attr-defined]
    widget.update(content, layout=not same)


def set_border_title(widget: Widget, title: str | None) -> None:
    """Set a border title only when it changes (assigning one repaints the whole widget)."""
    if getattr(widget, "_title_set", ...) != title:
        widget._title_set = title  # type: ignore[attr-defined]
        widget.border_title = title


def wrap_plain(text: str, width: int) -> list[str] | None:
    """``text`` cut into lines of at most ``width`` cells exactly as Rich's
    ``Text.wrap(..., overflow="fold")`` cuts it, for printable ASCII (one cell per character);
    None for anything else (the caller then asks Rich).

    >>> wrap_plain("P1 rolls a 6 and moves on", 10)
    ['P1 rolls a', '6 and ', 'moves on']
    """
    if not (text.isascii() and text.isprintable()):
        return None
    if not text:
        return [""]
    if len(text) <= width:
        return [text]  # what the division below gives: no break, nothing past the width
    offsets = _divide_ascii(text, width)
    bounds = [0, *offsets, len(text)]
    # Rich strips the spaces past the width, then truncates: a cut at the width.
    return [text[a:b][:width] for a, b in itertools.pairwise(bounds)]


_WORD = re.compile(r"\s*\S+\s*")  # Rich's word: spaces, the word, its spaces (`rich._wrap`)


def _divide_ascii(text: str, width: int) -> list[int]:
    """`rich._wrap.divide_line(text, width, fold=True)` for printable ASCII (a character is a
    cell): the same breaks, without measuring each word's cells
    (`tests/tui/test_wrap_plain.py` compares them)."""
    breaks: list[int] = []
    offset = 0
    for match in _WORD.finditer(text):
        start, end = match.span()
        length = len(match.group(0).rstrip())
        if width - offset >= length:
            offset += end - start
        elif length > width:
            # Folded across lines of ``width`` (Rich's `chop_cells`), each piece on a line.
            size = end - start
            pieces = [size - n if size - n < width else width for n in range(0, size, width)]
            for n, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if n == len(pieces) - 1:
                    offset = piece
                else:
                    start += piece
        elif offset and start:
            breaks.append(start)
            offset = end - start
    return breaks


def _cells_head(text: str, cells: int) -> str:
    out = ""
    for ch in text:
        if cell_len(out + ch) > cells:
            break
        out += ch
    return out


def short_name(name: str, width: int, tail: int = 0) -> str:
    """``name`` in at most ``width`` cells: as it is when it fits, else cut with "…" (keeping
    its last ``tail`` characters after the "…")."""
    width = max(1, width)
    if cell_len(name) <= width:
        return name
    end = name[len(name) - tail :] if 0 < tail < len(name) else ""
    if cell_len(end) > width - 2:
        end = ""
    return _cells_head(name, width - 1 - cell_len(end)) + "…" + end


def short_names(names: Sequence[str], width: int) -> list[str]:
    """Every name in at most ``width`` cells, cut the same way on every board ("Maximilia…"; the
    full names are in the table's info panel, `I`). A cut name that would read like another
    player's keeps its end: "Random2" and "Random3" in 6 cells are "Rand…2" and "Rand…3", and
    "Promoter2" beside "Promoter" in 8 is "Promot…2".

    >>> short_names(["Ann", "Maximiliana", "Random2", "Random3"], 6)
    ['Ann', 'Maxim…', 'Rand…2', 'Rand…3']
    """
    out = []
    for i, name in enumerate(names):
        if cell_len(name) <= width:
            out.append(name)
            continue
        others = [n for j, n in enumerate(names) if j != i and n != name]
        for tail in range(len(name)):
            short = short_name(name, width, tail)
            head, _, end = short.partition("…")
            if not any(o.startswith(head) and o.endswith(end) for o in others):
                break
        else:
            short = short_name(name, width)
        out.append(short)
    return out


def pad_cells(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` cells (wide characters count two)."""
    return text + " " * max(0, width - cell_len(text))


def render_text(text: Text, console: Any) -> list[Segment]:
    """``list(text.render(console))``, built directly when the text's spans do not overlap
    (text put together by appending, as every board line is): Rich sorts span events and
    combines the styles of a stack for every segment, ~50 µs a line of a few colours. The
    same segments: a text without spans renders unstyled, a stretch outside every span in
    the text's style, one inside a span in the text's style plus the span's. Overlapping
    spans (a stylized line) are left to Rich. `tests/tui/test_render_text.py` compares both."""
    spans = text.spans
    plain = text.plain
    if not spans:  # (Rich leaves such a text unstyled here: its own style would be lost)
        return [Segment(plain, console.get_style(text.style) if text.style else None)]
    pos = 0
    for span in spans:
        if span.start < pos or span.end < span.start:
            return list(text.render(console))
        pos = span.end
    if pos > len(plain):
        return list(text.render(console))
    null = Style.null()
    base = console.get_style(text.style, default=null)
    out: list[Segment] = []
    pos = 0
    for span in spans:
        start, end = span.start, span.end
        if start > pos:
            out.append(Segment(plain[pos:start], base))
        if end > start:
            out.append(
                Segment(plain[start:end], base + console.get_style(span.style, default=null))
            )
        pos = end
    if pos < len(plain):
        out.append(Segment(plain[pos:], base))
    return out


_TEXT_STRIPS: LRUCache[tuple[Any, ...], Strip] = LRUCache(1024)
"""Drawn lines by content, style and width, for every `LineBox` of the process: boards draw
the same lines again and again (a die, a seat's row), and spectators of one table all draw
the same lines. A `Strip` is never changed once made, so sharing one is safe. 1,024 lines
(~2.3 MiB), not 4,096: with 100 sessions on 25 tables the larger cache hit 65 % of lookups
and this one 60 % (a miss is one line drawn, ~30 µs), and the larger one was ~7 MiB more of
the server's memory, grown over the first minutes of a race (the load benchmark's RSS)."""


def _text_strip(line: Text, style: Any, width: int, console: Any) -> Strip:
    """``line`` drawn in ``style`` and cut or padded to ``width`` cells (kept, see above)."""
    key = (line.plain, tuple(line.spans), line.style, style, width)
    strip = _TEXT_STRIPS.get(key)
    if strip is None:
        segments = Segment.apply_style(render_text(line, console), style)
        strip = Strip(list(segments)).crop_extend(0, width, style)
        _TEXT_STRIPS[key] = strip
    return strip


def _plain_strip(piece: str, style: Any, width: int) -> Strip:
    """``piece`` (printable ASCII, at most ``width`` cells) padded to ``width`` in ``style``:
    the segments ``Strip([Segment(piece, style)]).crop_extend(0, width, style)`` makes, or
    `Strip.blank` for an empty piece, built at once."""
    if not piece:
        return Strip.blank(width, style)
    if len(piece) >= width:
        return Strip([Segment(piece, style)], len(piece)).crop_extend(0, width, style)
    return Strip([Segment(piece, style), Segment(" " * (width - len(piece)), style)], width)


class LineBox(FastLines, Widget):
    """Text drawn line by line in a box whose size comes from CSS; only changed lines repaint.

    `show_lines` takes one `Text` per line. Lines equal to what is on screen are left alone;
    each changed line is repainted by itself (no relayout, no repaint of the rest, STYLE #22).
    Lines past the box's height are not shown; a line wider than the box is cut.
    A line may also be a `Strip` already drawn in the box's `base_style` (a widget that draws
    the same pieces again and again, like dice, keeps them drawn): it is only cut or padded.
    """

    DEFAULT_CSS = """
    LineBox { height: 1; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[Text | list[Segment] | Strip] = []
        self._strips: dict[int, Strip] = {}
        self._given_strips: dict[int, tuple[Strip, Strip]] = {}  # id(Strip line) -> (line, drawn)
        self._strip_width = -1

    def render(self) -> Text:
        """Everything shown, as one text (for tests and tooltips; drawing is by line)."""
        return Text("\n").join(
            line
            if isinstance(line, Text)
            else Text.assemble(*((s.text, s.style or "") for s in line))
            for line in self._lines
        )

    def show_lines(self, lines: Sequence[Text | list[Segment] | Strip], fill: Any = None) -> None:
        """Show ``lines``; ``fill`` (a Rich style) colours the whole width of every line.

        A line is a `Text`, or a list of already rendered `Segment`s (a widget that draws the
        same pieces again and again, like dice, keeps them rendered).
        """
        if fill != getattr(self, "_fill", None):
            self._fill = fill
            self._lines = []  # every line repaints in the new colour
            self._given_strips.clear()
        old = self._lines
        new = list(lines)
        width = self.drawn_size().width
        height = max(len(old), len(new))
        changed = [
            y
            for y in range(height)
            if y >= len(old) or y >= len(new) or (old[y] is not new[y] and old[y] != new[y])
        ]
        self._lines = new
        if not changed:
            return
        for y in changed:
            self._strips.pop(y, None)
        if not self.is_mounted or width <= 0:
            self.refresh()
            return
        # One region per run of changed lines (the same cells as one a line, fewer to merge).
        runs: list[Region] = []
        for y in changed:
            if runs and runs[-1].bottom == y:
                last = runs[-1]
                runs[-1] = Region(0, last.y, width, last.height + 1)
            else:
                runs.append(Region(0, y, width, 1))
        self.refresh(*runs)

    def on_resize(self) -> None:
        self._strips.clear()
        self._given_strips.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._given_strips.clear()

    def render_line(self, y: int) -> Strip:
        width = self.drawn_size().width
        style = self.base_style
        if width != self._strip_width or style is not getattr(self, "_strip_style", None):
            self._strips.clear()
            self._given_strips.clear()
            self._strip_width = width
            self._strip_style = style
        strip = self._strips.get(y)
        if strip is None:
            fill = getattr(self, "_fill", None)
            if fill is not None:
                style = style + fill
            if y < len(self._lines):
                line = self._lines[y]
                if isinstance(line, Text):
                    strip = _text_strip(line, style, width, self.app.console)
                elif isinstance(line, Strip):
                    # One drawn strip per line given (the same line again, the same strip:
                    # `_Frame` keeps the rows drawn from a strip).
                    kept = self._given_strips.get(id(line))
                    if kept is None or kept[0] is not line:
                        if len(self._given_strips) >= 64:
                            self._given_strips.clear()
                        kept = self._given_strips[id(line)] = (
                            line,
                            line.crop_extend(0, width, style),
                        )
                    strip = kept[1]
                else:
                    segments = Segment.apply_style(line, style)
                    strip = Strip(list(segments)).crop_extend(0, width, style)
            else:
                strip = Strip.blank(width, style)
            self._strips[y] = strip
        return strip


class ActionChosen(Message):
    """A player picked an action (from a list, a key or a click)."""

    def __init__(self, action: Any) -> None:
        super().__init__()
        self.action = action


class RaceLog(FastLines, Widget):
    """The race log in words, newest at the bottom, drawn line by line in a fixed-size box.

    Adding a line repaints only the rows it fills (STYLE #22): lines already on screen do not
    move. When the box is full the log turns a page — the newest third stays at the top and the
    rest of the box fills again — instead of shifting every line on every step, which would
    repaint the whole box each time for every viewer. Lines are wrapped to the box's width and
    wrapped again when it changes (a resize re-wraps the whole log). The mouse wheel scrolls
    back; the bottom title then says how many newer lines are below.
    """

    DEFAULT_CSS = """
    RaceLog { height: 1fr; border: round $panel-lighten-2; padding: 0 1; }
    """
    MAX_LINES: ClassVar[int] = 2000
    KEPT_ROWS: ClassVar[int] = (
        120  # wrapped rows kept drawn; older ones are wrapped again on demand
    )

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.border_title = "Race log"
        self.can_focus = False
        self._texts: deque[str] = deque(maxlen=self.MAX_LINES)
        self._strips: list[Strip] = []
        self._begins: list[bool] = []  # does this wrapped line start a log line?
        self._wrapped_for = -1
        self._first = 0  # the wrapped line shown in the top row
        self._dropped = 0  # wrapped rows dropped from the front of the kept ones
        self._follow = True  # new lines show (False while scrolled back)
        self._added = 0  # lines added one by one since the log was last set as a whole

    @property
    def lines(self) -> list[Strip]:
        """The log as wrapped lines at the current width (oldest first)."""
        self._wrap_all()
        return self._strips

    @property
    def texts(self) -> list[str]:
        return list(self._texts)

    def add_lines(self, lines: Sequence[LogLine], names: Sequence[str] = ()) -> None:
        if not lines:
            return
        for line in lines:
            self._texts.append(line.text)
        self._added += len(lines)
        if self._wrapped_for < 0 or not self.is_mounted:
            self.refresh()
            return
        width = self._wrapped_for
        before = len(self._strips)
        height = self.drawn_size().height
        first = self._first
        for line in lines:
            wrapped = self._wrap(line.text, width)
            self._strips.extend(wrapped)
            self._begins.extend([True] + [False] * (len(wrapped) - 1))
            if self._follow:
                first = self._page_for(first, height)
        turned = first != self._first
        self._first = first
        excess = len(self._strips) - self.KEPT_ROWS
        if excess > 0 and self._follow:
            # Memory per viewer stays bounded over a long race: only the newest rows stay drawn
            # (the texts are all kept; scrolling back past the kept rows wraps them again).
            excess = min(excess, self._first)
            del self._strips[:excess]
            del self._begins[:excess]
            before -= excess
            self._first -= excess
            self._dropped += excess
        if not self._follow:
            self._subtitle()
            return
        if turned:
            self.refresh(Region(0, 0, width, height))  # the rows, not the border and title
            return
        top = before - self._first
        self.refresh(Region(0, top, width, len(self._strips) - before))

    def _page_for(self, first: int, height: int) -> int:
        """The top row after one more log line: the page turns when the box is full, and the
        newest third stays on top. Applied line by line, here and when the log is wrapped
        afresh, so the page shown depends only on the lines (set at once, then added) and the
        box's size — never on how they were batched or on when the log was first drawn."""
        total = len(self._strips)
        if total - first <= height:
            return first
        return self._line_start(max(0, total - max(1, height // 3)), total - height)

    def set_lines(self, lines: Sequence[LogLine]) -> None:
        self._texts.clear()
        self._strips, self._begins = [], []
        self._wrapped_for = -1
        self._follow = True
        self._added = 0
        for line in lines:
            self._texts.append(line.text)
        self.refresh()

    def _width(self) -> int:
        return max(1, self.drawn_size().width)

    def _line_start(self, index: int, lowest: int) -> int:
        """The first wrapped line of the log line around ``index`` (not above ``lowest``), so a
        page does not start in the middle of a sentence when it can help it."""
        start = index
        while start > max(0, lowest) and not self._begins[start]:
            start -= 1
        return start if self._begins[start] else index

    def _wrap(self, text: str, width: int) -> list[Strip]:
        """One log line as display lines of exactly ``width`` cells in this widget's style."""
        style = self.base_style
        pieces = wrap_plain(text, width)
        if pieces is not None:  # the common case, without building Rich texts
            return [_plain_strip(piece, style, width) for piece in pieces]
        console = self.app.console
        out: list[Strip] = []
        for line in Text(text).wrap(console, width, overflow="fold"):
            segments = Segment.apply_style(render_text(line, console), style)
            out.append(Strip(list(segments)).crop_extend(0, width, style))
        return out or [Strip.blank(width, style)]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._wrapped_for = -1

    def _wrap_all(self) -> None:
        width = self._width()
        style = self.base_style
        if width == self._wrapped_for and style is getattr(self, "_wrap_style", None):
            return
        self._wrapped_for = width
        self._wrap_style = style
        self._strips, self._begins = [], []
        self._dropped = 0
        height = self.drawn_size().height
        given = len(self._texts) - min(self._added, len(self._texts))
        first = 0
        for index, text in enumerate(self._texts):
            wrapped = self._wrap(text, width)
            self._strips.extend(wrapped)
            self._begins.extend([True] + [False] * (len(wrapped) - 1))
            if index + 1 == given:  # the lines set at once fill the box, from a line's start
                fill = first = max(0, len(self._strips) - height)
                while first < len(self._strips) - 1 and not self._begins[first]:
                    first += 1
                if 3 * (len(self._strips) - first) < 2 * height:
                    # ... unless that start would leave most of the box empty (a very long
                    # line, like the seed's commitment at 80 columns): the box is filled, the
                    # top row then starting inside that line.
                    first = fill
            elif index + 1 > given:  # each line added since turns the page as it did live
                first = self._page_for(first, height)
        if self._follow:
            self._first = first
        else:
            self._first = max(0, min(self._first, len(self._strips) - 1))

    def on_resize(self) -> None:
        self._wrapped_for = -1
        self.refresh()

    def render_line(self, y: int) -> Strip:
        self._wrap_all()
        index = self._first + y
        if 0 <= index < len(self._strips) and y < self.drawn_size().height:
            return self._strips[index]
        style = self.base_style
        blank = getattr(self, "_blank", None)
        if blank is None or blank[0] != self._wrapped_for or blank[1] is not style:
            blank = self._blank = (self._wrapped_for, style, Strip.blank(self._wrapped_for, style))
        return blank[2]  # one strip for every empty row (drawn rows are kept by it, `_Frame`)

    def _newer(self) -> int:
        return max(0, len(self._strips) - self._first - self.content_size.height)

    def _subtitle(self) -> None:
        newer = self._newer()
        subtitle = f"↓ {newer} newer" if not self._follow and newer else None
        if getattr(self, "_subtitle_set", None) != subtitle:
            self._subtitle_set = subtitle
            self.border_subtitle = subtitle

    def _scroll(self, lines: int) -> None:
        """Wheel up (negative): look back; wheel down to the newest line: follow again."""
        self._wrap_all()
        if lines < 0 and self._dropped and self._first + lines < 0:
            # Back past the kept rows: wrap the whole log again, at the same place.
            from_end = len(self._strips) - self._first
            self._wrapped_for = -1
            self._wrap_all()
            self._first = max(0, len(self._strips) - from_end)
        bottom = max(0, len(self._strips) - self.content_size.height)
        if lines < 0:
            first = max(0, min(self._first, bottom) + lines)
            if first == self._first:
                return
            self._first, self._follow = first, False
        else:
            if self._follow:
                return
            first = self._first + lines
            if first >= bottom:
                first, self._follow = bottom, True
            self._first = first
        self._subtitle()
        self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._scroll(-3)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._scroll(3)


class _Row:
    """One row of an `ActionList` as tests and screens read it (``prompt`` is its label)."""

    def __init__(self, prompt: str) -> None:
        self.prompt = prompt


class ActionList(FastLines, Widget, can_focus=True):
    """The legal actions as a list; Enter or a click posts `ActionChosen`.

    Drawn line by line (a label wraps onto more lines under its number): a repaint of the
    screen around it costs nothing here, and a change of rows or highlight repaints only this
    box (STYLE #22). Up/Down move the highlight (the list scrolls to keep it in view), the mouse
    wheel scrolls, a click picks a row.
    """

    DEFAULT_CSS = """
    ActionList { height: 1fr; border: round $accent; padding: 0 1; }
    ActionList > .action-list--highlight {
        color: $block-cursor-blurred-foreground; background: $block-cursor-blurred-background;
        text-style: $block-cursor-blurred-text-style;
    }
    ActionList:focus > .action-list--highlight {
        color: $block-cursor-foreground; background: $block-cursor-background;
        text-style: $block-cursor-text-style;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"action-list--highlight"}
    BINDINGS: ClassVar = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("home", "move(-1000)", show=False),
        Binding("end", "move(1000)", show=False),
        Binding("enter", "select", "Choose", show=False),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.border_title = "Your move"
        self._actions: list[Any] = []
        self._labels: list[str] = []
        self._shown_key: list[tuple[str, str]] | None = None
        self._highlighted: int | None = None
        self._top = 0  # first display line shown
        self._layout: list[tuple[int, Text]] = []  # display line -> (row, text)
        self._layout_width = -1
        self._strips: dict[tuple[int, bool, bool], Strip] = {}

    # ------------------------------------------------------------------ rows

    @property
    def option_count(self) -> int:
        return len(self._actions)

    def get_option_at_index(self, index: int) -> _Row:
        return _Row(self._labels[index])

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is not None and not 0 <= index < len(self._actions):
            index = None
        if index != self._highlighted:
            self._highlighted = index
            self._scroll_to_highlight()
            self.refresh()

    def set_actions(self, labelled: Sequence[tuple[str, Any]]) -> None:
        self._actions = [action for _, action in labelled]
        self._labels = [
            f"{i + 1}. {label}" if i < 9 else label for i, (label, _) in enumerate(labelled)
        ]
        self._layout_width = -1
        self._strips.clear()
        self._top = 0
        self._highlighted = 0 if labelled else None
        self.refresh()

    def keep_actions(self, labelled: Sequence[tuple[str, Any]]) -> None:
        """`set_actions` only when the rows change (keeps the highlight while others play)."""
        key = [(label, repr(action)) for label, action in labelled]
        if key == self._shown_key:
            return
        self._shown_key = key
        self.set_actions(labelled)

    def choose(self, index: int) -> None:
        if 0 <= index < len(self._actions):
            self.post_message(ActionChosen(self._actions[index]))

    # ------------------------------------------------------------------ keys and mouse

    def action_move(self, step: int) -> None:
        if not self._actions:
            return
        current = self._highlighted if self._highlighted is not None else -1
        self.highlighted = max(0, min(len(self._actions) - 1, current + step))

    def action_select(self) -> None:
        if self._highlighted is not None:
            self.choose(self._highlighted)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        lines = self._display()
        line = self._top + offset.y
        if 0 <= line < len(lines):
            row = lines[line][0]
            self.highlighted = row
            self.choose(row)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._scroll(-2)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._scroll(2)

    def _scroll(self, lines: int) -> None:
        most = max(0, len(self._display()) - self.content_size.height)
        top = max(0, min(most, self._top + lines))
        if top != self._top:
            self._top = top
            self.refresh()

    def _scroll_to_highlight(self) -> None:
        if self._highlighted is None:
            return
        rows = [i for i, (row, _) in enumerate(self._display()) if row == self._highlighted]
        height = max(1, self.content_size.height)
        if rows:
            if rows[0] < self._top:
                self._top = rows[0]
            elif rows[-1] >= self._top + height:
                self._top = rows[-1] - height + 1

    # ------------------------------------------------------------------ drawing

    def _display(self) -> list[tuple[int, Text]]:
        width = max(1, self.content_size.width)
        style = self.base_style
        if style is not getattr(self, "_layout_style", None):
            self._layout_style = style
            self._strips.clear()
        if width != self._layout_width:
            self._layout_width = width
            self._strips.clear()
            console = self.app.console
            out: list[tuple[int, Text]] = []
            for row, label in enumerate(self._labels):
                indent = 3 if row < 9 else 0
                pieces = Text(label).wrap(console, width - indent, overflow="fold") or [Text()]
                for n, piece in enumerate(pieces):
                    if n:
                        piece = Text(" " * indent) + piece
                    out.append((row, piece))
            self._layout = out
        return self._layout

    def on_resize(self) -> None:
        self._layout_width = -1
        self._scroll_to_highlight()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def on_focus(self) -> None:
        self.refresh()  # the highlight's colour follows focus (strips are keyed by it)

    def on_blur(self) -> None:
        self.refresh()

    def render_line(self, y: int) -> Strip:
        lines = self._display()
        width = self._layout_width
        line = self._top + y
        lit = 0 <= line < len(lines) and lines[line][0] == self._highlighted
        key = (line, lit, self.has_focus)
        strip = self._strips.get(key)
        if strip is None:
            base = self.base_style
            if 0 <= line < len(lines):
                style = (
                    base + self.get_component_rich_style("action-list--highlight") if lit else base
                )
                segments = Segment.apply_style(render_text(lines[line][1], self.app.console), style)
                strip = Strip(list(segments)).crop_extend(0, width, style)
            else:
                strip = Strip.blank(width, base)
            self._strips[key] = strip
        return strip


class StatusLine(LineBox):
    """One line: whose turn it is, or the sentence of a refused action.

    A sentence too long for the line ends in "…" where it is cut. A refusal too long for one
    line wraps onto a second (the only time the line grows and the
    screen re-lays out); if even two lines cannot hold it, the middle gives way so that its end —
    the "(rule …)" it names — stays on screen.
    """

    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; background: $boost; }
    StatusLine.-error { background: $error 30%; text-style: bold; }
    """

    _said: tuple[str, bool] | None = None
    """The sentence shown and whether it is a refusal (said again after a resize)."""

    def __init__(self, text: str = "", *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.show_lines([Text(text)])

    def say(self, text: str, *, error: bool = False) -> None:
        """One line of fixed height: a new sentence repaints this line only (no relayout)."""
        if (text, error) == self._said:
            return
        self._said = (text, error)
        self.set_class(error, "-error")
        width = self.content_size.width
        lines = [Text(text)]
        if error and width > 0 and len(text) > width:
            lines = fit_two_lines(text, width)
        elif width > 0 and lines[0].cell_len > width:
            lines[0].truncate(width, overflow="ellipsis")  # the cut shows ("…"), never silent
        if self.styles.height is None or self.styles.height.value != len(lines):
            self.styles.height = len(lines)
        self.show_lines(lines)

    def on_resize(self) -> None:
        super().on_resize()
        said = self._said
        if said is not None:
            self._said = None
            self.say(said[0], error=said[1])  # cut (or not) for the new width


def fit_two_lines(text: str, width: int) -> list[Text]:
    """``text`` wrapped onto at most two lines of ``width``; a longer text loses words from its
    middle, never its "(rule …)" end.

    >>> [str(t) for t in fit_two_lines("You cannot do that now (rule C-PASS-TEST).", 24)]
    ['You cannot do that now', '(rule C-PASS-TEST).']
    """
    from rich.console import Console

    console = Console(width=max(width, 1), color_system=None)
    pieces = [Text(p.plain.rstrip()) for p in Text(text).wrap(console, width)]
    if len(pieces) <= 2:
        return pieces
    cut = text.rfind("(rule")
    tail = text[cut:] if cut > 0 else text[-(width - 2) :]
    rest = " ".join(p.plain for p in pieces[1:])
    rest = rest[: rest.rfind("(rule")] if cut > 0 and "(rule" in rest else rest
    room = width - len(tail) - 3  # the second line: as much of the middle as fits, then the end
    middle = rest[: max(0, room)].rstrip()
    second = f"{middle} … {tail}" if middle else f"… {tail}"
    return [pieces[0], Text(second[-width:])]
