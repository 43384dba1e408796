"""A sharper policy for the Academy's advanced scenarios (golem, unstable, gates, demon).

``SharpAdvanced`` is a mixin over the balance policy (``bots.games.academy_policy.Policy``), composed as
``class SharpPolicy(SharpBasic, SharpAdvanced, Policy)`` for the ``strong`` bot; the balance tool and
``basic`` keep the unchanged policy. Like it, it reads only the seat's view and the table's memory
(``self.mind``); a choice depends on nothing else but the policy's seeded ``self.rand``. ``_plan`` is the
balance policy's advanced plan with the changes below; each has a switch (a class attribute) so that a
screen can weigh it alone.

Measured with paired seeds against the balance policy (2 players, seeds 1-200, a table of the policy
with per-seat memory, the arena's loop), wins at normal for golem / unstable / gates / demon, base
53 / 84 / 91 / 63 (291 of 800); each figure adds the change to those above it:

- Harm at the turn's end (always on): the turn's last action neither stays in a room with fire, deep
  water, a troll or a demon for a glyph or a blind cast, nor walks into one (the balance policy's routes
  exempt their goal room, so it walked into a burning source or the demon's room to end its turn there,
  and the crystal paid a mana to shield or save the wizard). 58 / 86 / 94 / 74 (312).
- ``steer``: a threat that may go several ways (the Helpful Hand of Fate) goes the way farthest from
  the crystal, into a room already holding its kind when it spreads, away from the wizards (the
  balance policy picked at random). 60 / 86 / 95 / 75 (316).
- ``aim``: damage goes to a creature it kills, the most dangerous first, never to a guardian of a golem
  corner nor to the demon the table must bind. Alone on the first change: 56 / 85 / 96 / 76 (313).
- ``seek`` (demon only): while Bind Demon is unknown, a look at level 4 comes before a glyph or a walk;
  a level-4 botch costs little there (Summon Demon even brings a demon to bind). Demon 75 -> 79; in
  the other scenarios the same rule lost (unstable 86 -> 79, gates 95 -> 73), so it stays off there.
- ``gather`` (cheap goals: golem's Create Guardian, level 1): of the glyph sources the table holds
  equally few of, the nearest first (the balance policy walked to the highest glyph however far, and a
  table in need of glyphs 1-3 hoarded 5s and 6s). Golem 58 -> 73 at normal, 57 -> 83 easy, 31 -> 37
  hard; applied to the high goals too it lost (unstable 69, gates 72, demon 56), so it stays with the
  cheap ones.
- ``reach`` (high goals, level 3-4, while unknown): among blind casts a look at the goal's level comes
  first, with a partner's shared glyph too (the balance policy preferred its own glyphs on any level, so
  a wizard holding glyph 7s looked at levels 1-3). Unstable 86 -> 87, gates 95 -> 97, demon 79 -> 79.
- ``pair`` (high goals while unknown): the glyph sources whose glyph, with one the table holds, opens an
  unknown slot of the goal's level come first. Unstable 87 -> 84, gates 97 -> 100, demon 79 -> 82.

- ``wand`` (goals only level 4 serves: unstable, demon): a wizard with five glyphs and no glyph 7 buys
  a wand of 7 in the Workshop (walking there from up to three rooms away; the balance policy never buys
  an item and picks a wand's glyph at random), so any glyph opens a level-4 slot. Unstable 84 -> 98,
  demon 82 -> 89 at normal; unstable hard 60 -> 71, demon hard 74 -> 89. In Hold the Gates, where Close
  Portal (level 3) serves too, it lost (100 -> 89), so the gates buy none. Buying from four glyphs or
  walking up to eight rooms moved the two normal cells by -4 to +7 of 400 games: left at five and three.

All twelve advanced cells at 200 games (variant / base, games only the variant won / only base won):
golem 73/53 (33/13), easy 84/57 (35/8), hard 37/31 (18/12); unstable 98/84 (22/8), easy 120/111
(12/3), hard 71/48 (26/3); gates 100/91 (20/11), easy 120/115 (9/4), hard 65/60 (10/5); demon 89/63
(37/11), easy 114/92 (25/3), hard 89/53 (45/9): 1060 against 858 of 2400 games (44% against 36%).
Tried and left out: casting Thaw at ice in reach (unstable 84 -> 83, no change elsewhere), sharing the
known goal slot's glyph a partner lacks (golem 73 -> 72, no change elsewhere), passing up a third
glyph of a kind while a high slot waits for another (230 against 266 of 600), casting a known
troll-killer at a troll in reach (no change). A decision takes 0.12 ms (median; 0.23 ms at the 90th
percentile) against the balance policy's 0.10 ms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bots.games.academy_paths import (
    CRYSTAL,
    leave_safely,
    move_slot,
    rooms_by_key,
    step_toward,
    view_distances,
)
from bots.games.academy_policy import GOAL, GOALS, kept_guardians
from rules.academy import reads
from rules.academy.state import slot_level
from rules.contract import Move

CURES = {
    "fire": ("snuff", "spark_out", "maelstrom", "tidal_wave", "nova", "purify"),
    "water": ("calm_waters", "purify"),
    "troll": ("banish",),
    "demon": ("banish", "bind_demon"),
}
"""Known spells that clear a threat from the caster's room (so casting one last is no harm)."""


