"""Why a Wizard's Academy move is refused, and the rule (basic or advanced) that refuses it.

Each sentence depends only on what the seat can see: the board, whose turn and step it is, its own
wizard. Nothing here looks at a disaster hand or a face-down spell.
"""

from __future__ import annotations

from rules.academy import turn
from rules.academy.state import CRYSTAL, LIBRARY, State, adjoining, who
from rules.contract import IllegalMove, Move, RuleRef

GLYPHS = RuleRef("Expend Glyphs")
SHARE = RuleRef("Share a Glyph")
RECALL = RuleRef("Emergency Recall")


def _actions(s: State) -> RuleRef:
    return RuleRef("Take Three Actions" if s["basic"] else "Take Actions")


def turn_rule(s: State) -> RuleRef:
    """Return the section on whose turn it is: the setup's shifts, else the basic or advanced turn."""
    if s["step"] == "shifts":
        return RuleRef("Setup")
    return RuleRef("Play (Basic Game)" if s["basic"] else "Turn Sequence")


def why_not(s: State, seat: int, move: Move) -> IllegalMove:
    """Return the refusal of a move that is not legal now, naming the step or action rule it breaks."""
    if s["choice"] is not None:
        question = s["choice"]["why"]
        return IllegalMove(f"First answer the question in front of you: {question}", RuleRef("Resolve Spell"))
    if s["request"] is not None:
        caster = who(s, s["request"]["caster"])
        return IllegalMove(f"First give or refuse the glyph {caster} asked you for.", GLYPHS)
    if s["step"] == "shifts":
        return IllegalMove(
            "Before play, shift the rooms (rotate or swap them) or say you are ready.", RuleRef("Setup")
        )
    if s["step"] == "share":
        return IllegalMove(
            "Your turn ends by sharing a glyph (or taking one back), or sharing nothing.", SHARE
        )
    if s["binding"]:
        return IllegalMove("You are binding spells: name a face-down spell of that slot's level, or stop.",
                           _actions(s))
    return _why_not_action(s, seat, move)


def _why_not_action(s: State, seat: int, move: Move) -> IllegalMove:
    """Refuse a move of the actions step."""
    rule = _actions(s)
    w = s["wizards"][seat]
    if move.action in ("move", "take", "bind", "cast", "room", "staff") and turn.actions_left(s) == 0:
        return IllegalMove("You have no action left this turn: end it (or recall).", rule)
    if move.action == "move":
        if move.get("room") not in adjoining(s, w["room"], w):
            return IllegalMove(
                "You can only move into a room that adjoins yours (open doors on both sides).", rule
            )
        return IllegalMove("You cannot pay for a move action now.", rule)
    if move.action == "take":
        return IllegalMove("You can take a glyph only in a room with a glyph source and no guardian"
                           + ("." if s["basic"] else ", in an empowered room without a troll."), rule)
    if move.action == "bind":
        if w["room"] != LIBRARY:
            return IllegalMove("You can only bind spells in the Library.", rule)
        return IllegalMove("Name a face-down spell of that slot's level that is not bound yet.", rule)
    if move.action == "cast":
        return IllegalMove(
            "You cannot cast with those glyphs now (you need both, or one glyph from another wizard).",
            GLYPHS,
        )
    if move.action == "recall" and not s["basic"]:
        if w["room"] == CRYSTAL:
            return IllegalMove("You are already in the Mana Crystal.", RECALL)
        return IllegalMove("An emergency recall is for the wizard whose turn it is.", RECALL)
    return IllegalMove("That move is not part of this step of your turn.", turn_rule(s))
