"""The Academy's state: the board's geometry, rooms' contents, decks and small accessors.

The state is plain JSON. ``board`` lists the 16 room keys row-major (index = row*4 + col); ``rot``
gives each room's quarter turns clockwise; ``outside`` is the room beside the board (or None);
``rooms`` holds each room's contents; ``slots`` the spell grid ("a-b" -> spell and bound flag).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rules import rng
from rules.academy.cards import CREATURES, THREATS, room_cards, rooms, spells
from rules.academy.events import AcademyEvent
from rules.contract import Event

State = dict[str, Any]

SIDE = 4
DIRS = ("n", "e", "s", "w")
STEP = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}
CRYSTAL = "mana_crystal"
CURSED = "cursed_room"
LIBRARY = "library"
LOG_SIZE = 12
TOUGHNESS = {"imp": 1, "guardian": 1, "troll": 2, "demon": 3}
"""Damage that kills each creature within one turn (glossary: Damage)."""
SLOTS = tuple(f"{a}-{b}" for b in range(1, 8) for a in range(1, b + 1))
"""The 28 spell-grid slots: every pair of glyphs 1-7, a pair of the same glyph included."""


def slot_level(slot: str) -> int:
    """Return the level of a grid slot: glyphs up to 3 make level 1, 4-5 level 2, 6 level 3, 7 level 4."""
    high = int(slot.split("-")[1])
    return 1 if high <= 3 else 2 if high <= 5 else 3 if high == 6 else 4


def slot_of(a: int, b: int) -> str:
    """Return the slot id for a pair of glyphs in either order."""
    return f"{min(a, b)}-{max(a, b)}"


def empty_room() -> dict[str, Any]:
    """Return the contents of an empty room."""
    return {**{t: 0 for t in THREATS}, **{c: 0 for c in CREATURES}, "portals": [], "source": None}


# --------------------------------------------------------------------------- geometry


def pos_of(s: State, room: str) -> int | None:
    """Return a room's board position, or None for the room beside the board."""
    try:
        return s["board"].index(room)
    except ValueError:
        return None


def in_academy(s: State, room: str) -> bool:
    """Whether the room lies on the academy board."""
    return room in s["board"]


def neighbour(s: State, room: str, d: str) -> str | None:
    """Return the room adjacent in direction d, or None at the edge or beside the board."""
    pos = pos_of(s, room)
    if pos is None:
        return None
    r, c = divmod(pos, SIDE)
    dr, dc = STEP[d]
    r, c = r + dr, c + dc
    if not (0 <= r < SIDE and 0 <= c < SIDE):
        return None
    return s["board"][r * SIDE + c]


def door(s: State, room: str, d: str) -> bool:
    """Whether the room's tile, as rotated now, has an open door on side d."""
    printed = rooms()[room]["doors"]
    idx = (DIRS.index(d) - s["rot"][room]) % 4
    return bool(printed[idx])


def doors_text(s: State, room: str, turns: int = 0) -> str:
    """Return the room's open sides after ``turns`` more quarter turns clockwise, e.g. "doors N, E, S"."""
    printed = rooms()[room]["doors"]
    rot = s["rot"][room] + turns
    open_sides = [d.upper() for i, d in enumerate(DIRS) if printed[(i - rot) % 4]]
    return f"doors {', '.join(open_sides)}" if open_sides else "no doors"


def doors(s: State, room: str) -> dict[str, bool]:
    """Return the open sides of a room as it lies now."""
    return {d: door(s, room, d) for d in DIRS}


def sealed(s: State, room: str, wizard: dict[str, Any] | None = None) -> bool:
    """Whether double ice seals the room (a wizard with an ice robe ignores it)."""
    if wizard is not None and wizard.get("robe") == "ice":
        return False
    return s["rooms"][room]["ice"] >= 2


def heading(s: State, room: str, what: str, way: str, dirs: list[str]) -> dict[str, Any]:
    """Return what a "which way?" question is about, as data: the thing (``what``) in ``room`` that
    goes or spreads (``way``), and the room each offered direction leads to (``to``)."""
    return {"way": way, "what": what, "room": room, "to": {d: adjoining_dir(s, room, d) for d in dirs}}


def adjoining_dir(s: State, room: str, d: str, wizard: dict[str, Any] | None = None) -> str | None:
    """Return the room adjoining in direction d (open doors on both tiles, no double ice), or None."""
    other = neighbour(s, room, d)
    if other is None or not door(s, room, d) or not door(s, other, OPPOSITE[d]):
        return None
    if sealed(s, room, wizard) or sealed(s, other, wizard):
        return None
    return other


def adjoining(s: State, room: str, wizard: dict[str, Any] | None = None) -> list[str]:
    """Return the rooms adjoining this one, in direction order n, e, s, w."""
    out = []
    for d in DIRS:
        other = adjoining_dir(s, room, d, wizard)
        if other is not None:
            out.append(other)
    return out


def joined(s: State, rooms: list[str], kind: str) -> list[str]:
    """Return ``rooms`` and every room holding ``kind`` joined to them through adjoining rooms, as found.

    The one flood of a threat through adjoining rooms: an activated fire activates the fires joined
    to it, and the fire or water joined to the crystal attacks it (rulebook: Fire, The Mana Crystal).
    """
    out, todo = list(rooms), list(rooms)
    while todo:
        for other in adjoining(s, todo.pop()):
            if s["rooms"][other][kind] and other not in out:
                out.append(other)
                todo.append(other)
    return out


