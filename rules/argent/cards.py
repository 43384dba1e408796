"""Load and check the Argent content in ``data/argent/*.json``.

Every file is read once and checked once (``functools.cache``): the first accessor call validates
every record against the vocabulary of ``rules/argent/VOCABULARY.md`` and raises one
``ArgentDataError`` listing every problem. Records come back as plain dicts and lists that callers
must treat as read-only (copy before storing anything in a game state).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parents[2] / "data" / "argent"

Record = dict[str, Any]
Data = dict[str, list[Record]]

FILES = (
    "rooms",
    "layouts",
    "voters",
    "candidates",
    "mages",
    "bell_tower",
    "spells",
    "starters",
    "vaults",
    "supporters",
)


class ArgentDataError(ValueError):
    """The Argent data breaks the vocabulary; ``problems`` lists every fault found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in the Argent data:\n{lines}")


# --------------------------------------------------------------------------- vocabulary

DEPARTMENTS = frozenset({"divinity", "mysticism", "natural_magick", "planar_studies", "sorcery"})
RESOURCES = frozenset({"gold", "mana", "ip", "int", "wis", "research", "mark"})
COUNTERS = frozenset({"own:int", "own:wis", "players_with_more:ip", "room:other_mages", "trigger:spell_cost"})
DECKS = frozenset({"spell", "vault", "supporter"})
SOURCES = frozenset({"published", "rulebook", "designed"})
TIMINGS = frozenset({"act", "fast", "react"})
TRIGGER_EVENTS = frozenset({"wounded", "banished", "moved", "shadowed", "last_bell_tower", "pay_gold"})
STATUSES = frozenset(
    {
        "spell_discount",
        "free_spell",
        "spell_no_exhaust",
        "no_casting",
        "no_placing",
        "no_mage_powers",
        "own_no_mage_powers",
        "own_ignore_spells",
        "own_ignore_harm",
        "own_unwoundable",
        "own_unwoundable_unmovable",
        "own_wounded_may_move",
        "energy_drain",
        "shadow_on_place",
        "shadow_only_place",
    }
)
DURATIONS = frozenset({"this_turn", "until_your_next_turn", "this_round", "next_spell"})
HOOKS = frozenset({"repeating_hex", "possession", "white_ash"})
CONDITIONS = frozenset({"healed_opponent_mage"})
ROOM_RULES = frozenset(
    {
        "one_mage_per_player",
        "place_up_to_3",
        "no_direct_placement",
        "never_locked",
        "no_wounds_inside",
        "sympathy_from_opponent_only",
        "buy_stat_for_4_gold",
        "cycle_vault_once_for_1_gold",
        "reveal_vault_3",
        "discard_unclaimed_room_cards",
        "not_in_two_player",
        "two_player_required",
    }
)
SLOT_KINDS = frozenset({"merit", "regular", "shadow", "shadow_merit", "area", "wound", "general"})
POWER_KEYS = frozenset(
    {
        "none",
        "all_powers",
        "immune_opponent_spells",
        "place_after_act_spell",
        "unwoundable",
        "fast_place",
        "place_wound",
        "merit_for_gold",
        "spell_discount_min_1",
        "place_shift",
        "place_shadow",
        "place_mana_per_mage",
    }
)
PLAIN_CRITERIA = frozenset(
    {
        "most:ip",
        "second_most:ip",
        "most:supporters",
        "second_most:supporters",
        "most:gold",
        "most:mana",
        "most:int",
        "most:wis",
        "most:marks",
        "most:research",
        "most:diversity",
        "most:vault_type:treasure",
        "most:vault_type:consumable",
    }
)
CRITERIA = PLAIN_CRITERIA | {f"most:department:{d}" for d in DEPARTMENTS}

EXPECTED = {
    "rooms": 15,
    "voters": 18,
    "candidates": 12,
    "mages": 7,
    "bell_tower": 5,
    "starters": 12,
    "vaults": 26,
    "supporters": 36,
}
SLUG = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")

