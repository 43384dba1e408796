"""Load and check the Argent content in ``data/argent/*.json``.

Every file is read once (``functools.cache``); the records come back as plain dicts and lists
that callers must treat as read-only (copy before storing in a game state). ``validate`` checks
every record against the vocabulary of ``rules/argent/VOCABULARY.md`` and raises one
``ArgentDataError`` listing every problem at once.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parents[2] / "data" / "argent"

Record = dict[str, Any]


class ArgentDataError(ValueError):
    """The shipped Argent data breaks the vocabulary; ``problems`` lists every fault found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in the Argent data:\n{lines}")


@cache
def _read(name: str) -> list[Record]:
    """Read one data file as a list of records."""
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as handle:
        return json.load(handle)


def rooms() -> list[Record]:
    """Return the 15 University rooms, both sides each."""
    return _read("rooms")


def layouts() -> list[Record]:
    """Return the first-game University layouts (2-5 players)."""
    return _read("layouts")


def voters() -> list[Record]:
    """Return the 18 Consortium voters."""
    return _read("voters")


def candidates() -> list[Record]:
    """Return the 12 candidates."""
    return _read("candidates")


def mages() -> list[Record]:
    """Return the mage kinds (five departments, neutral, the Archmage's Apprentice)."""
    return _read("mages")


def bell_tower() -> list[Record]:
    """Return the 5 Bell Tower offerings."""
    return _read("bell_tower")


def _by_id(records: list[Record]) -> dict[str, Record]:
    return {r["id"]: r for r in records}


@cache
def rooms_by_id() -> dict[str, Record]:
    """Return the rooms keyed by id."""
    return _by_id(rooms())


@cache
def voters_by_id() -> dict[str, Record]:
    """Return the voters keyed by id."""
    return _by_id(voters())


@cache
def candidates_by_id() -> dict[str, Record]:
    """Return the candidates keyed by id."""
    return _by_id(candidates())


@cache
def mages_by_id() -> dict[str, Record]:
    """Return the mage kinds keyed by id."""
    return _by_id(mages())


@cache
def bell_tower_by_id() -> dict[str, Record]:
    """Return the Bell Tower offerings keyed by id."""
    return _by_id(bell_tower())
