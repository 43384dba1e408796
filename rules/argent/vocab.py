"""The registries of the words the engine reads besides effect keys: statuses, mage powers, room rules
and reaction triggers (VOCABULARY.md, section 6).

Each registry maps every key the data may use to what the engine does with it; the engine reads these
words only through the accessors below, which fail loudly (``UnknownKey``) on a word the registry does
not hold, so a typo can never be skipped in silence. ``tests/test_argent_vocabulary.py`` holds each
registry to the loader's list in ``cards.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from rules.argent import content
from rules.argent.state import APPRENTICE, DEPARTMENTS, State, room_side


class UnknownKey(KeyError):
    """A word the engine was asked about that its registry does not hold."""


def _known(registry: dict[str, Any], key: str, what: str) -> None:
    if key not in registry:
        raise UnknownKey(f"unknown {what} {key!r}")


# --------------------------------------------------------------------------- statuses

# name -> who it covers ("own": the seat that started it; "table": every player) and its meaning.
STATUSES: dict[str, tuple[str, str]] = {
    "spell_discount": ("own", "your spells cost `amount` less Mana"),
    "free_spell": ("own", "your next spell costs no Mana"),
    "spell_no_exhaust": ("own", "your next spell does not exhaust"),
    "no_casting": ("table", "no player may cast spells"),
    "no_placing": ("table", "no player may place mages"),
    "no_mage_powers": ("table", "all mages lose their powers (mages immune to spells keep theirs)"),
    "own_no_mage_powers": ("own", "your mages lose their powers"),
    "own_ignore_spells": ("own", "rivals' spells do not affect your mages (protection)"),
    "own_ignore_harm": ("own", "rivals' spells, vault cards and mages do your mages no harm (protection)"),
    "own_unwoundable": ("own", "your mages cannot be wounded (protection)"),
    "own_unwoundable_unmovable": ("own", "your mages cannot be wounded or moved (protection)"),
    "own_wounded_may_move": ("own", "your wounded mages may walk out after the bonus"),
    "energy_drain": ("own", "each rival pays you 1 Mana more for every spell"),
    "shadow_on_place": ("own", "your placements may shadow a rival's mage"),
    "shadow_only_place": ("own", "you may place only as a shadow beside rivals' mages or empty slots"),
}


def statuses_named(state: State, name: str) -> list[dict[str, Any]]:
    """Return the running statuses of one name (any seat)."""
    _known(STATUSES, name, "status")
    return [s for s in state["statuses"] if s["name"] == name]


def covers(state: State, seat: int | None, name: str) -> bool:
    """Whether a status covers a seat: an "own" status the seat started, or a "table" status."""
    _known(STATUSES, name, "status")
    running = state["statuses"]
    if not running:  # most of a game runs no status: asked thousands of times a move
        return False
    table = STATUSES[name][0] == "table"
    return any(s["name"] == name and (table or s["seat"] == seat) for s in running)


def active(state: State, name: str) -> bool:
    """Whether any player has a status of this name running."""
    _known(STATUSES, name, "status")
    running = state["statuses"]
    return bool(running) and any(s["name"] == name for s in running)


def amount(state: State, seat: int, name: str) -> int:
    """Return the total ``amount`` of a seat's statuses of one name."""
    return sum(s.get("amount", 0) for s in statuses_named(state, name) if s["seat"] == seat)


# --------------------------------------------------------------------------- mage powers

POWERS: dict[str, str] = {
    "none": "no power (neutral mages)",
    "all_powers": "every department's power (the Archmage's Apprentice)",
    "immune_opponent_spells": "rivals' spells do not affect it (Divinity A; protection)",
    "place_after_act_spell": "after a normal-action spell, place it (Mysticism A)",
    "unwoundable": "it can never be wounded (Natural Magick A; protection)",
    "fast_place": "it may be placed as a fast action (Planar Studies A)",
    "place_wound": "pay 1 Mana on placement to wound a mage and take its slot (Sorcery A)",
    "merit_for_gold": "pay 4 Gold instead of a Merit Badge (Divinity B)",
    "spell_discount_min_1": "your spells cost 1 less while it is placed, never below 1 (Mysticism B)",
    "place_shift": "on placement, shift a rival's mage within the room and take its slot (Natural Magick B)",
    "place_shadow": "pay 1 Mana on placement to shadow a rival's mage (Planar Studies B)",
    "place_mana_per_mage": "on placement, 1 Mana per other mage in the room, up to 3 (Sorcery B)",
}


def power_side(state: State, mage_type: str) -> str:
    """Return the side of a department's mage power card in use."""
    return state["mage_powers"].get(mage_type, "A")


