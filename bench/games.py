"""Which games the bench knows: every registered kind, plus the unregistered toy game (rules/toy.py)."""

from __future__ import annotations

from rules import registry
from rules.contract import Rules, UnknownMove
from rules.toy import TOY


def unregistered_games() -> dict[str, Rules]:
    """Return the games that are not registered (the toy game Sigil Duel)."""
    return {TOY.kind: TOY}


def all_kinds() -> list[str]:
    """Return every registered kind, then the unregistered ones (the toy game)."""
    kinds = registry.kinds()
    return kinds + sorted(k for k in unregistered_games() if k not in kinds)


def find(kind: str) -> Rules:
    """Return the rules of a kind: registered first, else an unregistered game; UnknownMove if neither."""
    if kind in registry.kinds():
        return registry.get(kind)
    extra = unregistered_games()
    if kind in extra:
        return extra[kind]
    names = ", ".join(all_kinds()) or "none"
    raise UnknownMove(f"There is no game called `{kind}`. Games: {names}.")
