"""The self-play policy's plan for the basic game (a mixin of ``academy_policy.Policy``).

Open a glyph 4 or 5 source, look at level 2 from the Mana Crystal (a look that turns up Abjure there
with no fire wins at once), gather Abjure's pair, put the fires out and cast it in the crystal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bots.games.academy_paths import (
    BAD,
    CRYSTAL,
    Mind,
    leave_safely,
    move_slot,
    rooms_by_key,
    step_toward,
    view_distances,
)
from rules.academy import reads
from rules.academy.setup import BASIC_L1, BASIC_L2
from rules.academy.state import slot_level
from rules.contract import Move


class BasicPlan:
    """The basic game's decisions; the policy supplies ``mind`` and ``trail``."""

    mind: Mind
    trail: tuple[tuple[int, int], list[str]]

    def _act_basic(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Pick the plan's move, never walking back into a room left earlier this turn (dithering)."""
        key = (reads.turn(view), seat)
        if self.trail[0] != key:
            self.trail = (key, [])
        here = reads.room_of(view, seat)
        move = self._plan_basic(view, seat, moves)
        if move.action == "move" and move.get("room") in self.trail[1]:
            if any(m.action == "take" for m in moves):
                move = Move.of("take")
            else:
                fresh = [m for m in moves if m.get("room") not in self.trail[1]]
                move = leave_safely(view, seat, fresh, imps=True)
        if move.action == "move":
            self.trail[1].append(here)
        return move

    def _plan_basic(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """The basic game's plan: open a glyph 4 or 5 source, look at level 2 from the crystal (a look
        that turns up Abjure there with no fire wins at once), then gather Abjure's pair and cast it."""
        me = reads.wizard(view, seat)
        rooms = rooms_by_key(view)
        room = reads.standing_in(me)
        fires = [k for k, r in rooms.items() if reads.fire(r) and reads.pos(r) is not None]
        known = self._deduced(view)
        abjure = next((k for k, v in known.items() if v == "abjure"), None)
        binds = [
            m for m in moves if m.action == "bind" and self.mind.known.get(m.get("slot")) == m.get("spell")
        ]
        binds = [m for m in binds if m.get("spell") not in BAD and slot_level(m.get("slot")) == 1]
        if binds:
            return binds[0]
        if any(m.action == "stop" for m in moves):
            return Move.of("stop")
        win = [m for m in moves if m.action == "cast" and abjure and move_slot(m) == abjure]
        win.sort(key=lambda m: m.get("helper") is not None)
        if win and room == CRYSTAL and not fires:
            return win[0]
        keep = set(abjure.split("-")) if abjure else set()
        douse = self._douse(view, moves, fires)
        if douse:
            return douse
        if reads.actions_left(view) <= 1 and reads.extra_actions(view) == 0:
            out = leave_safely(view, seat, moves, imps=True)
            if out.action == "move":
                return out  # the last action never ends the turn where fire, deep water or an imp waits
        if win and not fires:
            step = step_toward(view, moves, [CRYSTAL])
            if step:
                return step
        if win and fires:
            step = self._to_fire(view, moves, fires)
            if step:
                return step
            mine = Counter(reads.glyphs(me))
            own = all(mine[int(g)] >= n for g, n in Counter(abjure.split("-")).items())
            if own and CRYSTAL not in fires:
                # the wizard holding Abjure's pair waits in the crystal while the others put the fire out
                if room != CRYSTAL:
                    step = step_toward(view, moves, [CRYSTAL])
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
            d = view_distances(view, room).get(CRYSTAL, 99)
            if d < reads.actions_left(view):
                step = step_toward(view, moves, [CRYSTAL])
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
                if reads.guardian(r) and reads.source(r) in blocked and reads.pos(r) is not None
            ]
            if look1 and guarded:
                # look at level 1 beside the guardian: Nova there breaks it, Steal Glyphs reaches past it
                if room in guarded or room in {a for g in guarded for a in reads.adjoining(rooms[g])}:
                    return look1[0]
                step = step_toward(view, moves, guarded)
                if step:
                    return step
            elif look1:
                return look1[0]
        want = self._glyph_wants(view, seat, known, abjure)
        here = reads.source(rooms[room])
        if any(m.action == "take" for m in moves) and want.get(here, 0) > 0:
            return Move.of("take")
        goals = self._source_goals(view, seat, want)
        if goals:
            step = step_toward(view, moves, goals)
            if step:
                return step
        if win and room != CRYSTAL:
            step = step_toward(view, moves, [CRYSTAL])
            if step:
                return step
        if look:
            return look[0]
        if (
            any(m.action == "take" for m in moves)
            and len(reads.glyphs(me)) < 8
            and reads.glyphs(me).count(here) < 3
        ):
            return Move.of("take")
        spare = [
            k
            for k, r in rooms.items()
            if reads.source(r) is not None
            and not reads.guardian(r)
            and reads.pos(r) is not None
            and reads.glyphs(me).count(reads.source(r)) < 2
        ]
        step = step_toward(view, moves, spare) if spare and len(reads.glyphs(me)) < 8 else None
        if step:
            return step
        return leave_safely(view, seat, moves, imps=True)

    def _deduced(self, view: dict[str, Any]) -> dict[str, str | None]:
        """Return what lies on each used slot as far as the table knows, with a level's last unknown slot
        filled in when the others are known (the basic game's spell lists per level are public)."""
        known = {
            reads.slot_id(x): self.mind.spell_at(view, reads.slot_id(x))
            for x in reads.slots(view)
            if reads.used(x)
        }
        for level, names in ((1, BASIC_L1), (2, BASIC_L2)):
            slots = [reads.slot_id(x) for x in reads.slots(view) if reads.used(x) and reads.level(x) == level]
            unknown = [k for k in slots if known[k] is None]
            missing = set(names) - {known[k] for k in slots}
            if len(unknown) == 1 and len(missing) == 1:
                known[unknown[0]] = missing.pop()
        return known

    def _douse(self, view: dict[str, Any], moves: list[Move], fires: list[str]) -> Move | None:
        """Return a cast of a known spell that puts out a fire within its reach from here."""
        if not fires:
            return None
        rooms = rooms_by_key(view)
        room = reads.here(view)
        near = [room, *reads.adjoining(rooms[room])]
        reach = {"snuff": near, "call_flood": near, "spark_out": near, "maelstrom": near, "nova": [room]}
        for m in moves:
            key = self.mind.spell_at(view, move_slot(m)) if m.action == "cast" else None
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
            if m.action == "cast"
            and self.mind.spell_at(view, move_slot(m)) in ("snuff", "call_flood", "nova")
        ]
        if not dousers:
            return None
        rooms = rooms_by_key(view)
        # step into a burning room only with an action left to cast there (else the crystal pays for it)
        near = set(fires) if reads.actions_left(view) + reads.extra_actions(view) >= 2 else set()
        if any(self.mind.spell_at(view, move_slot(m)) != "nova" for m in dousers):
            # Snuff and Call Flood reach next door
            near |= {a for f in fires for a in reads.adjoining(rooms[f])}
        dist = view_distances(view, reads.here(view))
        if not near or min((dist.get(k, 99) for k in near), default=99) > within:
            return None
        return step_toward(view, moves, sorted(near))

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
            and slot_level(move_slot(m)) == level
            and known.get(move_slot(m)) is None
            and not (set(move_slot(m).split("-")) & keep)
        ]
        mine = reads.glyphs(reads.wizard(view, reads.viewer(view)))
        return sorted(out, key=lambda m: (m.get("helper") is not None, -mine.count(m.get("a"))))

    def _has(self, view: dict[str, Any], g: int, n: int = 1) -> bool:
        """Whether the table holds ``n`` of a glyph or can take it from an open source."""
        if sum(reads.glyphs(w).count(g) for w in reads.wizards(view)) >= n:
            return True
        return g in reads.open_sources(view)

    def _targets(
        self, view: dict[str, Any], known: dict[str, str | None], abjure: str | None
    ) -> list[list[int]]:
        """Return the level 2 pairs the table wants to cast: Abjure's, else every unknown one."""
        if abjure:
            return [[int(x) for x in abjure.split("-")]]
        return [
            reads.pair(x)
            for x in reads.slots(view)
            if reads.level(x) == 2 and reads.used(x) and known.get(reads.slot_id(x)) is None
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
        if any(g >= 4 for w in reads.wizards(view) for g in reads.glyphs(w)):
            return True
        return bool(reads.open_sources(view) & {4, 5})

    def _open_source(
        self, view: dict[str, Any], moves: list[Move], known: dict[str, str | None], blocked: set[int]
    ) -> Move | None:
        """Break a guardian on a needed glyph source with a known Nova, or steal past it with Steal Glyphs."""
        rooms = rooms_by_key(view)
        room = reads.here(view)
        guarded = [
            k
            for k, r in rooms.items()
            if reads.guardian(r) and reads.source(r) in blocked and reads.pos(r) is not None
        ]
        if not guarded:
            return None
        nova = [m for m in moves if m.action == "cast" and known.get(move_slot(m)) == "nova"]
        nova.sort(key=lambda m: m.get("helper") is not None)
        if nova and room in guarded:
            return nova[0]
        steal = [m for m in moves if m.action == "cast" and known.get(move_slot(m)) == "steal_glyphs"]
        near = {room, *reads.adjoining(rooms[room])}
        if steal and near & set(guarded):
            return steal[0]
        if nova or steal:
            return step_toward(view, moves, guarded)
        return None

    def _glyph_wants(
        self, view: dict[str, Any], seat: int, known: dict[str, str | None], abjure: str | None
    ) -> dict[int, int]:
        """Return how much each glyph is worth to this wizard now (0: not worth an action)."""
        mine = reads.glyphs(reads.wizard(view, seat))
        team = [g for w in reads.wizards(view) for g in reads.glyphs(w)]
        want: dict[int, int] = {}
        if abjure:
            need = Counter(int(x) for x in abjure.split("-"))
            for g, n in need.items():
                if team.count(g) < n + 1:
                    want[g] = 10
            fires = any(reads.fire(r) for r in reads.grid(view))
            douse = [
                reads.pair(x)
                for x in reads.slots(view)
                if known.get(reads.slot_id(x)) in ("snuff", "call_flood")
            ]
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
            for x in reads.slots(view):
                if (
                    reads.level(x) == 1
                    and reads.used(x)
                    and known.get(reads.slot_id(x)) in (None, "nova", "steal_glyphs")
                ):
                    for g in reads.pair(x):
                        want[g] = want.get(g, 0) + 1
        extra: list[tuple[list[int], int]] = []
        if self._blocked(view, known, abjure):
            extra += [
                (reads.pair(x), 9)
                for x in reads.slots(view)
                if known.get(reads.slot_id(x)) in ("nova", "steal_glyphs")
            ]
        if any(reads.fire(r) for r in reads.grid(view)):
            extra += [
                (reads.pair(x), 7)
                for x in reads.slots(view)
                if known.get(reads.slot_id(x)) in ("nova", "snuff", "call_flood")
            ]
        for pair, worth in extra:
            for g in pair:
                if team.count(g) < pair.count(g) + 1:
                    want[g] = max(want.get(g, 0), worth)
        for g in list(want):
            if mine.count(g) >= 3 or team.count(g) >= 2 + len(reads.wizards(view)):
                want[g] = 0
        if len(mine) >= 8:
            return {}
        return want

    def _source_goals(self, view: dict[str, Any], seat: int, want: dict[int, int]) -> list[str]:
        """Return the open source rooms holding the most wanted glyph (nearest first by the caller)."""
        rooms = rooms_by_key(view)
        open_rooms = {
            k: reads.source(r)
            for k, r in rooms.items()
            if reads.source(r) is not None
            and not reads.guardian(r)
            and reads.pos(r) is not None
            and want.get(reads.source(r), 0) > 0
        }
        if not open_rooms:
            return []
        here = reads.room_of(view, seat)
        dist = view_distances(view, here)
        best = max(
            open_rooms.values(),
            key=lambda g: (
                want[g] * 4 - min((dist.get(k, 99) for k, s in open_rooms.items() if s == g), default=99)
            ),
        )
        return [k for k, s in open_rooms.items() if s == best]
