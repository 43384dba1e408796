"""Load and check the Argent content in ``data/argent/*.json``.

Every file is read once and checked once (``functools.cache``): the first accessor call validates
every record against the vocabulary of ``rules/argent/VOCABULARY.md`` and raises one
``ArgentDataError`` listing every problem. Records come back as plain dicts and lists that callers
must treat as read-only (copy before storing anything in a game state).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from rules.argent.schema import FILES, check
from rules.argent.vocabulary import (
    DEPARTMENTS,
    EFFECT_KEYS,
    HOOKS,
    POWER_KEYS,
    ROOM_RULES,
    SOURCES,
    STATUSES,
    TRIGGER_EVENTS,
    Data,
    Record,
    check_effect,
)

DATA_DIR = Path(__file__).parents[2] / "data" / "argent"

# The vocabulary (rules.argent.vocabulary) and the record checks (rules.argent.schema) are read here too.
__all__ = [
    "DEPARTMENTS",
    "EFFECT_KEYS",
    "HOOKS",
    "POWER_KEYS",
    "ROOM_RULES",
    "SOURCES",
    "STATUSES",
    "TRIGGER_EVENTS",
    "check",
    "check_effect",
]




class ArgentDataError(ValueError):
    """The Argent data breaks the vocabulary; ``problems`` lists every fault found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in the Argent data:\n{lines}")


# --------------------------------------------------------------------------- loading


def read_all() -> Data:
    """Read every data file (no checks, no cache); tests use it to build broken copies."""
    data: Data = {}
    for name in FILES:
        with open(DATA_DIR / f"{name}.json", encoding="utf-8") as handle:
            data[name] = json.load(handle)
    return data


def validate(data: Data | None = None) -> None:
    """Check ``data`` (the shipped files when None) and raise ArgentDataError listing every problem."""
    problems = check(read_all() if data is None else data)
    if problems:
        raise ArgentDataError(problems)


@cache
def _data() -> Data:
    data = read_all()
    validate(data)
    return data


def rooms() -> list[Record]:
    """Return the 15 University rooms, both sides each."""
    return _data()["rooms"]


def layouts() -> list[Record]:
    """Return the first-game University layouts (2-5 players)."""
    return _data()["layouts"]


def voters() -> list[Record]:
    """Return the 18 Consortium voters."""
    return _data()["voters"]


def candidates() -> list[Record]:
    """Return the 12 candidates."""
    return _data()["candidates"]


def mages() -> list[Record]:
    """Return the mage kinds (five departments, neutral, the Archmage's Apprentice)."""
    return _data()["mages"]


def bell_tower() -> list[Record]:
    """Return the 5 Bell Tower offerings."""
    return _data()["bell_tower"]


def spells() -> list[Record]:
    """Return the 30 spell books (25 regular, 5 legendary), three levels each."""
    return _data()["spells"]


def starters() -> list[Record]:
    """Return the 12 starter spells."""
    return _data()["starters"]


def vaults() -> list[Record]:
    """Return the 26 distinct vault cards (``copies`` says how many of each)."""
    return _data()["vaults"]


def supporters() -> list[Record]:
    """Return the 36 supporters."""
    return _data()["supporters"]


def _by_id(records: list[Record]) -> dict[str, Record]:
    return {r["id"]: r for r in records}


@cache
def rooms_by_id() -> dict[str, Record]:
    """Return the rooms keyed by id."""
    return _by_id(rooms())


@cache
def layouts_by_id() -> dict[str, Record]:
    """Return the layouts keyed by id."""
    return _by_id(layouts())


@cache
def voters_by_id() -> dict[str, Record]:
    """Return the voters keyed by id."""
    return _by_id(voters())


@cache
def candidates_by_id() -> dict[str, Record]:
    """Return the candidates keyed by id."""
    return _by_id(candidates())


@cache
def mages_by_id() -> dict[str, Record]:
    """Return the mage kinds keyed by id."""
    return _by_id(mages())


@cache
def bell_tower_by_id() -> dict[str, Record]:
    """Return the Bell Tower offerings keyed by id."""
    return _by_id(bell_tower())


@cache
def spells_by_id() -> dict[str, Record]:
    """Return the spell books keyed by book id."""
    return _by_id(spells())


@cache
def spell_levels() -> dict[str, Record]:
    """Return every spell level keyed by level id, each with its ``book`` id and ``department`` added."""
    return {
        lv["id"]: {**lv, "book": b["id"], "department": b["department"], "legendary": b["legendary"]}
        for b in spells()
        for lv in b["levels"]
    }


