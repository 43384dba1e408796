"""Every engine's copy_state gives an equal state that shares nothing with its input."""

from __future__ import annotations

import random

import pytest

from rules import registry
from rules.copies import shared_copy, tree_copy


def _parts(data):
    """Yield every dict and list inside data."""
    if isinstance(data, (dict, list)):
        yield data
        for item in data.values() if isinstance(data, dict) else data:
            yield from _parts(item)


def test_tree_copy_separates_what_was_shared_and_shared_copy_keeps_it():
    """A reload never shares; pickle and deepcopy keep sharing: each copy matches its model."""
    ctx = {"room": 3}
    data = {"a": {"ctx": ctx}, "b": {"ctx": ctx}}
    tree = tree_copy(data)
    kept = shared_copy(data)
    assert tree == kept == data
    assert tree["a"]["ctx"] is not tree["b"]["ctx"]
    assert kept["a"]["ctx"] is kept["b"]["ctx"] and kept["a"]["ctx"] is not ctx


@pytest.mark.parametrize("kind", ["institute", "academy", "quadrivium"])
def test_copy_state_is_equal_and_independent(kind: str):
    """Along a seeded game, the copy equals its input and owns every part of itself."""
    rules = registry.get(kind)
    rand = random.Random(5)
    state = rules.setup(rules.min_players, rules.default_options(), 5)
    for _ in range(60):
        if rules.is_over(state):
            break
        copy = rules.copy_state(state)
        assert copy == state
        assert not {id(p) for p in _parts(copy)} & {id(p) for p in _parts(state)}
        seat = rand.choice(rules.waiting_on(state))
        state, _ = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))
