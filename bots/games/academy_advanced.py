"""A sharper policy for the Academy's advanced scenarios (golem, unstable, gates, demon).

``SharpAdvanced`` is a mixin over the balance policy (``rules.academy.selfplay.Policy``), composed as
``class SharpPolicy(SharpBasic, SharpAdvanced, Policy)`` for the ``strong`` bot; the balance tool and
``basic`` keep the unchanged policy. It reads only the seat's view and the table's memory
(``self.mind``).
"""

from __future__ import annotations

from typing import Any

from rules.academy.cards import spells
from rules.academy.selfplay import GOAL, GOALS, _kept_guardians
from rules.academy.selfplay_common import CRYSTAL, _dist, _leave, _level, _rooms, _slot
from rules.contract import Move

CURES = {
    "fire": ("snuff", "spark_out", "maelstrom", "tidal_wave", "nova", "purify"),
    "water": ("calm_waters", "purify"),
    "troll": ("banish",),
    "demon": ("banish", "bind_demon"),
}
"""Known spells that clear a threat from the caster's room (so casting one last is no harm)."""


SEEK = ("demon",)
"""Scenarios where the sharp policy looks at its goal's level first (``SharpAdvanced._seek``)."""


def _harms(room: dict[str, Any]) -> list[str]:
    """Return the threats in a room that cost mana or a wizard when a turn ends there (imps aside)."""
    on = (room["fire"] > 0, room["water"] >= 2, bool(room["troll"]), bool(room["demon"]))
    return [k for k, hit in zip(("fire", "water", "troll", "demon"), on, strict=True) if hit]


def _named(view: dict[str, Any], label: str) -> str | None:
    """Return the room a direction's label names ("N: Holy Room"), if any."""
    name = label.split(": ", 1)[-1]
    return next((r["key"] for r in view["grid"] if r["name"] == name), None)


class SharpAdvanced:
    """The advanced scenarios' sharper moves (a mixin over ``Policy``)."""

    mind: Any
    _unknown: Any
    steer = True
    aim = True
    seek = True

    def _seek(self, view: dict[str, Any], moves: list[Move]) -> Move | None:
        """Bind the Demon: look at level 4 (Bind Demon's) before a glyph or a walk while the goal is
        unknown. There a level-4 botch costs little (Summon Demon even brings a second demon to bind),
        while elsewhere its botches (Cataclysm, Inferno Gate) cost more than the look is worth."""
        key = view["scenario"]["key"]
        if key not in SEEK:
            return None
        goals = GOALS.get(key, (GOAL[key],))
        levels = {spells()[g]["level"] for g in goals}
        if any(self.mind.spell_at(view, x["id"]) in goals for x in view["spells"]):
            return None
        look = [m for m in self._unknown(view, moves, GOAL[key]) if _level(_slot(m)) in levels]
        return look[0] if look else None

    def _choose(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        if not view["basic"]:
            why = view["choice"]["why"]
            if self.steer and why.startswith("Which way does") and "haunt drags" not in why:
                pick = self._steer(view)
                if pick is not None:
                    return pick
            if self.aim and why.startswith("Deal "):
                pick = self._aim(view)
                if pick is not None:
                    return pick
        return super()._choose(view, seat, moves)  # type: ignore[misc]

    def _steer(self, view: dict[str, Any]) -> Move | None:
        """Send a threat that may go several ways the way farthest from the crystal, into a room already
        holding its kind when it spreads, and away from the wizards (the Helpful Hand of Fate)."""
        rooms = _rooms(view)
        if CRYSTAL not in rooms:
            return None
        far = _dist(view, CRYSTAL)
        spread = view["choice"]["why"].endswith("spread?")
        kind = "fire" if "fire" in view["choice"]["why"] else "water"
        best, score = None, None
        for o in view["choice"]["options"]:
            room = _named(view, o["label"])
            if room is None:
                return None
            r = rooms[room]
            key = (bool(spread and r[kind]), far.get(room, 9), not r["wizards"])
            if score is None or key > score:
                best, score = o["value"], key
        return Move.of("choose", value=best)

    def _aim(self, view: dict[str, Any]) -> Move | None:
        """Spend damage on a creature it kills, the most dangerous first and nearest the crystal; never on
        a guardian the table keeps (a golem corner), nor on the demon the table must bind."""
        why = view["choice"]["why"]
        n = int(why.split()[1])
        rooms = _rooms(view)
        kept = _kept_guardians(view)
        far = _dist(view, CRYSTAL) if CRYSTAL in rooms else {}
        worth = {"demon": 4, "troll": 3, "imp": 2, "guardian": 0}
        toll = {"imp": 1, "guardian": 1, "troll": 2, "demon": 3}
        best, score = None, None
        for o in view["choice"]["options"]:
            room, kind = str(o["value"]).split(":")
            hurt = view["damage"].get(room, {}).get(kind, 0)
            kills = n + hurt >= toll.get(kind, 9)
            value = worth.get(kind, 1)
            if kind == "guardian" and room in kept:
                value = -5
            if kind == "demon" and view["scenario"]["key"] == "demon":
                value = -1
            key = (value if kills else min(value, 0.5), -far.get(room, 9))
            if score is None or key > score:
                best, score = o["value"], key
        return Move.of("choose", value=best)

    def _act_advanced(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        move = super()._act_advanced(view, seat, moves)  # type: ignore[misc]
        if self.seek and move.action in ("take", "move", "end"):
            look = self._seek(view, moves)
            if look is not None:
                move = look
        if self._stays_in_harm(view, seat, move):
            out = _leave(view, seat, moves)
            if out.action == "move":
                return out
        if self._ends_in_harm(view, move):
            return _leave(view, seat, moves)
        return move

    def _ends_in_harm(self, view: dict[str, Any], move: Move) -> bool:
        """Whether a step spends the turn's last action walking into a room whose threats cost mana or a
        wizard at the turn's end (the balance policy's routes exempt their goal room from that check)."""
        if move.action != "move":
            return False
        there = _rooms(view).get(move.get("room"))
        if there is None or not _harms(there):
            return False
        return view["actions"]["left"] <= (2 if there["water"] else 1)

    def _stays_in_harm(self, view: dict[str, Any], seat: int, move: Move) -> bool:
        """Whether the turn's last action leaves the wizard in a room whose threats cost mana (a glyph
        taken or a blind cast there is worth less than the mana the crystal pays to shield them)."""
        if view["actions"]["left"] != 1 or move.action not in ("take", "cast", "bind"):
            return False
        harms = _harms(_rooms(view)[view["wizards"][seat]["room"]])
        if not harms:
            return False
        if move.action == "cast":
            spell = self.mind.spell_at(view, _slot(move))
            goal = GOAL[view["scenario"]["key"]]
            if spell in GOALS.get(view["scenario"]["key"], (goal,)):
                return False
            if spell is not None and all(spell in CURES[k] for k in harms):
                return False
        return True
