"""Victory and defeat: the scenario objectives and the cooperative result."""

from __future__ import annotations

from rules.academy.cards import scenarios
from rules.academy.state import SIDE, State, count_all, end, room_name, who
from rules.contract import Result

CORNERS = (0, SIDE - 1, SIDE * (SIDE - 1), SIDE * SIDE - 1)


def check_objective(s: State, spell: str | None, seat: int) -> None:
    """End the game in victory when the advanced scenario's objective holds (checked after each spell)."""
    if s["over"] or s["basic"]:
        return
    goal = scenarios()[s["scenario"]]["objective"]
    kind = goal["kind"]
    if kind == "corners" and all(s["rooms"][s["board"][p]]["guardian"] for p in CORNERS):
        end(s, True, "A guardian stands in each corner of the academy: the golems hold!")
    elif kind == "cast" and spell == goal["spell"]:
        room = s["wizards"][seat]["room"]
        if room == goal.get("room", room) and (goal.get("none") is None or count_all(s, goal["none"]) == 0):
            end(
                s,
                True,
                f"{who(s, seat)} completes the ritual in the {room_name(room)}: the academy is saved!",
            )
    elif kind == "no_portals" and spell is not None and count_all(s, "portal") == 0:
        end(s, True, "Every portal in the academy is closed: the gates hold!")
    elif kind == "bind_demon" and s.get("bound_demon"):
        end(s, True, f"{who(s, seat)} binds a demon into servitude: the academy is saved!")


def result(s: State) -> Result | None:
    """Return the shared outcome: every wizard still in the game wins together, or nobody does."""
    if not s["over"]:
        return None
    seats = tuple(range(len(s["wizards"])))
    stayed = tuple(i for i in seats if i not in s["resigned"])
    scores = {i: 1.0 if s["won"] and i in stayed else 0.0 for i in seats}
    return Result(stayed if s["won"] else (), scores, s["reason"], stayed)
