"""The labelled moves of recent versions, built once per version and seat.

The service names moves one at a time (the typed-move choices ask ``label`` for every legal move
of one state), and each ask used to build the seat's whole option list again. Here a state's
labelled moves are kept after the first build. A version is found by the state's identity and
accepted only when the state still reads as it did at the build, so a state changed in place (or
a new object at a reused address) is built afresh: what comes back is always what a rebuild would
give. Only a few recent versions are kept.

What is kept of the state is its ``marshal`` bytes, not a copy: equal bytes load as equal data, so
the test is as strict as comparing a copy (stricter: a key order or a number's type that differs
rebuilds), and one bytes object is cheaper to make than a copy's thousand dicts and lists, which
the collector then walked while they were kept (issue 28: in the load run the copies were ~5% of
the interpreter's time).
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import Any

from rules.argent.copying import full_copy
from rules.contract import Move

State = dict[str, Any]
Labelled = tuple[tuple[Move, str], ...]

VERSIONS = 16
"""How many recent states keep their labelled moves (a few tables' current versions)."""


class LabelMemo:
    """The labelled moves of the last few states asked about, per seat."""

    def __init__(self, build: Callable[[State, int], Labelled], size: int = VERSIONS) -> None:
        self._build = build
        self._size = size
        self._versions: dict[int, tuple[object, dict[int, Labelled]]] = {}

    def labelled(self, state: State, seat: int) -> Labelled:
        """Return the seat's labelled moves in this state, building them on the first ask."""
        entry = self._versions.get(id(state))
        if entry is None or entry[0] != _snapshot(state):
            built = self._build(state, seat)
            if not built:
                return built  # a seat with no move: nothing worth a snapshot of the state
            entry = (_snapshot(state), {seat: built})
            self._versions.pop(id(state), None)
            self._versions[id(state)] = entry
            for old in list(self._versions)[: -self._size]:
                self._versions.pop(old, None)
        seats = entry[1]
        found = seats.get(seat)
        if found is None:
            found = seats[seat] = self._build(state, seat)
        return found


def _snapshot(state: State) -> object:
    """Return what is kept to tell the state unchanged: its ``marshal`` bytes (format 2: no
    back-references, so sharing inside the state never changes them), or a full copy of a state
    marshal cannot write (a dict subclass, such as a draft)."""
    try:
        return marshal.dumps(state, 2)
    except ValueError:
        return full_copy(state)
