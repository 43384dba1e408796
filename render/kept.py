"""A bounded cache of drawn pieces (rendered lines, their blended patches), shared by the drawings.

A drawing process serves hundreds of tables, so what it keeps must be bounded by count and by
pixels, or the tables' one-off lines (``"Last: mage50084 (P3) drafts a Natural Magick mage."``)
would grow it by tens of MB. But a large line is not always a one-off: a board's title (``"Round
1/5 · Mage draft"``) and a private sheet's rule line repeat on every drawing, and rendering them
again was a fifth of an Argent drawing process's time in the load bench. So a piece is kept at once
when it is small, and a large one only the second time it is asked for (a doorkeeper: one-off
sentences are seen once and never kept, repeated ones are kept from their second drawing).
Past either bound the cache starts again from nothing (cheap, and rare: a few times a load run).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

Piece = TypeVar("Piece")


class Kept(Generic[Piece]):
    """Drawn pieces by key, at most ``count`` of them and ``pixels`` pixels (a byte each) in all.

    A piece of more than ``small`` pixels is kept only when its key was offered before (and
    refused) since the cache last started again; at most ``count`` such keys are remembered.
    """

    def __init__(self, count: int, pixels: int, small: int) -> None:
        self.count = count
        self.pixels = pixels
        self.small = small
        self.held = 0
        """Pixels of the pieces kept now."""
        self._pieces: dict[Hashable, Piece] = {}
        self._seen: set[Hashable] = set()

    def get(self, key: Hashable) -> Piece | None:
        """Return the piece kept under ``key``, or None."""
        return self._pieces.get(key)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._pieces

    def __len__(self) -> int:
        return len(self._pieces)

    def values(self) -> list[Piece]:
        """Return the pieces kept now."""
        return list(self._pieces.values())

    def offer(self, key: Hashable, piece: Piece, pixels: int) -> bool:
        """Keep a piece just drawn, unless it is large and new; return whether it is kept."""
        if pixels > self.pixels:
            return False  # it would push out everything else
        if pixels > self.small and key not in self._seen:
            if len(self._seen) >= self.count:
                self._seen.clear()
            self._seen.add(key)
            return False
        self._seen.discard(key)
        if len(self._pieces) >= self.count or self.held + pixels > self.pixels:
            self.clear()
        self._pieces[key] = piece
        self.held += pixels
        return True

    def clear(self) -> None:
        """Forget every piece (and every large key seen once)."""
        self._pieces.clear()
        self._seen.clear()
        self.held = 0
