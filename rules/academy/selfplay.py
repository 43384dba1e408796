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
from rules.academy.cards import rooms, spells
from rules.academy.engine import AcademyRules
from rules.academy.setup import BASIC_L1, BASIC_L2
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
    """Whether ending a turn here costs mana or glyphs (an imp robs a glyph unless a guardian kills it)."""
    imp = room["imp"] and not room["guardian"]
    return bool(room["fire"] or room["water"] >= 2 or room["troll"] or room["demon"] or imp)


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


def _focus(goal: str) -> int | None:
    """Return the level to search first for the goal spell: its own when cheap to look at (1 or 2);
    none for the high levels, whose glyphs are rare and better spent on what turns up on the way."""
    level = spells()[goal]["level"]
    return level if level <= 2 else None


def _kept_guardians(view: dict[str, Any]) -> set[str]:
    """Return the rooms whose guardians the table wants to keep (the golem's corners are its objective)."""
    if view["scenario"]["key"] != "golem":
        return set()
    return {view["grid"][p]["key"] for p in (0, 3, 12, 15)}


def _slot(move: Move) -> str:
    a, b = move.get("a"), move.get("b")
    return f"{min(a, b)}-{max(a, b)}"


def _casts(view: dict[str, Any], mind: Mind, moves: list[Move], keys: tuple[str, ...]) -> list[Move]:
    out = [m for m in moves if m.action == "cast" and mind.spell_at(view, _slot(m)) in keys]
    return sorted(out, key=lambda m: m.get("helper") is not None)


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
        doors = rooms()[room]["doors"]
        _SIDES[key] = tuple(bool(doors[(i - turn) % 4]) for i in range(4))
    return _SIDES[key]


def _open_score(board: list[str], rot: dict[str, int], contents: dict[str, Any]) -> int:
    """Score a layout given as places and turns (see ``_openness``)."""
    if CRYSTAL not in board:
        return 1
    sides = [() if contents[room]["ice"] >= 2 else _sides(room, rot[room]) for room in board]
    start = board.index(CRYSTAL)
    seen = {start}
    todo = [start]
    while todo:
        p = todo.pop()
        for i, q in _NEAR[p] if sides[p] else ():
            if q not in seen and sides[p][i] and sides[q] and sides[q][(i + 2) % 4]:
                seen.add(q)
                todo.append(q)
    return len(seen) + 2 * sum(1 for q in seen if (contents[board[q]]["source"] or 9) <= 5)


def _openness(state: dict[str, Any]) -> int:
    """Score a layout: rooms reachable from the crystal, and sources 1-5 among them twice over.

    A walk over board places with the tiles' doors as rotated now (the engine's adjoining rule: open
    doors on both sides, no double ice), kept local because the setup lookahead scores over a thousand
    layouts per decision."""
    return _open_score(state["board"], state["rot"], state["rooms"])


def _shifted(board: list[str], rot: dict[str, int], move: Move) -> tuple[list[str], dict[str, int]]:
    """Return the places and turns after a setup shift (a shift only turns or swaps tiles)."""
    if move.get("rotate") is not None:
        room = board[move.get("rotate")]
        return board, {**rot, room: (rot[room] + 1) % 4}
    p, q = move.get("swap")
    out = list(board)
    out[p], out[q] = out[q], out[p]
    return out, rot


def _shift_value(
    board: list[str], rot: dict[str, int], contents: dict[str, Any], shifts: list[Move], depth: int
) -> int:
    """Return the best openness reachable from a layout with up to ``depth`` more shifts."""
    best = _open_score(board, rot, contents)
    if depth == 0:
        return best
    for move in shifts:
        best = max(best, _shift_value(*_shifted(board, rot, move), contents, shifts, depth - 1))
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
    """Setup shifts: the shift that opens the academy most two shifts ahead, else start (public board).

    The moves are the same at every depth (16 rotations and the swaps of neighbouring places), so the
    lookahead turns tiles on light copies instead of asking the engine to apply each one."""
    best, score = Move.of("ready"), _openness(state)
    shifts = [m for m in RULES.legal_moves(state, state["current"]) if m.action == "shift"]
    deeper = 1 if state["shifts_left"] > 1 else 0
    for move in shifts:
        value = _shift_value(*_shifted(state["board"], state["rot"], move), state["rooms"], shifts, deeper)
        if value > score:
            best, score = move, value
    return best