def powers_of(state: State, m: dict[str, Any]) -> set[str]:
    """Return the power keys a mage has now (the Apprentice has every department's)."""
    sides = state["mage_powers"]
    if m["type"] == APPRENTICE:
        keys = set().union(*(_printed_powers(t, sides.get(t, "A")) for t in DEPARTMENTS))
    else:
        keys = set(_printed_powers(m["type"], sides.get(m["type"], "A")))
    if not keys or not state["statuses"]:
        return keys
    immune = "immune_opponent_spells" in keys
    if active(state, "no_mage_powers") and not immune:
        return set()
    if covers(state, m["owner"], "own_no_mage_powers"):
        return set()
    return keys


@functools.cache
def _printed_powers(mage_type: str, side: str) -> frozenset[str]:
    """Return the power key printed for a mage type on a side (none for neutrals and blank sides)."""
    power = content.mage_power(mage_type, side)
    if not power:
        return frozenset()
    _known(POWERS, power["key"], "mage power")
    return frozenset({power["key"]})


def has_power(state: State, m: dict[str, Any], key: str) -> bool:
    """Whether a mage has one power now."""
    _known(POWERS, key, "mage power")
    # Most mages lack the power asked about: the printed cards say so without building a set.
    sides = state["mage_powers"]
    if m["type"] == APPRENTICE:
        printed = any(key in _printed_powers(t, sides.get(t, "A")) for t in DEPARTMENTS)
    else:
        printed = key in _printed_powers(m["type"], sides.get(m["type"], "A"))
    return printed and key in powers_of(state, m)


# --------------------------------------------------------------------------- room rules

ROOM_RULES: dict[str, str] = {
    "one_mage_per_player": "at most one of your mages in the room (Council Chamber A; protection.may_enter)",
    "place_up_to_3": "the regular Place a Mage action may put up to 3 mages here (Great Hall)",
    "no_direct_placement": "mages reach it only by being wounded (Infirmary)",
    "never_locked": "a Lock token never goes here (Infirmary)",
    "no_wounds_inside": "mages here cannot be wounded (Infirmary)",
    "sympathy_from_opponent_only": "the bonus comes only when a rival wounds you (Infirmary)",
    "buy_stat_for_4_gold": "a slot's errand sells INT or WIS for 4 Gold (printed on the slot)",
    "cycle_vault_once_for_1_gold": "one cycle of the Vault tableau per errand, for 1 Gold (Student Stores B)",
    "reveal_vault_3": "three vault cards are revealed when the room resolves with a mage in it (Vault A)",
    "discard_unclaimed_room_cards": "cards laid here go back under their decks after resolution",
    "not_in_two_player": "this side is left out with two players (setup)",
    "two_player_required": "this side is always used with two players (setup)",
}


def room_has(state: State, room: str, rule: str) -> bool:
    """Whether the side in play of a room carries a rule."""
    _known(ROOM_RULES, rule, "room rule")
    return rule in room_side(state, room).get("rules", ())


def side_has(side: dict[str, Any], rule: str) -> bool:
    """Whether a room side's data carries a rule (setup, before the room is on the board)."""
    _known(ROOM_RULES, rule, "room rule")
    return rule in side.get("rules", ())


def two_player_side(room: str, side: str) -> str | None:
    """Return the side a room may use with two players (None: the room is left out)."""
    here, other = content.room_side(room, side), "B" if side == "A" else "A"
    there = content.room_side(room, other)
    if side_has(here, "not_in_two_player") or side_has(there, "two_player_required"):
        if side_has(there, "not_in_two_player"):
            return None
        return other
    return side


# --------------------------------------------------------------------------- reaction triggers

Matcher = Callable[[State, int, dict[str, Any], dict[str, Any]], bool]


def _to_my_mage(state: State, seat: int, trig: dict[str, Any], harm: dict[str, Any]) -> bool:
    """One of the seat's mages suffered it, from the sources and players the trigger names."""
    if harm["owner"] != seat:
        return False
    by = trig.get("by", "any")
    if by in ("opponent", "other_player") and harm["by"] == seat:
        return False
    return not (trig.get("via", "any") == "spell" and harm["via"] != "spell")


def _last_bell(state: State, seat: int, trig: dict[str, Any], harm: dict[str, Any]) -> bool:
    """Another player took the last Bell Tower offering."""
    return harm["by"] != seat


def _pay_gold(state: State, seat: int, trig: dict[str, Any], harm: dict[str, Any]) -> bool:
    """The seat is about to pay a Gold cost that is not a swap (Auric Catalyst)."""
    return harm["by"] == seat and not harm.get("swap")


TRIGGERS: dict[str, Matcher] = {
    "wounded": _to_my_mage,
    "banished": _to_my_mage,
    "moved": _to_my_mage,
    "shadowed": _to_my_mage,
    "last_bell_tower": _last_bell,
    "pay_gold": _pay_gold,
}


def trigger_fits(state: State, seat: int, trig: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether a reaction's trigger fits one event (a harm, the last offering, a Gold cost)."""
    for on in trig.get("on", []):
        _known(TRIGGERS, on, "trigger event")
    if event["on"] not in trig.get("on", []):
        return False
    return TRIGGERS[event["on"]](state, seat, trig, event)