def distances(s: State, start: str) -> dict[str, int]:
    """Return the number of moves from ``start`` to every room reachable through adjoining rooms."""
    if not in_academy(s, start):
        return {start: 0}
    seen = {start: 0}
    todo = deque([start])
    while todo:
        room = todo.popleft()
        for other in adjoining(s, room):
            if other not in seen:
                seen[other] = seen[room] + 1
                todo.append(other)
    return seen


def empowered(s: State, room: str) -> bool:
    """Whether a route of adjoining rooms joins the room to the Mana Crystal (glossary: Empowered)."""
    return room in distances(s, CRYSTAL)


def all_reachable(s: State) -> bool:
    """Whether every room on the board can be reached from the Mana Crystal."""
    return len(distances(s, CRYSTAL)) == len(s["board"])


def academy_rooms(s: State) -> list[str]:
    """Return the rooms on the board, in board order."""
    return list(s["board"])


# --------------------------------------------------------------------------- decks, events, wizards


def say(s: State, kind: str, text: str, seats: tuple[int, ...] | None = None, **data: Any) -> None:
    """Record an event; public ones also go to the state's short log for the board."""
    s["out"].append(Event(kind, text, seats, data).to_json())
    if seats is None:
        s["log"] = [*s["log"], text][-LOG_SIZE:]


def draw_room_card(s: State) -> dict[str, Any]:
    """Draw the top room card (reshuffling the discards into a new deck when it is empty)."""
    if not s["room_deck"]:
        s["room_deck"] = list(s["room_discard"])
        s["room_discard"] = []
        rng.shuffle(s, s["room_deck"])
        say(s, AcademyEvent.RESHUFFLE, "The room deck is empty: its discards are shuffled into a new deck.")
    key = s["room_deck"].pop(0)
    s["room_discard"].append(key)
    return room_cards()[key]


def room_name(room: str) -> str:
    """Return a room's printed name."""
    return rooms()[room]["name"]


def spell_name(key: str) -> str:
    """Return a spell's printed name."""
    return spells()[key]["name"]


def wizard(s: State, seat: int) -> dict[str, Any]:
    """Return a seat's wizard."""
    return s["wizards"][seat]


def who(s: State, seat: int) -> str:
    """Return how texts name a seat: its tag (P1, P2...), which the service turns into the player's name."""
    return f"P{seat + 1}"


def wizards_in(s: State, room: str) -> list[int]:
    """Return the seats whose wizards stand in the room."""
    return [i for i, w in enumerate(s["wizards"]) if w["room"] == room]


def take_glyph(w: dict[str, Any], glyph: int) -> bool:
    """Remove one glyph of that type from a wizard's collection; return whether there was one."""
    if glyph in w["glyphs"]:
        w["glyphs"].remove(glyph)
        return True
    return False


def give_glyph(w: dict[str, Any], glyph: int) -> None:
    """Add a glyph to a wizard's collection, keeping it sorted."""
    w["glyphs"] = sorted([*w["glyphs"], glyph])


def lose_mana(s: State, n: int, why: str) -> None:
    """Take mana from the crystal; at zero the academy collapses."""
    if n <= 0 or s["over"]:
        return
    s["mana"] = max(0, s["mana"] - n)
    say(s, AcademyEvent.MANA, f"The Mana Crystal loses {n} mana ({why}); {s['mana']} left.", mana=s["mana"])
    if s["mana"] == 0:
        end(s, False, "The Mana Crystal ran out of mana: the academy collapses.")


def end(s: State, won: bool, reason: str) -> None:
    """Finish the game."""
    if s["over"]:
        return
    s["over"] = True
    s["won"] = won
    s["reason"] = reason
    s["queue"] = []
    s["choice"] = None
    s["request"] = None
    say(s, AcademyEvent.OVER, reason, won=won)


def count_all(s: State, what: str) -> int:
    """Return how many of a threat or creature lie in the academy (portals: how many portals)."""
    if what == "portal":
        return sum(len(s["rooms"][r]["portals"]) for r in s["board"])
    return sum(s["rooms"][r][what] for r in s["board"])


def rotate(s: State, room: str, turns: int) -> None:
    """Turn a room by quarter turns clockwise (three: a quarter turn anticlockwise)."""
    s["rot"][room] = (s["rot"][room] + turns) % 4
    way = "a quarter turn anticlockwise" if turns % 4 == 3 else f"{turns * 90} degrees clockwise"
    say(s, AcademyEvent.ROTATE, f"The {room_name(room)} turns {way}.", room=room)


def swap(s: State, a: str, b: str) -> None:
    """Swap two rooms of the board; their contents go with them."""
    i, j = s["board"].index(a), s["board"].index(b)
    s["board"][i], s["board"][j] = b, a
    say(s, AcademyEvent.SWAP, f"The {room_name(a)} and the {room_name(b)} swap places.")


def swap_spells(s: State, a: str, b: str) -> None:
    """Swap the spells lying on two slots, silently (a search's sample puts a remembered spell back)."""
    slots = s["slots"]
    slots[a]["spell"], slots[b]["spell"] = slots[b]["spell"], slots[a]["spell"]