@cache
def starters_by_id() -> dict[str, Record]:
    """Return the starter spells keyed by id."""
    return _by_id(starters())


@cache
def vaults_by_id() -> dict[str, Record]:
    """Return the vault cards keyed by id."""
    return _by_id(vaults())


@cache
def supporters_by_id() -> dict[str, Record]:
    """Return the supporters keyed by id."""
    return _by_id(supporters())


def _walk(effects: list[Any]) -> list[dict[str, Any]]:
    """Return every effect in a list, nested ones included (choose, repeat, if)."""
    found: list[dict[str, Any]] = []
    for effect in effects:
        ((key, arg),) = effect.items()
        found.append(effect)
        if key == "choose":
            found += [e for option in arg for e in _walk(option)]
        elif key == "choose_distinct":
            found += [e for option in arg["options"] for e in _walk(option)]
        elif key == "repeat":
            found += _walk(arg["effects"])
        elif key == "if":
            found += _walk(arg["then"]) + _walk(arg.get("else", []))
    return found


def _effect_owners() -> list[tuple[str, list[Any]]]:
    """Return (record label, effect list) for every effect list in the data."""
    owners: list[tuple[str, list[Any]]] = []
    for room in rooms():
        for side, face in room["sides"].items():
            owners += [(f"{room['name']} {side}", s.get("effects", [])) for s in face["slots"]]
            owners += [(f"{room['name']} {side}", face.get("on_place", []))]
            owners += [(f"{room['name']} {side}", space) for space in face.get("track", [])]
    owners += [(lv["name"], lv["effects"]) for lv in spell_levels().values()]
    for name in ("starters", "vaults", "supporters", "bell_tower"):
        owners += [(r["name"], r["effects"]) for r in _data()[name]]
    for mage in mages():
        owners += [(mage["name"], p["effects"]) for p in mage["powers"].values() if p]
    return owners


def hooks() -> list[tuple[str, str]]:
    """Return (hook name, card name) for every hook in the data; the README counts them."""
    return [
        (e["hook"]["name"], label)
        for label, effects in _effect_owners()
        for e in _walk(effects)
        if "hook" in e
    ]


def effect_keys_used() -> set[str]:
    """Return every effect key the shipped data uses (nested ones included)."""
    return {next(iter(e)) for _, effects in _effect_owners() for e in _walk(effects)}


def _cost(cost: int | str) -> str:
    return "X Mana (one per rival)" if cost == "X" else f"{cost} Mana"


TIMING_WORDS = {"act": "action", "fast": "fast action", "react": "reaction"}


@cache
def card_index() -> list[tuple[str, str, str, str]]:
    """Return (name, kind, text, source) for every card, room, voter and power, for the card lookup."""
    index: list[tuple[str, str, str, str]] = []
    for room in rooms():
        for side in ("A", "B"):
            index.append((f"{room['name']} ({side})", "room", room["sides"][side]["text"], room["source"]))
    for b in spells():
        kind = "legendary spell" if b["legendary"] else "spell"
        for lv in b["levels"]:
            head = f"{b['name']}, level {lv['level']}, {_cost(lv['cost'])}, {TIMING_WORDS[lv['timing']]}"
            index.append((lv["name"], kind, f"{head}: {lv['text']}", b["source"]))
    for s in starters():
        owner = candidates_by_id()[s["candidate"]]["name"]
        head = f"Starter of {owner}, {_cost(s['cost'])}, {TIMING_WORDS[s['timing']]}"
        index.append((s["name"], "starter spell", f"{head}: {s['text']}", s["source"]))
    for v in vaults():
        head = f"{v['type'].capitalize()}, {v['cost']} Gold, {TIMING_WORDS[v['timing']]}"
        head += f", {v['copies']} in the deck"
        index.append((v["name"], "vault", f"{head}: {v['text']}", v["source"]))
    for s in supporters():
        dept = s["department"].replace("_", " ").title()
        index.append((s["name"], "supporter", f"{s['title']} ({dept}): {s['text']}", s["source"]))
    for v in voters():
        index.append((v["name"], "voter", f"{v['title']}: {v['text']}", v["source"]))
    for c in candidates():
        index.append((c["name"], "candidate", f"{c['title']} (side {c['side']}): {c['text']}", c["source"]))
    for b in bell_tower():
        index.append((b["name"], "bell tower", f"{b['min_players']}+ players: {b['text']}", b["source"]))
    for m in mages():
        for side, power in m["powers"].items():
            if power:
                index.append((f"{m['name']} mage ({side})", "mage power", power["text"], m["source"]))
    return index
