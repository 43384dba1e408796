"""The registry of game kinds: each game package registers one ``Rules`` instance."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.contract import Move, Rules, State, UnknownMove, excerpt

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


def replay(
    kind: str, players: int, options: dict[str, str], seed: int, moves: Iterable[tuple[int, Any]]
) -> State:
    """Replay a game from its seed through its logged moves, each ``(seat, move JSON)``.

    ``moves`` is the whole log from version 1: rows that take moves back (``UNDO``) and the moves
    they took back are skipped, and options that are not the game's own (a table's clock) are
    left out of ``setup``.
    """
    rules = get(kind)
    known = {option.name for option in rules.options}
    state = rules.setup(players, {k: v for k, v in options.items() if k in known}, seed)
    for seat, move in in_force(list(moves)):
        state, _ = rules.apply(state, seat, Move.from_json(move))
    return state


UNDO = "~undo"
"""The action of a move-log row that takes moves back (``args.versions``); never a game's action."""


def in_force(moves: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """Return the logged moves still in force (the log runs from version 1, one row per version)."""
    undone: set[int] = set()
    for _, move in moves:
        if move.get("action") == UNDO:
            undone.update(int(v) for v in (move.get("args") or {}).get("versions", []))
    return [
        (seat, move)
        for version, (seat, move) in enumerate(moves, start=1)
        if move.get("action") != UNDO and version not in undone
    ]
