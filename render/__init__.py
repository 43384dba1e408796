"""Pillow drawings of views (never of raw state): the board for the thread, private sheets.

Each game registers its drawing functions here. A game without a drawing yet gets no image:
the service then posts the view as text (``Rules.view_text``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

Drawing = Callable[[dict[str, Any]], bytes]

_BOARDS: dict[str, Drawing] = {}
_PRIVATE: dict[str, Drawing] = {}
_SHEETS: dict[tuple[str, str], Drawing] = {}
_SHIPPED: dict[tuple[str, str], Drawing] = {}
"""The drawings the shipped modules registered, by (what, kind): what a fresh process draws with."""
_loaded = False
_generation = 0


def register(
    kind: str,
    board: Drawing | None = None,
    private: Drawing | None = None,
    sheets: dict[str, Drawing] | None = None,
) -> None:
    """Register the board drawing (public view), the private sheet (a seat's view) and named public sheets."""
    global _generation
    _generation += 1  # drawings cached before this one (``generation``) are of the old functions
    if board is not None:
        _BOARDS[kind] = board
    if private is not None:
        _PRIVATE[kind] = private
    for name, draw in (sheets or {}).items():
        _SHEETS[kind, name] = draw


@dataclass(frozen=True)
class Caption:
    """What the table adds to a board drawing: never a secret, all of it public already.

    ``names`` are the players' display names by seat; ``last`` the public event texts of the
    move just played (players already named); ``before`` the public view before that move, so a
    drawing can mark what changed. A status board has no last move (``last`` empty, ``before`` None).
    """

    names: dict[int, str] = field(default_factory=dict)
    last: tuple[str, ...] = ()
    before: dict[str, Any] | None = None


def board(kind: str, view: dict[str, Any], caption: Caption | None = None) -> bytes | None:
    """Return the PNG of a kind's board drawn from a view, or None when it has no drawing.

    A drawing that takes a ``caption`` keyword gets one (names, the last move, the view before it).
    """
    _load_builtin()
    draw = _BOARDS.get(kind)
    if draw is None:
        return None
    if caption is not None and _takes_caption(draw):
        return draw(view, caption=caption)  # type: ignore[call-arg]
    return draw(view)


def latest(last: tuple[str, ...], fits: Callable[[str], bool]) -> str:
    """Return the last move's events to show in a band: the latest that fit, earlier ones elided.

    A long move (a reveal, then a whole phase) ends with what matters now; when the first events do
    not fit, the text starts with an ellipsis. When not even the last event fits, it is returned
    whole for the caller to clip.
    """
    shown: list[str] = []
    for text in reversed(last):
        candidate = " ".join([text, *shown])
        if shown and not fits("… " + candidate):
            break
        shown.insert(0, text)
    text = " ".join(shown)
    return text if len(shown) == len(last) else "… " + text


@cache
def _takes_caption(draw: Drawing) -> bool:
    """Whether a drawing accepts the table's caption (test stand-ins and older drawings do not)."""
    return "caption" in inspect.signature(draw).parameters


def private(kind: str, view: dict[str, Any]) -> bytes | None:
    """Return the PNG of a seat's private sheet drawn from its view, or None."""
    _load_builtin()
    draw = _PRIVATE.get(kind)
    return draw(view) if draw else None


def sheet(kind: str, name: str, view: dict[str, Any]) -> bytes | None:
    """Return the PNG of a kind's named public sheet (Quadrivium's covenant) drawn from a view, or None."""
    _load_builtin()
    draw = _SHEETS.get((kind, name))
    return draw(view) if draw else None


def draw(what: str, kind: str, view: dict[str, Any], caption: Caption | None = None) -> bytes | None:
    """Return the PNG of ``what`` (``"board"``, ``"private"`` or a public sheet's name), or None."""
    if what == "board":
        return board(kind, view, caption)
    if what == "private":
        return private(kind, view)
    return sheet(kind, what, view)


def shipped(what: str, kind: str) -> bool:
    """Whether ``draw(what, kind, ...)`` runs a shipped drawing, as a fresh process importing render would.

    A stand-in registered or patched in (tests count and replace drawings) is drawn only here: a
    drawing process (``render.worker``) would not know it.
    """
    _load_builtin()
    entry = what if what in ("board", "private") else "sheet"
    if any(globals()[name] is not _ENTRIES[name] for name in ("draw", entry)):
        return False
    if what == "board":
        chosen = _BOARDS.get(kind)
    elif what == "private":
        chosen = _PRIVATE.get(kind)
    else:
        chosen = _SHEETS.get((kind, what))
    return chosen is not None and _SHIPPED.get((what, kind)) is chosen


def has_board(kind: str) -> bool:
    """Whether a kind has a board drawing (without drawing anything)."""
    _load_builtin()
    return kind in _BOARDS


def has_private(kind: str) -> bool:
    """Whether a kind has a private sheet drawing."""
    _load_builtin()
    return kind in _PRIVATE


def has_sheet(kind: str, name: str) -> bool:
    """Whether a kind registered a public sheet under that name."""
    _load_builtin()
    return (kind, name) in _SHEETS


def generation() -> int:
    """Return how many times drawings were registered: a cached drawing keys on it."""
    _load_builtin()
    return _generation


def drawings(kind: str) -> tuple[Drawing | None, Drawing | None]:
    """Return the registered (board, private) drawings of a kind, e.g. to put them back later."""
    _load_builtin()
    return _BOARDS.get(kind), _PRIVATE.get(kind)


_BUILTIN = ("institute", "argent", "quadrivium", "academy")
_ENTRIES = {"draw": draw, "board": board, "private": private, "sheet": sheet}
"""render's own entry points: one patched in by a test makes every drawing a stand-in's."""


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
    _SHIPPED.update({("board", kind): drawn for kind, drawn in _BOARDS.items()})
    _SHIPPED.update({("private", kind): drawn for kind, drawn in _PRIVATE.items()})
    _SHIPPED.update({(name, kind): drawn for (kind, name), drawn in _SHEETS.items()})
