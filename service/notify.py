"""Whom a move notifies, and whether the thread gets a new message: one ping per turn.

A turn is the run of consecutive decisions of one seat. A seat is pinged once, when the game
starts waiting on it; the seat that just moved is never pinged for its own follow-up decisions
(they reach it on the private answer to its click). A reminder (the scheduler's business) may
ping again later; ``pings`` is the rule for moves.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.contract import Event, Prompt, PromptKind

TURN_KINDS = frozenset({PromptKind.TURN, PromptKind.SECRET})
"""Prompts that are a seat's own turn (its own move, or its part of a simultaneous choice); a
``REACTION`` or a ``DECISION`` of a seat that did not move comes inside someone else's turn."""


def fresh_seats(prompts: Iterable[Prompt], old: Iterable[Prompt]) -> set[int]:
    """Return the seats with a prompt they did not have before (a seat still asked the same is not)."""
    before = set(old)
    return {p.seat for p in prompts if p not in before}


def pings(prompts: Iterable[Prompt], old: Iterable[Prompt], mover: int | None) -> set[int]:
    """Return the seats to ping after a move: newly asked seats, except the seat that moved.

    ``old`` are the prompts before the move (and before any automatic move that followed);
    ``mover`` is the seat whose decision this was (None at the start of a game: everyone
    asked is pinged).
    """
    return {seat for seat in fresh_seats(prompts, old) if seat != mover}


def turn_seats(prompts: Iterable[Prompt]) -> set[int]:
    """Return the seats asked to take their own turn (``TURN_KINDS``), not a decision inside another's."""
    return {p.seat for p in prompts if p.kind in TURN_KINDS}


MILESTONE = "milestone"
"""``Event.data`` key a game sets on an event that deserves its own thread message (a reveal)."""


def starts_message(
    *, pinged: set[int], opening: bool, over: bool, closed: bool, events: Iterable[Event] = ()
) -> bool:
    """Whether a board opens a new thread message rather than updating the turn's living board.

    A new message when the game begins or ends, when the turn passes to another seat (a seat
    is pinged) and at a milestone event (a reveal); the mover's own follow-up steps edit the
    same message.
    """
    return opening or over or closed or bool(pinged) or any(e.data.get(MILESTONE) for e in events)
