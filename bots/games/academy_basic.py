"""The sharper policy's basic game: ``SharpBasic``, a mixin over the balance policy (``Policy``).

``strong`` plays ``class SharpPolicy(SharpBasic, SharpAdvanced, Policy)``; this mixin acts only where
``view["basic"]`` is true and hands everything else to ``super()``. It reads the seat's view and the
policy's memory (``self.mind``), never a hidden spell, and each decision stays well under a millisecond.

Each change fixes a loop or a gap seen in traced games of the balance policy. Screened by playing
tables of the policy through the arena's loop with per-seat memory (2 players, seeds 1-200, paired
against the unchanged policy; wins of 200 as normal / easy / hard, baseline 62 / 149 / 24):

- Steal Glyphs takes from the source the plan lacks (a guarded glyph a wanted pair needs, else the
  scarcest at the table), not always the highest one: a table with glyph 4 and 5 both guarded stole
  glyph 5 after glyph 5 while every look it could cast needed the guarded 4. Alone: 62 / 149 / 24
  (games that changed their result: 1 won, 1 lost).
- A wizard walled off from the crystal (a twist closed its doors) casts a known Dimension Twist,
  Teleport Self or Bend Dimension, else a blind look, instead of ending turn after turn with three
  actions left. With the above: 62 / 149 / 24 (2 won, 2 lost).
- A wizard never wades into a flooded room with its last two actions when it would end the turn in
  deep water, fire or beside an imp: the crystal paid a mana each turn to save it, sent it back to the
  crystal, and it walked the same way again. All three: 61 / 149 / 25 (3 won, 3 lost).
- While Abjure's pair needs a guarded glyph and neither Nova nor Steal Glyphs is known, a wizard
  wants the glyphs of the level 1 slots still to look at (outside Abjure's pair), as it does before
  Abjure is found; the balance policy wanted only Abjure's pair then and looked at level 1 only with
  what happened to be in hand, so an easy table whose Abjure needs the guarded glyph 5 rarely found
  the way past its guardian. All four: 61 / 162 / 25 (easy: 22 won, 9 lost); on fresh seeds
  201-400: 47 / 162 / 18 against 45 / 145 / 16 (easy: 19 won, 2 lost). A real gain in easy; in
  normal and hard an Abjure found behind a guardian is rare, and the gain there is within the noise.

The first three are within the noise (a paired difference of about 5 is noise): they remove losses that
are rare, not the common ones. Tried and dropped (each within the noise or worse, same screen): wanting
most the glyph that completes a level 2 look with one held, counting a helper's glyph (61 / 149 / 22);
Nova on an imp in the crystal and no blind cast there while one waits (59 / 149 / 25); casting a level 2
look where the wizard stands rather than walking to the crystal (58 / 149 / 22); sparing only the glyphs
of Abjure's pair the table has no spare of, at level 1 (62 / 151 / 25; at both levels 60 / 146 / 23; on
top of the fourth change, 159 in easy against its 162); no sparing of Abjure's glyphs at level 1 once
every slot left holds one (162 either way); halving the want of a glyph whose source another wizard
stands at (61 / 151 / 23); never entering fire with the last two actions without a calm room beyond, and
on the last action leaving fire even for a room left earlier in the turn (59 / 148 / 22: it cut the mana
the crystal paid shielding wizards from fire and water from 139 to 67 per 100 normal games (the balance
policy: 151) and the losses by mana from 36 to 28, but those games then ran out of disasters instead);
the opposite, letting the last action stay in a harmful room while the crystal holds 3 mana or more (58
/ 150 / 27). Time, not mana, bounds the basic game: the lost games spend about 20 of their player-turns
before a glyph 4 or 5 is in hand and 18 more looking for Abjure.

What the table knows decides the game at normal. The same policy told every face-down spell won 375
of 400 (seeds 1-400), told only Abjure's slot 248, always knowing where Nova and Steal Glyphs lie 154,
and with only what it saw, 108. Two more changes follow from that (wins as normal / hard; together
they were screened over 1,600 seeds, 1-800 and then 801-1600 as a holdout):

- A known Nova or Steal Glyphs is taken to the Library to be bound when it lies within three moves,
  while a guardian still stands on glyph 4 or 5 and Abjure is unknown (``_bind_trip``): Wild Magic
  shuffles the face-down level 1 spells every pass of the disaster deck. Alone, seeds 1-800: 220 / 93
  against 216 / 73.
- While no opener is known and no level 2 pair can be reached, a wizard casts a level 1 look where it
  stands (``_look_here``); the balance policy carried it to a guardian's room first, where a Nova
  found breaks the guardian at once, but the walk cost more than the second cast it saved. Alone,
  seeds 1-800: 224 / 76.

Together: 234 / 92 on seeds 1-800 and 200 / 59 on 801-1600, against 216 / 73 and 187 / 67 before, and
214 / 66 and 181 / 65 for the balance policy (``basic``): over the 1,600 seeds, **434 against 395 at
normal and 151 against 131 at hard**. The easy setting starts with Abjure bound, and neither change acts
there (324 of 400 either way; ``basic`` 294). Tried and dropped (seeds 1-800 unless said): breaking a
guardian whenever Nova is known, first of all (108 / 43 of 400 fell to 96 / 31: imps then settle on the
open source and drain it, where the guardian killed them); a Library trip up to four or five moves
(226 / 91, 203 / 79) or only while Wild Magic is still to come this pass (213 / 79); naming Abjure in the
Library when few level 2 slots are unknown and mana is spare (within the noise at three unknown, 109 / 28
of 400 at nine); a route planner for the cheapest level 2 look (106 / 40 of 400), a wizard with no high
glyph bringing low glyphs for its partner's (106 / 44 of 400) and giving an imp a low glyph rather than
a high one (110 / 42 of 400), all within the noise; never ending a turn in fire or deep water once mana
runs low (232 / 82 at three mana, 229 / 72 at four: the free trip back to the crystal after a shield is
worth its mana); level 2 looks where the wizard stands (235 / 82) and level 1 looks also while fire burns
(237 / 89). A paired difference under about 25 in 800 games is noise (two standard errors).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bots.games.academy_paths import (
    CRYSTAL,
    is_hazard,
    move_slot,
    rooms_by_key,
    step_toward,
    view_distances,
)
from rules.academy import reads
from rules.academy.state import LIBRARY, slot_level
from rules.contract import Move

OPENERS = ("nova", "steal_glyphs")
"""The level 1 spells that reach a guarded glyph source (Nova breaks its guardian, Steal reaches past it)."""
LOOK_WANT = 3
"""What a glyph of a level 1 slot still to look at is worth, per slot, while Abjure's pair is blocked
(the balance policy's wants run to 10 for Abjure's own pair and 9 for a known opener's; a prototype
worth 1 or 3 per glyph screened 162 and 164 in easy)."""
ESCAPES = ("dimension_twist", "teleport_self", "bend_dimension")
"""Known spells that reopen a way to the crystal (the layout choices keep the academy open)."""
BIND_TRIP = 3
"""A wizard walks to the Library to bind a known opener when it lies within this many moves (2, 4 and 5
screened no better than 3)."""


def _guarded_high(view: dict[str, Any]) -> bool:
    """Whether a guardian still stands on the glyph 4 or 5 source."""
    return any(
        reads.guardian(r) and reads.source(r) in (4, 5) and reads.pos(r) is not None for r in reads.grid(view)
    )


class SharpBasic:
    """Basic-game changes over ``academy_policy.Policy`` (the advanced game goes to ``super()``)."""

    def _plan_basic(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """The balance plan without wading into a costly last room, and a walled-off wizard casts; a
        known opener is bound in the Library nearby, and a level 1 look is cast where the wizard stands."""
        moves = [m for m in moves if not self._wades_in(view, m)] or moves
        if not any(m.action in ("bind", "stop") for m in moves):  # in the Library, the plan's binds first
            known = self._deduced(view)  # type: ignore[attr-defined]
            early = self._bind_trip(view, seat, moves, known) or self._look_here(view, moves, known)
            if early is not None:
                return early
        move = super()._plan_basic(view, seat, moves)  # type: ignore[misc]
        if move.action == "end" and CRYSTAL not in view_distances(view, reads.room_of(view, seat)):
            escape = self._escape(view, moves)
            if escape is not None:
                return escape
        return move

    def _bind_trip(
        self, view: dict[str, Any], seat: int, moves: list[Move], known: dict[str, str | None]
    ) -> Move | None:
        """Step towards the Library, within ``BIND_TRIP`` moves, to bind a known Nova or Steal Glyphs while a
        guardian still stands on glyph 4 or 5 and Abjure is unknown: Wild Magic shuffles level 1 face-down
        spells every pass of the disaster deck, and a bound opener stays known (the balance policy binds
        what it knows only when its way passes the Library)."""
        if "abjure" in known.values() or not _guarded_high(view):
            return None
        bound = {reads.slot_id(x) for x in reads.slots(view) if reads.bound(x)}
        if not any(v in OPENERS and k not in bound for k, v in known.items()):
            return None
        here = reads.room_of(view, seat)
        if here == LIBRARY or view_distances(view, here).get(LIBRARY, BIND_TRIP + 1) > BIND_TRIP:
            return None
        return step_toward(view, moves, [LIBRARY])

    def _look_here(
        self, view: dict[str, Any], moves: list[Move], known: dict[str, str | None]
    ) -> Move | None:
        """Cast a level 1 look where the wizard stands while the table knows no way to a glyph 4 or 5
        (no opener known, every level 2 pair out of reach) and no fire burns. The balance policy carries
        the look to a guardian's room first, so that a Nova found there breaks it at once; the walk costs
        more than the second cast it saves."""
        if any(reads.fire(r) for r in reads.grid(view)):
            return None
        if any(v in (*OPENERS, "abjure") for v in known.values()):
            return None
        if not self._blocked(view, known, None) or self._reachable(view, known, None):  # type: ignore[attr-defined]
            return None
        looks = self._looks(view, moves, known, set(), 1)  # type: ignore[attr-defined]
        return looks[0] if looks else None

    def _glyph_wants(
        self, view: dict[str, Any], seat: int, known: dict[str, str | None], abjure: str | None
    ) -> dict[int, int]:
        """The balance policy's wants, and while Abjure's pair needs a guarded glyph and neither Nova nor
        Steal Glyphs is known, the glyphs of the level 1 slots still to look at (the balance policy
        wants only Abjure's pair then, and looks at level 1 only with what happens to be in hand)."""
        want = super()._glyph_wants(view, seat, known, abjure)  # type: ignore[misc]
        if not reads.basic(view) or not abjure or not want or any(v in OPENERS for v in known.values()):
            return want
        if self._reachable(view, known, abjure) or not self._blocked(view, known, abjure):  # type: ignore[attr-defined]
            return want
        keep = set(abjure.split("-"))
        mine = reads.glyphs(reads.wizard(view, seat))
        team = [g for w in reads.wizards(view) for g in reads.glyphs(w)]
        looks: Counter[int] = Counter()
        for x in reads.slots(view):
            unseen = reads.level(x) == 1 and reads.used(x) and known.get(reads.slot_id(x)) is None
            if unseen and not set(reads.slot_id(x).split("-")) & keep:
                looks.update({g: LOOK_WANT for g in reads.pair(x)})
        for g, worth in looks.items():
            if mine.count(g) < 3 and team.count(g) < 2 + len(reads.wizards(view)):
                want[g] = max(want.get(g, 0), worth)
        return want

    def _wades_in(self, view: dict[str, Any], move: Move) -> bool:
        """Whether a move wades into a flooded room with the turn's last two actions, ending the turn
        where deep water, fire or an imp waits (wading takes both actions, so the wizard stays there)."""
        if move.action != "move":
            return False
        room = rooms_by_key(view)[move.get("room")]
        left = reads.actions_left(view) + reads.extra_actions(view)
        return bool(reads.water(room)) and left <= 2 and is_hazard(room, imps=True)

    def _escape(self, view: dict[str, Any], moves: list[Move]) -> Move | None:
        """Return a cast for a wizard walled off from the crystal: a known spell that reopens a way,
        else a blind look (level 1 first, where Dimension Twist and Dash lie)."""
        known = self._deduced(view)  # type: ignore[attr-defined]
        casts = [m for m in moves if m.action == "cast"]
        reopen = [m for m in casts if known.get(move_slot(m)) in ESCAPES]
        looks = [m for m in casts if known.get(move_slot(m)) is None]
        looks.sort(key=lambda m: (slot_level(move_slot(m)), m.get("helper") is not None))
        return (reopen or looks or [None])[0]

    def _choose(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        """Answer Steal Glyphs' choice of source sharply; every other choice as the balance policy."""
        if reads.basic(view):
            pick = self._steal_pick(view)
            if pick is not None:
                return Move.of("choose", value=pick)
        return super()._choose(view, seat, moves)  # type: ignore[misc]

    def _steal_pick(self, view: dict[str, Any]) -> str | None:
        """Pick the source Steal Glyphs takes from: a guarded glyph a wanted pair needs first, then a
        guarded one, then the glyph the table holds fewest of (the balance policy takes the highest)."""
        c = reads.choice(view)
        if reads.op(reads.about(c)) != "take_source":
            return None
        rooms = rooms_by_key(view)
        values = reads.values(c)
        if not values or not all(
            isinstance(v, str) and v in rooms and reads.source(rooms[v]) for v in values
        ):
            return None
        known = self._deduced(view)  # type: ignore[attr-defined]
        abjure = next((k for k, v in known.items() if v == "abjure"), None)
        blocked = self._blocked(view, known, abjure)  # type: ignore[attr-defined]
        team = [g for w in reads.wizards(view) for g in reads.glyphs(w)]

        def worth(room: str) -> tuple[bool, bool, int, int]:
            g = reads.source(rooms[room])
            return (g in blocked, bool(reads.guardian(rooms[room])), -team.count(g), g)

        return max(values, key=worth)
