"""The lobby's words: table options as typed, spelled as the game spells them, and the seat order.

Pure functions over text and the table's seed (no store, no Discord): ``TableService`` opens and
starts tables with them, and the local table and the tests share them.
"""

from __future__ import annotations

import re
from dataclasses import replace

from rules import rng
from rules.contract import Rules
from service.replies import TableError
from store import SeatRecord

_OPTION = re.compile(r"(?P<name>[\w-]+)\s*=\s*(?P<value>\"[^\"]*\"|'[^']*'|\S+)")


def parse_options(text: str | None) -> dict[str, str]:
    """Read table options typed as ``name=value name=value`` (values may be quoted)."""
    if not text or not text.strip():
        return {}
    options: dict[str, str] = {}
    end = 0
    for match in _OPTION.finditer(text):
        if text[end : match.start()].strip():
            break
        name = match["name"].casefold()
        if name in options:
            raise TableError(f"Option {name} is given twice: give each option once.")
        options[name] = match["value"].strip("\"'")
        end = match.end()
    if text[end:].strip():
        raise TableError("Write options as name=value, separated by spaces (e.g. `hand=4`).")
    return options


def spelled(rules: Rules, chosen: dict[str, str]) -> dict[str, str]:
    """Return options with names and values spelled as the game spells them, whatever the case typed."""
    specs = {o.name.casefold(): o for o in rules.options}
    spelled: dict[str, str] = {}
    for name, value in chosen.items():
        spec = specs.get(name.casefold())
        if spec is None:
            spelled[name] = value
            continue
        value = next((c for c in spec.choices if c.casefold() == value.casefold()), value)
        spelled[spec.name] = value
    return spelled


def seat_order(seed: int, user_ids: list[int]) -> list[int]:
    """Return the seat order: the join order shuffled by the table's seed (reproducible)."""
    order = list(user_ids)
    position: dict = {}
    rng.seed_state(position, seed)
    rng.shuffle(position, order)
    return order


def renumbered(seats: dict[int, SeatRecord]) -> dict[int, SeatRecord]:
    """Give lobby seat records their seat numbers (the store has them; this saves a read)."""
    return {n: replace(s, seat=n) for n, s in seats.items()}
