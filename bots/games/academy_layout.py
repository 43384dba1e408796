"""The self-play policy's layout choices: setup shifts and rotations that keep the academy open.

The board is public, so these read the state's board directly; a fast local walk scores layouts.
"""

from __future__ import annotations

from typing import Any

from bots.games.academy_paths import CRYSTAL
from rules.academy import reads
from rules.academy.engine import AcademyRules
from rules.contract import Move

RULES = AcademyRules()


_SIDES: dict[tuple[str, int], tuple[bool, ...]] = {}
"""Per room and quarter turn, the open sides n, e, s, w (the printed tiles never change)."""
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
_NEAR = [
    [(i, (r + dr) * 4 + c + dc) for i, (dr, dc) in enumerate(_STEPS) if 0 <= r + dr < 4 and 0 <= c + dc < 4]
    for r, c in (divmod(p, 4) for p in range(16))
]
"""Per board place, the (side, place) of each neighbouring place."""


def _sides(room: str, turn: int) -> tuple[bool, ...]:
    key = (room, turn)
    if key not in _SIDES:
        doors = reads.printed_doors(room)
        _SIDES[key] = tuple(bool(doors[(i - turn) % 4]) for i in range(4))
    return _SIDES[key]


Walls = tuple[frozenset[str], frozenset[str]]
"""What a layout's score reads of the rooms' contents, which no shift moves: the rooms shut by double
ice, and the rooms holding a source 1-5."""


def _walls(state: dict[str, Any]) -> Walls:
    """Return a state's rooms shut by double ice and those holding a source 1-5 (once per look-ahead)."""
    inside = {room: reads.contents(state, room) for room in reads.board(state)}
    iced = frozenset(room for room, c in inside.items() if reads.count(c, "ice") >= 2)
    low = frozenset(room for room, c in inside.items() if (reads.source_in(c) or 9) <= 5)
    return iced, low


def _open_score(board: list[str], rot: dict[str, int], walls: Walls) -> int:
    """Score a layout given as places and turns (see ``openness``)."""
    if CRYSTAL not in board:
        return 1
    iced, low = walls
    sides = [() if room in iced else _sides(room, rot[room]) for room in board]
    start = board.index(CRYSTAL)
    seen = {start}
    todo = [start]
    while todo:
        p = todo.pop()
        for i, q in _NEAR[p] if sides[p] else ():
            if q not in seen and sides[p][i] and sides[q] and sides[q][(i + 2) % 4]:
                seen.add(q)
                todo.append(q)
    return len(seen) + 2 * sum(1 for q in seen if board[q] in low)


def openness(state: dict[str, Any]) -> int:
    """Score a layout: rooms reachable from the crystal, and sources 1-5 among them twice over.

    A walk over board places with the tiles' doors as rotated now (the engine's adjoining rule: open
    doors on both sides, no double ice), kept local because the setup lookahead scores over a thousand
    layouts per decision."""
    return _open_score(reads.board(state), reads.turns(state), _walls(state))


def shifted(board: list[str], rot: dict[str, int], move: Move) -> tuple[list[str], dict[str, int]]:
    """Return the places and turns after a setup shift (a shift only turns or swaps tiles)."""
    if move.get("rotate") is not None:
        room = board[move.get("rotate")]
        return board, {**rot, room: (rot[room] + (move.get("turns") or 1)) % 4}
    p, q = move.get("swap")
    out = list(board)
    out[p], out[q] = out[q], out[p]
    return out, rot


def _shift_value(
    board: list[str], rot: dict[str, int], walls: Walls, shifts: list[Move], depth: int
) -> int:
    """Return the best openness reachable from a layout with up to ``depth`` more shifts."""
    best = _open_score(board, rot, walls)
    if depth == 0:
        return best
    for move in shifts:
        best = max(best, _shift_value(*shifted(board, rot, move), walls, shifts, depth - 1))
    return best


LAYOUT = ("Rotate", "Turn the", "Swap", "With which", "an ice token go")
"""Choices that change the academy's layout: the policy keeps it open (the board is public)."""


def _choice_value(state: dict[str, Any], depth: int = 2) -> int:
    """Return the openness after a layout choice, looking through the choices that follow it."""
    c = reads.state_choice(state)
    if c is None or depth == 0 or not any(w in reads.why(c) for w in LAYOUT):
        return openness(state)
    values = []
    for value in reads.values(c):
        after, _ = RULES.apply(state, reads.chooser(c), Move.of("choose", value=value))
        values.append(_choice_value(after, depth - 1))
    return max(values)


def best_layout_choice(state: dict[str, Any]) -> Move:
    """Answer a rotate or swap question with the option that keeps the academy most open."""
    c = reads.state_choice(state)
    best, score = None, -1
    for value in reads.values(c):
        move = Move.of("choose", value=value)
        after, _ = RULES.apply(state, reads.chooser(c), move)
        value = _choice_value(after, 1)
        if value > score:
            best, score = move, value
    return best


def best_shift(state: dict[str, Any]) -> Move:
    """Setup shifts: the shift that opens the academy most two shifts ahead, else start (public board).

    The moves are the same at every depth (16 rotations and the swaps of neighbouring places), so the
    lookahead turns tiles on light copies instead of asking the engine to apply each one."""
    best, score = Move.of("ready"), openness(state)
    shifts = [m for m in RULES.legal_moves(state, reads.state_current(state)) if m.action == "shift"]
    deeper = 1 if reads.shifts_left(state) > 1 else 0
    walls = _walls(state)
    for move in shifts:
        value = _shift_value(*shifted(reads.board(state), reads.turns(state), move), walls, shifts, deeper)
        if value > score:
            best, score = move, value
    return best
