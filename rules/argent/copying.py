"""Copies of an Argent state: a full copy, and the draft ``apply`` resolves on (copy on write).

Most moves change the mages, an office or two, the agenda and the turn; the board, the voters and
the decks change in few. ``draft`` copies the parts that change often and shares the rest with the
state it came from; whatever writes a shared part first takes its own copy with ``own``. Shared
parts are never written in place, so the input of ``apply`` stays as it was, and the new state
shares only parts no move will write again without copying them first (``tests/test_argent_speed.py``
proves both along whole games, with the shared parts frozen).

Every copy is shaped as a JSON reload: no part shared within it, so the store's snapshots and
checksums are the same bytes as before.
"""

from __future__ import annotations

from typing import Any

from rules.copies import tree_copy

State = dict[str, Any]

SHARED = (
    "board",
    "voters",
    "decks",
    "tableau",
    "legendary",
    "voter_deck",
    "mage_powers",
    "setup_steps",
    "options",
    "outcome",
)
"""The parts a draft shares with its input until a move writes them (each changes in few moves; the
table's options never, the outcome only by being set whole)."""
_SHARED = frozenset(SHARED)


class Draft(dict):
    """A state being resolved: the parts named in ``shared`` still belong to the state it came from."""

    __slots__ = ("shared",)
    shared: set[str]


def full_copy(state: State) -> State:
    """Return a copy that shares nothing with ``state`` (as a JSON reload gives it)."""
    new = _hot_copy(state)
    new.update(tree_copy({key: state[key] for key in SHARED if key in state}))
    return new


def draft(state: State) -> Draft:
    """Return a copy to resolve a move on: often-changed parts copied, the rest shared until written."""
    new = Draft(_hot_copy(state))
    new.shared = _SHARED & state.keys()
    return new


def own(state: State, key: str) -> Any:
    """Return a part of the state to write in place, copying it first while a draft shares it."""
    if type(state) is Draft and key in state.shared:
        state.shared.discard(key)
        state[key] = tree_copy(state[key])
    return state[key]


def publish(state: State) -> State:
    """Return a resolved draft as a plain state (the parts it never wrote stay shared)."""
    return dict(state)


def _hot_copy(state: State) -> State:
    """Return the top level with every part outside ``SHARED`` copied (the shared ones as they are)."""
    new = dict(state)
    # A mage is a flat record of names and numbers: a dict copy is a full copy of it.
    new["mages"] = [mage.copy() for mage in state["mages"]]
    new["seats"] = [_office(office) for office in state["seats"]]
    new.update(tree_copy({key: value for key, value in state.items() if key not in _SKIPPED}))
    return new


def _office(office: dict[str, Any]) -> dict[str, Any]:
    """Copy an office: names and numbers, flat records (the starter) and lists of names or flat records."""
    new = office.copy()
    for key, value in office.items():
        if type(value) is list:
            new[key] = [item.copy() if type(item) is dict else item for item in value]
        elif type(value) is dict:
            new[key] = value.copy()
    return new


_SKIPPED = _SHARED | {"mages", "seats"}