# A checker takes (value, where) and returns the problems it finds.
Check = Callable[[Any, str], list[str]]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(low: int = 0, high: int | None = None) -> Check:
    def check(value: Any, where: str) -> list[str]:
        if not _is_int(value) or value < low or (high is not None and value > high):
            span = f"{low}..{high}" if high is not None else f">= {low}"
            return [f"{where} must be a whole number {span}, not {value!r}"]
        return []

    return check


def _enum(*choices: str | frozenset[str]) -> Check:
    allowed: set[str] = set()
    for c in choices:
        allowed |= {c} if isinstance(c, str) else set(c)

    def check(value: Any, where: str) -> list[str]:
        if value not in allowed:
            return [f"{where} is {value!r}; expected one of {', '.join(sorted(allowed))}"]
        return []

    return check


def _either(*checks: Check) -> Check:
    def check(value: Any, where: str) -> list[str]:
        found = [c(value, where) for c in checks]
        if any(not f for f in found):
            return []
        return [" or ".join(f[0] for f in found)]

    return check


def _none(value: Any, where: str) -> list[str]:
    return [] if value is None else [f"{where} must be null"]


def _bool(value: Any, where: str) -> list[str]:
    return [] if isinstance(value, bool) else [f"{where} must be true or false, not {value!r}"]


def _list_of(item: Check, min_len: int = 0) -> Check:
    def check(value: Any, where: str) -> list[str]:
        if not isinstance(value, list) or len(value) < min_len:
            return [f"{where} must be a list of at least {min_len} item(s)"]
        return [p for i, v in enumerate(value) for p in item(v, f"{where}[{i}]")]

    return check


def _resources(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict) or not value:
        return [f"{where} must map resources ({', '.join(sorted(RESOURCES))}) to amounts"]
    problems = []
    for name, amount in value.items():
        if name not in RESOURCES:
            problems.append(f"{where} names unknown resource {name!r}")
        problems += _int(1)(amount, f"{where}.{name}")
    return problems