class Policy:
    """The sensible policy: one instance per game (it keeps the table's memory)."""

    def __init__(self, seed: int) -> None:
        self.mind = Mind()
        self.rand = {"rng": seed}
        self.trail: tuple[tuple[int, int], list[str]] = ((-1, -1), [])

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
        if view["basic"]:
            return self._act_basic(view, seat, moves)
        return self._act_advanced(view, seat, moves)

    def _act_basic(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Pick the plan's move, never walking back into a room left earlier this turn (dithering)."""
        key = (view["turn"], seat)
        if self.trail[0] != key:
            self.trail = (key, [])
        here = view["wizards"][seat]["room"]
        move = self._plan_basic(view, seat, moves)
        if move.action == "move" and move.get("room") in self.trail[1]:
            if any(m.action == "take" for m in moves):
                move = Move.of("take")
            else:
                move = self._leave_basic(view, seat, [m for m in moves if m.get("room") not in self.trail[1]])
        if move.action == "move":
            self.trail[1].append(here)
        return move

    def _plan_basic(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """The basic game's plan: open a glyph 4 or 5 source, look at level 2 from the crystal (a look
        that turns up Abjure there with no fire wins at once), then gather Abjure's pair and cast it."""
        me = view["wizards"][seat]
        rooms = _rooms(view)
        room = me["room"]
        fires = [k for k, r in rooms.items() if r["fire"] and r["pos"] is not None]
        known = self._deduced(view)
        abjure = next((k for k, v in known.items() if v == "abjure"), None)
        binds = [
            m for m in moves if m.action == "bind" and self.mind.known.get(m.get("slot")) == m.get("spell")
        ]
        binds = [m for m in binds if m.get("spell") not in BAD and _level(m.get("slot")) == 1]
        if binds:
            return binds[0]
        if any(m.action == "stop" for m in moves):
            return Move.of("stop")
        win = [m for m in moves if m.action == "cast" and abjure and _slot(m) == abjure]
        win.sort(key=lambda m: m.get("helper") is not None)
        if win and room == CRYSTAL and not fires:
            return win[0]
        keep = set(abjure.split("-")) if abjure else set()
        douse = self._douse(view, moves, fires, keep)
        if douse:
            return douse
        if view["actions"]["left"] <= 1 and view["actions"]["extra"] == 0:
            out = self._leave_basic(view, seat, moves)
            if out.action == "move":
                return out  # the last action never ends the turn where fire, deep water or an imp waits
        if win and not fires:
            step = _toward(view, moves, [CRYSTAL])
            if step:
                return step
        if win and fires:
            step = self._to_fire(view, moves, fires)
            if step:
                return step
            mine = Counter(me["glyphs"])
            own = all(mine[int(g)] >= n for g, n in Counter(abjure.split("-")).items())
            if own and CRYSTAL not in fires:
                # the wizard holding Abjure's pair waits in the crystal while the others put the fire out
                if room != CRYSTAL:
                    step = _toward(view, moves, [CRYSTAL])
                    if step:
                        return step
                else:
                    return Move.of("end")
        if fires and not win:
            step = self._to_fire(view, moves, fires, 3)
            if step:
                return step
        look = self._looks(view, moves, known, keep, 2)
        if look and (not abjure or fires):
            if room == CRYSTAL or abjure:
                return look[0]
            d = _dist(view, room).get(CRYSTAL, 99)
            if d < view["actions"]["left"]:
                step = _toward(view, moves, [CRYSTAL])
                if step:
                    return step
            return look[0]
        blocked = self._blocked(view, known, abjure)
        opener = self._open_source(view, moves, known, blocked)
        if opener:
            return opener
        if blocked and not self._reachable(view, known, abjure):
            look1 = self._looks(view, moves, known, keep, 1)
            guarded = [
                k
                for k, r in rooms.items()
                if r["guardian"] and r["source"] in blocked and r["pos"] is not None
            ]
            if look1 and guarded:
                # look at level 1 beside the guardian: Nova there breaks it, Steal Glyphs reaches past it
                if room in guarded or room in {a for g in guarded for a in rooms[g]["adjoining"]}:
                    return look1[0]
                step = _toward(view, moves, guarded)
                if step:
                    return step
            elif look1:
                return look1[0]
        want = self._glyph_wants(view, seat, known, abjure)
        here = rooms[room]["source"]
        if any(m.action == "take" for m in moves) and want.get(here, 0) > 0:
            return Move.of("take")
        goals = self._source_goals(view, seat, want)
        if goals:
            step = _toward(view, moves, goals)
            if step:
                return step
        if win and room != CRYSTAL:
            step = _toward(view, moves, [CRYSTAL])
            if step:
                return step
        if look:
            return look[0]
        if any(m.action == "take" for m in moves) and len(me["glyphs"]) < 8 and me["glyphs"].count(here) < 3:
            return Move.of("take")
        spare = [
            k
            for k, r in rooms.items()
            if r["source"] is not None
            and not r["guardian"]
            and r["pos"] is not None
            and me["glyphs"].count(r["source"]) < 2
        ]
        step = _toward(view, moves, spare) if spare and len(me["glyphs"]) < 8 else None
        if step:
            return step
        return self._leave_basic(view, seat, moves)

    def _leave_basic(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """End the turn, first stepping out of a room that would cost mana or glyphs (imps rob)."""
        rooms = _rooms(view)
        me = view["wizards"][seat]

        def bad(r: dict[str, Any]) -> bool:
            return _hazard(r) or bool(r["imp"] and me["glyphs"] and not r["guardian"])

        if bad(rooms[me["room"]]):
            # a move into water needs a second action; without one it is wasted and the wizard stays put
            dry = view["actions"]["left"] + view["actions"]["extra"] >= 2
            safe = [
                m
                for m in moves
                if m.action == "move"
                and not bad(rooms[m.get("room")])
                and (dry or not rooms[m.get("room")]["water"])
            ]
            if safe:
                return safe[0]
        return Move.of("end")

    def _deduced(self, view: dict[str, Any]) -> dict[str, str | None]:
        """Return what lies on each used slot as far as the table knows, with a level's last unknown slot
        filled in when the others are known (the basic game's spell lists per level are public)."""
        known = {x["id"]: self.mind.spell_at(view, x["id"]) for x in view["spells"] if x["used"]}
        for level, names in ((1, BASIC_L1), (2, BASIC_L2)):
            slots = [x["id"] for x in view["spells"] if x["used"] and x["level"] == level]
            unknown = [k for k in slots if known[k] is None]
            missing = set(names) - {known[k] for k in slots}
            if len(unknown) == 1 and len(missing) == 1:
                known[unknown[0]] = missing.pop()
        return known

    def _douse(
        self, view: dict[str, Any], moves: list[Move], fires: list[str], keep: set[str]
    ) -> Move | None:
        """Return a cast of a known spell that puts out a fire within its reach from here."""
        if not fires:
            return None
        rooms = _rooms(view)
        room = view["wizards"][view["seat"]]["room"]
        near = [room, *rooms[room]["adjoining"]]
        reach = {"snuff": near, "call_flood": near, "spark_out": near, "maelstrom": near, "nova": [room]}
        for m in moves:
            key = self.mind.spell_at(view, _slot(m)) if m.action == "cast" else None
            if key in reach and any(f in reach[key] for f in fires):
                return m
        return None

    def _to_fire(
        self, view: dict[str, Any], moves: list[Move], fires: list[str], within: int = 99
    ) -> Move | None:
        """Walk towards a fire (within ``within`` moves) when a known spell that douses it can be cast."""
        dousers = [
            m
            for m in moves
            if m.action == "cast" and self.mind.spell_at(view, _slot(m)) in ("snuff", "call_flood", "nova")
        ]
        if not dousers:
            return None
        rooms = _rooms(view)
        # step into a burning room only with an action left to cast there (else the crystal pays for it)
        near = set(fires) if view["actions"]["left"] + view["actions"]["extra"] >= 2 else set()
        if any(self.mind.spell_at(view, _slot(m)) != "nova" for m in dousers):
            near |= {a for f in fires for a in rooms[f]["adjoining"]}  # Snuff and Call Flood reach next door
        dist = _dist(view, view["wizards"][view["seat"]]["room"])
        if not near or min((dist.get(k, 99) for k in near), default=99) > within:
            return None
        return _toward(view, moves, sorted(near))

    def _looks(
        self,
        view: dict[str, Any],
        moves: list[Move],
        known: dict[str, str | None],
        keep: set[str],
        level: int,
    ) -> list[Move]:
        """Return the casts that show an unknown slot of a level, own glyphs first, sparing Abjure's pair."""
        out = [
            m
            for m in moves
            if m.action == "cast"
            and _level(_slot(m)) == level
            and known.get(_slot(m)) is None
            and not (set(_slot(m).split("-")) & keep)
        ]
        mine = view["wizards"][view["seat"]]["glyphs"]
        return sorted(out, key=lambda m: (m.get("helper") is not None, -mine.count(m.get("a"))))

    def _has(self, view: dict[str, Any], g: int, n: int = 1) -> bool:
        """Whether the table holds ``n`` of a glyph or can take it from an open source."""
        if sum(w["glyphs"].count(g) for w in view["wizards"]) >= n:
            return True
        return any(r["source"] == g and not r["guardian"] and r["pos"] is not None for r in view["grid"])

    def _targets(
        self, view: dict[str, Any], known: dict[str, str | None], abjure: str | None
    ) -> list[list[int]]:
        """Return the level 2 pairs the table wants to cast: Abjure's, else every unknown one."""
        if abjure:
            return [[int(x) for x in abjure.split("-")]]
        return [
            x["pair"] for x in view["spells"] if x["level"] == 2 and x["used"] and known.get(x["id"]) is None
        ]

    def _blocked(self, view: dict[str, Any], known: dict[str, str | None], abjure: str | None) -> set[int]:
        """Return the glyphs 4 and 5 that wanted pairs need but the table can neither hold nor take."""
        pairs = self._targets(view, known, abjure)
        return {g for pair in pairs for g in pair if g >= 4 and not self._has(view, g, pair.count(g))}

    def _reachable(self, view: dict[str, Any], known: dict[str, str | None], abjure: str | None) -> bool:
        """Whether some wanted pair needs only glyphs the table has or can take."""
        return any(
            all(self._has(view, g, pair.count(g)) for g in pair)
            for pair in self._targets(view, known, abjure)
        )

    def _open_high(self, view: dict[str, Any]) -> bool:
        """Whether the table holds or can take a glyph 4 or 5."""
        if any(g >= 4 for w in view["wizards"] for g in w["glyphs"]):
            return True
        return any(r["source"] in (4, 5) and not r["guardian"] and r["pos"] is not None for r in view["grid"])

    def _open_source(
        self, view: dict[str, Any], moves: list[Move], known: dict[str, str | None], blocked: set[int]
    ) -> Move | None:
        """Break a guardian on a needed glyph source with a known Nova, or steal past it with Steal Glyphs."""
        rooms = _rooms(view)
        room = view["wizards"][view["seat"]]["room"]
        guarded = [
            k for k, r in rooms.items() if r["guardian"] and r["source"] in blocked and r["pos"] is not None
        ]
        if not guarded:
            return None
        nova = [m for m in moves if m.action == "cast" and known.get(_slot(m)) == "nova"]
        nova.sort(key=lambda m: m.get("helper") is not None)
        if nova and room in guarded:
            return nova[0]
        steal = [m for m in moves if m.action == "cast" and known.get(_slot(m)) == "steal_glyphs"]
        near = {room, *rooms[room]["adjoining"]}
        if steal and near & set(guarded):
            return steal[0]
        if nova or steal:
            return _toward(view, moves, guarded)
        return None

    def _glyph_wants(
        self, view: dict[str, Any], seat: int, known: dict[str, str | None], abjure: str | None
    ) -> dict[int, int]:
        """Return how much each glyph is worth to this wizard now (0: not worth an action)."""
        mine = view["wizards"][seat]["glyphs"]
        team = [g for w in view["wizards"] for g in w["glyphs"]]
        want: dict[int, int] = {}
        if abjure:
            need = Counter(int(x) for x in abjure.split("-"))
            for g, n in need.items():
                if team.count(g) < n + 1:
                    want[g] = 10
            fires = any(r["fire"] for r in view["grid"])
            douse = [x["pair"] for x in view["spells"] if known.get(x["id"]) in ("snuff", "call_flood")]
            if fires and douse:
                for g in douse[0]:
                    if team.count(g) < need.get(g, 0) + 1 + douse[0].count(g):
                        want[g] = max(want.get(g, 0), 8)
        elif self._reachable(view, known, abjure):
            open_slots = [
                p
                for p in self._targets(view, known, abjure)
                if all(self._has(view, g, p.count(g)) for g in p)
            ]
            for pair in open_slots:
                for g in pair:
                    want[g] = want.get(g, 0) + (3 if g >= 4 else 1)
        else:
            for x in view["spells"]:
                if x["level"] == 1 and x["used"] and known.get(x["id"]) in (None, "nova", "steal_glyphs"):
                    for g in x["pair"]:
                        want[g] = want.get(g, 0) + 1
        extra: list[tuple[list[int], int]] = []
        if self._blocked(view, known, abjure):
            extra += [
                (x["pair"], 9) for x in view["spells"] if known.get(x["id"]) in ("nova", "steal_glyphs")
            ]
        if any(r["fire"] for r in view["grid"]):
            extra += [
                (x["pair"], 7)
                for x in view["spells"]
                if known.get(x["id"]) in ("nova", "snuff", "call_flood")
            ]
        for pair, worth in extra:
            for g in pair:
                if team.count(g) < pair.count(g) + 1:
                    want[g] = max(want.get(g, 0), worth)
        for g in list(want):
            if mine.count(g) >= 3 or team.count(g) >= 2 + len(view["wizards"]):
                want[g] = 0
        if len(mine) >= 8:
            return {}
        return want

    def _source_goals(self, view: dict[str, Any], seat: int, want: dict[int, int]) -> list[str]:
        """Return the open source rooms holding the most wanted glyph (nearest first by the caller)."""
        rooms = _rooms(view)
        open_rooms = {
            k: r["source"]
            for k, r in rooms.items()
            if r["source"] is not None
            and not r["guardian"]
            and r["pos"] is not None
            and want.get(r["source"], 0) > 0
        }
        if not open_rooms:
            return []
        here = view["wizards"][seat]["room"]
        dist = _dist(view, here)
        best = max(
            open_rooms.values(),
            key=lambda g: (
                want[g] * 4 - min((dist.get(k, 99) for k, s in open_rooms.items() if s == g), default=99)
            ),
        )
        return [k for k, s in open_rooms.items() if s == best]

    def _act_advanced(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        me = view["wizards"][seat]
        rooms = _rooms(view)
        room = me["room"]
        goal = GOAL[view["scenario"]["key"]]
        fires = [k for k, r in rooms.items() if r["fire"] and r["pos"] is not None]
        known = self.mind.known
        team = [g for w in view["wizards"] for g in w["glyphs"]]
        needed = self._needed(view, goal)
        binds = [
            m
            for m in moves
            if m.action == "bind" and known.get(m.get("slot")) == m.get("spell") and m.get("spell") not in BAD
        ]
        if binds:
            return binds[0]
        if any(m.action == "stop" for m in moves):
            return Move.of("stop")
        win = _casts(view, self.mind, moves, GOALS.get(view["scenario"]["key"], (goal,)))
        ready = not fires if goal == "abjure" else True
        targets = goal_rooms(view)
        here = rooms[room]["source"]
        taking = any(m.action == "take" for m in moves)
        stock = taking and room in _kept_guardians(view) and me["glyphs"].count(here) < 3
        if win and room in targets and stock:
            return Move.of("take")  # stock up first: the guardian will bar this source for good
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
        kept = _kept_guardians(view)
        if rooms[room]["imp"] and not (rooms[room]["guardian"] and room in kept):
            kill = _casts(view, self.mind, moves, KILL)
            if kill:
                return kill[0]
        level = _focus(goal)
        search = [] if win else self._unknown(view, moves, goal)
        if search and _level(_slot(search[0])) == level:
            return search[0]  # a look at the goal's level beats one more glyph of a kind
        here = rooms[room]["source"]
        if any(m.action == "take" for m in moves) and len(me["glyphs"]) < 8 and me["glyphs"].count(here) < 4:
            return Move.of("take")
        near = [room, *rooms[room]["adjoining"]]
        guarded = [
            r
            for r in near
            if rooms[r]["guardian"]
            and r not in kept
            and rooms[r]["source"] in needed
            and team.count(rooms[r]["source"]) < 2
        ]
        if rooms[room]["guardian"] and here is not None and room not in kept:
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
        if search:
            return search[0]
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
        # The glyphs the known goal slot still lacks come first, then those that reach the goal's level
        # (without them its slots cannot be looked at).
        top = {1: (1, 2, 3), 2: (4, 5)}.get(level or 0, ())
        lack = self._lacking(view, goal)
        if not wants:
            wants = [
                k
                for k, r in rooms.items()
                if r["source"] is not None and r["pos"] is not None and not r["guardian"] and k != room
            ]
        wants.sort(
            key=lambda k: (
                rooms[k]["source"] not in lack,
                bool(lack) or rooms[k]["source"] not in top,
                team.count(rooms[k]["source"]),
                -rooms[k]["source"],
            )
        )
        if wants and wants[0] != room:
            step = _toward(view, moves, wants[:1]) or _toward(view, moves, wants)
            if step:
                return step
        return self._leave(view, seat, moves)

    def _unknown(self, view: dict[str, Any], moves: list[Move], goal: str) -> list[Move]:
        """Return the casts that would show an unknown slot, the goal spell's level first (its level is
        printed on its card), then own glyphs before a helper's, then higher levels."""
        here = view["wizards"][view["seat"]]["room"]
        if here in _kept_guardians(view) and _rooms(view)[here]["guardian"]:
            return []  # an unknown spell might well strike the guardian the table wants to keep
        keep = self._reserved(view, goal)
        level = _focus(goal)
        unknown = [
            m
            for m in moves
            if m.action == "cast"
            and self.mind.spell_at(view, _slot(m)) is None
            and not (set(_slot(m).split("-")) & keep)
        ]
        return sorted(
            unknown, key=lambda m: (_level(_slot(m)) != level, m.get("helper") is not None, -_level(_slot(m)))
        )

    def _lacking(self, view: dict[str, Any], goal: str) -> set[int]:
        """Return the glyphs of the known goal slot that the table does not hold enough of to cast it."""
        team = [g for w in view["wizards"] for g in w["glyphs"]]
        for x in view["spells"]:
            if self.mind.spell_at(view, x["id"]) == goal:
                need = Counter(x["pair"])
                return {g for g, n in need.items() if team.count(g) < n}
        return set()

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
            bare = [v for v in values if v in _kept_guardians(view) and not rooms[v]["guardian"]]
            if "guardian" in why and bare:
                return Move.of("choose", value=bare[0])
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
