"""The oval's track drawn from its kept static part (`OvalTrack._static_track`) equals the track
drawn space by space, then the red line, the labels and the legend over it, as before: over a
whole bot race, with the choices a player sees, at both cell widths and in both palettes."""

from __future__ import annotations

import pytest
from rich.style import Style

from core import registry
from core.champions.model import ChampionsState
from core.game import Seat, Table
from tui.theme import PICK, RED_LINE
from tui.widgets.board import BoardData
from tui.widgets.champions.canvas import Canvas
from tui.widgets.champions.choices import candidate_cars, destination_keys, moving_car
from tui.widgets.champions.geometry import ROWS, OvalGeometry
from tui.widgets.champions.oval import OvalTrack, _heading
from tui.widgets.champions.words import COLOUR_LETTERS, DIM, car_style


def reference_track(
    self, canvas: Canvas, geo: OvalGeometry, data: BoardData[ChampionsState] | None, wide: bool
) -> None:
    cw = geo.cw
    state: ChampionsState | None = data.state if data is not None else None
    cars = state.cars if state is not None else ()
    by_space = {(c.row, c.lane): c for c in cars if c.row is not None and c.place is None}
    keys = destination_keys(data) if data is not None else {}
    targets = candidate_cars(data) if data is not None else set()
    mover = moving_car(data) if data is not None else None
    inner = cw - 1
    for row in range(ROWS):
        for lane in range(3):
            x, y = geo.cell(row, lane)
            car = by_space.get((row, lane))
            if car is not None:
                label = ("«" if car.backwards else "") + str(car.number)
                if wide:
                    label += COLOUR_LETTERS[car.colour]
                style = car_style(car.colour, self._cb)
                if car.backwards:
                    style += Style(italic=True)
                if car.colour in targets or car.colour == mover:
                    style += Style(underline=True, blink=False)
                canvas.put(x, y, label.center(inner)[:inner], style)
                if car.colour == mover:
                    canvas.put(x + inner, y, _heading(row), PICK)
            elif (row, lane) in keys:
                canvas.put(x, y, f"[{keys[(row, lane)]}]".center(inner)[:inner], PICK)
            else:
                canvas.put(x, y, "·".center(inner), DIM)
    # the red line: between row 8 and row 9 (entering row 9 crosses it)
    x9, _ = geo.cell(9, 0)
    for lane in range(3):
        canvas.put(x9 + cw - 1, 1 + lane, "┃", RED_LINE)
    # the start/finish line: after row 23
    x23, _ = geo.cell(23, 0)
    for lane in range(3):
        canvas.put(x23 + cw - 1, 8 + lane, "▚", Style(bold=True))
    # labels
    canvas.put(x9 + cw - 1, 0, "▼ red line" if wide else "▼red", RED_LINE)
    canvas.put(geo.left, 0, "backstretch ◂" if wide else "backstr ◂", DIM)
    canvas.put(0, 0, "turns 3-4 ▾" if wide else "T3-4 ▾", DIM)
    canvas.put(geo.left + 8 * cw + (cw if wide else 1), 0, "turns 1-2" if wide else "T1-2", DIM)
    canvas.put(geo.left + 8 * cw, 11, "▴ turns 1-2" if wide else "▴", DIM)
    canvas.put(geo.left, 11, "front stretch ▸" if wide else "front ▸", DIM)
    finish = keys.get(None)
    sf = f"▲ S/F [{finish}] finish" if finish is not None else "▲ start/finish"
    canvas.put(x23 + cw - 1, 11, sf, PICK if finish is not None else Style(bold=True))
    # the corners: a legend, the finished cars, the decks
    legend = (
        ("«24 backwards", "[n] pick it", "▚ finish line")
        if wide
        else ("«24 backward", "[n] pick", "▚ finish")
    )
    for n, words in enumerate(legend):
        canvas.put(0, 1 + n, words, DIM)
    if state is not None:
        self._draw_finished(canvas, geo, state, wide)
        self._draw_decks(canvas, geo, state, wide)


def _boards():
    game = registry.get("champions")
    seats = [Seat(name=f"P{i + 1}", bot=game.default_bot) for i in range(3)]
    table = Table(game, game.default_config(), seats, 11)
    names = [s.name for s in seats]
    for _ in range(400):
        pending = table.pending()
        seat = pending[0] if pending else None
        yield BoardData(
            game=game,
            config=game.default_config(),
            names=names,
            state=table.state,
            perspective=seat,
            pending=tuple(pending),
            last_events=[],
            result=table.result(),
            acting=seat,
            legal=table.legal(seat) if seat is not None else [],
        )
        if seat is None:
            return
        table.submit(seat, table.bot_action(seat), table.state_id)


@pytest.mark.parametrize(("cw", "cb"), [(4, False), (6, False), (6, True)])
def test_the_kept_track_draws_what_drawing_every_space_draws(cw, cb):
    oval = OvalTrack()
    oval._cb = cb
    geo = OvalGeometry(cw=cw)
    wide = cw >= 6
    boards = 0
    for data in [None, *_boards()]:
        want = Canvas(geo.width, geo.height)
        reference_track(oval, want, geo, data, wide)
        got = Canvas(geo.width, geo.height)
        oval._draw_track(got, geo, data, wide)
        assert got.cells == want.cells
        boards += 1
    assert boards > 50