WORKSHOP = "workshop"
SEEK = ("demon",)
"""Scenarios where the sharp policy looks at its goal's level first (``SharpAdvanced._seek``)."""


def _harms(room: dict[str, Any]) -> list[str]:
    """Return the threats in a room that cost mana or a wizard when a turn ends there (imps aside)."""
    on = (reads.fire(room) > 0, reads.water(room) >= 2, bool(reads.troll(room)), bool(reads.demon(room)))
    return [k for k, hit in zip(("fire", "water", "troll", "demon"), on, strict=True) if hit]


def _level_four(key: str) -> bool:
    """Whether only level-4 spells serve a scenario's goal (Hold the Gates also has Close Portal, level 3)."""
    return all(reads.spell_level(g) == 4 for g in GOALS.get(key, (GOAL[key],)))


class SharpAdvanced:
    """The advanced scenarios' sharper moves (a mixin over ``Policy``)."""

    mind: Any
    steer = True
    aim = True
    seek = True
    gather = True
    reach = True
    pair = True
    wand = True
    wand_glyphs = 5
    """Glyphs a wizard holds before buying the wand (three pay for it, two are left to cast)."""
    wand_walk = 3
    """How far a wizard walks to the Workshop for it."""

    def _unknown(self, view: dict[str, Any], moves: list[Move], goal: str) -> list[Move]:
        """The balance policy's blind casts, but while a high goal (level 3-4) is unknown a look at its
        level comes first even with a helper's shared glyph (the balance policy prefers its own glyphs
        on any level, so a wizard holding glyph 7s kept looking at the low levels instead)."""
        out = super()._unknown(view, moves, goal)  # type: ignore[misc]
        levels = self._high(view)
        if self.reach and levels and out:
            out.sort(key=lambda m: slot_level(move_slot(m)) not in levels)  # stable: the base order otherwise
        return out

    def _high(self, view: dict[str, Any]) -> set[int]:
        """Return the levels of the scenario's goal spells when they are high (3-4) and none is known."""
        key = reads.scenario(view)
        goals = GOALS.get(key, (GOAL[key],))
        levels = {reads.spell_level(g) for g in goals}
        if min(levels) < 3 or any(
            self.mind.spell_at(view, reads.slot_id(x)) in goals for x in reads.slots(view)
        ):
            return set()
        return levels

    def _opens(self, view: dict[str, Any], team: list[int]) -> set[int]:
        """Return the glyphs that, with one the table holds, look at an unknown slot of a high goal's level
        (a hand of glyph 7s is worth nothing until a partner glyph opens a level-4 slot)."""
        levels = self._high(view)
        out: set[int] = set()
        for x in reads.slots(view) if levels else ():
            if (
                slot_level(reads.slot_id(x)) in levels
                and reads.used(x)
                and self.mind.spell_at(view, reads.slot_id(x)) is None
            ):
                a, b = reads.pair(x)
                if a in team and b not in team:
                    out.add(b)  # the slot waits for this glyph; one already held opens it now
                if b in team and a not in team:
                    out.add(a)
        return out

    def _errand(self, view: dict[str, Any], moves: list[Move]) -> Move | None:
        """Before the glyph here: go and buy a wand of 7 when only level 4 serves (``_shop``)."""
        return self._shop(view, moves) if self.wand else None

    def _source_order(
        self, view: dict[str, Any], team: list[int], lack: set[int], top: tuple[int, ...], level: int | None
    ) -> Callable[[str], tuple[Any, ...]]:
        """The glyph sources to walk to: for a cheap goal (level 1-2) the nearest of those the table holds
        equally few of (``gather``); for a high goal, first those whose glyph opens an unknown slot of its
        level (``pair``); else the balance policy's order."""
        rooms = rooms_by_key(view)
        if self.gather and level is not None:
            near = view_distances(view, reads.here(view))

            def nearest(k: str) -> tuple[Any, ...]:
                glyph = reads.source(rooms[k])
                return (glyph not in lack, bool(lack) or glyph not in top, team.count(glyph), near.get(k, 99))

            return nearest
        opens = self._opens(view, team) if self.pair else set()
        base = super()._source_order(view, team, lack, top, level)  # type: ignore[misc]
        return lambda k: (
            reads.source(rooms[k]) not in lack,
            reads.source(rooms[k]) not in opens,
            *base(k)[1:],
        )

    def _shop(self, view: dict[str, Any], moves: list[Move]) -> Move | None:
        """A goal only level 4 serves: with five glyphs and no glyph 7, buy a wand of 7 in the Workshop
        (three glyphs), walking there when it is near; then any glyph opens a level-4 slot (glyph 7
        sources are rare)."""
        me = reads.wizard(view, reads.viewer(view))
        key = reads.scenario(view)
        if reads.wand(me) is not None or 7 in reads.glyphs(me) or len(reads.glyphs(me)) < self.wand_glyphs:
            return None
        if not _level_four(key):
            return None
        buy = Move.of("room", act="wand")
        if buy in moves:
            return buy
        near = view_distances(view, reads.standing_in(me))
        if near.get(WORKSHOP, 99) <= self.wand_walk:
            return step_toward(view, moves, [WORKSHOP])
        return None

    def _seek(self, view: dict[str, Any], moves: list[Move]) -> Move | None:
        """Bind the Demon: look at level 4 (Bind Demon's) before a glyph or a walk while the goal is
        unknown. There a level-4 botch costs little (Summon Demon even brings a second demon to bind),
        while elsewhere its botches (Cataclysm, Inferno Gate) cost more than the look is worth."""
        key = reads.scenario(view)
        if key not in SEEK:
            return None
        goals = GOALS.get(key, (GOAL[key],))
        levels = {reads.spell_level(g) for g in goals}
        if any(self.mind.spell_at(view, reads.slot_id(x)) in goals for x in reads.slots(view)):
            return None
        look = [m for m in self._unknown(view, moves, GOAL[key]) if slot_level(move_slot(m)) in levels]
        return look[0] if look else None

    def _choose(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Answer an effect's choice from what it is about (the choice's data, never its wording)."""
        about = reads.about(reads.choice(view))
        if not reads.basic(view):
            if self.steer and reads.way(about) in ("go", "spread"):
                pick = self._steer(view, about)
                if pick is not None:
                    return pick
            if self.wand and reads.item(about) == "wand":
                values = reads.values(reads.choice(view))
                if 7 in values and _level_four(reads.scenario(view)):
                    return Move.of("choose", value=7)
            if self.aim and reads.op(about) == "damage":
                pick = self._aim(view, reads.strength(about))
                if pick is not None:
                    return pick
        return super()._choose(view, seat, moves)  # type: ignore[misc]

    def _steer(self, view: dict[str, Any], about: dict[str, Any]) -> Move | None:
        """Send a threat that may go several ways the way farthest from the crystal, into a room already
        holding its kind when it spreads, and away from the wizards (the Helpful Hand of Fate)."""
        rooms = rooms_by_key(view)
        if CRYSTAL not in rooms:
            return None
        far = view_distances(view, CRYSTAL)
        # a token spreading into a room of its kind adds nothing (fire, water, darkness); ice would seal it
        spreads = reads.way(about) == "spread" and reads.what(about) in ("fire", "water", "darkness")
        kind = reads.what(about) if spreads else None
        best, score = None, None
        for value in reads.values(reads.choice(view)):
            room = reads.destination(about, value)
            if room is None:
                return None
            r = rooms[room]
            key = (bool(kind and reads.tokens(r, kind)), far.get(room, 9), not reads.wizards_in(r))
            if score is None or key > score:
                best, score = value, key
        return Move.of("choose", value=best)

    def _aim(self, view: dict[str, Any], n: int) -> Move | None:
        """Spend damage on a creature it kills, the most dangerous first and nearest the crystal; never on
        a guardian the table keeps (a golem corner), nor on the demon the table must bind."""
        rooms = rooms_by_key(view)
        kept = kept_guardians(view)
        far = view_distances(view, CRYSTAL) if CRYSTAL in rooms else {}
        worth = {"demon": 4, "troll": 3, "imp": 2, "guardian": 0}
        toll = {"imp": 1, "guardian": 1, "troll": 2, "demon": 3}
        best, score = None, None
        for target in reads.values(reads.choice(view)):
            room, kind = str(target).split(":")
            hurt = reads.damage(view, room, kind)
            kills = n + hurt >= toll.get(kind, 9)
            value = worth.get(kind, 1)
            if kind == "guardian" and room in kept:
                value = -5
            if kind == "demon" and reads.scenario(view) == "demon":
                value = -1
            key = (value if kills else min(value, 0.5), -far.get(room, 9))
            if score is None or key > score:
                best, score = target, key
        return Move.of("choose", value=best)

    def _act_advanced(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        move = super()._act_advanced(view, seat, moves)  # type: ignore[misc]
        if self.seek and move.action in ("take", "move", "end"):
            look = self._seek(view, moves)
            if look is not None:
                move = look
        if self._stays_in_harm(view, seat, move):
            out = leave_safely(view, seat, moves)
            if out.action == "move":
                return out
        if self._ends_in_harm(view, move):
            return leave_safely(view, seat, moves)
        return move

    def _ends_in_harm(self, view: dict[str, Any], move: Move) -> bool:
        """Whether a step spends the turn's last action walking into a room whose threats cost mana or a
        wizard at the turn's end (the balance policy's routes exempt their goal room from that check)."""
        if move.action != "move":
            return False
        there = rooms_by_key(view).get(move.get("room"))
        if there is None or not _harms(there):
            return False
        return reads.actions_left(view) <= (2 if reads.water(there) else 1)

    def _stays_in_harm(self, view: dict[str, Any], seat: int, move: Move) -> bool:
        """Whether the turn's last action leaves the wizard in a room whose threats cost mana (a glyph
        taken or a blind cast there is worth less than the mana the crystal pays to shield them)."""
        if reads.actions_left(view) != 1 or move.action not in ("take", "cast", "bind"):
            return False
        harms = _harms(rooms_by_key(view)[reads.room_of(view, seat)])
        if not harms:
            return False
        if move.action == "cast":
            spell = self.mind.spell_at(view, move_slot(move))
            goal = GOAL[reads.scenario(view)]
            if spell in GOALS.get(reads.scenario(view), (goal,)):
                return False
            if spell is not None and all(spell in CURES[k] for k in harms):
                return False
        return True
