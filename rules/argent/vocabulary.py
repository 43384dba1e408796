"""The vocabulary of the Argent data (``rules/argent/VOCABULARY.md``): its words and the effect checks.

The sets of words a record may use (departments, resources, statuses, hooks...), the small
checkers every field check is built from, and ``check_effect``, which checks one effect's key and
arguments against ``EFFECT_ARGS``. ``rules.argent.schema`` checks whole records with them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Record = dict[str, Any]
Data = dict[str, list[Record]]

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
