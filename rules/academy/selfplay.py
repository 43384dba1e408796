"""A simple, sensible cooperative policy and the win rates it reaches per scenario and difficulty.

Run ``python -m rules.academy.selfplay [games] [players] [seed]``. The policy sees only what a seat's
view shows, and remembers every spell revealed to it until a shuffle of that level makes it forget:
it gathers glyphs, casts unknown spells to find the ones it needs, binds what it knows in the
Library, fights fire when it can, and heads for its objective.
"""

from __future__ import annotations

import sys
from collections import Counter, deque
from typing import Any

from rules import rng
from rules.academy.engine import AcademyRules
from rules.contract import Move

RULES = AcademyRules()
CRYSTAL = "mana_crystal"
GOAL = {
    "basic": "abjure",
    "golem": "create_guardian",
    "unstable": "anchor_reality",
    "gates": "seal_gates",
    "demon": "bind_demon",
}
HELPERS = (
    "snuff",
    "call_flood",
    "nova",
    "teleport_self",
    "spark_out",
    "maelstrom",
    "close_portal",
    "zap",
    "fireball",
)
"""Spells the policy is glad to know beyond its goal (fire fighting, guardians, getting about)."""
GOALS = {"golem": ("create_guardian", "great_ward"), "gates": ("seal_gates", "close_portal")}
"""Spells that work towards a scenario's objective (default: its goal spell)."""
DOUSE = ("snuff", "call_flood", "spark_out", "maelstrom", "tidal_wave")
KILL = ("nova", "zap", "fireball", "inferno", "titans_grip")
BAD = ("danger", "deface", "enrage", "burn", "summon_imp", "slip", "fizzle", "backlash")


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


def _hazard(room: dict[str, Any]) -> bool:
    """Whether ending a turn here costs mana or glyphs."""
    return bool(room["fire"] or room["water"] >= 2 or room["troll"] or room["demon"])


def _toward(view: dict[str, Any], moves: list[Move], goals: list[str]) -> Move | None:
    """Return a move that makes progress along a safe shortest route to the nearest goal room."""
    rooms = _rooms(view)
    # Passing through a burning room costs nothing; only ending a turn in one does (see _leave), so
    # the route may cross hazards, but the last action of a turn never steps into one.
    last = view["actions"]["left"] <= 1
    blocked = frozenset(k for k, r in rooms.items() if last and _hazard(r) and k not in goals)
    here = next(w["room"] for w in view["wizards"] if w["seat"] == view["seat"])
    now = _dist(view, here, blocked)
    if not any(g in now for g in goals):
        return None
    best, low = None, min(now[g] for g in goals if g in now)
    for m in moves:
        if m.action != "move" or m.get("room") in blocked:
            continue
        d = _dist(view, m.get("room"), blocked)
        reach = [d[g] for g in goals if g in d]
        if reach and min(reach) < low:
            best, low = m, min(reach)
    return best


def goal_rooms(view: dict[str, Any]) -> list[str]:
    """Return the rooms where casting the scenario's goal spell does its work."""
    rooms = _rooms(view)
    key = view["scenario"]["key"]
    if key == "golem":
        return [view["grid"][p]["key"] for p in (0, 3, 12, 15) if not view["grid"][p]["guardian"]]
    if key == "gates":
        hot = [k for k, r in rooms.items() if r["portals"] and r["pos"] is not None]
        return sorted({k for r in hot for k in (r, *rooms[r]["adjoining"])})
    if key == "demon":
        return [k for k, r in rooms.items() if r["demon"]]
    return [CRYSTAL]


def _slot(move: Move) -> str:
    a, b = move.get("a"), move.get("b")
    return f"{min(a, b)}-{max(a, b)}"


def _casts(view: dict[str, Any], mind: Mind, moves: list[Move], keys: tuple[str, ...]) -> list[Move]:
    out = [m for m in moves if m.action == "cast" and mind.spell_at(view, _slot(m)) in keys]
    return sorted(out, key=lambda m: m.get("helper") is not None)


