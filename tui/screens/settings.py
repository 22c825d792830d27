"""Settings: theme, animation speed and the colour-blind-safe palette, saved per identity.

Owns the settings form; saving goes through `SpeedwayApp.apply_settings`. Must not touch tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import msgspec
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Label, Select, Static

from tui.screens.base import SpeedwayScreen
from tui.settings import ANIMATION_DELAYS, THEMES
from tui.widgets.keys import KeyFooter


class SettingsScreen(SpeedwayScreen):
    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 20)
    BINDINGS: ClassVar = [Binding("escape", "back", "Back")]

    def body(self) -> Iterable[Widget]:
        s = self.speedway.settings
        yield Static("Settings", classes="screen-title")
        with VerticalScroll(id="settings-form", classes="form"):
            yield Label("Theme")
            yield Select([(t, t) for t in THEMES], value=s.theme, allow_blank=False, id="theme")
            yield Label("Animation speed (bots' turns and dice)")
            yield Select(
                [
                    (f"{k} ({v:g} s per move)" if v else "instant", k)
                    for k, v in ANIMATION_DELAYS.items()
                ],
                value=s.animation,
                allow_blank=False,
                id="animation",
            )
            yield Checkbox(
                "Colour-blind-safe palette (blue/orange; symbols and letters always shown)",
                s.colour_blind,
                id="colour-blind",
            )
            yield Checkbox(
                "Coaching at local tables (Go 500: stop now vs roll on; Cthulhu: chance to pass)",
                s.coaching,
                id="coaching",
            )
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Back", id="back")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.save()
        self.app.pop_screen()

    def save(self) -> None:
        app = self.speedway
        theme = self.query_one("#theme", Select).value
        animation = self.query_one("#animation", Select).value
        settings = msgspec.structs.replace(
            app.settings,
            theme=str(theme),
            animation=animation,
            colour_blind=self.query_one("#colour-blind", Checkbox).value,
            coaching=self.query_one("#coaching", Checkbox).value,
        )
        app.apply_settings(settings)
        app.notify("Settings saved.")

    def action_back(self) -> None:
        self.app.pop_screen()
