"""A sensible cooperative policy and the win rates it reaches per scenario and difficulty.

Run ``python -m bots.games.academy_policy [games] [players] [seed]``. The policy sees only what a seat's
view shows, and remembers every spell revealed to it until a shuffle of that level makes it forget
(``Mind``). The basic game follows a plan (``academy_policy_basic``): open a glyph 4 or 5 source, look at
level 2 from the Mana Crystal, gather Abjure's pair, put the fires out and cast it. The advanced game
gathers glyphs, casts unknown spells to find the ones it needs, binds what it knows in the Library,
fights fire when it can, and heads for its objective. Setup shifts and rotations keep the academy
open (``academy_layout``).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

from bots.games.academy_layout import (
    LAYOUT,
    RULES,
    best_layout_choice,
    best_shift,
)
from bots.games.academy_paths import (
    BAD,
    CRYSTAL,
    Mind,
    casts_of,
    is_hazard,
    leave_safely,
    move_slot,
    rooms_by_key,
    step_toward,
)
from bots.games.academy_policy_basic import BasicPlan
from rules import rng
from rules.academy import reads
from rules.academy.state import slot_level
from rules.contract import Move

__all__ = ["BAD", "GOAL", "RULES", "Mind", "Policy", "best_shift", "goal_rooms", "play", "report", "win_rate"]
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


def goal_rooms(view: dict[str, Any]) -> list[str]:
    """Return the rooms where casting the scenario's goal spell does its work."""
    rooms = rooms_by_key(view)
    key = reads.scenario(view)
    if key == "golem":
        return [
            reads.key(reads.grid(view)[p]) for p in (0, 3, 12, 15) if not reads.guardian(reads.grid(view)[p])
        ]
    if key == "gates":
        hot = [k for k, r in rooms.items() if reads.portals(r) and reads.pos(r) is not None]
        return sorted({k for r in hot for k in (r, *reads.adjoining(rooms[r]))})
    if key == "demon":
        return [k for k, r in rooms.items() if reads.demon(r)]
    return [CRYSTAL]


def _focus(goal: str) -> int | None:
    """Return the level to search first for the goal spell: its own when cheap to look at (1 or 2);
    none for the high levels, whose glyphs are rare and better spent on what turns up on the way."""
    level = reads.spell_level(goal)
    return level if level <= 2 else None


def kept_guardians(view: dict[str, Any]) -> set[str]:
    """Return the rooms whose guardians the table wants to keep (the golem's corners are its objective)."""
    if reads.scenario(view) != "golem":
        return set()
    return {reads.key(reads.grid(view)[p]) for p in (0, 3, 12, 15)}