def _openness(state: dict[str, Any]) -> int:
    """Score a layout: rooms reachable from the crystal, and sources 1-5 among them twice over."""
    from rules.academy.state import distances

    reach = distances(state, CRYSTAL)
    return len(reach) + 2 * sum(1 for r in reach if (state["rooms"][r]["source"] or 9) <= 5)


def _shift_value(state: dict[str, Any], depth: int) -> int:
    """Return the best openness reachable from a layout with up to ``depth`` more shifts."""
    best = _openness(state)
    if depth == 0 or state["step"] != "shifts":
        return best
    for move in RULES.legal_moves(state, state["current"]):
        if move.action == "shift":
            after, _ = RULES.apply(state, state["current"], move)
            best = max(best, _shift_value(after, depth - 1))
    return best


LAYOUT = ("Rotate", "Turn the", "Swap", "With which", "an ice token go")
"""Choices that change the academy's layout: the policy keeps it open (the board is public)."""


def _choice_value(state: dict[str, Any], depth: int = 2) -> int:
    """Return the openness after a layout choice, looking through the choices that follow it."""
    c = state["choice"]
    if c is None or depth == 0 or not any(w in c["why"] for w in LAYOUT):
        return _openness(state)
    values = []
    for o in c["options"]:
        after, _ = RULES.apply(state, c["seat"], Move.of("choose", value=o["value"]))
        values.append(_choice_value(after, depth - 1))
    return max(values)


def best_layout_choice(state: dict[str, Any]) -> Move:
    """Answer a rotate or swap question with the option that keeps the academy most open."""
    c = state["choice"]
    best, score = None, -1
    for o in c["options"]:
        move = Move.of("choose", value=o["value"])
        after, _ = RULES.apply(state, c["seat"], move)
        value = _choice_value(after, 1)
        if value > score:
            best, score = move, value
    return best


def best_shift(state: dict[str, Any]) -> Move:
    """Setup shifts: the shift that opens the academy most two shifts ahead, else start (public board)."""
    best, score = Move.of("ready"), _openness(state)
    for move in RULES.legal_moves(state, state["current"]):
        if move.action != "shift":
            continue
        after, _ = RULES.apply(state, state["current"], move)
        value = _shift_value(after, 1)
        if value > score:
            best, score = move, value
    return best


