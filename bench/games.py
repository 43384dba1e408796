"""Which games the bench knows: every registered kind, plus the test game when it is importable."""

from __future__ import annotations

from rules import registry
from rules.contract import Rules, UnknownMove


def test_games() -> dict[str, Rules]:
    """Return the games that live only under tests/ (the toy game), when they can be imported."""
    try:
        from tests.toygame import TOY
    except ImportError:  # a checkout or image without tests/
        return {}
    return {TOY.kind: TOY}


def all_kinds() -> list[str]:
    """Return every registered kind, then the test games not registered under the same name."""
    kinds = registry.kinds()
    return kinds + sorted(k for k in test_games() if k not in kinds)


def find(kind: str) -> Rules:
    """Return the rules of a kind: registered first, else a test game; UnknownMove if neither."""
    if kind in registry.kinds():
        return registry.get(kind)
    extra = test_games()
    if kind in extra:
        return extra[kind]
    names = ", ".join(all_kinds()) or "none"
    raise UnknownMove(f"There is no game called `{kind}`. Games: {names}.")
