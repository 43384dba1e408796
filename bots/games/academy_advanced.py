"""A sharper policy for the Academy's advanced scenarios (golem, unstable, gates, demon).

``SharpAdvanced`` is a mixin over the balance policy (``rules.academy.selfplay.Policy``), composed as
``class SharpPolicy(SharpBasic, SharpAdvanced, Policy)`` for the ``strong`` bot; the balance tool and
``basic`` keep the unchanged policy. It reads only the seat's view and the table's memory
(``self.mind``).
"""

from __future__ import annotations

from typing import Any

from rules.academy.selfplay import GOAL, GOALS
from rules.academy.selfplay_common import _leave, _rooms, _slot
from rules.contract import Move

CURES = {
    "fire": ("snuff", "spark_out", "maelstrom", "tidal_wave", "nova", "purify"),
    "water": ("calm_waters", "purify"),
    "troll": ("banish",),
    "demon": ("banish", "bind_demon"),
}
"""Known spells that clear a threat from the caster's room (so casting one last is no harm)."""


def _harms(room: dict[str, Any]) -> list[str]:
    """Return the threats in a room that cost mana or a wizard when a turn ends there (imps aside)."""
    on = (room["fire"] > 0, room["water"] >= 2, bool(room["troll"]), bool(room["demon"]))
    return [k for k, hit in zip(("fire", "water", "troll", "demon"), on, strict=True) if hit]


class SharpAdvanced:
    """The advanced scenarios' sharper moves (a mixin over ``Policy``)."""

    mind: Any

    def _act_advanced(self, view: dict[str, Any], seat: int, moves: list[Move]) -> Move:
        move = super()._act_advanced(view, seat, moves)  # type: ignore[misc]
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
