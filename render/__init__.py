"""Pillow drawings of views (never of raw state): the board for the thread, private sheets.

Each game registers its drawing functions here. A game without a drawing yet gets no image:
the service then posts the view as text (``Rules.view_text``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Drawing = Callable[[dict[str, Any]], bytes]

_BOARDS: dict[str, Drawing] = {}
_PRIVATE: dict[str, Drawing] = {}
_loaded = False


def register(kind: str, board: Drawing | None = None, private: Drawing | None = None) -> None:
    """Register the board drawing (public view) and the private sheet (a seat's view) of a kind."""
    if board is not None:
        _BOARDS[kind] = board
    if private is not None:
        _PRIVATE[kind] = private


def board(kind: str, view: dict[str, Any]) -> bytes | None:
    """Return the PNG of a kind's board drawn from a view, or None when it has no drawing."""
    _load_builtin()
    draw = _BOARDS.get(kind)
    return draw(view) if draw else None


def private(kind: str, view: dict[str, Any]) -> bytes | None:
    """Return the PNG of a seat's private sheet drawn from its view, or None."""
    _load_builtin()
    draw = _PRIVATE.get(kind)
    return draw(view) if draw else None


def drawings(kind: str) -> tuple[Drawing | None, Drawing | None]:
    """Return the registered (board, private) drawings of a kind, e.g. to put them back later."""
    _load_builtin()
    return _BOARDS.get(kind), _PRIVATE.get(kind)


_BUILTIN = ("institute", "argent", "quadrivium")


def _load_builtin() -> None:
    """Import the shipped drawings once; each registers itself on import."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for name in _BUILTIN:
        try:
            importlib.import_module(f"render.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"render.{name}":
                raise
