"""Go 500's one wording (issue 14): the table screen's status line, the dice tray's caption
and figures and the scoreboard's header are core's `describe` words; the TUI adds key hints
only, and none of the sentences it used to write is left in its source."""

from __future__ import annotations

import ast
from pathlib import Path

from core.go500.describe import race_header, tray_caption, turn_figures, turn_prompt
from tests.tui.conftest import go500_app
from tests.tui.test_pilot_go500 import table_screen, wait_for
from tests.tui.test_snapshots import _mid_turn
from tui.screens.go500 import KEY_HINTS, Go500TableScreen, stage_of
from tui.widgets.common import StatusLine
from tui.widgets.go500 import DiceTray, Scoreboard

ROOT = Path(__file__).resolve().parents[2]


def _asked(screen: object) -> bool:
    return isinstance(screen, Go500TableScreen) and screen.acting_seat() == 0


def _status(screen: Go500TableScreen) -> str:
    return screen.query_one(StatusLine)._said[0]


async def test_the_go500_screen_shows_cores_words_with_its_keys():
    app = go500_app("me,cautious,bold", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: _asked(app.screen))  # Ann qualifies first
        screen = table_screen(app)
        fold = screen.fold
        assert stage_of(fold.state, 0) == "qualify"
        assert _status(screen) == turn_prompt(fold.state, 0, fold.names, KEY_HINTS)
        assert _status(screen) == "Ann: r to roll your qualifying dice."
        await _mid_turn(pilot)  # the snapshot's: a green flag, one die picked
        state = screen.fold.state
        turn = state.turns[0]
        assert screen.picked
        width = screen.status_width()
        expected = turn_prompt(state, 0, fold.names, KEY_HINTS, screen.picked, width)
        assert _status(screen) == expected
        assert f"saving {next(iter(screen.picked))}" in expected
        tray = screen.query_one(DiceTray)
        caption = tray.views()[3]
        assert caption == tray_caption(fold.names, 0, rolled=True, extra=turn.extra, acting=0)
        shown = [line.plain for line in tray.info_lines()]
        figures = turn_figures(state, 0)
        assert len(shown) == len(figures) > 0
        for line, (label, figure) in zip(shown, figures, strict=True):
            assert line.startswith(label)
            assert line.endswith(figure)
        board = screen.query_one(Scoreboard)
        assert board.board_lines()[0].plain == race_header(state)


MOVED = (
    "to roll",
    "qualifies",
    "extra turn",
    "last roll",
    "saved dice sit",
    "Stop now",
    "Showing",
    "to finish",
    "Cup Series",
    "This race",
    "Tradin' Paint",
    "pick dice to save",
    "more in the log",
    "Time Trial",
    " mi",
    "WHEEL",
    "SAVED",
)


def _literals(path: Path) -> list[str]:
    """Every string constant of a module except docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_go500_sentence_is_written_in_the_tui():
    for name in ("tui/widgets/go500.py", "tui/screens/go500.py"):
        for text in _literals(ROOT / name):
            for phrase in MOVED:
                assert phrase not in text, f"{name} words {text!r} itself (core's describe does)"