class Policy(BasicPlan):
    """The sensible policy: one instance per game (it keeps the table's memory)."""

    def __init__(self, seed: int) -> None:
        self.mind = Mind()
        self.rand = {"rng": seed}
        self.trail: tuple[tuple[int, int], list[str]] = ((-1, -1), [])

    def pick(self, state: dict[str, Any], seat: int) -> Move:
        """Choose a move for a seat from its view (the state is only used to build that view)."""
        choice = reads.state_choice(state)
        if reads.state_step(state) == "shifts" and choice is None:
            return best_shift(state)
        if choice is not None and any(w in reads.why(choice) for w in LAYOUT):
            return best_layout_choice(state)
        return self.decide(RULES.view(state, seat), seat, RULES.legal_moves(state, seat))

    def decide(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Choose one of ``moves`` from a seat's view and the table's memory."""
        move = self._decide(view, seat, moves)
        return move if move in moves else moves[0]

    def _decide(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        if reads.choice(view) is not None:
            return self._choose(view, seat, moves)
        if reads.request(view) is not None:
            return Move.of("consent", ok=True)
        if reads.step(view) == "shifts":
            return Move.of("ready")
        if reads.step(view) == "share":
            mine = reads.wizard(view, seat)
            if reads.shared(mine) is None and reads.glyphs(mine):
                return Move.of("share", glyph=max(reads.glyphs(mine)))
            return Move.of("done")
        return self._act(view, seat, moves)

    def _act(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        if reads.basic(view):
            return self._act_basic(view, seat, moves)
        return self._act_advanced(view, seat, moves)

    def _act_advanced(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        me = reads.wizard(view, seat)
        rooms = rooms_by_key(view)
        room = reads.standing_in(me)
        goal = GOAL[reads.scenario(view)]
        fires = [k for k, r in rooms.items() if reads.fire(r) and reads.pos(r) is not None]
        known = self.mind.known
        team = [g for w in reads.wizards(view) for g in reads.glyphs(w)]
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
        win = casts_of(view, self.mind, moves, GOALS.get(reads.scenario(view), (goal,)))
        ready = not fires if goal == "abjure" else True
        targets = goal_rooms(view)
        here = reads.source(rooms[room])
        taking = any(m.action == "take" for m in moves)
        stock = taking and room in kept_guardians(view) and reads.glyphs(me).count(here) < 3
        if win and room in targets and stock:
            return Move.of("take")  # stock up first: the guardian will bar this source for good
        if win and ready and room in targets:
            return win[0]
        if win and ready:
            step = step_toward(view, moves, targets)
            if step and not self._walks_into_danger(view, step):
                return step
        douse = casts_of(view, self.mind, moves, DOUSE)
        near_fire = [r for r in fires if r == room or r in reads.adjoining(rooms[room])]
        if near_fire and douse:
            return douse[0]
        if reads.fire(rooms[room]):
            blast = casts_of(view, self.mind, moves, ("nova",))
            if blast:
                return blast[0]
        kept = kept_guardians(view)
        if reads.imp(rooms[room]) and not (reads.guardian(rooms[room]) and room in kept):
            kill = casts_of(view, self.mind, moves, KILL)
            if kill:
                return kill[0]
        level = _focus(goal)
        search = [] if win else self._unknown(view, moves, goal)
        golem = reads.scenario(view) == "golem"
        if search and golem and slot_level(move_slot(search[0])) == level and room not in targets:
            # look where the goal spell would do its work: Create Guardian turning up in a bare corner
            # guards it at once, while one turning up at a glyph source would bar that source
            step = step_toward(view, moves, targets) if reads.actions_left(view) >= 2 else None
            if step:
                return step
            if reads.source(rooms[room]) is not None:
                search = []
        if search and slot_level(move_slot(search[0])) == level:
            return search[0]  # a look at the goal's level beats one more glyph of a kind
        here = reads.source(rooms[room])
        errand = self._errand(view, moves)
        if errand is not None:
            return errand
        if (
            any(m.action == "take" for m in moves)
            and len(reads.glyphs(me)) < 8
            and reads.glyphs(me).count(here) < 4
        ):
            return Move.of("take")
        near = [room, *reads.adjoining(rooms[room])]
        guarded = [
            r
            for r in near
            if reads.guardian(rooms[r])
            and r not in kept
            and reads.source(rooms[r]) in needed
            and team.count(reads.source(rooms[r])) < 2
        ]
        if reads.guardian(rooms[room]) and here is not None and room not in kept:
            kill = casts_of(view, self.mind, moves, KILL)
            if kill:
                return kill[0]
        if guarded and casts_of(view, self.mind, moves, KILL) and room not in guarded:
            step = next((m for m in moves if m.action == "move" and m.get("room") in guarded), None)
            if step:
                return step  # go in and break the guardian for good
        if guarded:
            steal = casts_of(view, self.mind, moves, ("steal_glyphs",))
            if steal:
                return steal[0]
        if reads.actions_left(view) == 1 and is_hazard(rooms[room]):
            return leave_safely(view, seat, moves)
        if fires and (douse or casts_of(view, self.mind, moves, ("nova",))):
            step = step_toward(view, moves, fires)
            if step:
                return step
        if search:
            return search[0]
        bound = {reads.slot_id(x) for x in reads.slots(view) if reads.bound(x)}
        unbound_goal = [k for k, v in known.items() if v in (goal, "snuff") and k not in bound]
        if unbound_goal and room != "library":
            step = step_toward(view, moves, ["library"])
            if step:
                return step
        wants = [
            k
            for k, r in rooms.items()
            if reads.source(r) is not None
            and reads.pos(r) is not None
            and reads.source(r) in needed
            and team.count(reads.source(r)) < 2 * len(reads.wizards(view))
            and reads.glyphs(me).count(reads.source(r)) < 3
            and (not reads.guardian(r) or self._can_kill(view, moves))
        ]
        # The glyphs the known goal slot still lacks come first, then those that reach the goal's level
        # (without them its slots cannot be looked at).
        top = {1: (1, 2, 3), 2: (4, 5)}.get(level or 0, ())
        lack = self._lacking(view, goal)
        if not wants:
            wants = [
                k
                for k, r in rooms.items()
                if reads.source(r) is not None
                and reads.pos(r) is not None
                and not reads.guardian(r)
                and k != room
            ]
        wants.sort(key=self._source_order(view, team, lack, top, level))
        if wants and wants[0] != room:
            step = step_toward(view, moves, wants[:1]) or step_toward(view, moves, wants)
            if step:
                return step
        return leave_safely(view, seat, moves)

    def _errand(self, view: dict[str, Any], moves: list[Move]) -> Move | None:
        """Return a detour the plan makes before taking the glyph here (the balance policy makes none;
        a sharper policy may go and buy an item)."""
        return None

    def _source_order(
        self, view: dict[str, Any], team: list[int], lack: set[int], top: tuple[int, ...], level: int | None
    ) -> Callable[[str], tuple[Any, ...]]:
        """Return the order of the glyph sources to walk to: the known goal slot's missing glyphs first,
        then those that reach the goal's level, the glyphs the table holds fewest of, the highest."""
        rooms = rooms_by_key(view)

        def key(k: str) -> tuple[Any, ...]:
            glyph = reads.source(rooms[k])
            return (glyph not in lack, bool(lack) or glyph not in top, team.count(glyph), -glyph)

        return key

    def _unknown(self, view: dict[str, Any], moves: list[Move], goal: str) -> list[Move]:
        """Return the casts that would show an unknown slot, the goal spell's level first (its level is
        printed on its card), then own glyphs before a helper's, then higher levels."""
        here = reads.here(view)
        if here in kept_guardians(view) and reads.guardian(rooms_by_key(view)[here]):
            return []  # an unknown spell might well strike the guardian the table wants to keep
        keep = self._reserved(view, goal)
        level = _focus(goal)
        unknown = [
            m
            for m in moves
            if m.action == "cast"
            and self.mind.spell_at(view, move_slot(m)) is None
            and not (set(move_slot(m).split("-")) & keep)
        ]
        return sorted(
            unknown,
            key=lambda m: (
                slot_level(move_slot(m)) != level,
                m.get("helper") is not None,
                -slot_level(move_slot(m)),
            ),
        )

    def _lacking(self, view: dict[str, Any], goal: str) -> set[int]:
        """Return the glyphs of the known goal slot that the table does not hold enough of to cast it."""
        team = [g for w in reads.wizards(view) for g in reads.glyphs(w)]
        for x in reads.slots(view):
            if self.mind.spell_at(view, reads.slot_id(x)) == goal:
                need = Counter(reads.pair(x))
                return {g for g, n in need.items() if team.count(g) < n}
        return set()

    def _reserved(self, view: dict[str, Any], goal: str) -> set[str]:
        """Return the glyphs (as text) of the known goal slot that the table holds too few of to spare."""
        team = [g for w in reads.wizards(view) for g in reads.glyphs(w)]
        out: set[str] = set()
        for x in reads.slots(view):
            if self.mind.spell_at(view, reads.slot_id(x)) == goal:
                a, b = reads.pair(x)
                need = Counter([a, b])
                out |= {str(g) for g, n in need.items() if team.count(g) <= n}
        return out

    def _needed(self, view: dict[str, Any], goal: str) -> set[int]:
        """Return the glyphs that appear in a slot still unknown to the table or in the goal's slot."""
        out: set[int] = set()
        for x in reads.slots(view):
            key = self.mind.spell_at(view, reads.slot_id(x))
            if reads.used(x) and (key is None or key in (goal, *DOUSE, *KILL)):
                out.update(reads.pair(x))
        return out or set(range(1, 8))

    def _walks_into_danger(self, view: dict[str, Any], step: Move) -> bool:
        """Whether a step enters a troll's or demon's room with no action left to cast there (ending the
        turn beside it costs a wizard, and a slain wizard costs the crystal a mana)."""
        r = rooms_by_key(view)[step.get("room")]
        if not (reads.demon(r) or reads.troll(r)):
            return False
        # the advanced turn pays a move from the move slot, then the room slot, then the magic one,
        # then extra actions (wading costs a second payment); a cast needs the magic slot or an extra
        slots = dict(reads.free_slots(view) or {})
        extra = reads.extra_actions(view)
        for _ in range(2 if reads.water(r) else 1):
            k = next((k for k in ("move", "room", "magic") if slots.get(k)), None)
            if k:
                slots[k] = False
            else:
                extra -= 1
        return not (slots.get("magic") or extra > 0)

    def _can_kill(self, view: dict[str, Any], moves: list[Move]) -> bool:
        return bool(casts_of(view, self.mind, moves, (*KILL, "steal_glyphs")))

    def _choose(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Answer a choice: sensible picks for the common questions, else the first option."""
        c = reads.choice(view)
        why = reads.why(c).lower()
        values = reads.values(c)
        rooms = rooms_by_key(view)
        about = reads.about(c)
        if reads.op(about) == "in_order":  # the Helpful Hand's order: keep the most mana, then glyphs
            best = max(reads.orders(about), key=lambda o: (*reads.order_keeps(o), -reads.order_value(o)))
            return Move.of("choose", value=reads.order_value(best))
        if reads.op(about) == "recall_window":  # a demon costs the same mana and every glyph
            here = rooms.get(reads.room_of(view, reads.chooser(c)))
            return Move.of("choose", value="recall" if here and reads.demon(here) else "endure")
        if "teleported" in why:
            return Move.of("choose", value=True)
        if all(isinstance(v, int) for v in values) and "glyph" in why:
            mine = reads.glyphs(reads.wizard(view, reads.chooser(c)))
            if any(w in why for w in ("gain", "copy")):
                return Move.of("choose", value=max(values))
            counts = {v: mine.count(v) for v in values}
            return Move.of("choose", value=min(values, key=lambda v: (-counts[v], v)))
        if all(isinstance(v, str) and v in rooms for v in values):
            bare = [v for v in values if v in kept_guardians(view) and not reads.guardian(rooms[v])]
            if "guardian" in why and bare:
                return Move.of("choose", value=bare[0])
            if "fire" in why or "water" in why:
                burning = [v for v in values if reads.fire(rooms[v])]
                if burning:
                    return Move.of("choose", value=burning[0])
            if "move" in why or "teleport" in why:
                goal = CRYSTAL if any(k == "abjure" for k in self.mind.known.values()) else None
                if goal in values:
                    return Move.of("choose", value=goal)
                sources = [
                    v for v in values if reads.source(rooms[v]) is not None and not reads.guardian(rooms[v])
                ]
                if sources:
                    return Move.of("choose", value=sources[0])
        if "source" in why:
            best = max(values, key=lambda v: reads.source(rooms[v]) if v in rooms else 0)
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
    wins = sum(1 for g in range(games) if reads.won(play(players, options, seed + g)))
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