def _effects(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        return [f"{where} must be a list of effects"]
    return [p for i, e in enumerate(value) for p in check_effect(e, f"{where}[{i}]")]


def _options(min_len: int) -> Check:
    return _list_of(_effects, min_len)


COUNT = _either(_int(1), _enum("all"))
SELECTOR: dict[str, Check] = {
    "whose": _enum("any", "opponent", "own", "instigator", "each_opponent"),
    "count": COUNT,
    "up_to": _bool,
    "scope": _enum(
        "board",
        "room",
        "adjacent_rooms",
        "same_room",
        "infirmary",
        "trigger",
        "this",
        "office",
        "board_or_infirmary",
    ),
    "rooms": _int(2, 4),
}
ROOM_REF = _enum("chosen", "same")

# effect key -> (argument fields, required fields); a None field table means "special shape".
EFFECT_ARGS: dict[str, tuple[dict[str, Check] | None, frozenset[str]]] = {
    "gain": (None, frozenset()),
    "pay": (None, frozenset()),
    "choose": (None, frozenset()),
    "gain_per": (
        {
            "resource": _enum(RESOURCES),
            "per": _enum(COUNTERS),
            "each": _int(1),
            "plus": _int(0),
            "divide": _int(1),
            "round": _enum("up", "down"),
            "max": _either(_int(1), _none),
        },
        frozenset({"resource", "per"}),
    ),
    "steal": (
        {"resource": _enum(RESOURCES), "amount": _int(1), "from": _enum("opponent", "player_with_more")},
        frozenset({"resource", "amount", "from"}),
    ),
    "repeat": ({"effects": _effects, "max": _either(_int(1), _none)}, frozenset({"effects", "max"})),
    "choose_distinct": ({"picks": _int(1), "options": _options(2)}, frozenset({"picks", "options"})),
    "buy": ({"count": _int(1), "discount": _int(0)}, frozenset()),
    "draw": ({"deck": _enum(DECKS), "count": _int(1)}, frozenset({"deck"})),
    "draft": ({"tableau": _enum(DECKS), "count": _int(1)}, frozenset({"tableau"})),
    "secret_supporter": ({"count": _int(1)}, frozenset()),
    "look": (
        {"deck": _enum(DECKS), "count": _int(1), "keep": _int(1), "as": _enum("secret", "office")},
        frozenset({"deck", "count", "keep", "as"}),
    ),
    "research": (
        {"amount": _int(1), "department": _enum(DEPARTMENTS, "named")},
        frozenset({"amount", "department"}),
    ),
    "research_legendary": ({}, frozenset()),
    "discard": (
        {
            "kind": _enum("spell"),
            "whose": _enum("opponent"),
            "max_level": _int(1, 3),
            "exclude": _list_of(_enum("starter", "legendary")),
        },
        frozenset({"kind", "whose"}),
    ),
    "refresh": ({"what": _enum("spell", "spell_or_treasure"), "count": _int(1)}, frozenset({"what"})),
    "retire": ({}, frozenset()),
    "mark_for_all": ({}, frozenset()),
    "wound": ({**SELECTOR, "bonus": _bool, "take_slot": _bool}, frozenset()),
    "banish": ({**SELECTOR, "take_slot": _bool, "shadows_drop": _bool}, frozenset()),
    "move": (
        {
            **SELECTOR,
            "to": _enum("same_room", "adjacent_room", "any_open", "any_slot"),
            "not_into": _list_of(_enum("infirmary", "great_hall")),
            "take_slot": _bool,
            "displace": _enum("wound_opponent"),
        },
        frozenset({"to"}),
    ),
    "heal": (SELECTOR, frozenset()),
    "place": (
        {
            "count": COUNT,
            "up_to": _bool,
            "mage": _enum("own", "temporary_neutral"),
            "scope": _enum("board", "room", "same_room"),
            "slot": _enum("open", "any"),
            "displace": _enum("wound"),
        },
        frozenset(),
    ),
    "shadow": (
        {"target": _enum("opponent_mage", "own_mage", "empty_slot", "any_slot"), "count": _int(1)},
        frozenset({"target"}),
    ),
    "push_shadow": ({**SELECTOR, "take_slot": _bool}, frozenset()),
    "rearrange": ({"room": ROOM_REF}, frozenset({"room"})),
    "lock": ({"room": ROOM_REF}, frozenset({"room"})),
    "unlock": ({"room": ROOM_REF}, frozenset({"room"})),
    "gain_mage": (
        {"department": _enum(DEPARTMENTS, "any", "apprentice"), "temporary": _bool},
        frozenset({"department"}),
    ),
    "swap_mage": ({"to": _enum("any", "neutral"), "require": _enum("non_neutral")}, frozenset({"to"})),
    "redirect": ({"to": _enum("shadow", "any_open")}, frozenset({"to"})),
    "extra_action": (
        {
            "count": _int(1),
            "kinds": _list_of(_enum("any", "place", "cast", "vault", "supporter"), 1),
            "distinct": _bool,
            "up_to": _bool,
            "no_powers": _bool,
        },
        frozenset(),
    ),
    "cast": (
        {
            "from": _enum("own", "tableau"),
            "level": _either(_int(1, 3), _enum("unresearched", "below_highest", "any")),
            "pay": _bool,
            "exhaust": _bool,
            "only_act": _bool,
        },
        frozenset({"from", "level"}),
    ),
    "status": (
        {"name": _enum(STATUSES), "duration": _enum(DURATIONS), "amount": _int(1)},
        frozenset({"name", "duration"}),
    ),
    "become_first_player": ({}, frozenset()),
    "waive_cost": ({"resource": _enum("gold", "mana")}, frozenset({"resource"})),
    "if": ({"cond": _enum(CONDITIONS), "then": _effects, "else": _effects}, frozenset({"cond", "then"})),
    "hook": ({"name": _enum(HOOKS)}, frozenset({"name"})),
    "astronomy": (
        {"pay": _enum("gold", "mana"), "per_space": _int(1), "first_space_free": _bool},
        frozenset({"pay", "per_space"}),
    ),
    "astronomy_any_earlier": ({}, frozenset()),
    "take_revealed": ({}, frozenset()),
    "add_room_card": ({"max_per_type": _int(1)}, frozenset({"max_per_type"})),
    "draft_room_card": ({}, frozenset()),
}
EFFECT_KEYS = frozenset(EFFECT_ARGS)


def check_effect(effect: Any, where: str) -> list[str]:
    """Return the problems of one effect (an object with exactly one known key)."""
    if not isinstance(effect, dict) or len(effect) != 1:
        return [f"{where} must be an object with exactly one effect key, not {effect!r}"]
    ((key, arg),) = effect.items()
    here = f"{where}.{key}"
    if key not in EFFECT_ARGS:
        return [f"{where} has unknown effect key {key!r}"]
    if key == "pay" and isinstance(arg, dict) and "swap" in arg:
        # "Swap X for Y" on the sheet: a price paid for a good, which Auric Catalyst cannot waive.
        rest = {k: v for k, v in arg.items() if k != "swap"}
        return _bool(arg["swap"], f"{here}.swap") + _resources(rest, here)
    if key in ("gain", "pay"):
        return _resources(arg, here)
    if key == "choose":
        return _options(2)(arg, here)
    fields, required = EFFECT_ARGS[key]
    assert fields is not None
    if not isinstance(arg, dict):
        return [f"{here} must take an object of arguments, not {arg!r}"]
    problems = [f"{here} lacks required argument {name!r}" for name in sorted(required - arg.keys())]
    for name, value in arg.items():
        if name not in fields:
            problems.append(f"{here} has unknown argument {name!r}")
        else:
            problems += fields[name](value, f"{here}.{name}")
    return problems


# --------------------------------------------------------------------------- records


def _fields(record: Record, where: str, required: dict[str, Check], optional: dict[str, Check]) -> list[str]:
    problems = [f"{where}: missing field {name!r}" for name in required if name not in record]
    if "designed" in record and not record.get("note"):
        problems.append(f"{where}: a record with designed parts must say in 'note' what was open")
    for name, value in record.items():
        # "designed": the parts of a published or rulebook record that are our decisions (with a note).
        check = required.get(name) or optional.get(name) or (_designed_parts if name == "designed" else None)
        if check is None:
            problems.append(f"{where}: unknown field {name!r}")
        else:
            problems += [f"{where}: {p}" for p in check(value, name)]
    return problems


def _designed_parts(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        return [f"{where} must list the designed parts as non-empty texts"]
    return []


def _text(value: Any, where: str) -> list[str]:
    return [] if isinstance(value, str) and value.strip() else [f"{where} must be non-empty text"]


def _slug(value: Any, where: str) -> list[str]:
    if not isinstance(value, str) or not SLUG.match(value):
        return [f"{where} must be a lower-case slug, not {value!r}"]
    return []


def _trigger(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    problems = _fields(
        value,
        where,
        {"on": _list_of(_enum(TRIGGER_EVENTS), 1)},
        {"by": _enum("any", "opponent", "other_player"), "via": _enum("any", "spell"), "instead": _bool},
    )
    return problems


COMMON = {"id": _slug, "name": _text, "text": _text, "source": _enum(SOURCES)}
COST = _either(_int(0), _enum("X"))


def _timed(record: Record, where: str) -> list[str]:
    """Check that a reaction has a trigger and nothing else does."""
    if record.get("timing") == "react" and "trigger" not in record:
        return [f"{where}: a reaction needs a 'trigger'"]
    if record.get("timing") != "react" and "trigger" in record:
        return [f"{where}: only a reaction may have a 'trigger'"]
    return []


def _designed_note(record: Record, where: str) -> list[str]:
    if record.get("source") == "designed" and not record.get("note"):
        return [f"{where}: a designed record must say in 'note' what was open"]
    return []


def _slots(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not value:
        return [f"{where} must be a non-empty list of slots"]
    problems: list[str] = []
    seen: list[str] = []
    for i, slot in enumerate(value):
        here = f"{where}[{i}]"
        if not isinstance(slot, dict):
            problems.append(f"{here} must be an object")
            continue
        kind = slot.get("kind")
        if kind in ("shadow", "shadow_merit"):
            problems += _fields(slot, here, {"id": _slug, "kind": _enum(SLOT_KINDS), "of": _slug}, {})
            wanted = "merit" if kind == "shadow_merit" else "regular"
            before = value[i - 1] if i else {}
            if not seen or slot.get("of") != seen[-1] or before.get("kind") != wanted:
                problems.append(f"{here}: a {kind} slot must follow the {wanted} slot it shadows")
        else:
            problems += _fields(slot, here, {"id": _slug, "kind": _enum(SLOT_KINDS), "effects": _effects}, {})
        if slot.get("id") in seen:
            problems.append(f"{here}: duplicate slot id {slot.get('id')!r}")
        seen.append(slot.get("id"))
    return problems


def _room_side(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    problems = _fields(
        value,
        where,
        {"instant": _bool, "rules": _list_of(_enum(ROOM_RULES)), "text": _text, "slots": _slots},
        {
            "on_place": _effects,
            "track": _options(1),
            "marker": _enum("stays", "resets"),
            "wrap": _bool,
        },
    )
    uses_tower = any("astronomy" in e for s in value.get("slots", []) for e in s.get("effects", []))
    if uses_tower and not {"track", "marker", "wrap"} <= value.keys():
        problems.append(f"{where}: a tower slot needs the side's 'track', 'marker' and 'wrap'")
    return problems


def _sides(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict) or set(value) != {"A", "B"}:
        return [f"{where} must have exactly the sides 'A' and 'B'"]
    return [p for side in ("A", "B") for p in _room_side(value[side], f"{where}.{side}")]


def _check_room(r: Record, where: str) -> list[str]:
    common = {k: c for k, c in COMMON.items() if k != "text"}
    return _fields(r, where, {**common, "central": _bool, "sides": _sides}, {"note": _text})


def _grid(value: Any, where: str) -> list[str]:
    row = _list_of(_either(_slug, _none), 1)
    return _list_of(row, 1)(value, where)


def _check_layout(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "players": _int(2, 5),
            "grid": _grid,
            "sides": lambda v, w: [] if isinstance(v, dict) else [w],
        },
        {"note": _text},
    )


def _check_voter(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "title": _text,
            "criterion": _enum(CRITERIA),
            "always_in_play": _bool,
            "two_player": _bool,
        },
        {"note": _text},
    )


def _start(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    mage_kinds = _enum(DEPARTMENTS, "neutral")

    def mages(v: Any, w: str) -> list[str]:
        if not isinstance(v, dict) or not v:
            return [f"{w} must map mage kinds to counts"]
        return [p for k, n in v.items() for p in mage_kinds(k, f"{w} key") + _int(1, 2)(n, f"{w}.{k}")]

    return _fields(
        value,
        where,
        {"gold": _int(0), "mana": _int(0), "int": _int(0), "wis": _int(0), "merit": _int(0), "mages": mages},
        {},
    )


def _check_candidate(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "title": _text,
            "department": _enum(DEPARTMENTS, "student_body"),
            "side": _enum("A", "B"),
            "sheet": _int(1, 6),
            "starter": _slug,
            "start": _start,
        },
        {"note": _text},
    )


def _power(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, dict):
        return [f"{where} must be an object or null"]
    return _fields(
        value,
        where,
        {
            "key": _enum(POWER_KEYS),
            "text": _text,
            "timing": _enum("passive", "on_place", "after_cast"),
            "effects": _effects,
        },
        {},
    )


def _check_mage(r: Record, where: str) -> list[str]:
    def powers(v: Any, w: str) -> list[str]:
        if not isinstance(v, dict) or set(v) != {"A", "B"} or v.get("A") is None:
            return [f"{w} must have an 'A' power and a 'B' power (or null)"]
        return _power(v["A"], f"{w}.A") + _power(v["B"], f"{w}.B")

    common = {k: c for k, c in COMMON.items() if k != "text"}
    return _fields(
        r,
        where,
        {**common, "colour": _text, "pawns": _int(1), "temporary": _bool, "powers": powers},
        {"note": _text},
    )


def _check_bell(r: Record, where: str) -> list[str]:
    return _fields(r, where, {**COMMON, "min_players": _int(2, 5), "effects": _effects}, {"note": _text})


def _level(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    problems = _fields(
        value,
        where,
        {
            "id": _slug,
            "name": _text,
            "level": _int(1, 3),
            "cost": COST,
            "timing": _enum(TIMINGS),
            "text": _text,
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    )
    return problems + _timed(value, where)


def _check_book(r: Record, where: str) -> list[str]:
    common = {k: c for k, c in COMMON.items() if k != "text"}
    problems = _fields(
        r,
        where,
        {**common, "department": _enum(DEPARTMENTS), "legendary": _bool, "levels": _list_of(_level, 3)},
        {"note": _text},
    )
    levels = r.get("levels")
    if isinstance(levels, list) and [lv.get("level") for lv in levels if isinstance(lv, dict)] != [1, 2, 3]:
        problems.append(f"{where}: a book has exactly levels 1, 2 and 3 in order")
    return problems


def _check_starter(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "candidate": _slug,
            "department": _enum(DEPARTMENTS, "student_body"),
            "cost": COST,
            "timing": _enum(TIMINGS),
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    ) + _timed(r, where)


def _check_vault(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "type": _enum("treasure", "consumable"),
            "cost": _int(0),
            "timing": _enum(TIMINGS),
            "copies": _int(1),
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    ) + _timed(r, where)


def _check_supporter(r: Record, where: str) -> list[str]:
    problems = _fields(
        r,
        where,
        {
            **COMMON,
            "title": _text,
            "department": _enum(DEPARTMENTS, "wild"),
            "timing": _enum(TIMINGS, "none", "endgame"),
            "familiar": _bool,
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    ) + _timed(r, where)
    if r.get("familiar") and r.get("effects"):
        problems.append(f"{where}: a familiar has no effects")
    return problems


RECORD_CHECKS: dict[str, Callable[[Record, str], list[str]]] = {
    "rooms": _check_room,
    "layouts": _check_layout,
    "voters": _check_voter,
    "candidates": _check_candidate,
    "mages": _check_mage,
    "bell_tower": _check_bell,
    "spells": _check_book,
    "starters": _check_starter,
    "vaults": _check_vault,
    "supporters": _check_supporter,
}


def _record_where(name: str, index: int, record: Any) -> str:
    rid = record.get("id") if isinstance(record, dict) else None
    return f"{name}.json: {rid or f'record #{index}'}"


def _check_file(name: str, records: Any) -> list[str]:
    if not isinstance(records, list):
        return [f"{name}.json: must hold a JSON array of records"]
    problems: list[str] = []
    ids = Counter(r.get("id") for r in records if isinstance(r, dict))
    problems += [f"{name}.json: {rid}: duplicate id ({n} records)" for rid, n in ids.items() if n > 1]
    for i, record in enumerate(records):
        where = _record_where(name, i, record)
        if not isinstance(record, dict):
            problems.append(f"{where}: must be an object")
            continue
        problems += RECORD_CHECKS[name](record, where)
        problems += _designed_note(record, where)
    return problems


def _check_counts(data: Data) -> list[str]:
    problems = []
    for name, want in EXPECTED.items():
        if len(data.get(name, [])) != want:
            problems.append(f"{name}.json: holds {len(data.get(name, []))} records, the base game has {want}")
    books = data.get("spells", [])
    regular = sum(1 for b in books if not b.get("legendary"))
    legendary = len(books) - regular
    if (regular, legendary) != (25, 5):
        problems.append(
            f"spells.json: holds {regular} regular + {legendary} legendary books, expected 25 + 5"
        )
    copies = sum(v.get("copies", 0) for v in data.get("vaults", []) if _is_int(v.get("copies")))
    if copies != 38:
        problems.append(f"vaults.json: copies add up to {copies}, the base game has 38")
    voters_ = data.get("voters", [])
    if sum(1 for v in voters_ if v.get("always_in_play")) != 2:
        problems.append("voters.json: exactly two voters (the white ones) are always in play")
    if sum(1 for v in voters_ if v.get("two_player") is False) != 2:
        problems.append("voters.json: exactly two voters are removed in 2-player games")
    return problems


def _check_links(data: Data) -> list[str]:
    """Check the references between files (ids that must exist elsewhere)."""
    problems = []
    room_ids = {r.get("id") for r in data.get("rooms", [])}
    starters_by_id = {s.get("id"): s for s in data.get("starters", [])}
    candidate_ids = {c.get("id") for c in data.get("candidates", [])}
    for c in data.get("candidates", []):
        starter = starters_by_id.get(c.get("starter"))
        if starter is None:
            problems.append(f"candidates.json: {c.get('id')}: unknown starter {c.get('starter')!r}")
        elif starter.get("candidate") != c.get("id"):
            problems.append(
                f"candidates.json: {c.get('id')}: starter {c.get('starter')!r} names another candidate"
            )
    for s in data.get("starters", []):
        if s.get("candidate") not in candidate_ids:
            problems.append(f"starters.json: {s.get('id')}: unknown candidate {s.get('candidate')!r}")
    sheets = Counter((c.get("sheet"), c.get("side")) for c in data.get("candidates", []))
    problems += [
        f"candidates.json: sheet {k[0]} side {k[1]} is used {n} times" for k, n in sheets.items() if n > 1
    ]
    for lay in data.get("layouts", []):
        grid = lay.get("grid") if isinstance(lay.get("grid"), list) else []
        placed = [r for row in grid if isinstance(row, list) for r in row if r is not None]
        where = f"layouts.json: {lay.get('id')}"
        problems += [f"{where}: unknown room {r!r}" for r in placed if r not in room_ids]
        if len(placed) != len(set(placed)):
            problems.append(f"{where}: a room appears twice")
        want = {2: 9, 3: 8, 4: 10, 5: 12}.get(lay.get("players"))
        if want is not None and len(placed) != want:
            problems.append(f"{where}: {len(placed)} rooms for {lay.get('players')} players, expected {want}")
        missing = {"council_chamber", "library", "infirmary"} - set(placed)
        if missing:
            problems.append(f"{where}: lacks University Central room(s) {sorted(missing)}")
        sides = lay.get("sides") if isinstance(lay.get("sides"), dict) else {}
        problems += [f"{where}: sides names {k!r}, not in the grid" for k in sides if k not in placed]
        problems += [
            f"{where}: side {v!r} of {k!r} is not A or B" for k, v in sides.items() if v not in ("A", "B")
        ]
    level_ids = Counter(
        lv.get("id") for b in data.get("spells", []) for lv in b.get("levels", []) if isinstance(lv, dict)
    )
    problems += [f"spells.json: level id {k!r} is used {n} times" for k, n in level_ids.items() if n > 1]
    return problems


def check(data: Data) -> list[str]:
    """Return every problem in ``data`` (file name -> records); an empty list means valid."""
    problems: list[str] = []
    for name in FILES:
        if name not in data:
            problems.append(f"{name}.json: missing")
            continue
        problems += _check_file(name, data[name])
    shaped = all(isinstance(data.get(n), list) and all(isinstance(r, dict) for r in data[n]) for n in FILES)
    if shaped:
        problems += _check_counts(data)
    if not problems:
        # Links are checked only on well-formed records, so one fault is not reported twice.
        problems += _check_links(data)
    return problems


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
