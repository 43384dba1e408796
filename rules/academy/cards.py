"""Load and check the Academy's data files in ``data/academy/``.

Every problem in the files is collected and reported at once, so a group matching the printed cards
fixes them in one pass. An unknown effect op fails the load.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "academy"

SOURCES = ("rulebook", "published", "designed")
SCHOOLS = ("augmentation", "destruction", "dimension", "elementalism", "enchantment", "sanctuary")
THREATS = ("fire", "water", "ice", "darkness", "haunt")
"""Threat tokens counted per room."""
CREATURES = ("imp", "guardian", "troll", "demon")
"""Miniatures counted per room (guardians are not threats, but they share the counting)."""
PORTAL_TYPES = ("imp", "fire", "water", "ice", "darkness", "haunt", "troll", "demon")
ROBE_KINDS = ("fire", "water", "ice", "darkness", "haunt", "imp", "troll", "demon")
OPS: dict[str, tuple[str, ...]] = {
    # op -> the keys it may carry besides "op"; effects.py runs each one
    "place": ("what", "type", "where", "n", "times", "unless", "unless_threatening"),
    "remove": ("what", "where", "n", "bind"),
    "damage": ("n", "range"),
    "damage_each": ("n", "range"),
    "move_self": ("steps",),
    "blink": (),
    "teleport": (),
    "bring": (),
    "take_source": ("range",),
    "gain": ("who", "lo", "hi"),
    "lose": (),
    "duplicate": (),
    "mana": ("n",),
    "activate": ("what",),
    "activate_in": ("where", "rooms"),
    "rotate": ("where",),
    "swap": ("any",),
    "wild": ("level",),
    "actions": ("n",),
    "shield": (),
    "item": ("item",),
    "move_source": (),
    "boost_here": (),
    "win_if": ("room", "none"),
    "twist": (),
    "rumble": (),
    "gather": (),
    "backfire": (),
    "unrest": (),
    "collapse": (),
}
WHERE = (
    "here",
    "random",
    "near",
    "adjoining",
    "any",
    "cursed",
    "here_and_adjoining",
    "last_adjoining",
    "lowest_source",
    "academy",
    "adjoining_all",
)
ACTIVATABLE = ("fire", "water", "ice", "darkness", "haunt", "imp", "troll", "demon", "portal", "all")


class AcademyDataError(ValueError):
    """The data files have problems; ``problems`` lists every one of them."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("Academy data has problems:\n- " + "\n- ".join(problems))
        self.problems = problems


def _read(name: str) -> dict[str, Any]:
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


def _check_ops(where: str, ops: Any, problems: list[str]) -> None:
    if not isinstance(ops, list):
        problems.append(f"{where}: effects must be a list")
        return
    for op in ops:
        name = op.get("op") if isinstance(op, dict) else None
        if name not in OPS:
            problems.append(f"{where}: unknown effect op {name!r}")
            continue
        extra = set(op) - {"op", *OPS[name]}
        if extra:
            problems.append(f"{where}: op {name} does not take {sorted(extra)}")
        if "where" in op and op["where"] not in WHERE:
            problems.append(f"{where}: op {name} has an unknown place {op['where']!r}")
        if name == "activate" and op.get("what") not in ACTIVATABLE:
            problems.append(f"{where}: cannot activate {op.get('what')!r}")