class Policy:
    """The sensible policy: one instance per game (it keeps the table's memory)."""

    def __init__(self, seed: int) -> None:
        self.mind = Mind()
        self.rand = {"rng": seed}

    def pick(self, state: dict[str, Any], seat: int) -> Move:
        """Choose a move for a seat from its view (the state is only used to build that view)."""
        if state["step"] == "shifts" and state["choice"] is None:
            return best_shift(state)
        if state["choice"] is not None and any(w in state["choice"]["why"] for w in LAYOUT):
            return best_layout_choice(state)
        return self.decide(RULES.view(state, seat), seat, RULES.legal_moves(state, seat))

    def decide(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Choose one of ``moves`` from a seat's view and the table's memory."""
        move = self._decide(view, seat, moves)
        return move if move in moves else moves[0]

    def _decide(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        if view["choice"] is not None:
            return self._choose(view, seat, moves)
        if view["request"] is not None:
            return Move.of("consent", ok=True)
        if view["step"] == "shifts":
            return Move.of("ready")
        if view["step"] == "share":
            mine = view["wizards"][seat]
            if mine["shared"] is None and mine["glyphs"]:
                return Move.of("share", glyph=max(mine["glyphs"]))
            return Move.of("done")
        return self._act(view, seat, moves)

    def _act(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        me = view["wizards"][seat]
        rooms = _rooms(view)
        room = me["room"]
        goal = GOAL[view["scenario"]["key"]]
        fires = [k for k, r in rooms.items() if r["fire"] and r["pos"] is not None]
        known = self.mind.known
        team = [g for w in view["wizards"] for g in w["glyphs"]]
        needed = self._needed(view, goal)
        binds = [m for m in moves if m.action == "bind" and known.get(m.get("slot")) == m.get("spell")]
        if binds:
            return binds[0]
        if any(m.action == "stop" for m in moves):
            return Move.of("stop")
        win = _casts(view, self.mind, moves, GOALS.get(view["scenario"]["key"], (goal,)))
        ready = not fires if goal == "abjure" else True
        targets = goal_rooms(view)
        if win and ready and room in targets:
            return win[0]
        if win and ready:
            step = _toward(view, moves, targets)
            if step:
                return step
        douse = _casts(view, self.mind, moves, DOUSE)
        near_fire = [r for r in fires if r == room or r in rooms[room]["adjoining"]]
        if near_fire and douse:
            return douse[0]
        if rooms[room]["fire"]:
            blast = _casts(view, self.mind, moves, ("nova",))
            if blast:
                return blast[0]
        if rooms[room]["imp"]:
            kill = _casts(view, self.mind, moves, KILL)
            if kill:
                return kill[0]
        here = rooms[room]["source"]
        if any(m.action == "take" for m in moves) and len(me["glyphs"]) < 8 and me["glyphs"].count(here) < 4:
            return Move.of("take")
        near = [room, *rooms[room]["adjoining"]]
        guarded = [
            r
            for r in near
            if rooms[r]["guardian"] and rooms[r]["source"] in needed and team.count(rooms[r]["source"]) < 2
        ]
        if rooms[room]["guardian"] and here is not None:
            kill = _casts(view, self.mind, moves, KILL)
            if kill:
                return kill[0]
        if guarded and _casts(view, self.mind, moves, KILL) and room not in guarded:
            step = next((m for m in moves if m.action == "move" and m.get("room") in guarded), None)
            if step:
                return step  # go in and break the guardian for good
        if guarded:
            steal = _casts(view, self.mind, moves, ("steal_glyphs",))
            if steal:
                return steal[0]
        if view["actions"]["left"] == 1 and _hazard(rooms[room]):
            return self._leave(view, seat, moves)
        if fires and (douse or _casts(view, self.mind, moves, ("nova",))):
            step = _toward(view, moves, fires)
            if step:
                return step
        keep = self._reserved(view, goal)
        unknown = [
            m
            for m in moves
            if m.action == "cast"
            and self.mind.spell_at(view, _slot(m)) is None
            and not (set(_slot(m).split("-")) & keep)
        ]
        if unknown and not win:
            unknown.sort(key=lambda m: (m.get("helper") is not None, -_level(_slot(m))))
            return unknown[0]
        bound = {x["id"] for x in view["spells"] if x["bound"]}
        unbound_goal = [k for k, v in known.items() if v in (goal, "snuff") and k not in bound]
        if unbound_goal and room != "library":
            step = _toward(view, moves, ["library"])
            if step:
                return step
        wants = [
            k
            for k, r in rooms.items()
            if r["source"] is not None
            and r["pos"] is not None
            and r["source"] in needed
            and team.count(r["source"]) < 2 * len(view["wizards"])
            and me["glyphs"].count(r["source"]) < 3
            and (not r["guardian"] or self._can_kill(view, moves))
        ]
        wants.sort(key=lambda k: (team.count(rooms[k]["source"]), -rooms[k]["source"]))
        if wants and wants[0] != room:
            step = _toward(view, moves, wants[:1]) or _toward(view, moves, wants)
            if step:
                return step
        return self._leave(view, seat, moves)

    def _reserved(self, view: dict[str, Any], goal: str) -> set[str]:
        """Return the glyphs (as text) of the known goal slot that the table holds too few of to spare."""
        team = [g for w in view["wizards"] for g in w["glyphs"]]
        out: set[str] = set()
        for x in view["spells"]:
            if self.mind.spell_at(view, x["id"]) == goal:
                a, b = x["pair"]
                need = Counter([a, b])
                out |= {str(g) for g, n in need.items() if team.count(g) <= n}
        return out

    def _needed(self, view: dict[str, Any], goal: str) -> set[int]:
        """Return the glyphs that appear in a slot still unknown to the table or in the goal's slot."""
        out: set[int] = set()
        for x in view["spells"]:
            key = self.mind.spell_at(view, x["id"])
            if x["used"] and (key is None or key in (goal, *DOUSE, *KILL)):
                out.update(x["pair"])
        return out or set(range(1, 8))

    def _leave(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """End the turn, first stepping out of a room whose threats would cost mana or glyphs."""
        rooms = _rooms(view)
        if _hazard(rooms[view["wizards"][seat]["room"]]):
            safe = [m for m in moves if m.action == "move" and not _hazard(rooms[m.get("room")])]
            if safe:
                return safe[0]
        return Move.of("end")

    def _can_kill(self, view: dict[str, Any], moves: list[Move]) -> bool:
        return bool(_casts(view, self.mind, moves, (*KILL, "steal_glyphs")))

    def _choose(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Answer a choice: sensible picks for the common questions, else the first option."""
        c = view["choice"]
        why = c["why"].lower()
        values = [o["value"] for o in c["options"]]
        rooms = _rooms(view)
        if "teleported" in why:
            return Move.of("choose", value=True)
        if all(isinstance(v, int) for v in values) and "glyph" in why:
            mine = view["wizards"][c["seat"]]["glyphs"]
            if any(w in why for w in ("gain", "copy")):
                return Move.of("choose", value=max(values))
            counts = {v: mine.count(v) for v in values}
            return Move.of("choose", value=min(values, key=lambda v: (-counts[v], v)))
        if all(isinstance(v, str) and v in rooms for v in values):
            if "fire" in why or "water" in why:
                burning = [v for v in values if rooms[v]["fire"]]
                if burning:
                    return Move.of("choose", value=burning[0])
            if "move" in why or "teleport" in why:
                goal = CRYSTAL if any(k == "abjure" for k in self.mind.known.values()) else None
                if goal in values:
                    return Move.of("choose", value=goal)
                sources = [v for v in values if rooms[v]["source"] is not None and not rooms[v]["guardian"]]
                if sources:
                    return Move.of("choose", value=sources[0])
        if "source" in why:
            best = max(values, key=lambda v: rooms[v]["source"] if v in rooms else 0)
            return Move.of("choose", value=best)
        if "damage" in why:
            imps = [v for v in values if isinstance(v, str) and v.endswith(":imp")]
            if imps:
                return Move.of("choose", value=imps[0])
        return Move.of("choose", value=values[rng.randbelow(self.rand, len(values))])


def play(players: int, options: dict[str, str], seed: int) -> dict[str, Any]:
    """Play one game with the policy; return the final state."""
    state = RULES.setup(players, options, seed)
    policy = Policy(seed)
    policy.mind.observe(RULES.view(state, 0), [])
    for _ in range(RULES.max_moves(players, options)):
        if RULES.is_over(state):
            break
        seat = RULES.waiting_on(state)[0]
        move = policy.pick(state, seat)
        state, events = RULES.apply(state, seat, move)
        policy.mind.observe(RULES.view(state, seat), events)
    return state


def win_rate(players: int, options: dict[str, str], games: int, seed: int = 1) -> float:
    """Return the share of games the policy wins."""
    wins = sum(1 for g in range(games) if play(players, options, seed + g)["won"])
    return wins / games


def report(games: int, players: int, seed: int = 1) -> str:
    """Return the win rates per scenario and difficulty as a table."""
    lines = [f"{'scenario':<10}{'easy':>8}{'normal':>8}{'hard':>8}   ({games} games, {players} players)"]
    for scen in RULES.options[0].choices:
        row = [
            win_rate(players, {"scenario": scen, "difficulty": d}, games, seed)
            for d in ("easy", "normal", "hard")
        ]
        lines.append(f"{scen:<10}" + "".join(f"{r:>8.0%}" for r in row))
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """Print the win-rate table."""
    games = int(argv[0]) if argv else 100
    players = int(argv[1]) if len(argv) > 1 else 3
    seed = int(argv[2]) if len(argv) > 2 else 1
    print(report(games, players, seed))


if __name__ == "__main__":
    main(sys.argv[1:])
