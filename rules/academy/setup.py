"""Setting up a game: the academy, glyph sources, the spell grid, the decks, the wizards."""

from __future__ import annotations

from typing import Any

from rules import rng
from rules.academy.cards import characters, disasters, room_cards, rooms, scenarios, spells
from rules.academy.state import (
    CRYSTAL,
    CURSED,
    SLOTS,
    State,
    all_reachable,
    distances,
    draw_room_card,
    empty_room,
    slot_level,
)
from rules.academy.threats import place

BASIC_L1 = ("steal_glyphs", "philanthropy", "danger", "nova", "dash", "dimension_twist")
BASIC_L2 = (
    "deface",
    "enrage",
    "burn",
    "call_flood",
    "summon_imp",
    "teleport_self",
    "snuff",
    "bend_dimension",
    "abjure",
)
BASIC_DECK = (*tuple(f"activate_threats_{i}" for i in range(1, 9)), "wild_magic_1", "imp_invasion")
BASIC_PROGRESSION = ("twist", "gathering", "lure_of_power", "imp_invasion", "fire", "fire")
SLOTS_PER_LEVEL = {level: [s for s in SLOTS if slot_level(s) == level] for level in (1, 2, 3, 4)}


def new_state(players: int, options: dict[str, str], seed: int) -> State:
    """Return the opening state for a table (before the first turn starts)."""
    scen = scenarios()[options["scenario"]]
    basic = scen["key"] == "basic"
    s: State = {
        "kind": "academy",
        "options": dict(options),
        "scenario": scen["key"],
        "basic": basic,
        "difficulty": options["difficulty"],
        "memory": options["memory"],
        "turn": 0,
        "current": 0,
        "step": "setup",
        "left": 0,
        "extra": 0,
        "slots_left": None,
        "binding": False,
        "shield": None,
        "staff_uses": 0,
        "damage": {},
        "reveal": None,
        "played": None,
        "mana": 0,
        "shifts_left": 0,
        "refills": 0,
        "shuffles": [0, 0, 0, 0],
        "overflowed": [],
        "last": None,
        "last_from": None,
        "queue": [],
        "choice": None,
        "request": None,
        "over": False,
        "won": False,
        "reason": "",
        "bound_demon": False,
        "resigned": [],
        "log": [],
        "out": [],
    }
    rng.seed_state(s, seed)
    _build_academy(s)
    _deal_characters(s, players)
    s["room_deck"] = list(room_cards())
    rng.shuffle(s, s["room_deck"])
    s["room_discard"] = []
    _place_sources(s, scen)
    _deal_spells(s, scen)
    _stack_disasters(s, scen)
    mods = scen.get(s["difficulty"], {}) if s["difficulty"] != "normal" else {}
    s["mana"] = scen["mana"] + mods.get("mana", 0)
    for entry in [*scen.get("place", []), *mods.get("place", [])]:
        room = CURSED if entry["where"] == "cursed" else draw_room_card(s)["room"]
        place(s, room, entry["what"], 1, entry.get("type"))
    s["hands"] = [s["disaster_deck"].pop(0) for _ in range(players)]
    s["out"] = []
    return s


def _build_academy(s: State) -> None:
    """Lay the rooms out at random; the basic game re-orients rooms until all can be reached."""
    if s["basic"]:
        board = [k for k in rooms() if k != "lost_room"]
        s["outside"] = None
    else:
        board = [k for k in rooms() if k != "outer_dimension"]
        s["outside"] = "outer_dimension"
    rng.shuffle(s, board)
    s["board"] = board
    s["rot"] = {k: rng.randbelow(s, 4) for k in rooms()}
    s["rooms"] = {k: empty_room() for k in rooms()}
    if s["basic"]:
        _make_reachable(s)
    else:
        s["rooms"]["masters_study"]["guardian"] = 1


def _make_reachable(s: State) -> None:
    """Basic setup: rotate rooms until every room can be reached from the Mana Crystal.

    Ruling: the players may rotate freely; the engine does it for them by re-orienting, at random,
    the rooms that cannot yet be reached (and, if that ever stalls, a room next to them).
    """
    for _ in range(500):
        if all_reachable(s):
            return
        reach = distances(s, CRYSTAL)
        cut = [r for r in s["board"] if r not in reach]
        for room in cut:
            s["rot"][room] = rng.randbelow(s, 4)
        edge = [r for r in reach if r != CRYSTAL]
        if edge and rng.randbelow(s, 3) == 0:
            s["rot"][rng.choice(s, edge)] = rng.randbelow(s, 4)
    rng.shuffle(s, s["board"])  # a layout that would not open up: lay the tiles again
    _make_reachable(s)


