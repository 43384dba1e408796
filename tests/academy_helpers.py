"""Shared set-up for the Wizard's Academy tests: a known board, placed threats, seeded decks."""

from __future__ import annotations

from typing import Any

from rules.academy import RULES
from rules.academy.cards import rooms
from rules.academy.flow import run
from rules.academy.moves import _after
from rules.academy.state import DIRS, empty_room
from rules.contract import Event, Move

BOARD = [
    "library", "flux_point", "planar_rift", "holy_room",
    "masters_study", "mana_crystal", "cursed_room", "warded_room",
    "awakened_room", "workshop", "hoard", "observatory",
    "zen_room", "crystal_ball_room", "sanctuary", "outer_dimension",
]  # fmt: skip
"""The test academy (basic game): row 0 on top; the Mana Crystal at row 1, column 1."""


def game(
    players: int = 1, scenario: str = "basic", memory: str = "strict", seed: int = 1, **opts: str
) -> dict:
    """Return a fresh table's state (advanced scenarios still wait for their shifts)."""
    return RULES.setup(players, {"scenario": scenario, "memory": memory, **opts}, seed)


def calm(players: int = 1, scenario: str = "basic", memory: str = "strict", open_doors: bool = True) -> dict:
    """Return a state at seat 0's action step on the test board, with no threats, sources or glyphs."""
    s = game(players, scenario, memory)
    s["board"] = list(BOARD) if scenario == "basic" else [*BOARD[:15], "lost_room"]
    s["outside"] = None if scenario == "basic" else "outer_dimension"
    s["rooms"] = {k: empty_room() for k in rooms()}
    s["rot"] = {k: 0 for k in rooms()}
    if open_doors:
        for room in s["board"]:
            orient(s, room, [d for d in DIRS])
    for w in s["wizards"]:
        w.update(room="mana_crystal", glyphs=[], shared=None, robe=None, wand=None, staff=None)
    s.update(current=0, step="actions", left=3, extra=0, binding=False, queue=[], choice=None, request=None)
    s.update(reveal=None, damage={}, shield=None, mana=5, turn=1, shifts_left=0, over=False, won=False)
    if not s["basic"]:
        s["slots_left"] = {"move": True, "room": True, "magic": True}
    s["log"] = []
    s["out"] = []
    return s


def orient(s: dict, room: str, sides: list[str]) -> None:
    """Turn a room so that as many of the given sides as possible are open (the most first)."""
    best = max(range(4), key=lambda r: sum(_open(room, r, d) for d in sides))
    s["rot"][room] = best


def _open(room: str, rot: int, d: str) -> bool:
    return bool(rooms()[room]["doors"][(DIRS.index(d) - rot) % 4])


def wall(s: dict, room: str, side: str) -> None:
    """Turn a room so that the given side is a wall."""
    for r in range(4):
        if not _open(room, r, side):
            s["rot"][room] = r
            return
    raise AssertionError(f"{room} has no wall to turn {side}")


def deck(s: dict, *cards: str) -> None:
    """Put these room cards on top of the room deck, in order."""
    rest = [c for c in s["room_deck"] if c not in cards]
    s["room_deck"] = list(cards) + rest
    s["room_discard"] = [c for c in s["room_discard"] if c not in cards]


def play(s: dict, seat: int, action: str, **args: Any) -> tuple[dict, list[Event]]:
    """Apply one move through the contract (it must be legal)."""
    return RULES.apply(s, seat, Move.of(action, **args))


def settle(s: dict) -> None:
    """Run whatever is queued (after a test queues ops by hand)."""
    run(s)
    _after(s)


def fires(s: dict) -> dict[str, int]:
    """Return the rooms holding fire."""
    return {r: c["fire"] for r, c in s["rooms"].items() if c["fire"]}


def slot_of(s: dict, key: str) -> str:
    """Return the slot ("a-b", the crossing of glyphs a and b) of a spell on the grid."""
    return next(k for k, v in s["slots"].items() if v["spell"] == key)


def give_pair(s: dict, seat: int, key: str) -> tuple[int, int]:
    """Give a wizard exactly the two glyphs that cast a spell; return them."""
    a, b = (int(x) for x in slot_of(s, key).split("-"))
    s["wizards"][seat]["glyphs"] = sorted([a, b])
    return a, b
