"""The contract every game implements, the errors a player reads, and the Table.

Owns: the `Game` protocol (DESIGN.md "Core contract"), the `IllegalAction` family, `ConfigError`,
`DataError`, `Seat`, `Result`, `Step` and `Table` — seats, the game, its seeded chance, the
accepted history and a `state_id` that rises with every accepted action. `Table` is synchronous and does no I/O: the
hub (net/) writes its steps to disk and broadcasts them; replays/ re-simulates them.

Must not: import anything of ours outside core, do I/O, read a clock or use `random`.

The contract, for game authors:

* State, actions, events and config are frozen ``msgspec.Struct`` types. Actions and events are
  each one tagged union per game (``tag=True`` or an explicit tag), so
  ``msgspec.msgpack.decode(data, type=game.event_type)`` works.
* ``new_state(config, n)`` is the empty table; ``setup`` returns the events that fold onto it to
  make the starting position (chance drawn from the ``rng`` passed in, and recorded in events).
* ``legal(state, seat)`` lists what ``seat`` may do now, empty when it is not asked.
  ``pending(state)`` lists the seats being asked, in the order they should act (bots and
  `Table.run_bots` act for the first).
* ``step`` validates (raising an ``IllegalAction`` subclass with a sentence a player can read,
  *before* drawing any chance) and resolves one action into events. Decisions with exactly one
  legal answer are taken automatically inside ``step``/``setup``.
* ``evolve(state, event)`` is a pure fold; it never draws chance.
* ``redact(event, seat)`` returns the event as ``seat`` may see it (``None`` = spectator), and
  ``view(state, seat)`` the state as that seat may see it. Folding redacted events from
  ``new_state`` must give exactly ``view(state, seat)`` — that is how every remote screen keeps
  its own state — so ``evolve`` must accept redacted events.
* ``result(state)`` is ``None`` while the game runs, then the final ranking.
* ``describe(event, names)`` says an event in words for the race log and ``replay --print``.
* ``bots`` maps a bot name to a function ``(view, seat, legal, chance) -> action``; a bot sees
  only its seat's view.
* Declared traits and optional hooks, each with its default in `core.traits.GameTraits` (every
  game class derives from it, so nothing here is found with ``getattr``): ``turn_started(event)``
  (what a "turn" is, for the replay viewer), ``landmark(event)`` (race ends and happenings a
  replay can jump to), ``progress(state)`` (what the race chart plots), ``option_label(name)``
  (an option in words), ``seat_range(options)`` (players the options seat),
  ``hidden_information``, ``default_bot``, ``race_count(config)`` / ``lap_count(config)``,
  ``config_words(config)`` (a table's options in a few words for the lobby),
  ``option_choices(name)`` / ``option_applies(name, options)`` (for forms),
  ``describe_action(action, names, view)`` (a menu label) and ``describe_decision(view, seat, names)``
  (what the table waits for), ``resolve(state, seat, action, rng)`` (``step``'s events with the
  state they fold to, which `Table` keeps instead of folding them again) and
  ``advance(state, seat, action, rng)`` (``resolve`` for a seat already found asked, with the
  seats asked next, which `Table` keeps instead of asking again). See `core.traits` for each
  default.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import msgspec

from core.rng import Chance, Pcg32
from core.traits import Landmark, Progress

__all__ = [
    "BotFn",
    "BreaksRule",
    "ConfigError",
    "DataError",
    "Game",
    "GameOver",
    "IllegalAction",
    "NotYourTurn",
    "Result",
    "Seat",
    "StaleAction",
    "Step",
    "Table",
    "bot_chance",
    "check_seats",
    "fold",
    "redacted",
]


# --------------------------------------------------------------------------- errors


class IllegalAction(Exception):
    """An action the rules refuse. ``str(err)`` is one sentence a player can read."""

    kind = "illegal"

    def __init__(self, reason: str, rule: str | None = None) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(reason if rule is None else f"{reason} (rule {rule})")


class NotYourTurn(IllegalAction):
    kind = "not_your_turn"


class StaleAction(IllegalAction):
    kind = "stale"


class GameOver(IllegalAction):
    """An action after the end of the game; the sentence is the same in every game."""

    kind = "game_over"

    def __init__(self, reason: str = "The race is over; no more moves can be made.") -> None:
        super().__init__(reason)


class BreaksRule(IllegalAction):
    kind = "breaks_rule"


class ConfigError(ValueError):
    """A table configuration the game refuses; the message is one readable sentence."""


class DataError(ValueError):
    """A game's component data file that does not decode or does not make sense (a die without
    its faces, a card with an unknown effect); the message is one readable sentence."""


# --------------------------------------------------------------------------- data


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """Who sits at a seat: a human (by identity) or a named bot."""

    name: str
    bot: str | None = None
    identity: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """The end of a game: seats best first, a score per seat, one line in words.

    The core knows no names, so ``summary`` names seats as "seat N" (1-based); `summary_for`
    puts the players' names in.
    """

    ranking: list[int]
    scores: list[int]
    summary: str

    @property
    def winner(self) -> int | None:
        return self.ranking[0] if self.ranking else None

    def summary_for(self, names: Sequence[str]) -> str:
        """``summary`` with each "seat N" replaced by that seat's name."""

        def name(match: re.Match[str]) -> str:
            index = int(match.group(1)) - 1
            return names[index] if 0 <= index < len(names) else match.group(0)

        return re.sub(r"\bseat (\d+)\b", name, self.summary)


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One accepted action and the events it caused. ``state_id`` is the id *after* it.

    The setup is step 0 with ``seat`` and ``action`` both ``None``.
    """

    state_id: int
    seat: int | None
    action: Any
    events: list[Any]


BotFn = Callable[[Any, int, Sequence[Any], Chance], Any]
"""A bot: ``(view, seat, legal actions, chance) -> one of the legal actions``."""


# --------------------------------------------------------------------------- contract


@runtime_checkable
class Game(Protocol):
    """What every game package registers (see the module docstring)."""

    id: str
    title: str
    rules_version: str
    min_seats: int
    max_seats: int
    config_type: type[Any]
    state_type: type[Any]
    action_type: Any
    event_type: Any
    bots: Mapping[str, BotFn]

    def default_config(self) -> Any: ...

    def check_config(self, config: Any, n_seats: int) -> None:
        """Raise ``ConfigError`` with a sentence if this config cannot seat ``n_seats``."""

    def new_state(self, config: Any, n_seats: int) -> Any: ...

    def setup(self, config: Any, n_seats: int, rng: Chance) -> list[Any]: ...

    def pending(self, state: Any) -> tuple[int, ...]: ...

    def legal(self, state: Any, seat: int) -> list[Any]: ...

    def step(self, state: Any, seat: int, action: Any, rng: Chance) -> list[Any]: ...

    def resolve(self, state: Any, seat: int, action: Any, rng: Chance) -> tuple[list[Any], Any]: ...

    def advance(
        self, state: Any, seat: int, action: Any, rng: Chance
    ) -> tuple[list[Any], Any, tuple[int, ...]]: ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def view(self, state: Any, seat: int | None) -> Any: ...

    def redact(self, event: Any, seat: int | None) -> Any | None: ...

    def result(self, state: Any) -> Result | None: ...

    def describe(self, event: Any, names: Sequence[str]) -> str | None: ...

    def turn_started(self, event: Any) -> bool: ...

    def landmark(self, event: Any) -> Landmark | None: ...

    def progress(self, state: Any) -> Progress: ...

    def option_label(self, name: str) -> str: ...

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]: ...

    hidden_information: bool

    @property
    def default_bot(self) -> str: ...

    def race_count(self, config: Any) -> int | None: ...

    def lap_count(self, config: Any) -> int | None: ...

    def config_words(self, config: Any) -> str: ...

    def option_choices(self, name: str) -> list[str] | None: ...

    def option_applies(self, name: str, options: Mapping[str, Any]) -> bool: ...

    def describe_action(self, action: Any, names: Sequence[str], view: Any = None) -> str: ...

    def describe_decision(
        self, view: Any, seat: int | None, names: Sequence[str]
    ) -> str | None: ...


def config_from_options(game: Game, options: Mapping[str, Any]) -> Any:
    """Build a game's config from loose options (CLI ``key=value``, lobby forms).

    Unknown keys and wrong types are refused with one sentence.
    """
    base = msgspec.to_builtins(game.default_config())
    for key, value in options.items():
        # Structured options (lists, tables) arrive from the CLI as JSON text.
        if isinstance(value, str) and isinstance(base.get(key), list | tuple | dict):
            try:
                value = msgspec.json.decode(value)
            except msgspec.DecodeError:
                raise ConfigError(f"Option {key} needs JSON like {base[key]!r}.") from None
        base[key] = value
    try:
        return msgspec.convert(base, game.config_type, strict=False)
    except msgspec.ValidationError as err:
        raise ConfigError(_option_refusal(game, str(err), options)) from None


def _or(words: Sequence[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _allowed(kind: Any) -> str | None:
    """The values a config field of type ``kind`` takes, in words (None: too rich to list)."""
    from msgspec import inspect as mi

    if isinstance(kind, mi.LiteralType):
        return _or([str(v) for v in kind.values])
    if isinstance(kind, mi.BoolType):
        return "true or false"
    if isinstance(kind, mi.IntType):
        low = kind.ge if kind.ge is not None else (kind.gt + 1 if kind.gt is not None else None)
        high = kind.le if kind.le is not None else (kind.lt - 1 if kind.lt is not None else None)
        if low is not None and high is not None:
            return f"a whole number from {low} to {high}"
        return "a whole number"
    if isinstance(kind, mi.UnionType):
        parts = [_allowed(t) for t in kind.types if not isinstance(t, mi.NoneType)]
        if all(parts) and len(parts) == 1:
            return f"{parts[0]} (or leave it out for the default)"
    if isinstance(kind, mi.StrType):
        return "a word"
    return None


def _option_refusal(game: Game, message: str, options: Mapping[str, Any]) -> str:
    """One sentence for a refused option, naming what the option takes.

    >>> from core.registry import get
    >>> _option_refusal(get("go500"), "Invalid enum value 7 - at `$.race_length`", {"race_length": "7"})
    'Go 500 option race_length takes 400, 500 or 600, not 7.'
    """
    from msgspec import inspect as mi

    info = mi.type_info(game.config_type)
    fields = {f.name: f.type for f in info.fields} if isinstance(info, mi.StructType) else {}
    unknown = re.search(r"unknown field `([^`]+)`", message)
    if unknown is not None:
        known = ", ".join(fields)
        return f"{game.title} has no option {unknown.group(1)}; its options are {known}."
    at = re.search(r"at `\$\.(\w+)", message)
    if at is None or at.group(1) not in fields:
        return f"Bad option for {game.title}: {message}."
    name = at.group(1)
    allowed = _allowed(fields[name])
    if allowed is None:
        return f"Bad option {name} for {game.title}: {message}."
    given = options.get(name, "")
    return f"{game.title} option {name} takes {allowed}, not {given}."


def fold(game: Game, state: Any, events: Iterable[Any]) -> Any:
    """``state`` with ``events`` folded onto it, in order (``game.evolve`` each)."""
    evolve = game.evolve
    for event in events:
        state = evolve(state, event)
    return state


def redacted(game: Game, events: Iterable[Any], seat: int | None) -> list[Any]:
    """``events`` as ``seat`` may see them (None: a spectator); events it may not see drop."""
    out = []
    for event in events:
        seen = game.redact(event, seat)
        if seen is not None:
            out.append(seen)
    return out


def check_seats(game: Game, n_seats: int) -> None:
    """Refuse a table of ``n_seats`` players the game never seats, with one sentence (the
    options may narrow it further: ``check_config``)."""
    if not game.min_seats <= n_seats <= game.max_seats:
        raise ConfigError(
            f"{game.title} seats {game.min_seats} to {game.max_seats} players, not {n_seats}."
        )


def bot_chance(seed: int, state_id: int, seat: int) -> Pcg32:
    """A bot's own chance for one decision: derived from the table seed, the state and seat.

    Bots never draw from the game's generator, so their thinking cannot change the dice; and the
    derivation needs no stored state, so a table restored from its log plays on identically.
    """
    return Pcg32(seed ^ 0xB07_5EED, stream=(state_id << 4) | (seat & 0xF))


# --------------------------------------------------------------------------- table


class Table:
    """A game in progress: seats, seeded chance, the accepted history and ``state_id``.

    ``setup_events`` (for branching from a replay) replaces ``game.setup``: the table starts
    from the state those events fold to, and draws fresh chance from ``seed`` from there on.
    """

    def __init__(
        self,
        game: Game,
        config: Any,
        seats: Sequence[Seat],
        seed: int,
        *,
        chance: Chance | None = None,
        setup_events: Sequence[Any] | None = None,
    ) -> None:
        check_seats(game, len(seats))
        game.check_config(config, len(seats))
        self.game = game
        self.config = config
        self.seats = list(seats)
        self.seed = seed
        self.chance: Chance = chance if chance is not None else Pcg32(seed)
        self.state = game.new_state(config, len(seats))
        # A branched table starts from another game's past: its recorded events are the setup.
        if setup_events is None:
            events = game.setup(config, len(seats), self.chance)
        else:
            events = list(setup_events)
        self.state = fold(game, self.state, events)
        self.state_id = 0
        self.history: list[Step] = [Step(state_id=0, seat=None, action=None, events=events)]
        # Who `game.pending` asks in ``_asked_in`` (the state it was asked of): `advance` says
        # who is asked next with every step, so a step asks the game once. Kept by identity, so
        # a state set from outside (tests, tools) is asked afresh.
        self._asked_in: Any = None
        self._asked: tuple[int, ...] = ()

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def result(self) -> Result | None:
        return self.game.result(self.state)

    def pending(self) -> tuple[int, ...]:
        """Seats that must answer now (empty once the game is over)."""
        if self.game.result(self.state) is not None:
            return ()
        return self._pending()

    def _pending(self) -> tuple[int, ...]:
        """``game.pending(state)``, asked once per state (see ``_asked``)."""
        state = self.state
        if self._asked_in is not state:
            self._asked = self.game.pending(state)
            self._asked_in = state
        return self._asked

    def legal(self, seat: int) -> list[Any]:
        if seat not in self.pending():
            return []
        return self.game.legal(self.state, seat)

    def view(self, seat: int | None) -> Any:
        return self.game.view(self.state, seat)

    def submit(self, seat: int, action: Any, state_id: int | None = None) -> Step:
        """Validate and apply one action; return the accepted step or raise ``IllegalAction``.

        ``state_id`` is the id the action was built on; an older one is refused ("the table
        moved on"). Chance drawn by a refused action is rolled back.
        """
        if self.game.result(self.state) is not None:
            raise GameOver()
        if state_id is not None and state_id != self.state_id:
            raise StaleAction("The table moved on before your move arrived; look again and retry.")
        if not 0 <= seat < len(self.seats):
            raise NotYourTurn(f"There is no seat {seat + 1} at this table.")
        if seat not in self._pending():
            raise NotYourTurn(f"It is not {self.seats[seat].name}'s turn to act.")
        snap = self._chance_snapshot()
        try:
            events, state, asked = self.game.advance(self.state, seat, action, self.chance)
        except IllegalAction:
            self._chance_restore(snap)
            raise
        self.state = self._asked_in = state
        self._asked = asked
        self.state_id += 1
        step = Step(state_id=self.state_id, seat=seat, action=action, events=events)
        self.history.append(step)
        return step

    def bot_action(self, seat: int) -> Any:
        """What this seat's bot (or, for an away human, ``fallback`` bot) would play now."""
        bot_name = self.seats[seat].bot
        return self.suggest(seat, bot_name)

    def suggest(self, seat: int, bot_name: str | None) -> Any:
        """Ask the named bot (default: the game's ``default_bot``) for ``seat``'s move now."""
        legal = self.legal(seat)
        if not legal:
            raise NotYourTurn(f"It is not {self.seats[seat].name}'s turn to act.")
        name = bot_name if bot_name is not None else self.game.default_bot
        bot = self.game.bots.get(name)
        if bot is None:
            raise ConfigError(f"{self.game.title} has no bot called {name!r}.")
        chance = bot_chance(self.seed, self.state_id, seat)
        return bot(self.game.view(self.state, seat), seat, legal, chance)

    def run_bots(self, limit: int = 1_000_000) -> None:
        """Let bots act while only bots are asked (used by `sim`, tests and benchmarks)."""
        for _ in range(limit):
            pending = self.pending()
            if not pending or not all(self.seats[s].is_bot for s in pending):
                return
            seat = pending[0]
            self.submit(seat, self.bot_action(seat), self.state_id)
        raise RuntimeError("bots did not finish within the step limit")

    def _chance_snapshot(self) -> Any:
        snapshot = getattr(self.chance, "snapshot", None)
        return snapshot() if snapshot is not None else None

    def _chance_restore(self, snap: Any) -> None:
        restore = getattr(self.chance, "restore", None)
        if snap is not None and restore is not None:
            restore(snap)