def _deal_characters(s: State, players: int) -> None:
    pool = [k for k, c in characters().items() if c["school"] or not s["basic"]]
    rng.shuffle(s, pool)
    s["wizards"] = [
        {
            "char": pool[i],
            "room": CRYSTAL,
            "glyphs": [],
            "shared": None,
            "robe": None,
            "wand": None,
            "staff": None,
            "recalls": 0,
        }
        for i in range(players)
    ]


def _place_sources(s: State, scen: dict[str, Any]) -> None:
    """Glyph sources 1-5 on rooms drawn from the room deck (redrawing some rooms), the rest fixed."""
    skip = set(scen.get("redraw", [CURSED]))
    glyph = 1
    while glyph <= 5:
        room = draw_room_card(s)["room"]
        if room in skip or s["rooms"][room]["source"] is not None:
            continue
        s["rooms"][room]["source"] = glyph
        glyph += 1
    for g, room in scen.get("sources", {}).items():
        while room == "random" or room in skip or s["rooms"][room]["source"] is not None:
            room = draw_room_card(s)["room"]  # a designed scenario may put a high source at random
        s["rooms"][room]["source"] = int(g)
    mods = scen.get(s["difficulty"], {}) if s["difficulty"] != "normal" else {}
    for g in mods.get("guard_sources", scen.get("guard_sources", [4, 5])):  # a setting may guard fewer
        room = next(r for r, c in s["rooms"].items() if c["source"] == g)
        s["rooms"][room]["guardian"] = 1


def _deal_spells(s: State, scen: dict[str, Any]) -> None:
    """Deal the spell grid: the basic lists, or each level's named spells, botches and non-botches."""
    s["slots"] = {slot: {"spell": None, "bound": False} for slot in SLOTS}
    if s["basic"]:
        chosen = {1: list(BASIC_L1), 2: list(BASIC_L2)}
    else:
        mods = scen.get(s["difficulty"], {}) if s["difficulty"] != "normal" else {}
        chosen = {}
        for level in (1, 2, 3, 4):
            room = len(SLOTS_PER_LEVEL[level])
            named = [k for k in scen.get("mandatory", []) if spells()[k]["level"] == level]
            botch = [k for k, v in spells().items() if v["level"] == level and v["botch"] and k not in named]
            plain = [
                k for k, v in spells().items() if v["level"] == level and not v["botch"] and k not in named
            ]
            rng.shuffle(s, botch)
            rng.shuffle(s, plain)
            want = scen["botches"][level - 1] + mods.get("botches", 0)
            want = max(0, min(want, len(botch), room - len(named)))  # ruling: capped by what the level has
            chosen[level] = named + botch[:want] + plain[: room - len(named) - want]
    for level, keys in chosen.items():
        rng.shuffle(s, keys)
        for slot, key in zip(SLOTS_PER_LEVEL[level], keys, strict=True):
            s["slots"][slot]["spell"] = key
    mods = scen.get(s["difficulty"], {}) if s["difficulty"] != "normal" else {}
    for entry in s["slots"].values():
        entry["bound"] = entry["spell"] in mods.get("bound", ())  # easy settings may start a spell bound


def _stack_disasters(s: State, scen: dict[str, Any]) -> None:
    """Build the disaster and progression decks (basic: shuffled; advanced: stacked by level)."""
    s["disaster_discard"] = []
    if s["basic"]:
        s["disaster_deck"] = list(BASIC_DECK)
        s["progression"] = list(BASIC_PROGRESSION)
        rng.shuffle(s, s["disaster_deck"])
        rng.shuffle(s, s["progression"])
        return
    left = {k: d.get("copies", 1) for k, d in disasters().items()}
    deck = []
    for key in scen["disaster_deck"]["keys"]:
        left[key] -= 1
        deck.append(key)

    def pick(level: int) -> str:
        pool = sorted(
            k for k, n in left.items() if n > 0 and disasters()[k]["level"] == level and k not in deck
        )
        key = rng.choice(s, pool)
        left[key] -= 1
        return key

    deck += [pick(level) for level in scen["disaster_deck"]["levels"]]
    rng.shuffle(s, deck)
    mods = scen.get(s["difficulty"], {}) if s["difficulty"] != "normal" else {}
    first = mods.get("first")
    if first:
        if first in deck:
            deck.remove(first)
        deck.insert(0, first)
    s["disaster_deck"] = deck
    s["progression"] = [pick(level) for level in scen["progression"]] + (
        [scen["last"]] if scen.get("last") else []
    )
