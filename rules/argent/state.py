"""The Argent state: constants, and small helpers that read and change a state dict.

The state is plain JSON. Its main parts:

- ``seats``: one office per player (candidate, resources, IP, merit, cards, discard, marks).
- ``mages``: every mage pawn in the game, each ``{"id", "owner", "type", "temp", "loc"}``. A
  location is a string (``loc_of``, ``split_loc``): ``office``, ``supply``, ``<room>/<slot>`` for
  one slot of a room (an errand slot, a shadow slot or an Infirmary wound slot: each has its own id
  in the room side's ``slots``, a shadow naming its slot in ``of``), or ``<room>/<slot>/<k>`` for
  the k-th mage in a slot that holds any number (the Great Hall's area, the Infirmary's general
  area). Occupancy is always derived from the mages, so it cannot disagree with them.
- ``board``: the University grid of room ids, and per room its side, lock and marker.
- ``voters``: the twelve Consortium seats on the board, with who marked each.
- ``decks`` and ``tableau``: spells, vaults, supporters (deck order is hidden from everyone).
- ``agenda``: the pending decisions and effect steps, front first (see ``effects``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.argent import content

State = dict[str, Any]

DEPARTMENTS = ("sorcery", "mysticism", "natural_magick", "planar_studies", "divinity")
"""The five departments of magic, in the order the rulebook lists mage powers."""
NEUTRAL = "neutral"
APPRENTICE = "apprentice"
MAGE_TYPES = (*DEPARTMENTS, NEUTRAL)
DEPT_NAMES = {
    "sorcery": "Sorcery",
    "mysticism": "Mysticism",
    "natural_magick": "Natural Magick",
    "planar_studies": "Planar Studies",
    "divinity": "Divinity",
    "neutral": "Neutral",
    "apprentice": "Archmage's Apprentice",
    "student_body": "Student Body",
    "wild": "Wild",
}
SUPPLY_COUNTS = {
    "sorcery": 6,
    "mysticism": 6,
    "natural_magick": 6,
    "planar_studies": 6,
    "divinity": 6,
    "neutral": 4,
}
"""Mage pawns in the box, per type (plus one Archmage's Apprentice)."""
START = {"gold": 6, "mana": 2, "int": 2, "wis": 2}
START_IP = 5
MERIT_STEP = 7
"""A Merit Badge at every 7 IP (rulebook: Merit Badges; see docs/rulings.md)."""
MAGE_LIMIT = 7
TYPE_LIMIT = 2
CENTRAL = ("council_chamber", "library", "infirmary")
INFIRMARY = "infirmary"

FIRST_GAME = {
    3: [
        "training_fields",
        "courtyard",
        "catacombs",
        "guilds",
        "vault",
        "council_chamber",
        "library",
        "infirmary",
    ],
    4: [
        "training_fields",
        "courtyard",
        "chapel",
        "catacombs",
        "guilds",
        "vault",
        "student_stores",
        "council_chamber",
        "library",
        "infirmary",
    ],
    5: [
        "training_fields",
        "courtyard",
        "chapel",
        "catacombs",
        "guilds",
        "adventuring",
        "vault",
        "student_stores",
        "council_chamber",
        "astronomy_tower",
        "library",
        "infirmary",
    ],
}
"""The rulebook's first-game layouts (A sides), in its order; laid out in rows of four."""
ROOM_COUNT = {2: 9, 3: 8, 4: 10, 5: 12}
ROW_WIDTH = {2: 3, 3: 4, 4: 4, 5: 4}


# --------------------------------------------------------------------------- seats and order


def order_from(state: State, start: int) -> list[int]:
    """Return every seat in turn order starting from ``start``, skipping players who left."""
    n = state["players"]
    return [(start + i) % n for i in range(n) if not away(state, (start + i) % n)]


def away(state: State, seat: int) -> bool:
    """Whether a player has left the game or is leaving it (FAQ: skipped from then on)."""
    office = state["seats"][seat]
    return bool(office.get("left") or office.get("leaving"))


def turn_order(state: State) -> list[int]:
    """Return the seats in turn order from the first player."""
    return order_from(state, state["first"])


def name(state: State, seat: int) -> str:
    """Return a seat's readable name (its candidate)."""
    office = state["seats"][seat]
    return (
        f"P{seat + 1} ({content.candidate_name(office['candidate'])})"
        if office.get("candidate")
        else f"P{seat + 1}"
    )


# --------------------------------------------------------------------------- influence and merit


def merit_total(state: State, seat: int) -> int:
    """Return how many Merit Badges a seat holds: its IP thresholds plus any starting badge."""
    office = state["seats"][seat]
    return office["merit_bonus"] + office["ip"] // MERIT_STEP


def merit_free(state: State, seat: int) -> int:
    """Return a seat's unspent Merit Badges this round."""
    return merit_total(state, seat) - state["seats"][seat]["merit_spent"]


def change_ip(state: State, seat: int, delta: int) -> int:
    """Add (or remove) IP, restack the disc on top of its new space, and settle badges; return the change."""
    office = state["seats"][seat]
    new = max(0, office["ip"] + delta)
    real = new - office["ip"]
    if real == 0:
        return 0
    office["ip"] = new
    # The disc that moves lands on top of any disc already there: it reached the space last.
    state["ip_clock"] += 1
    office["ip_time"] = state["ip_clock"]
    # FAQ: dropping below a threshold costs a badge, unspent ones first.
    office["merit_spent"] = min(office["merit_spent"], merit_total(state, seat))
    return real


def ip_rank_key(state: State, seat: int) -> tuple[int, int]:
    """Return a key that sorts seats best first by IP, the disc lowest in the stack first on a tie."""
    office = state["seats"][seat]
    return (-office["ip"], office["ip_time"])


# --------------------------------------------------------------------------- resources


def gain(state: State, seat: int, resource: str, amount: int) -> int:
    """Add a plain resource (gold, mana, int, wis, ip) to a seat; losses stop at zero."""
    if resource == "ip":
        return change_ip(state, seat, amount)
    office = state["seats"][seat]
    new = max(0, office[resource] + amount)
    real = new - office[resource]
    office[resource] = new
    return real


# --------------------------------------------------------------------------- mages and slots


def mage(state: State, mage_id: int) -> dict[str, Any]:
    """Return one mage record."""
    return state["mages"][mage_id]


def mages_of(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every mage a seat owns (temporary ones included)."""
    return [m for m in state["mages"] if m["owner"] == seat]


def office_mages(state: State, seat: int) -> list[dict[str, Any]]:
    """Return a seat's mages waiting in its office."""
    return [m for m in state["mages"] if m["owner"] == seat and m["loc"] == "office"]


def permanent_count(state: State, seat: int, mage_type: str | None = None) -> int:
    """Count a seat's permanent mages, of one type or all."""
    return sum(
        1
        for m in state["mages"]
        if m["owner"] == seat and not m["temp"] and (mage_type is None or m["type"] == mage_type)
    )


def can_hold(state: State, seat: int, mage_type: str) -> bool:
    """Whether a seat may gain one more permanent mage of a type (2 a type, 7 in all; neutrals: no 2)."""
    if permanent_count(state, seat) >= MAGE_LIMIT:
        return False
    return mage_type == NEUTRAL or permanent_count(state, seat, mage_type) < TYPE_LIMIT


def supply_mage(state: State, mage_type: str) -> dict[str, Any] | None:
    """Return a mage of that type left in the supply, if any."""
    for m in state["mages"]:
        if m["owner"] is None and m["type"] == mage_type and m["loc"] == "supply":
            return m
    return None


def slots(state: State, room: str) -> list[dict[str, Any]]:
    """Return the slots of a room's side in play, in resolution order (shadows after their slot)."""
    return room_side(state, room)["slots"]


def spec(state: State, room: str, slot_id: str) -> dict[str, Any]:
    """Return the data of one slot of a room."""
    return slot_spec(room, state["board"]["rooms"][room]["side"], slot_id)


def slot_spec(room: str, side: str, slot_id: str) -> dict[str, Any]:
    """Return the data of one slot of a room side (card data, not a table's)."""
    found = _slot_specs(room, side).get(slot_id)
    if found is None:
        raise KeyError(f"{room}/{slot_id}")
    return found


@cache  # the printed slots of a room side, by id: read from the card data, never from a table
def _slot_specs(room: str, side: str) -> dict[str, dict[str, Any]]:
    """Return a room side's slots by id (the first of an id, as a search in order finds it)."""
    out: dict[str, dict[str, Any]] = {}
    for s in content.room_side(room, side)["slots"]:
        out.setdefault(s["id"], s)
    return out


def is_shadow(slot: dict[str, Any]) -> bool:
    """Whether a slot is a shadow slot (plain or merit)."""
    return slot["kind"] in ("shadow", "shadow_merit")


def is_multi(slot: dict[str, Any]) -> bool:
    """Whether a slot holds any number of mages (the Great Hall's area, the Infirmary's general area)."""
    return slot["kind"] in ("area", "general")


def is_merit(slot: dict[str, Any]) -> bool:
    """Whether claiming a slot's errand costs a Merit Badge."""
    return slot["kind"] in ("merit", "shadow_merit")


def loc_of(room: str, slot_id: str, k: int | None = None) -> str:
    """Return the location string of a slot (``k`` numbers the mages of a multi-mage area)."""
    return f"{room}/{slot_id}" if k is None else f"{room}/{slot_id}/{k}"


@cache  # a pure function of a few dozen location names, asked thousands of times a move
def split_loc(loc: str) -> tuple[str, str] | None:
    """Split a board location into (room, slot id); None for the office and the supply."""
    parts = loc.split("/")
    if len(parts) < 2:
        return None
    return parts[0], parts[1]


@cache
def room_of(loc: str) -> str | None:
    """Return the room a location lies in (the Infirmary included), or None off the board."""
    parts = split_loc(loc)
    return parts[0] if parts else None


def slot_of(state: State, loc: str) -> dict[str, Any]:
    """Return the slot data of a board location."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    return spec(state, room, slot_id)


def on_board(loc: str) -> bool:
    """Whether a location is on the University board (any room, the Infirmary included)."""
    return "/" in loc


def placed(loc: str) -> bool:
    """Whether a location is an errand slot outside the Infirmary ("placed", in the vocabulary)."""
    return "/" in loc and not loc.startswith(INFIRMARY + "/")


def in_infirmary(loc: str) -> bool:
    """Whether a location is in the Infirmary."""
    return loc.startswith(INFIRMARY + "/")


def occupant(state: State, loc: str) -> dict[str, Any] | None:
    """Return the mage at a location, or None when it is empty."""
    for m in state["mages"]:
        if m["loc"] == loc:
            return m
    return None


def occupied(state: State) -> dict[str, dict[str, Any]]:
    """Return every occupied board location with its mage."""
    return {m["loc"]: m for m in state["mages"] if "/" in m["loc"]}


def room_side(state: State, room: str) -> dict[str, Any]:
    """Return the data of a room's side in play."""
    return content.room_side(room, state["board"]["rooms"][room]["side"])


def room_rules(state: State, room: str) -> list[str]:
    """Return the rule keys of a room's side in play."""
    return list(room_side(state, room).get("rules", []))


def instant(state: State, room: str) -> bool:
    """Whether a room's errands happen at placement."""
    return bool(room_side(state, room).get("instant"))


def free_loc(state: State, room: str, slot_id: str, taken: Any = None) -> str | None:
    """Return the location a mage would take in a slot, or None when it is full."""
    if taken is None:
        taken = occupied(state)
    if is_multi(spec(state, room, slot_id)):
        k = 0
        while loc_of(room, slot_id, k) in taken:
            k += 1
        return loc_of(room, slot_id, k)
    loc = loc_of(room, slot_id)
    return None if loc in taken else loc


def open_slots(state: State, room: str) -> list[str]:
    """Return the open errand slots (not shadows) of a room, top to bottom, as locations."""
    if room == INFIRMARY:
        return []
    out = []
    taken = {m["loc"] for m in state["mages"]}
    for slot_id, multi in _errand_slots(room, state["board"]["rooms"][room]["side"]):
        if multi:
            k = 0
            while loc_of(room, slot_id, k) in taken:
                k += 1
            out.append(loc_of(room, slot_id, k))
            continue
        loc = loc_of(room, slot_id)
        if loc not in taken:
            out.append(loc)
    return out


@cache  # read from the card data alone: a room side's printed slots never change
def _errand_slots(room: str, side: str) -> tuple[tuple[str, bool], ...]:
    """Return a room side's errand slots (no shadow, wound or general slot) as (id, holds many)."""
    specs = _slot_specs(room, side)
    return tuple(
        (s["id"], is_multi(specs[s["id"]]))
        for s in content.room_side(room, side)["slots"]
        if not (is_shadow(s) or s["kind"] in ("wound", "general"))
    )


def main_slots(state: State, room: str) -> list[str]:
    """Return every errand slot location of a room (occupied or not), shadows excluded."""
    out = []
    for s in slots(state, room):
        if is_shadow(s) or s["kind"] in ("wound", "general"):
            continue
        if is_multi(s):
            out += [loc for loc in occupied(state) if loc.startswith(f"{room}/{s['id']}/")]
        else:
            out.append(loc_of(room, s["id"]))
    return out


def shadow_loc(state: State, loc: str) -> str | None:
    """Return the shadow slot beside an errand slot, or None when it has none."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    for s in slots(state, room):
        if is_shadow(s) and s.get("of") == slot_id:
            return loc_of(room, s["id"])
    return None


def shadowed_loc(state: State, loc: str) -> str:
    """Return the errand slot a shadow slot belongs to."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    return loc_of(room, spec(state, room, slot_id)["of"])


def rooms_in_play(state: State) -> list[str]:
    """Return the rooms in resolution order: rows from the top, each left to right."""
    return [r for row in state["board"]["grid"] for r in row if r]


def position(state: State, room: str) -> tuple[int, int]:
    """Return a room's (row, column) on the grid."""
    for y, row in enumerate(state["board"]["grid"]):
        for x, r in enumerate(row):
            if r == room:
                return y, x
    raise KeyError(room)


def adjacent(state: State, room: str) -> list[str]:
    """Return the rooms orthogonally next to a room (FAQ: diagonals are not adjacent)."""
    y, x = position(state, room)
    grid = state["board"]["grid"]
    out = []
    for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        ny, nx = y + dy, x + dx
        if 0 <= ny < len(grid) and 0 <= nx < len(grid[ny]) and grid[ny][nx]:
            out.append(grid[ny][nx])
    return out


def locked(state: State, room: str) -> bool:
    """Whether a room carries a Lock token (the Infirmary never does)."""
    return bool(state["board"]["rooms"].get(room, {}).get("locked"))


def room_name(room: str) -> str:
    """Return a room's printed name."""
    return "Infirmary" if room == INFIRMARY else content.room_name(room)


def loc_text(state: State, loc: str) -> str:
    """Return a location as words, e.g. 'Guilds, slot 2' or 'the shadow of Guilds, slot 1'."""
    parts = split_loc(loc)
    if not parts:
        return {"office": "the office", "supply": "the supply"}.get(loc, loc)
    return loc_words(loc, state["board"]["rooms"][parts[0]]["side"])


@cache  # the words follow from the location and the room's side alone: placements ask them often
def loc_words(loc: str, side: str) -> str:
    """Return a board location as words, for the room on that side."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    printed = content.room_side(room, side)["slots"]
    s = next((x for x in printed if x["id"] == slot_id), None)
    if s is None:
        raise KeyError(f"{room}/{slot_id}")
    if room == INFIRMARY:
        return "the Infirmary" if s["kind"] == "general" else f"the Infirmary ({_number(printed, slot_id)})"
    if is_multi(s):
        return room_name(room)
    if is_shadow(s):
        return f"the shadow of {room_name(room)}, slot {_number(printed, s['of'])}"
    return f"{room_name(room)}, slot {_number(printed, slot_id)}"


def slot_number(state: State, room: str, slot_id: str) -> int:
    """Return a slot's number counted from the top (shadows not counted)."""
    return _number(slots(state, room), slot_id)


def _number(printed: list[dict[str, Any]], slot_id: str) -> int:
    """Return a slot's number among a side's slots counted from the top (shadows not counted)."""
    n = 0
    for s in printed:
        if not is_shadow(s):
            n += 1
        if s["id"] == slot_id:
            return n
    return n


def mage_text(state: State, m: dict[str, Any], viewer: int | None = None) -> str:
    """Return a mage as words, e.g. "P2's Sorcery mage in Guilds, slot 1"."""
    owner = "a supply" if m["owner"] is None else ("your" if viewer == m["owner"] else f"P{m['owner'] + 1}'s")
    kind = "Archmage's Apprentice" if m["type"] == APPRENTICE else f"{DEPT_NAMES[m['type']]} mage"
    where = "" if m["loc"] in ("office", "supply") else f" in {loc_text(state, m['loc'])}"
    return f"{owner} {kind}{where}"
