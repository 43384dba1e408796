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


def draft(state: State, answering: bool = False) -> Draft:
    """Return a copy to resolve a move on: often-changed parts copied, the rest shared until written.

    ``answering``: the move answers the question at the front of the agenda, which the engine takes
    off first (``engine.resolve_option``). Its options, most of the agenda, are then not copied: the
    draft's question holds the input's list, never written, and is gone before the move is resolved.
    """
    if not answering:
        new = Draft(_hot_copy(state))
    else:
        agenda = state["agenda"]
        new = Draft(_hot_copy({**state, "agenda": agenda[1:]}))
        new["agenda"].insert(0, _question(agenda[0]))
    new.shared = _SHARED & state.keys()
    return new


def separate(part: Any) -> Any:
    """Return a copy of a part the draft may share with its input (an answered option), to keep."""
    return tree_copy(part)


def _question(task: dict[str, Any]) -> dict[str, Any]:
    """Copy a question without its options (the list stays the input's, to be read only)."""
    copied = tree_copy({key: value for key, value in task.items() if key != "options"})
    return {key: task[key] if key == "options" else copied[key] for key in task}


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
    # The numbers and names at the top came with ``dict(state)``; only the parts holding lists or
    # records are copied (any key not known to hold a number or a name is copied whole).
    new.update(tree_copy({key: state[key] for key in state.keys() - _FLAT}))
    return new


def _office(office: dict[str, Any]) -> dict[str, Any]:
    """Copy an office: its numbers and names, the starter, and its lists of flat records or names."""
    new = office.copy()
    try:
        starter = office["starter"]
        new["starter"] = None if starter is None else starter.copy()
        for key in _OFFICE_RECORDS:
            new[key] = [record.copy() for record in office[key]]
        for key in _OFFICE_NAMES:
            new[key] = office[key][:]
    except KeyError:
        return _any_office(office)
    for key in office.keys() - _OFFICE_KNOWN:
        new[key] = _part(office[key])
    return new


def _any_office(office: dict[str, Any]) -> dict[str, Any]:
    """Copy an office of any shape (one that lacks a part every office is dealt)."""
    return {key: _part(value) for key, value in office.items()}


def _part(value: Any) -> Any:
    """Copy one part of an office: names and numbers as they are, lists and records copied whole."""
    return tree_copy(value) if type(value) in (list, dict) else value


_SKIPPED = _SHARED | {"mages", "seats"}
_SCALARS = frozenset(
    (
        "kind", "players", "rng", "first", "ip_clock", "round", "rounds", "fid", "next_first", "over",
        "phase", "queue_done", "last_cost",
    )
)
"""Top-level keys that hold a number, a name, a flag or None (``setup`` and the engine never put a
list or record there); ``dict(state)`` copies them."""
_FLAT = _SKIPPED | _SCALARS

_OFFICE_RECORDS = ("spells", "vaults", "discard")
"""An office's lists of flat records (a spell, a vault card, a discarded card: names and numbers)."""
_OFFICE_NAMES = ("supporters", "bell")
"""An office's lists of names (supporter cards, bell tokens)."""
_OFFICE_KNOWN = frozenset(
    (
        "seat", "candidate", "department", "gold", "mana", "int", "wis", "ip", "ip_time", "merit_bonus",
        "merit_spent", "white_ash", "left", "leaving", "leave_choice", "starter",
        *_OFFICE_RECORDS,
        *_OFFICE_NAMES,
    )
)
"""The office keys copied above; a number, name or flag is copied with the office itself."""
