"""The engine's window on the card data (``rules.argent.cards``): look-ups by id, cached.

The data records are shared and must never be mutated; the engine copies what it stores.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.argent import cards

Record = dict[str, Any]


def _list(name: str) -> list[Record]:
    """Return a data list, or an empty one while that file has not been written yet."""
    getter = getattr(cards, name, None)
    if getter is None:
        return []
    try:
        return getter()
    except FileNotFoundError:
        return []


def _index(name: str) -> dict[str, Record]:
    return {r["id"]: r for r in _list(name)}


@cache
def _rooms() -> dict[str, Record]:
    return _index("rooms")


def room_ids() -> list[str]:
    """Return every room id."""
    return [r["id"] for r in _list("rooms")]


def room(room_id: str) -> Record:
    """Return a room record."""
    return _rooms()[room_id]


@cache
def room_side(room_id: str, side: str) -> Record:
    """Return one side of a room."""
    return _rooms()[room_id]["sides"][side]


def room_name(room_id: str) -> str:
    """Return a room's printed name."""
    return _rooms()[room_id]["name"]


def layouts() -> list[Record]:
    """Return the prepared University layouts."""
    return cards.layouts()


@cache
def _candidates() -> dict[str, Record]:
    return _index("candidates")


def candidate(cid: str) -> Record:
    """Return a candidate record."""
    return _candidates()[cid]


def candidate_name(cid: str) -> str:
    """Return a candidate's name."""
    return _candidates()[cid]["name"]


def candidate_sheets() -> list[dict[str, str]]:
    """Return the double-sided candidate sheets as {"A": id, "B": id}, in sheet order."""
    sheets: dict[int, dict[str, str]] = {}
    for c in _list("candidates"):
        sheets.setdefault(c["sheet"], {})[c["side"]] = c["id"]
    return [sheets[k] for k in sorted(sheets)]


def voters() -> list[Record]:
    """Return every Consortium voter record."""
    return _list("voters")


@cache
def _voters() -> dict[str, Record]:
    return _index("voters")


def voter(vid: str) -> Record:
    """Return a voter record."""
    return _voters()[vid]


def spell_books() -> list[Record]:
    """Return every spell book (legendary ones included)."""
    return _list("spells")


@cache
def _books() -> dict[str, Record]:
    return _index("spells")


def book(book_id: str) -> Record:
    """Return a spell book record."""
    return _books()[book_id]


@cache
def _starters() -> dict[str, Record]:
    return _index("starters")


def starter(sid: str) -> Record:
    """Return a starter spell record."""
    return _starters()[sid]


def vault_cards() -> list[Record]:
    """Return every distinct vault card."""
    return _list("vaults")


@cache
def _vaults() -> dict[str, Record]:
    return _index("vaults")


def vault(vid: str) -> Record:
    """Return a vault card record."""
    return _vaults()[vid]


def supporter_cards() -> list[Record]:
    """Return every supporter."""
    return _list("supporters")


@cache
def _supporters() -> dict[str, Record]:
    return _index("supporters")


def supporter(sid: str) -> Record:
    """Return a supporter record."""
    return _supporters()[sid]


def bell_tower_cards() -> list[Record]:
    """Return every Bell Tower offering."""
    return _list("bell_tower")


@cache
def _bells() -> dict[str, Record]:
    return _index("bell_tower")


def bell(bid: str) -> Record:
    """Return a Bell Tower offering."""
    return _bells()[bid]


@cache
def _mages() -> dict[str, Record]:
    return _index("mages")


def mage_power(mage_type: str, side: str) -> Record | None:
    """Return a mage type's power on a side (None when that side has none)."""
    rec = _mages().get(mage_type)
    if not rec:
        return None
    return rec["powers"].get(side)


def card_name(kind: str, cid: str) -> str:
    """Return the name of any card by kind (spell, vault, supporter, bell, voter, starter)."""
    table = {
        "spell": _books,
        "vault": _vaults,
        "supporter": _supporters,
        "bell": _bells,
        "voter": _voters,
        "starter": _starters,
    }[kind]()
    return table[cid]["name"]
