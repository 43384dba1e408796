"""What a seat may see: the JSON documented in VIEW.md (built from the state, secrets left out)."""

from __future__ import annotations

from typing import Any

from rules.academy import turn
from rules.academy.cards import characters, disasters, room_cards, rooms, scenarios, spells
from rules.academy.state import (
    CRYSTAL,
    CURSED,
    SIDE,
    SLOTS,
    State,
    adjoining,
    distances,
    doors,
    in_academy,
    slot_level,
)
from rules.contract import View

SPELL_FIELDS = ("key", "name", "level", "botch", "school", "text", "boost_text", "source")


def spell_view(key: str) -> dict[str, Any]:
    """Return the public face of a spell card."""
    spell = spells()[key]
    out = {k: spell.get(k) for k in SPELL_FIELDS}
    out["short"] = spell["text"] if len(spell["text"]) <= 48 else spell["text"][:45] + "..."
    return out


def disaster_view(key: str) -> dict[str, Any]:
    """Return the public face of a disaster card."""
    card = disasters()[key]
    return {
        "key": key,
        "name": card["name"],
        "level": card["level"],
        "text": card["text"],
        "source": card["source"],
    }


def room_action(s: State, key: str) -> str | None:
    """Return the room's action key: the basic game ignores every room text but the Library's binding."""
    action = rooms()[key]["action"]
    return action if action == "bind" or not s["basic"] else None


def room_view(s: State, key: str, reach: dict[str, int] | None = None) -> dict[str, Any]:
    """Return a room as it lies now, with everything in it (``reach``: distances from the crystal)."""
    reach = distances(s, CRYSTAL) if reach is None else reach
    record = rooms()[key]
    c = s["rooms"][key]
    pos = s["board"].index(key) if in_academy(s, key) else None
    return {
        "key": key,
        "name": record["name"],
        "pos": pos,
        "row": None if pos is None else pos // SIDE,
        "col": None if pos is None else pos % SIDE,
        "rot": s["rot"][key],
        "doors": doors(s, key),
        "adjoining": adjoining(s, key) if pos is not None else [],
        "empowered": pos is not None and key in reach,
        "short": record["short"],
        "text": record["text"],
        "boost": record["boost"],
        "action": room_action(s, key),
        "source": c["source"],
        **{k: c[k] for k in ("fire", "water", "ice", "darkness", "haunt")},
        "portals": list(c["portals"]),
        **{k: c[k] for k in ("imp", "guardian", "troll", "demon")},
        "wizards": [i for i, w in enumerate(s["wizards"]) if w["room"] == key],
        "cursed": key == CURSED,
    }


def _wizard(s: State, seat: int) -> dict[str, Any]:
    w = s["wizards"][seat]
    char = characters()[w["char"]]
    return {
        "seat": seat,
        "character": {
            "key": w["char"],
            "name": char["name"],
            "school": char["school"],
            "ability": char["text"],
            "source": char["source"],
        },
        "room": w["room"],
        "glyphs": sorted(w["glyphs"]),
        "shared": w["shared"],
        "robe": w["robe"],
        "wand": w["wand"],
        "staff": w["staff"],
        "recalls": w["recalls"],
        "left": seat in s["resigned"],
    }


def _slot(s: State, slot: str) -> dict[str, Any]:
    entry = s["slots"][slot]
    shown = s["reveal"] is not None and s["reveal"].get("slot") == slot
    a, b = (int(x) for x in slot.split("-"))
    face = entry["spell"] if entry["bound"] or shown else None
    return {
        "id": slot,
        "pair": [a, b],
        "level": slot_level(slot),
        "used": entry["spell"] is not None,
        "bound": entry["bound"],
        "spell": spell_view(face) if face else None,
    }


def view(s: State, seat: int | None, prompts: list[dict[str, Any]], waiting: list[int]) -> View:
    """Return what a seat (None: a spectator) may know."""
    scen = scenarios()[s["scenario"]]
    reach = distances(s, CRYSTAL)
    reveal = None
    if s["reveal"] is not None:
        reveal = {
            "slot": s["reveal"].get("slot"),
            "spell": spell_view(s["reveal"]["spell"]),
            "seat": s["reveal"]["seat"],
            "how": s["reveal"].get("how", "cast"),
        }
    mine = s["hands"][seat] if seat is not None and 0 <= seat < len(s["hands"]) else None
    return {
        "kind": "academy",
        "seat": seat,
        "basic": s["basic"],
        "scenario": {
            "key": scen["key"],
            "name": scen["name"],
            "objective": scen["objective_text"],
            "difficulty": s["difficulty"],
            "source": scen["source"],
        },
        "memory": s["memory"],
        "turn": s["turn"],
        "current": s["current"],
        "step": "over"
        if s["over"]
        else "choice"
        if s["choice"]
        else "consent"
        if s["request"]
        else s["step"],
        "actions": {
            "left": turn.actions_left(s) if s["step"] == "actions" else 0,
            "slots": dict(s["slots_left"]) if s["slots_left"] is not None else None,
            "extra": s["extra"],
            "binding": s["binding"],
        },
        "mana": s["mana"],
        "shifts_left": s["shifts_left"],
        "grid": [room_view(s, k, reach) for k in s["board"]],
        "outside": room_view(s, s["outside"], reach) if s["outside"] else None,
        "wizards": [_wizard(s, i) for i in range(len(s["wizards"]))],
        "spells": [_slot(s, slot) for slot in SLOTS],
        "reveal": reveal,
        "shuffles": list(s.get("shuffles") or [0, 0, 0, 0]),
        "decks": {
            "disaster": len(s["disaster_deck"]),
            "disaster_discard": [disaster_view(k) for k in s["disaster_discard"]],
            "progression": len(s["progression"]),
            "room": len(s["room_deck"]),
            "room_discard": [dict(room_cards()[k]) for k in s["room_discard"]],
            "refills": s["refills"],
        },
        "my_disaster": disaster_view(mine) if mine else None,
        "holding": [h is not None for h in s["hands"]],
        "played": disaster_view(s["played"]) if s["played"] else None,
        "choice": s["choice"],
        "request": s["request"],
        "damage": {room: {k: sum(v) for k, v in d.items()} for room, d in s["damage"].items()},
        "waiting": waiting,
        "prompts": prompts,
        "over": s["over"],
        "result": {
            "won": s["won"],
            "winners": list(range(len(s["wizards"]))) if s["won"] else [],
            "reason": s["reason"],
        }
        if s["over"]
        else None,
        "log": list(s["log"]),
    }
