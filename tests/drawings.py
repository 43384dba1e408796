"""Test helper: draw a game's views as their JSON, so a test can read back what an image shows."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import render


def as_json(view: dict[str, Any]) -> bytes:
    """Stand in for a drawing: the view itself, as canonical JSON bytes."""
    return json.dumps(view, sort_keys=True).encode()


@contextmanager
def views_as_json(kind: str, *, board: bool = True, private: bool = True) -> Iterator[None]:
    """Replace the chosen drawings of a kind with ``as_json`` for the block, then put them back."""
    real_board, real_private = render.drawings(kind)
    render.register(kind, board=as_json if board else None, private=as_json if private else None)
    try:
        yield
    finally:
        render.register(kind, board=real_board, private=real_private)


@dataclass
class Counted:
    """The views a kind's stand-in drawings were asked to draw, by which drawing."""

    boards: list[dict[str, Any]] = field(default_factory=list)
    privates: list[dict[str, Any]] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Return how many drawings were made in all."""
        return len(self.boards) + len(self.privates)


@contextmanager
def counted_drawings(kind: str) -> Iterator[Counted]:
    """Replace a kind's board and private drawings with ``as_json`` stand-ins that count each call."""
    seen = Counted()

    def board(view: dict[str, Any]) -> bytes:
        seen.boards.append(view)
        return as_json(view)

    def private(view: dict[str, Any]) -> bytes:
        seen.privates.append(view)
        return as_json(view)

    with stand_ins(kind) as stand_in:
        stand_in(board, private)
        yield seen


Drawing = Callable[[dict[str, Any]], bytes]
StandIn = Callable[..., None]
"""``stand_in(board, private=None)``: draw a kind with a test's own drawings (``stand_ins``)."""


@contextmanager
def stand_ins(kind: str) -> Iterator[StandIn]:
    """Let the block draw a kind's board (and, if given, its private sheet) with its own drawings;
    the kind's real drawings are put back after it."""
    real_board, real_private = render.drawings(kind)

    def stand_in(board: Drawing, private: Drawing | None = None) -> None:
        render.register(kind, board=board, private=private or real_private)

    try:
        yield stand_in
    finally:
        render.register(kind, board=real_board, private=real_private)
