"""A wizard leaving a game in progress (``Move.of("resign")``): the others play on.

Rulings (docs/rulings.md): the leaver's disaster card goes to the discards unplayed, their glyphs go
back to the supply and their wizard leaves the academy; a glyph request to or from them lapses; a
choice that was theirs passes to the current player; if the current player leaves, the rest of their
turn lapses and the next wizard plays. The last wizard cannot leave (the table is abandoned instead),
and only the wizards still playing share a victory.
"""

from __future__ import annotations

from typing import Any

from rules.academy import turn
from rules.academy.events import AcademyEvent
from rules.academy.flow import run
from rules.academy.moves import _after
from rules.academy.state import State, say, who
from rules.contract import Event, IllegalMove, RuleRef

LEAVING = "A wizard may leave a game in progress"


def leave(rules: Any, state: State, seat: int) -> tuple[State, list[Event]]:
    """Take a seat's wizard out of the game on a copy; refuse a stranger, a leaver or the last wizard."""
    if not 0 <= seat < len(state["wizards"]) or seat in state["resigned"]:
        raise IllegalMove("You are not playing in this game.", RuleRef(LEAVING, ruling=True))
    if len(state["wizards"]) - len(state["resigned"]) <= 1:
        raise IllegalMove(
            "The last wizard cannot leave: use /game abandon to end the game.", RuleRef(LEAVING, ruling=True)
        )
    s = rules.copy_state(state)
    s["out"] = []
    s["resigned"].append(seat)
    w = s["wizards"][seat]
    say(s, AcademyEvent.LEAVE, f"{who(s, seat)} leaves the academy.", seat=seat)
    if s["hands"][seat] is not None:
        s["disaster_discard"].append(s["hands"][seat])
        s["hands"][seat] = None
    w.update(room=None, glyphs=[], shared=None)
    request = s["request"]
    if request is not None and seat in (request["caster"], request["helper"]):
        s["request"] = None
        s["step"] = s.pop("step_before", "actions")
    if s["current"] == seat:
        s["queue"], s["choice"], s["request"], s["binding"] = [], None, None, False
        if s["step"] == "shifts":
            s["current"] = next(i for i in range(len(s["wizards"])) if i not in s["resigned"])
        else:
            turn.next_turn(s)
    elif s["choice"] is not None and s["choice"]["seat"] == seat:
        s["choice"]["seat"] = s["current"]
    run(s)
    _after(s)
    events = [Event.from_json(e) for e in s["out"]]
    s["out"] = []
    return s, events
