"""New local game: pick a game, its mode and options, and who sits where.

Owns the new-game form. Options are built from the game's config struct (bools, choices and
numbers; anything richer keeps its default). Seats are you, a hot-seat human or a named bot.
The table is created through the hub like every other table. Must not hold game state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import msgspec
from msgspec import inspect as mi
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button, Static

from core import registry
from core.game import ConfigError, Game, config_from_options
from net.hub import TableSpec
from tui.screens.base import SpeedwayScreen
from tui.seats import bot_title, hot_identity, parse_seats
from tui.widgets.form import FormRow, FormRows, heading
from tui.widgets.keys import KeyFooter

NO_SEAT = "-"


def option_fields(game: Game) -> list[tuple[str, mi.Type, Any]]:
    """(name, type info, default) of each option the form can edit."""
    info = mi.type_info(game.config_type)
    default = game.default_config()
    out: list[tuple[str, mi.Type, Any]] = []
    if not isinstance(info, mi.StructType):
        return out
    for field in info.fields:
        kind = field.type
        simple = isinstance(kind, mi.BoolType | mi.LiteralType | mi.IntType)
        listed = isinstance(kind, mi.StrType) and bool(_str_choices(game, field.name))
        if simple or listed or _optional_bool(kind) or _optional_int(kind):
            out.append((field.name, kind, getattr(default, field.name)))
    return out


def _str_choices(game: Game, name: str) -> list[str]:
    """The values a text option may take, if the game lists them (`Game.option_choices`)."""
    return list(game.option_choices(name) or [])


def _applies(game: Game, name: str, values: dict[str, Any]) -> bool:
    """Whether the option matters with the others as chosen (`Game.option_applies`)."""
    return game.option_applies(name, values)


def _optional(kind: mi.Type, inner: type[mi.Type]) -> bool:
    """``X | None`` for the msgspec type ``inner`` (e.g. ``mi.IntType``)."""
    if not isinstance(kind, mi.UnionType):
        return False
    types = kind.types
    return (
        len(types) == 2
        and any(isinstance(t, inner) for t in types)
        and any(isinstance(t, mi.NoneType) for t in types)
    )


def _optional_bool(kind: mi.Type) -> bool:
    """``bool | None``: yes, no, or the game's default for the other options (e.g. the mode's)."""
    return _optional(kind, mi.BoolType)


def _optional_int(kind: mi.Type) -> bool:
    """``int | None``: a whole number, or left empty for none (no round limit, no cap)."""
    return _optional(kind, mi.IntType)


def _no_yes(row_id: str, label: str, no: str, yes: str) -> FormRow:
    """A network table's yes/no row, "no" first and chosen."""
    return FormRow.choice(row_id, label, [(no, False), (yes, True)], False)


def app_network(screen: SpeedwayScreen) -> bool:
    return screen.speedway.network


LABEL_WIDTH = 34
"""Cells for a form row's label: the longest option name in words ("Bonus for leading the most
rounds") and a space; every row has the same, so every value starts in one column."""


