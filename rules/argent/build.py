"""Build the University (rulebook, Options and Extras): players lay the rooms one by one.

University Central starts as a single column; in turn order each player picks a tile and its side,
then a free space orthogonally next to the rooms already laid, until the University has the
room count for the table. Two players must keep to a 3x3 square (Argent for Two). The finished
layout becomes the usual grid (``None`` marks a gap), resolved row by row as ever.
"""

from __future__ import annotations

from typing import Any

from rules.argent import content
from rules.argent.copying import own
from rules.argent.state import CENTRAL, ROOM_COUNT, State, order_from, room_name
from rules.argent.vocab import two_player_side

DIRECTIONS = ((-1, 0, "above"), (1, 0, "below"), (0, -1, "left of"), (0, 1, "right of"))


def start(state: State) -> None:
    """Lay University Central in a column and queue the builders in turn order."""
    state["build"] = {"cells": {room: [y, 0] for y, room in enumerate(CENTRAL)}, "pick": None}
    state["board"] = {"grid": [[r] for r in CENTRAL], "rooms": {}}
    for room in CENTRAL:
        side = "B" if state["players"] == 2 and room == "infirmary" else "A"
        state["board"]["rooms"][room] = {"side": side, "locked": False, "marker": 0, "cards": []}
    needed = ROOM_COUNT[state["players"]] - len(CENTRAL)
    order = order_from(state, state["first"])
    state["queue"] = [order[i % len(order)] for i in range(needed)]


def tile_options(state: State) -> list[dict[str, Any]]:
    """Return the tiles (and sides) still in the box."""
    out = []
    laid = state["board"]["rooms"]
    for room in content.room_ids():
        if room in laid:
            continue
        for side in ("A", "B"):
            if state["players"] == 2 and two_player_side(room, side) != side:
                continue
            label = f"Add {room_name(room)} on side {side}"
            out.append({"action": "build", "args": {"room": room, "side": side}, "label": label})
    return out


def fits(state: State, y: int, x: int) -> bool:
    """Whether a new room may go at (y, x): free, and inside 3x3 for two players."""
    cells = state["build"]["cells"]
    if [y, x] in cells.values():
        return False
    if state["players"] != 2:
        return True
    ys = [c[0] for c in cells.values()] + [y]
    xs = [c[1] for c in cells.values()] + [x]
    return max(ys) - min(ys) < 3 and max(xs) - min(xs) < 3


def place_options(state: State) -> list[dict[str, Any]]:
    """Return the free spaces next to the rooms already laid, named by a neighbour."""
    cells = state["build"]["cells"]
    seen: set[tuple[int, int]] = set()
    out = []
    for room, (y, x) in cells.items():
        for dy, dx, word in DIRECTIONS:
            spot = (y + dy, x + dx)
            if spot in seen or not fits(state, *spot):
                continue
            seen.add(spot)
            label = f"Put it {word} {room_name(room)}"
            out.append({"action": "build", "args": {"row": spot[0], "col": spot[1]}, "label": label})
    return out


def options(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the build choices of the seat whose turn it is."""
    if not state["queue"] or state["queue"][0] != seat:
        return []
    return place_options(state) if state["build"]["pick"] else tile_options(state)


def apply(state: State, seat: int, opt: dict[str, Any]) -> str:
    """Take a tile, or lay the picked one; return a sentence for the log."""
    build = state["build"]
    args = opt["args"]
    if "room" in args:
        build["pick"] = [args["room"], args["side"]]
        return f"P{seat + 1} picks {room_name(args['room'])} (side {args['side']})."
    room, side = build["pick"]
    build["pick"] = None
    build["cells"][room] = [args["row"], args["col"]]
    board = own(state, "board")
    board["rooms"][room] = {"side": side, "locked": False, "marker": 0, "cards": []}
    board["grid"] = grid_of(build["cells"])
    state["queue"].pop(0)
    return f"P{seat + 1} adds {room_name(room)} to the University."


def grid_of(cells: dict[str, list[int]]) -> list[list[str | None]]:
    """Turn room positions into rows (top to bottom) of rooms and gaps."""
    top = min(c[0] for c in cells.values())
    left = min(c[1] for c in cells.values())
    height = max(c[0] for c in cells.values()) - top + 1
    width = max(c[1] for c in cells.values()) - left + 1
    grid: list[list[str | None]] = [[None] * width for _ in range(height)]
    for room, (y, x) in cells.items():
        grid[y - top][x - left] = room
    return grid
