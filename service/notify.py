"""Whom a move notifies, and whether the thread gets a new message: one ping per turn.

A turn is the run of consecutive decisions of one seat. A seat is pinged once, when the game
starts waiting on it; the seat that just moved is never pinged for its own follow-up decisions
(they reach it on the private answer to its click). A reminder (the scheduler's business) may
ping again later; ``pings`` is the rule for moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.contract import Event, Prompt, PromptKind

if TYPE_CHECKING:
    from service.replies import Board

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
PHASE = "phase"
"""``Event.data`` key a game sets on the event that opens a phase played out without turns (a
resolution): the phase gets its own thread message, edited in place as it resolves."""


DRAFT = "draft"
"""``Event.data`` key a game sets on a pick of a draft that more picks follow (Argent's mage draft,
its seats picking in turn from one offer): the draft stays one thread message, edited as picks
come in, and the next picker is told by DM and on its panel, as a decision inside a turn is."""


def told_in_thread(prompts: Iterable[Prompt], old: Iterable[Prompt], mover: int | None,
                   unreachable: Iterable[int] = (), events: Iterable[Event] = ()) -> set[int]:
    """Return the seats to ping in the thread after a move: each seat newly asked to take its turn.

    A seat newly asked a decision inside someone else's turn (a ``DECISION`` or ``REACTION``
    outside ``TURN_KINDS``), or its next pick in a draft (an event marked ``DRAFT``), is told by
    DM and on its panel, not in the thread, unless it is ``unreachable`` by DM. The mover is
    never pinged (``pings``).
    """
    before = set(old)
    drafting = any(e.data.get(DRAFT) for e in events)
    turning = set() if drafting else turn_seats(p for p in prompts if p not in before)
    return {s for s in pings(prompts, old, mover) if s in turning or s in set(unreachable)}


def starts_message(
    *, pinged: set[int], opening: bool, over: bool, closed: bool, events: Iterable[Event] = ()
) -> bool:
    """Whether a board opens a new thread message rather than updating the living board.

    A new message when the game begins or ends, when a seat's turn begins (``pinged``, from
    ``told_in_thread``), at a milestone event (a reveal) and when a phase without turns opens
    (``PHASE``); everything else (the mover's follow-up steps, decisions inside a turn or a
    phase) edits the same message.
    """
    marked = any(e.data.get(MILESTONE) or e.data.get(PHASE) for e in events)
    return opening or over or closed or bool(pinged) or marked


@dataclass
class _Pinged:
    prompts: frozenset[Prompt]
    held: bool = False
    """Taken away by an undo: kept until the move is made again (or the turn goes elsewhere)."""


@dataclass
class PingLedger:
    """What each user of each table was last pinged for, so an undo and its redo ping once.

    In memory only: a restart forgets it, which costs at most one more ping.
    """

    tables: dict[int, dict[int, _Pinged]] = field(default_factory=dict)

    def once(self, table_id: int, board: Board, *, undone: bool = False) -> tuple[int, ...]:
        """Return the board's pings less those already sent for the same prompts; remember the rest.

        ``undone``: the board shows a move taken back. A user whose prompts the undo took away
        is not pinged again when the move is made again; once the turn goes to someone else
        instead, that memory is dropped.
        """
        asked = self.tables.setdefault(table_id, {})
        own = _prompts_by_user(board)
        for user, pinged in list(asked.items()):
            if pinged.prompts <= own.get(user, frozenset()):
                pinged.held = False
            elif undone:
                pinged.held = True
            elif not pinged.held:
                del asked[user]  # answered or withdrawn: the next ask is a new turn
        kept = []
        for user in board.ping:
            prompts = own.get(user, frozenset())
            if user in asked and prompts <= asked[user].prompts:
                continue
            kept.append(user)
            asked[user] = _Pinged(prompts)
        if kept:
            # The turn went to someone newly pinged: an undone ask will not come back as it was.
            for user in [u for u, p in asked.items() if p.held]:
                del asked[user]
        return tuple(kept)


def _prompts_by_user(board: Board) -> dict[int, frozenset[Prompt]]:
    """Return each seated user's pending prompts on a board."""
    return {
        line.user_id: frozenset(p for p in board.waiting if p.seat == line.seat) for line in board.legend
    }
