"""The Speedway Textual app: one per terminal (local) or per SSH session (net helper).

Owns `SpeedwayApp`: the hub and identity it was given, this identity's settings, the seats this
keyboard may play for (hot-seat identities), and routing to the first screen. Everything a screen
does to a table goes through the injected hub (`net.hub.Hub`); the app keeps no process-global
state and never assumes a local terminal (the SSH server passes its own ``driver_class``).

Must not: run a game loop of its own, draw chance, or touch another session's app.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import msgspec
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.driver import Driver
from textual.screen import Screen
from textual.widget import Widget

from core import registry
from core.game import Game
from net.hub import Hub, Identity, TableInfo, TableSpec
from net.ssh_driver import SSHDriver
from replays import ReplayInfo, list_replays
from tui.instance_caches import install as install_instance_caches
from tui.layout_once import install as install_layout_once
from tui.release import install as install_release
from tui.release import release, release_in_slices
from tui.seats import HOT_PREFIX
from tui.settings import Settings, load_settings, save_settings
from tui.strips import install as install_strip_fixes
from tui.stylesheet import share
from tui.theme import read_variables

__all__ = [
    "OpenLobby",
    "OpenReplay",
    "OpenTable",
    "SpeedwayApp",
    "StartTable",
]

STYLES = Path(__file__).parent / "styles"
install_strip_fixes()  # strips that die by reference counting (tui.strips)
install_release()  # cancelled workers that die by reference counting (tui.release)
install_instance_caches()  # no process-wide cache keeps a widget's lines (tui.instance_caches)
install_layout_once()  # a new screen is laid out once (tui.layout_once)


class StartTable(msgspec.Struct, frozen=True, kw_only=True):
    """Open the app at a new table (``speedway play GAME --seats ...``)."""

    spec: TableSpec
    hot: list[Identity] = []


class OpenTable(msgspec.Struct, frozen=True, kw_only=True):
    """Open the app at an existing table, watching from ``seat`` (None = spectator)."""

    table_id: str
    seat: int | None = None


class OpenReplay(msgspec.Struct, frozen=True, kw_only=True):
    path: str


class OpenLobby(msgspec.Struct, frozen=True, kw_only=True):
    pass


Start = StartTable | OpenTable | OpenReplay | OpenLobby


class SpeedwayApp(App[None]):
    """Home, lobby, tables, replays, rules and settings over one hub."""

    TITLE = "Speedway"
    CSS_PATH: ClassVar = [
        STYLES / "base.tcss",
        STYLES / "home.tcss",
        STYLES / "table.tcss",
        STYLES / "replay.tcss",
        STYLES / "go500.tcss",  # the Go 500 board, drawn by its table screen and the replay viewer
        # Every screen's CSS is the app's from the start: a screen bringing CSS of its own makes
        # Textual parse the whole sheet again in a fresh stylesheet (no shared parses) and restyle
        # every node of the app, the first time each session opens it (~25 ms of a watcher's
        # login on the server).
        STYLES / "cthulhu500.tcss",
        STYLES / "champions.tcss",
    ]
    BINDINGS: ClassVar = [Binding("ctrl+q", "quit", "Quit", priority=True)]
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        hub: Hub,
        identity: Identity,
        *,
        data_dir: Path | None = None,
        start: Start | None = None,
        driver_class: type[Driver] | None = None,
        bot_delay: float | None = None,
        animate: bool = True,
        network: bool = False,
        replays_dir: Path | None = None,
        owns_hub: bool = False,
        games: Mapping[str, Game] | None = None,
    ) -> None:
        self.hub = hub
        self.identity = identity
        self.data_dir = data_dir
        self.start = start
        self.network = network
        self.bot_delay_override = bot_delay
        self._replays_dir = replays_dir
        self.owns_hub = owns_hub
        self._games = dict(games) if games is not None else None
        self.settings: Settings = load_settings(data_dir, identity.id)
        # Identities this keyboard plays for: the user plus any hot-seat humans seated here.
        self.local_identities: dict[str, Identity] = {identity.id: identity}
        self._all_nodes: weakref.WeakSet[DOMNode] = weakref.WeakSet()  # every screen and widget
        super().__init__(driver_class=driver_class)
        share(self.stylesheet)  # one parse of each CSS source per process (tui.stylesheet)
        if not animate:
            self.animation_level = "none"

    # ------------------------------------------------------------------ screens

    def _own_frames(self) -> None:
        """A screen change is this session's own: stop showing another session's frames (or
        stop sending this one's) before it draws (`net.mirror`)."""
        if isinstance(self._driver, SSHDriver):
            self._driver.leave_mirror()

    def push_screen(self, *args: Any, **kwargs: Any) -> Any:
        self._own_frames()
        self._seen_screen(args[0] if args else kwargs.get("screen"))
        return super().push_screen(*args, **kwargs)

    def push_shared_screen(self, screen: Screen[Any], callback: Any = None) -> Any:
        """`push_screen` for a screen every session of this one's shared-frames group opens
        alike (its group was moved to a key of its own first): it goes on leading them."""
        self._seen_screen(screen)
        return super().push_screen(screen, callback)

    def switch_screen(self, *args: Any, **kwargs: Any) -> Any:
        self._own_frames()
        self._seen_screen(args[0] if args else kwargs.get("screen"))
        return super().switch_screen(*args, **kwargs)

    def _seen_screen(self, screen: object) -> None:
        if isinstance(screen, Screen):  # an app that ends takes its screens off its stack
            self._all_nodes.add(screen)  # and their widgets off them first: `release` still
            # finds them here (weakly held, so nothing is kept alive by it)

    def _register(self, parent: DOMNode, *widgets: Widget, **kwargs: Any) -> list[Widget]:
        registered = super()._register(parent, *widgets, **kwargs)
        self._all_nodes.update(registered)
        return registered

    def pop_screen(self, *args: Any, **kwargs: Any) -> Any:
        self._own_frames()
        return super().pop_screen(*args, **kwargs)

    def release(self) -> None:
        """After the app has ended (an SSH session is over): cut its reference cycles, and
        those of every screen it closed, so reference counting frees them at once instead of
        the next full collection (`tui.release`). Only then: a live app may still run a
        callback of a screen it closed, so a closed screen is not released while it runs.
        In slices when an event loop runs (a server's other sessions go on in between)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            release(self, *list(self._all_nodes))
        else:
            release_in_slices(self, *list(self._all_nodes))

    # ------------------------------------------------------------------ settings

    def get_css_variables(self) -> dict[str, str]:
        variables = super().get_css_variables()
        variables.update(read_variables(STYLES / "vars.tcss"))
        return variables

    @property
    def bot_delay(self) -> float:
        if self.bot_delay_override is not None:
            return self.bot_delay_override
        return self.settings.bot_delay

    @property
    def replays_dir(self) -> Path | None:
        if self._replays_dir is not None:
            return self._replays_dir
        if self.data_dir is None:
            return None
        return self.data_dir / "replays"

    def visible_replays(self) -> list[ReplayInfo]:
        """The replays this user may open: all of the folder locally; over the network only
        those `net.replay_access` lets this identity see (private tables' to their players)."""
        folder = self.replays_dir
        if folder is None or not folder.is_dir():
            return []
        if self.network:
            from net.replay_access import ReplayAccess

            return ReplayAccess(self.data_dir).visible(self.identity.id)
        return list_replays(folder)

    def apply_settings(self, settings: Settings, *, save: bool = True) -> None:
        self.settings = settings
        if settings.theme in self.available_themes:
            self.theme = settings.theme
        self.set_class(settings.colour_blind, "-colour-blind")
        if save:
            try:
                save_settings(self.data_dir, self.identity.id, settings)
            except OSError as err:
                self.notify(f"Could not save settings: {err.strerror}.", severity="warning")

    def add_local(self, identities: Iterable[Identity]) -> None:
        for who in identities:
            self.local_identities[who.id] = who

    def who_for(self, identity_id: str | None) -> Identity | None:
        """The identity this keyboard uses for a seat held by ``identity_id`` (or None)."""
        if identity_id is None:
            return None
        return self.local_identities.get(identity_id)

    def game(self, game_id: str) -> Game:
        """A game by id (tests may inject games the registry does not list)."""
        if self._games is not None and game_id in self._games:
            return self._games[game_id]
        return registry.get(game_id)

    # ------------------------------------------------------------------ routing

    async def on_unmount(self) -> None:
        if self.owns_hub:
            await self.hub.close("This Speedway window closed.")

    async def on_mount(self) -> None:
        if self.owns_hub:
            await self.hub.start()
        self.apply_settings(self.settings, save=False)
        from tui.screens.home import HomeScreen

        start = self.start
        # Home is under every other screen; when the session starts elsewhere it is covered
        # at once, so it is built only when first shown.
        self.push_screen(HomeScreen(deferred=isinstance(start, OpenTable | OpenLobby | OpenReplay)))
        if isinstance(start, StartTable):
            self.add_local(start.hot)
            self.run_worker(self.create_and_open(start.spec), exclusive=False)
        elif isinstance(start, OpenTable):
            self.open_table(start.table_id, start.seat)
        elif isinstance(start, OpenReplay):
            self.open_replay(Path(start.path), exit_on_back=True)  # esc: back to the shell
        elif isinstance(start, OpenLobby):
            self.open_lobby()
            self.back_to_my_table()

    async def create_and_open(self, spec: TableSpec) -> None:
        from core.game import IllegalAction

        if spec.bot_delay is None and not self.network:
            # Local tables: bots move at once and the screen paces them (speed keys act now).
            spec = msgspec.structs.replace(spec, bot_delay=0.0)

        try:
            table_id = await self.hub.create_table(spec, self.identity)
        except (ValueError, IllegalAction) as err:
            self.notify(str(err), title="Could not start the table", severity="error")
            return
        self.open_table(table_id, self.first_local_seat(spec))

    def first_local_seat(self, spec: TableSpec) -> int | None:
        for index, seat in enumerate(spec.seats):
            if seat.identity is not None and seat.identity in self.local_identities:
                return index
        return None

    def open_table(self, table_id: str, seat: int | None) -> None:
        from tui.games import table_screen_for

        infos = {t.id: t for t in self.hub.tables(self.identity)}
        info = infos.get(table_id)
        game_id = info.game if info is not None else None
        self.push_screen(table_screen_for(game_id)(table_id=table_id, seat=seat))

    def my_running_tables(self) -> list[tuple[TableInfo, int]]:
        """Running tables where this keyboard holds a seat: (table, the first such seat), the
        most recently played first (`TableInfo.played_at`), whatever order the hub lists them in."""
        mine: list[tuple[TableInfo, int]] = []
        for info in self.hub.tables(self.identity):
            if info.status != "running":
                continue
            seats = [
                i
                for i, seat in enumerate(info.seats)
                if seat.identity == self.identity.id
                or (not self.network and (seat.identity or "").startswith(HOT_PREFIX))
            ]
            if seats:
                mine.append((info, seats[0]))
        return sorted(mine, key=lambda table: table[0].played_at, reverse=True)

    def back_to_my_table(self) -> None:
        """Reconnected over SSH with a seat at a running table: back at the one played most
        recently (the lobby one key away)."""
        mine = self.my_running_tables()
        if mine:
            info, seat = mine[0]
            self.open_table(info.id, seat)

    def resume(self, table_id: str) -> None:
        """Sit down again at a kept local game: every hot-seat human of it plays here too."""
        for info, seat in self.my_running_tables():
            if info.id == table_id:
                self.add_local(
                    Identity(id=s.identity, nickname=s.name)
                    for s in info.seats
                    if s.identity is not None and s.identity.startswith(HOT_PREFIX)
                )
                self.open_table(table_id, seat)
                return

    def open_replay(self, path: Path, *, exit_on_back: bool = False) -> None:
        from tui.screens.replay import ReplayScreen

        self.push_screen(ReplayScreen(path, exit_on_back=exit_on_back))

    def open_lobby(self) -> None:
        from tui.screens.lobby import LobbyScreen

        self.push_screen(LobbyScreen())

    def show_rules(self, game_id: str | None = None) -> None:
        from tui.screens.rules import RulesScreen

        self.push_screen(RulesScreen(game_id))
