"""The seeded generator whose position lives in the game state.

SplitMix64: tiny, fast, and its whole position is one integer, so it round-trips through
JSON with the rest of the state. Games never use the global ``random`` module.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
KEY = "rng"
"""Where the generator's position lives in every game state."""


def seed_state(state: dict[str, Any], seed: int) -> None:
    """Store a fresh generator position in the state."""
    state[KEY] = seed & _MASK


def _next(state: dict[str, Any]) -> int:
    pos = (state[KEY] + 0x9E3779B97F4A7C15) & _MASK
    state[KEY] = pos
    z = pos
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def randbelow(state: dict[str, Any], n: int) -> int:
    """Return a uniform integer in [0, n) and advance the generator."""
    if n <= 0:
        raise ValueError("randbelow needs a positive bound")
    # Rejection sampling keeps the draw unbiased for every n.
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x = _next(state)
        if x < limit:
            return x % n


def roll(state: dict[str, Any], sides: int = 6) -> int:
    """Roll one die with the given number of sides (1..sides)."""
    return randbelow(state, sides) + 1


def choice(state: dict[str, Any], items: list[T]) -> T:
    """Return one item at random."""
    return items[randbelow(state, len(items))]


def shuffle(state: dict[str, Any], items: list[T]) -> None:
    """Shuffle a list in place (Fisher-Yates)."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(state, i + 1)
        items[i], items[j] = items[j], items[i]
