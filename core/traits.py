"""What a game may declare beyond the core contract, each with its default, in one small base.

Owns `GameTraits` (the base every game class derives from) and `Progress`/`Measure` (what a race
chart plots). A screen or the replay viewer asks a game these questions instead of guessing from
event class names (STYLE #18):

* ``turn_started(event)`` — does this event begin a turn of the game (the "turn" of the replay
  viewer's turn count, ``g N`` and ``[``/``]``)? Default: no event does.
* ``landmark(event)`` — ``"race"`` for a race's (or lap's) end or start, ``"event"`` for a flag or
  another happening worth jumping to in a replay, ``None`` otherwise (the default).
* ``progress(state)`` — per measure ("miles", "laps", "money", …) one number per seat, for the
  race chart; a new ``race`` number (Cup Series) starts the chart afresh. Default: nothing to plot.
* ``option_label(name)`` — an option's name in words for forms ("Tradin' Paint"). Default: the
  field name with spaces.
* ``seat_range(options)`` — how many players the options as chosen seat (Go 500's modes).
  Default: ``min_seats`` to ``max_seats``.
* ``hidden_information`` — can a seat's view hide something another seat sees (hands, secret
  sponsors)? Screens cover the table between hot-seat players only then. Default: no.
* ``default_bot`` — the bot that plays a seat nobody named one for (stand-ins, ``sim``, hints).
  Default: the first of ``bots``.
* ``race_count(config)`` / ``lap_count(config)`` — how many races a game of these options runs
  (a Cup Series' schedule) and how many laps a race has (Champions' two, from its prize data);
  ``None`` when a game does not count them. Default: one race, laps not counted.
* ``config_words(config)`` — a table's options in a few words for the lobby ("Oval, 500 miles ·
  table chaos on"). Default: the options that differ from ``default_config()``, or "standard
  rules".
* ``option_choices(name)`` — the values a free-text option may take when they come from data
  (Go 500's Cup points tables), for forms. Default: None (any).
* ``option_applies(name, options)`` — does an option matter with the others as chosen (Go 500's
  ``hours`` only in Time Trials)? Default: yes.
* ``describe_action(action, names, view)`` — a legal action in words, for menus and analysis
  (``view``, if given, is the state it was offered in). Default: its tag and fields in words
  ("Save and roll: dice T1, T2").
* ``describe_decision(view, seat, names)`` — what the table waits for, as ``seat`` may know it.
  Default: None (the screen says whose turn it is).
* ``resolve(state, seat, action, rng)`` — ``step``'s events together with the state they fold
  to, so a `core.game.Table` folds each event once. Default: ``step``, then fold its events; a
  game whose ``step`` folds every event as it emits it (`core.resolution.Resolution`) returns
  the state it already holds.
* ``advance(state, seat, action, rng)`` — ``resolve`` for a seat its caller has already found
  asked (in ``pending(state)``, the game not over), with the seats ``pending`` asks in the state
  it reaches, so a `core.game.Table` asks who is asked once a step: a game whose resolution
  ends at the decision it stops for knows them already, and need not check its caller's answer
  again. Default: ``resolve``, then ``pending`` of the new state. Refusals are ``resolve``'s.

Must not: import anything of ours, or know any game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, cast

import msgspec

__all__ = ["GameTraits", "Landmark", "Measure", "Progress", "fields_words"]

Landmark = Literal["race", "event"]


class Measure(msgspec.Struct, frozen=True, kw_only=True):
    """One plotted quantity: its name (the chart's axis label), one value per seat, and an
    optional goal line (Go 500's race length). ``lower_is_better`` for places."""

    name: str
    values: tuple[int, ...]
    goal: int | None = None
    lower_is_better: bool = False


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """What a race chart plots for a state; ``race`` changes when a new race begins."""

    measures: tuple[Measure, ...] = ()
    race: int = 0


class _Rules(Protocol):
    """The contract methods the defaults of `GameTraits.resolve` and `advance` are built from."""

    def step(self, state: Any, seat: int, action: Any, rng: Any) -> list[Any]: ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def resolve(self, state: Any, seat: int, action: Any, rng: Any) -> tuple[list[Any], Any]: ...

    def pending(self, state: Any) -> tuple[int, ...]: ...


class GameTraits:
    """The declared traits with their defaults; each game class derives from this."""

    min_seats: int = 1
    max_seats: int = 1
    hidden_information: bool = False
    bots: Mapping[str, Callable[..., Any]] = {}

    @property
    def default_bot(self) -> str:
        """The bot for a seat nobody named one for: the first of ``bots``."""
        return next(iter(self.bots))

    def default_config(self) -> Any:
        raise NotImplementedError

    def race_count(self, config: Any) -> int | None:
        """Races in a game with these options."""
        return 1

    def lap_count(self, config: Any) -> int | None:
        """Laps in a race with these options (None: the game does not count laps)."""
        return None

    def config_words(self, config: Any) -> str:
        """The options that differ from the defaults, in words ("standard rules" if none).

        >>> class Opts(msgspec.Struct, frozen=True):
        ...     chaos: bool = False
        ...     length: int = 500
        >>> class G(GameTraits):
        ...     def default_config(self) -> Opts:
        ...         return Opts()
        >>> G().config_words(Opts(chaos=True))
        'chaos on'
        >>> G().config_words(Opts())
        'standard rules'
        """
        default = msgspec.to_builtins(self.default_config())
        given = msgspec.to_builtins(config)
        if not isinstance(default, dict) or not isinstance(given, dict):
            return "standard rules"
        missing = object()
        changed = {k: v for k, v in given.items() if default.get(k, missing) != v}
        if not changed:
            return "standard rules"
        return ", ".join(f"{k.replace('_', ' ')} {_word(v)}" for k, v in sorted(changed.items()))

    def option_choices(self, name: str) -> list[str] | None:
        """The values free-text option ``name`` may take (None: any)."""
        return None

    def option_applies(self, name: str, options: Mapping[str, Any]) -> bool:
        """Whether option ``name`` matters with ``options`` as chosen."""
        return True

    def describe_action(self, action: Any, names: Sequence[str], view: Any = None) -> str:
        """A legal action in words for a menu (``view``: the state it is offered in, when the
        words depend on it): by default its tag and fields.

        >>> class SaveAndRoll(msgspec.Struct, frozen=True, tag="save_and_roll"):
        ...     dice: list[str] = []
        >>> GameTraits().describe_action(SaveAndRoll(dice=["T1", "T2"]), [])
        'Save and roll: dice T1, T2'
        """
        return fields_words(action)

    def describe_decision(self, view: Any, seat: int | None, names: Sequence[str]) -> str | None:
        """What the table waits for, as ``seat`` may know it (None: nothing to add)."""
        return None

    def turn_started(self, event: Any) -> bool:
        """True if ``event`` begins a turn of the game."""
        return False

    def landmark(self, event: Any) -> Landmark | None:
        """ "race" / "event" for events a replay can jump to; None for the rest."""
        return None

    def progress(self, state: Any) -> Progress:
        """What the race chart plots now."""
        return Progress()

    def option_label(self, name: str) -> str:
        """Option ``name`` in words, for forms."""
        return name.replace("_", " ").capitalize()

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """(fewest, most) players with these options."""
        return (self.min_seats, self.max_seats)

    def resolve(self, state: Any, seat: int, action: Any, rng: Any) -> tuple[list[Any], Any]:
        """``step``'s events and the state they fold to (by default: step, then fold)."""
        rules = cast("_Rules", self)
        events = rules.step(state, seat, action, rng)
        for event in events:
            state = rules.evolve(state, event)
        return events, state

    def advance(
        self, state: Any, seat: int, action: Any, rng: Any
    ) -> tuple[list[Any], Any, tuple[int, ...]]:
        """``resolve`` for a seat found asked, and the seats asked after it (by default:
        resolve, then pending)."""
        rules = cast("_Rules", self)
        events, after = rules.resolve(state, seat, action, rng)
        return events, after, rules.pending(after)


def _word(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if value is None:
        return "default"
    return str(value).replace("_", " ")


def _tag_words(tag: str) -> str:
    """ "save_and_roll" / "SaveAndRoll" -> "Save and roll"."""
    out = ""
    for ch in tag.replace("_", " ").replace("-", " "):
        out += (" " + ch.lower()) if ch.isupper() and out and out[-1] != " " else ch
    return out.strip().capitalize()


def fields_words(action: Any) -> str:
    """An action's tag and fields in words, the default label of `GameTraits.describe_action`.

    >>> class ChooseCar(msgspec.Struct, frozen=True, tag="choose_car"):
    ...     car: int
    >>> fields_words(ChooseCar(car=3))
    'Choose car: car 3'
    """
    config = getattr(type(action), "__struct_config__", None)
    tag = getattr(config, "tag", None) if config is not None else None
    label = _tag_words(tag if isinstance(tag, str) else type(action).__name__)
    try:
        fields = msgspec.to_builtins(action)
    except (TypeError, msgspec.EncodeError):
        fields = {}
    if isinstance(fields, dict):
        parts = []
        for key, value in fields.items():
            if key == "type":
                continue
            if isinstance(value, list):
                shown = ", ".join(str(v) for v in value) or "none"
            else:
                shown = str(value)
            parts.append(f"{_tag_words(key).lower()} {shown}")
        if parts:
            label += ": " + "; ".join(parts)
    return label
