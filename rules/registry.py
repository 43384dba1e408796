"""The registry of game kinds: each game package registers one ``Rules`` instance."""

from __future__ import annotations

from rules.contract import Rules, UnknownMove, excerpt

_GAMES: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Add a game kind; registering the same kind twice replaces the old one."""
    _GAMES[rules.kind] = rules
    return rules


def get(kind: str) -> Rules:
    """Return the rules of a kind, or raise UnknownMove with the kinds on offer."""
    _load_builtin()
    try:
        return _GAMES[kind]
    except KeyError:
        names = ", ".join(sorted(_GAMES)) or "none yet"
        raise UnknownMove(f"There is no game called `{excerpt(kind)}`. Games: {names}.") from None


def kinds() -> list[str]:
    """Return every registered kind, sorted."""
    _load_builtin()
    return sorted(_GAMES)


_BUILTIN = ("institute", "argent", "academy", "quadrivium")
_loaded = False


def _load_builtin() -> None:
    """Import the shipped game packages once; each registers itself on import."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for name in _BUILTIN:
        try:
            importlib.import_module(f"rules.{name}")
        except ModuleNotFoundError as exc:
            # A game still being built is simply not offered yet.
            if exc.name != f"rules.{name}":
                raise