class NewGameScreen(SpeedwayScreen):
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "start", "Start race"),
    ]

    def __init__(self) -> None:
        super().__init__()
        ids = registry.game_ids()
        self.game_id = ids[0] if ids else ""

    def body(self) -> Iterable[Widget]:
        network = self.speedway.network
        yield Static("New table" if network else "New local game", classes="screen-title")
        yield FormRows(self.form_rows(), label_width=LABEL_WIDTH, id="newgame-form", classes="form")
        yield Static("", id="newgame-error", classes="error")
        with Horizontal(classes="buttons"):
            yield Button("Start race (ctrl+s)", id="start", variant="primary")
            yield Button("Back", id="back")
        yield KeyFooter()

    @property
    def form(self) -> FormRows:
        return self.query_one("#newgame-form", FormRows)

    def form_rows(self) -> list[FormRow]:
        """Every row of the form for the game now picked."""
        network = self.speedway.network
        games = [(g.title, g.id) for g in registry.all_games()]
        if not games:
            return [heading("no-games", "Game: (no games installed)")]
        rows = [FormRow.choice("game", "Game", games, self.game_id)]
        game = registry.get(self.game_id)
        rows += self.option_rows(game)
        rows.append(heading("gap-seats"))
        rows.append(
            heading(
                "seats-heading",
                "Seats (in seat order: you, an open seat anyone may take, or a bot)"
                if network
                else "Seats (in seat order: you, a hot-seat human at this keyboard, or a bot)",
            )
        )
        rows += self.seat_rows(game)
        if network:
            rows.append(heading("gap-table"))
            rows.append(
                _no_yes("private", "Private table", "no: listed in the lobby",
                        "yes: join by invite code only")
            )  # fmt: skip
            rows.append(
                _no_yes("coaching", "Coaching at this table", "no", "yes: every player sees it")
            )
        return rows

    def on_form_rows_changed(self, event: FormRows.Changed) -> None:
        if event.row_id == "game" and isinstance(event.value, str) and event.value != self.game_id:
            self.game_id = event.value
            self.rebuild()
        elif event.row_id.startswith("opt-") and self.game_id:
            self._show_applicable(registry.get(self.game_id))

    def rebuild(self) -> None:
        """Show the options and seats of the game now picked (after the game changed)."""
        if self.game_id:
            self.form.set_rows(self.form_rows())

    def option_rows(self, game: Game) -> list[FormRow]:
        rows: list[FormRow] = []
        fields = option_fields(game)
        defaults = {name: default for name, _kind, default in fields}
        for name, kind, default in fields:
            label = game.option_label(name)  # the game's words ("Tradin' Paint")
            choices: list[tuple[str, Any]] | None = None
            if isinstance(kind, mi.BoolType):
                # A yes/no choice says its value in words (a compact checkbox shows it by colour).
                choices, default = [("yes", True), ("no", False)], bool(default)
            elif _optional_bool(kind):
                choices = [("default", None), ("yes", True), ("no", False)]
            elif isinstance(kind, mi.LiteralType | mi.StrType):
                values = (
                    kind.values if isinstance(kind, mi.LiteralType) else _str_choices(game, name)
                )
                choices = [(str(v).replace("_", " "), v) for v in values]
            if choices is not None:
                row = FormRow.choice(f"opt-{name}", label, choices, default)
            else:
                row = FormRow.number(
                    f"opt-{name}",
                    label,
                    "" if default is None else str(default),
                    placeholder="none" if _optional_int(kind) else "",
                )
            row.shown = _applies(game, name, defaults)
            rows.append(row)
        return rows

    def _show_applicable(self, game: Game) -> None:
        """Hide the options that change nothing with the others as now chosen."""
        form = self.form
        names = [name for name, _kind, _default in option_fields(game)]
        values = {
            name: form.value(f"opt-{name}")
            for name in names
            if form.row(f"opt-{name}").options is not None
        }
        for name in names:
            form.show(f"opt-{name}", _applies(game, name, values))
        _low, high = game.seat_range(values)  # the seats the mode allows (Go 500 up to 12)
        for i in range(game.max_seats):
            form.show(f"seat-{i}", i < high)

    def seat_rows(self, game: Game) -> list[FormRow]:
        network = app_network(self)
        choices = [("You", "me")]
        if network:  # over SSH, other humans join open seats from their own terminals
            choices.append(("Open seat (anyone may sit)", "open"))
        else:
            choices.append(("Hot-seat human", "hot"))
        choices += [(f"Bot: {bot_title(b)}", b) for b in game.bots]
        choices.append(("(no seat)", NO_SEAT))
        bots = list(game.bots)
        rows: list[FormRow] = []
        _low, high = game.seat_range(msgspec.to_builtins(game.default_config()))
        for i in range(game.max_seats):
            if i == 0:
                value = "me"
            elif i == 1 and network:
                value = "open"
            elif (i <= 2 and i - 1 < len(bots)) or i < game.min_seats:
                value = bots[(i - 1) % len(bots)] if bots else ("open" if network else "hot")
            else:
                value = NO_SEAT
            row = FormRow.choice(f"seat-{i}", f"Seat {i + 1}", choices, value)
            row.shown = i < high
            rows.append(row)
        return rows

    def read_options(self, game: Game) -> dict[str, Any]:
        out: dict[str, Any] = {}
        form = self.form
        for name, kind, _ in option_fields(game):
            row = form.row(f"opt-{name}")
            if row.options is not None:
                out[name] = row.value
                continue
            words = game.option_label(name)
            if not row.text.strip() and _optional_int(kind):
                out[name] = None  # left empty: none (no limit)
                continue
            try:
                out[name] = int(row.text)
            except ValueError:
                hint = " (or empty for none)" if _optional_int(kind) else ""
                raise ConfigError(f"{words} must be a whole number{hint}.") from None
        return out

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def action_start(self) -> None:
        app = self.speedway
        error = self.query_one("#newgame-error", Static)
        if not self.game_id:
            error.update("No games are installed yet.")
            return
        game = registry.get(self.game_id)
        form = self.form
        words = [
            str(row.value)
            for row in form.rows
            if row.id.startswith("seat-") and row.shown and row.value != NO_SEAT
        ]
        try:
            options = self.read_options(game)
            config = config_from_options(game, options)
            specs = parse_seats(game, words, app.identity, network=app.network)
            game.check_config(config, len(specs))
        except (ConfigError, ValueError) as err:
            error.update(str(err))
            return
        hot = [hot_identity(s.name) for s in specs if s.identity and s.identity != app.identity.id]
        spec = TableSpec(
            game=game.id,
            seats=specs,
            options=msgspec.to_builtins(options),
            private=bool(form.has_row("private") and form.value("private")),
            coaching=bool(form.has_row("coaching") and form.value("coaching")),
        )
        app.add_local(hot)
        app.pop_screen()
        app.run_worker(app.create_and_open(spec))

    def action_back(self) -> None:
        self.app.pop_screen()