def _check_source(where: str, record: dict[str, Any], problems: list[str]) -> None:
    if record.get("source") not in SOURCES:
        problems.append(f"{where}: source must be one of {SOURCES}")
    if record.get("source") == "designed" and not record.get("designed"):
        problems.append(f"{where}: a designed record lists what is designed")


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """Return every data file, checked; raise AcademyDataError listing all problems."""
    problems: list[str] = []
    rooms = {r["key"]: r for r in _read("rooms.json")["rooms"]}
    spells = {s["key"]: s for s in _read("spells.json")["spells"]}
    disasters = {d["key"]: d for d in _read("disasters.json")["disasters"]}
    room_cards = _read("room_cards.json")["cards"]
    characters = {c["key"]: c for c in _read("characters.json")["characters"]}
    threats = {t["key"]: t for t in _read("threats.json")["threats"]}
    scenarios = {s["key"]: s for s in _read("scenarios.json")["scenarios"]}
    for key, room in rooms.items():
        _check_source(f"room {key}", room, problems)
        if len(room.get("doors", ())) != 4:
            problems.append(f"room {key}: doors needs four sides")
        if room.get("boost") not in (None, *SCHOOLS):
            problems.append(f"room {key}: unknown boost school {room.get('boost')!r}")
    for key, spell in spells.items():
        _check_source(f"spell {key}", spell, problems)
        if spell.get("level") not in (1, 2, 3, 4):
            problems.append(f"spell {key}: level must be 1 to 4")
        if spell.get("school") not in (None, *SCHOOLS):
            problems.append(f"spell {key}: unknown school {spell.get('school')!r}")
        _check_ops(f"spell {key}", spell.get("effects"), problems)
        _check_ops(f"spell {key} boost", spell.get("boost", []), problems)
        if spell.get("school") is None and spell.get("boost"):
            problems.append(f"spell {key}: a spell with no school has no boost box")
    for key, card in disasters.items():
        _check_source(f"disaster {key}", card, problems)
        if card.get("level") not in ("-", 0, 1, 2, 3, 4):
            problems.append(f"disaster {key}: level must be '-' or 0 to 4")
        _check_ops(f"disaster {key}", card.get("effects"), problems)
        for op in card.get("effects", []):
            for room in op.get("rooms", ()):
                if room not in rooms:
                    problems.append(f"disaster {key}: unknown room {room!r}")
    for card in room_cards:
        if card.get("room") not in rooms:
            problems.append(f"room card {card.get('room')!r}: unknown room")
        arrows = card.get("arrows", [])
        if card.get("cursed") == bool(arrows) or sorted(arrows) not in ([], ["e", "n", "s", "w"]):
            problems.append(f"room card {card.get('room')}: four arrows, or none and 'cursed'")
    for key, char in characters.items():
        _check_source(f"character {key}", char, problems)
        if char.get("school") not in (None, *SCHOOLS):
            problems.append(f"character {key}: unknown school")
    for key, scen in scenarios.items():
        _check_source(f"scenario {key}", scen, problems)
        for name in scen.get("mandatory", ()):
            if name not in spells:
                problems.append(f"scenario {key}: unknown mandatory spell {name!r}")
        for name in scen.get("disaster_deck", {}).get("keys", ()):
            if name not in disasters:
                problems.append(f"scenario {key}: unknown disaster {name!r}")
    if sum(d.get("copies", 1) for d in disasters.values()) != 56:
        problems.append("there must be 56 disaster cards, counting copies")
    if len(spells) != 64:
        problems.append("there must be 64 spells")
    if len(rooms) != 17 or len(room_cards) != 14 or len(characters) != 7:
        problems.append("there must be 17 rooms, 14 room cards and 7 characters")
    if problems:
        raise AcademyDataError(problems)
    return {
        "rooms": rooms,
        "spells": spells,
        "disasters": disasters,
        "room_cards": {c["room"]: c for c in room_cards},
        "characters": characters,
        "threats": threats,
        "scenarios": scenarios,
    }


def rooms() -> dict[str, Any]:
    """Return room key -> room record."""
    return load()["rooms"]


def spells() -> dict[str, Any]:
    """Return spell key -> spell record."""
    return load()["spells"]


def disasters() -> dict[str, Any]:
    """Return disaster key -> disaster record."""
    return load()["disasters"]


def room_cards() -> dict[str, Any]:
    """Return room key -> room card record."""
    return load()["room_cards"]


def characters() -> dict[str, Any]:
    """Return character key -> character record."""
    return load()["characters"]


def scenarios() -> dict[str, Any]:
    """Return scenario key -> scenario record."""
    return load()["scenarios"]


def threats() -> dict[str, Any]:
    """Return threat key -> Grimoire entry."""
    return load()["threats"]


def _designed(record: dict[str, Any]) -> str:
    parts = record.get("designed") or []
    return f" Designed: {', '.join(parts)}." if parts else ""


def card_index() -> dict[str, str]:
    """Return card name -> lookup text for spells, disasters, rooms and characters (``/game card``)."""
    out: dict[str, str] = {}
    for spell in spells().values():
        school = spell["school"] or "no school"
        kind = "botch, " if spell["botch"] else ""
        boost = f" Boosted: {spell['boost_text']}" if spell.get("boost_text") else ""
        out[spell["name"]] = (
            f"Spell (level {spell['level']}, {kind}{school}). {spell['text']}{boost} "
            f"Source: {spell['source']}.{_designed(spell)}"
        )
    for card in disasters().values():
        name = card["name"]
        if name in out:  # the eight Activate Threats cards share a title
            name = f"{name} ({', '.join(rooms()[r]['name'] for r in card['effects'][0].get('rooms', ()))})"
        copies = f" {card['copies']} copies." if card.get("copies", 1) > 1 else ""
        text = card["text"].replace("\n\n", " / ")
        out[name] = (
            f"Disaster (level {card['level']}).{copies} {text} Source: {card['source']}.{_designed(card)}"
        )
    for room in rooms().values():
        boost = f" Boosts {room['boost'].title()}." if room.get("boost") else ""
        out[room["name"]] = f"Room.{boost} {room['text']} Source: {room['source']}.{_designed(room)}"
    for char in characters().values():
        school = (char["school"] or "no school").title()
        out[char["name"]] = (
            f"Character ({school}). Ability (advanced game): {char['text']} "
            f"Source: {char['source']}.{_designed(char)}"
        )
    return out
