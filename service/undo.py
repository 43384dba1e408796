"""Taking a move back through the move log.

An undo is a row of the move log like any move (action ``~undo``, naming the versions it takes
back), stored with the same version check, so two clicks undo once and a restart loses
nothing. The snapshot is rebuilt by replaying the moves still in force from the seed. A player
takes back their own last move alone while nobody else has moved since and the move revealed
nothing (the game says what reveals, through ``Rules.reveals``); otherwise the other seated
players vote.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract import RESIGN, Move, Rules, RulesError, State
from rules.registry import UNDO
from service.clock import game_options
from service.replies import TableError
from store import MoveRecord, TableRecord

__all__ = ["UNDO", "UndoPlan", "effective", "plan_undo", "read_topic", "replay", "undo_topic"]
UNDO_TOPIC = "undo"
UNDO_CHOICES = (("yes", "Take it back"), ("no", "Keep it"))


def effective(records: list[MoveRecord]) -> list[MoveRecord]:
    """Return the moves still in force: without the undo rows and the moves they took back."""
    undone: set[int] = set()
    for record in records:
        if record.move.get("action") == UNDO:
            undone.update(int(v) for v in (record.move.get("args") or {}).get("versions", []))
    return [r for r in records if r.move.get("action") != UNDO and r.version not in undone]


@dataclass(frozen=True)
class UndoPlan:
    """What taking back a seat's last move would do."""

    target: int
    """The version of the seat's last move in force."""
    versions: tuple[int, ...]
    """Every version taken back: the target and the moves made after it."""
    state: State
    """The state before the target move (the new snapshot)."""
    label: str
    """The move as its mover names it (for the mover only)."""
    public: str
    """The move as everyone may name it (``Rules.public_label``): the thread and the vote."""
    solo: bool
    """Whether the seat may take it back alone (nothing revealed, nobody moved since)."""
    why: str
    """Why the others must vote, when they must."""


def replay(rules: Rules, table: TableRecord, players: int, records: list[MoveRecord]) -> State:
    """Return the state after the moves in force, replayed from the table's seed."""
    assert table.seed is not None
    state = rules.setup(players, game_options(table.options), table.seed)
    for record in effective(records):
        state, _ = rules.apply(state, record.seat, Move.from_json(record.move))
    return state


def plan_undo(
    rules: Rules,
    table: TableRecord,
    players: int,
    records: list[MoveRecord],
    seat: int,
    upto: int | None = None,
) -> UndoPlan:
    """Work out taking back the seat's last move in force (or the move at version ``upto``)."""
    moves = effective(records)
    mine = [
        r for r in moves
        if r.seat == seat and r.move.get("action") != RESIGN and (upto is None or r.version == upto)
    ]
    if not mine:
        raise TableError("You have no move to take back.")
    target = mine[-1]
    index = moves.index(target)
    assert table.seed is not None
    try:
        state = rules.setup(players, game_options(table.options), table.seed)
        for record in moves[:index]:
            state, _ = rules.apply(state, record.seat, Move.from_json(record.move))
        move = Move.from_json(target.move)
        after, events = rules.apply(state, seat, move)
    except RulesError:
        raise TableError("This table's move log cannot be replayed; the move stays.") from None
    later = moves[index + 1 :]
    revealed = rules.reveals(state, seat, move, after, events)
    why = ""
    if later:
        why = "other players have moved since"
    elif revealed:
        why = "it showed something that was hidden"
    return UndoPlan(
        target.version,
        tuple(r.version for r in moves[index:]),
        state,
        rules.label(state, seat, move),
        rules.public_label(state, seat, move),
        not later and not revealed,
        why,
    )


def undo_topic(target: int, version: int, seat: int) -> str:
    """Name the vote on taking back a move: the move, the table version it holds for, the asker."""
    return f"{UNDO_TOPIC}:{target}:{version}:{seat}"


def read_topic(topic: str) -> tuple[int, int, int]:
    """Read an undo vote's topic back, or raise TableError."""
    parts = topic.split(":")
    if len(parts) != 4 or parts[0] != UNDO_TOPIC or not all(p.isdigit() for p in parts[1:]):
        raise TableError("That vote is not open.")
    return int(parts[1]), int(parts[2]), int(parts[3])
