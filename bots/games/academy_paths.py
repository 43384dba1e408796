"""Shared pieces of the Academy self-play policy: the table's memory and routes through the academy.

Everything here reads a seat's view (public facts and the spells the table has seen), never the state.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rules.academy import reads
from rules.academy.events import AcademyEvent
from rules.academy.state import slot_level, slot_of
from rules.contract import Move

CRYSTAL = "mana_crystal"
BAD = ("danger", "deface", "enrage", "burn", "summon_imp", "slip", "fizzle", "backlash")
"""Harmful spells (botches and the like): never bound, never cast on purpose."""


class Mind:
    """What one table of bots remembers: the spell it saw on each unbound slot."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}

    def observe(self, view: dict[str, Any], events: list[Any]) -> None:
        """Remember a reveal; forget a level whose unbound spells were shuffled."""
        for e in events:
            if e.kind == AcademyEvent.WILD:
                levels = e.data.get("levels", [1, 2, 3, 4])
                self.known = {k: v for k, v in self.known.items() if slot_level(k) not in levels}
            elif e.kind == AcademyEvent.SHUFFLE:
                level = e.data["level"]
                self.known = {k: v for k, v in self.known.items() if slot_level(k) != level}
        reveal = reads.revealed(view)
        if reveal:
            slot, spell = reveal
            self.known[slot] = spell

    def spell_at(self, view: dict[str, Any], slot: str) -> str | None:
        """Return what the bots believe lies on a slot."""
        shown = reads.shown(reads.slot(view, slot))
        return shown if shown is not None else self.known.get(slot)


def rooms_by_key(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Return every room of the view (the grid and the one outside) by its key."""
    return reads.rooms(view)


def view_distances(view: dict[str, Any], start: str, blocked: frozenset[str] = frozenset()) -> dict[str, int]:
    """Return moves from ``start`` to every room reachable without passing through ``blocked`` rooms."""
    rooms = rooms_by_key(view)
    seen = {start: 0}
    todo = deque([start])
    while todo:
        room = todo.popleft()
        for other in reads.adjoining(rooms[room]):
            if other not in seen:
                seen[other] = seen[room] + 1
                if other not in blocked:
                    todo.append(other)
    return seen


def is_hazard(room: dict[str, Any], imps: bool = False) -> bool:
    """Whether ending a turn here costs mana or glyphs (with ``imps``: an imp robs a glyph unless a
    guardian kills it; the basic plan counts that, the advanced policy does better without)."""
    imp = imps and reads.imp(room) and not reads.guardian(room)
    return bool(reads.fire(room) or reads.water(room) >= 2 or reads.troll(room) or reads.demon(room) or imp)


def leave_safely(view: dict[str, Any], seat: int, moves: list[Move], imps: bool = False) -> Move:
    """End the turn, first stepping out of a room whose threats would cost mana or glyphs (``is_hazard``)."""
    rooms = rooms_by_key(view)
    if is_hazard(rooms[reads.room_of(view, seat)], imps):
        # a move into water needs a second action; without one it is wasted and the wizard stays put
        wade = reads.actions_left(view) + reads.extra_actions(view) >= 2
        safe = [
            m
            for m in moves
            if m.action == "move"
            and not is_hazard(rooms[m.get("room")], imps)
            and (wade or not reads.water(rooms[m.get("room")]))
        ]
        if safe:
            return safe[0]
    return Move.of("end")


def step_toward(view: dict[str, Any], moves: list[Move], goals: list[str]) -> Move | None:
    """Return a move that makes progress along a safe shortest route to the nearest goal room."""
    rooms = rooms_by_key(view)
    # Passing through a burning room costs nothing; only ending a turn in one does (see leave_safely), so
    # the route may cross hazards, but the last action of a turn never steps into one.
    last = reads.actions_left(view) <= 1
    # wading into water takes a second action; without one the move is wasted
    wade = reads.actions_left(view) + reads.extra_actions(view) >= 2
    blocked = frozenset(
        k for k, r in rooms.items() if last and is_hazard(r, reads.basic(view)) and k not in goals
    )
    here = next(reads.standing_in(w) for w in reads.wizards(view) if reads.seat(w) == reads.viewer(view))
    now = view_distances(view, here, blocked)
    if not any(g in now for g in goals):
        return None
    best, low = None, min(now[g] for g in goals if g in now)
    for m in moves:
        if m.action != "move" or m.get("room") in blocked or (reads.water(rooms[m.get("room")]) and not wade):
            continue
        d = view_distances(view, m.get("room"), blocked)
        reach = [d[g] for g in goals if g in d]
        if reach and min(reach) < low:
            best, low = m, min(reach)
    return best


def move_slot(move: Move) -> str:
    """Return the grid slot a cast move names."""
    return slot_of(move.get("a"), move.get("b"))


def casts_of(view: dict[str, Any], mind: Mind, moves: list[Move], keys: tuple[str, ...]) -> list[Move]:
    """Return the casts of the known spells among ``keys``, unhelped casts first."""
    out = [m for m in moves if m.action == "cast" and mind.spell_at(view, move_slot(m)) in keys]
    return sorted(out, key=lambda m: m.get("helper") is not None)
