"""Shared pieces of the Academy self-play policy: the table's memory and routes through the academy.

Everything here reads a seat's view (public facts and the spells the table has seen), never the state.
"""

from __future__ import annotations

from collections import deque
from typing import Any

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
            if e.kind == "wild":
                levels = e.data.get("levels", [1, 2, 3, 4])
                self.known = {k: v for k, v in self.known.items() if _level(k) not in levels}
            elif e.kind == "shuffle":
                level = int(e.text.split("level ")[1].split()[0])
                self.known = {k: v for k, v in self.known.items() if _level(k) != level}
        reveal = view.get("reveal")
        if reveal and reveal.get("slot"):
            self.known[reveal["slot"]] = reveal["spell"]["key"]

    def spell_at(self, view: dict[str, Any], slot: str) -> str | None:
        """Return what the bots believe lies on a slot."""
        entry = next(x for x in view["spells"] if x["id"] == slot)
        if entry["spell"]:
            return entry["spell"]["key"]
        return self.known.get(slot)


def _level(slot: str) -> int:
    high = int(slot.split("-")[1])
    return 1 if high <= 3 else 2 if high <= 5 else 3 if high == 6 else 4


def _rooms(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    rooms = {r["key"]: r for r in view["grid"]}
    if view["outside"]:
        rooms[view["outside"]["key"]] = view["outside"]
    return rooms


def _dist(view: dict[str, Any], start: str, blocked: frozenset[str] = frozenset()) -> dict[str, int]:
    """Return moves from ``start`` to every room reachable without passing through ``blocked`` rooms."""
    rooms = _rooms(view)
    seen = {start: 0}
    todo = deque([start])
    while todo:
        room = todo.popleft()
        for other in rooms[room]["adjoining"]:
            if other not in seen:
                seen[other] = seen[room] + 1
                if other not in blocked:
                    todo.append(other)
    return seen


def _hazard(room: dict[str, Any], imps: bool = False) -> bool:
    """Whether ending a turn here costs mana or glyphs (with ``imps``: an imp robs a glyph unless a
    guardian kills it; the basic plan counts that, the advanced policy does better without)."""
    imp = imps and room["imp"] and not room["guardian"]
    return bool(room["fire"] or room["water"] >= 2 or room["troll"] or room["demon"] or imp)


def _leave(view: dict[str, Any], seat: int, moves: list[Move], imps: bool = False) -> Move:
    """End the turn, first stepping out of a room whose threats would cost mana or glyphs (``_hazard``)."""
    rooms = _rooms(view)
    if _hazard(rooms[view["wizards"][seat]["room"]], imps):
        # a move into water needs a second action; without one it is wasted and the wizard stays put
        wade = view["actions"]["left"] + view["actions"]["extra"] >= 2
        safe = [
            m
            for m in moves
            if m.action == "move"
            and not _hazard(rooms[m.get("room")], imps)
            and (wade or not rooms[m.get("room")]["water"])
        ]
        if safe:
            return safe[0]
    return Move.of("end")


def _toward(view: dict[str, Any], moves: list[Move], goals: list[str]) -> Move | None:
    """Return a move that makes progress along a safe shortest route to the nearest goal room."""
    rooms = _rooms(view)
    # Passing through a burning room costs nothing; only ending a turn in one does (see _leave), so
    # the route may cross hazards, but the last action of a turn never steps into one.
    last = view["actions"]["left"] <= 1
    # wading into water takes a second action; without one the move is wasted
    wade = view["actions"]["left"] + view["actions"]["extra"] >= 2
    blocked = frozenset(k for k, r in rooms.items() if last and _hazard(r, view["basic"]) and k not in goals)
    here = next(w["room"] for w in view["wizards"] if w["seat"] == view["seat"])
    now = _dist(view, here, blocked)
    if not any(g in now for g in goals):
        return None
    best, low = None, min(now[g] for g in goals if g in now)
    for m in moves:
        if m.action != "move" or m.get("room") in blocked or (rooms[m.get("room")]["water"] and not wade):
            continue
        d = _dist(view, m.get("room"), blocked)
        reach = [d[g] for g in goals if g in d]
        if reach and min(reach) < low:
            best, low = m, min(reach)
    return best


def _slot(move: Move) -> str:
    a, b = move.get("a"), move.get("b")
    return f"{min(a, b)}-{max(a, b)}"


def _casts(view: dict[str, Any], mind: Mind, moves: list[Move], keys: tuple[str, ...]) -> list[Move]:
    out = [m for m in moves if m.action == "cast" and mind.spell_at(view, _slot(m)) in keys]
    return sorted(out, key=lambda m: m.get("helper") is not None)
