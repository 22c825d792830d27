"""Portable seeded chance: PCG32 (O'Neill's pcg32, XSH-RR 64/32), in pure Python.

Owns every random draw the rules make. The same seed and stream give the same numbers on every
Python version and operating system, because only 64-bit integer arithmetic is used. Rules code
asks for chance through the small `Chance` protocol (`below(n)`), so tests can script exact
dice and card orders through the very interface the generator offers (`ScriptedChance`).

It must not use the `random` module, the clock, or anything that differs between machines.

>>> rng = Pcg32(42, 54)
>>> [hex(rng.next_u32()) for _ in range(3)]
['0xa15c02b7', '0x7b47f409', '0xba1d3330']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

__all__ = [
    "RNG_NAME",
    "Chance",
    "Pcg32",
    "ScriptExhausted",
    "ScriptedChance",
    "fisher_yates_draws",
    "shuffled",
]

RNG_NAME = "pcg32-xsh-rr/1"
"""Name and version of the generator; recorded in every log header."""

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005

T = TypeVar("T")


class Chance(Protocol):
    """What rules code may ask of chance: a uniform integer in 0…n-1."""

    def below(self, n: int) -> int: ...


class Pcg32:
    """The PCG32 generator: 64-bit state, a stream selector, 32-bit outputs."""

    __slots__ = ("_inc", "_state")

    def __init__(self, seed: int, stream: int = 0) -> None:
        self._state = 0
        self._inc = ((stream << 1) | 1) & _MASK64
        self.next_u32()
        self._state = (self._state + (seed & _MASK64)) & _MASK64
        self.next_u32()

    @classmethod
    def from_state(cls, state: tuple[int, int]) -> Pcg32:
        """Rebuild a generator from `snapshot()`."""
        rng = cls.__new__(cls)
        rng._state, rng._inc = state
        return rng

    def snapshot(self) -> tuple[int, int]:
        """The whole generator state, to save and restore exactly."""
        return (self._state, self._inc)

    def restore(self, state: tuple[int, int]) -> None:
        """Return to a state taken by `snapshot()`."""
        self._state, self._inc = state

    def next_u32(self) -> int:
        old = self._state
        self._state = (old * _MULT + self._inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, n: int) -> int:
        """Unbiased uniform integer in 0…n-1, by rejection (PCG's bounded_rand).

        >>> sorted({Pcg32(7).below(3) for _ in range(5)}) <= [0, 1, 2]
        True
        """
        if not 0 < n <= 1 << 32:
            raise ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
        threshold = ((1 << 32) - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n

    def die(self, sides: int = 6) -> int:
        """A die's face index, 0…sides-1."""
        return self.below(sides)


class ScriptExhausted(Exception):
    """A scripted test asked for more chance than it scripted."""


class ScriptedChance:
    """Chance that answers from a fixed script of values, for rule tests.

    >>> c = ScriptedChance([5, 0])
    >>> c.below(6), c.below(6), c.remaining
    (5, 0, 0)
    """

    def __init__(self, values: Sequence[int]) -> None:
        self._values = list(values)
        self._pos = 0
        self.asked: list[int] = []

    @property
    def remaining(self) -> int:
        return len(self._values) - self._pos

    def below(self, n: int) -> int:
        if self._pos >= len(self._values):
            raise ScriptExhausted(f"script exhausted after {self._pos} draws (asked below({n}))")
        value = self._values[self._pos]
        if not 0 <= value < n:
            raise ValueError(f"scripted draw #{self._pos} is {value}, not below {n}")
        self._pos += 1
        self.asked.append(n)
        return value

    def snapshot(self) -> tuple[int, int]:
        return (self._pos, 0)

    def restore(self, snap: tuple[int, int]) -> None:
        self._pos = snap[0]
        del self.asked[snap[0] :]


def shuffled(chance: Chance, items: Sequence[T]) -> list[T]:
    """Fisher–Yates: for i = n-1 down to 1 swap items i and below(i+1). Index 0 is the top.

    >>> shuffled(ScriptedChance([0, 0]), ["a", "b", "c"])
    ['b', 'c', 'a']
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = chance.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def fisher_yates_draws(canonical: Sequence[T], wanted: Sequence[T]) -> list[int]:
    """The `below` answers that make `shuffled` turn `canonical` into `wanted`.

    Lets tests script a card order ("top: MOVE_2x3, SPIN_OUT, …") through real chance.

    >>> order = fisher_yates_draws("abc", "bca")
    >>> shuffled(ScriptedChance(order), list("abc"))
    ['b', 'c', 'a']
    """
    if sorted(map(repr, canonical)) != sorted(map(repr, wanted)):
        raise ValueError("wanted is not a permutation of canonical")
    work = list(canonical)
    draws: list[int] = []
    for i in range(len(work) - 1, 0, -1):
        j = work.index(wanted[i], 0, i + 1)
        draws.append(j)
        work[i], work[j] = work[j], work[i]
    return draws
