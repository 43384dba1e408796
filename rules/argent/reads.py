"""Named reads of an Argent state for code outside the engine (the bots' look-ahead and tools).

A bot that judges a sampled full state asks these instead of reaching into the state's keys or the
card data's, so both shapes stay the rules' business. Each is a plain read; none decides a rule.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rules.argent import content
from rules.argent.state import State

Effect = dict[str, Any]


# --------------------------------------------------------------------------- the game


def players(s: State) -> int:
    """Return how many seats the game was set up for."""
    return s["players"]


def over(s: State) -> bool:
    """Whether the game has ended."""
    return bool(s.get("over"))


def phase(s: State) -> str:
    """Return the round's phase ("errands", "resolution", ...)."""
    return s["phase"]


def rounds(s: State) -> int:
    """Return how many rounds the game lasts."""
    return s.get("rounds", 5)


def round_number(s: State) -> int:
    """Return the round being played (1 first)."""
    return s.get("round", 1)


def follow_up_due(s: State) -> bool:
    """Whether the front of the agenda is a decision or step other than a turn (a follow-up)."""
    agenda = s["agenda"]
    return bool(agenda) and agenda[0].get("kind") != "turn"


# --------------------------------------------------------------------------- a seat's office


def left(s: State, seat: int) -> bool:
    """Whether a player has left the game."""
    return bool(s["seats"][seat].get("left"))


def amount(s: State, seat: int, what: str) -> int:
    """Return a seat's count of a resource: "gold", "mana", "int", "wis" or "ip"."""
    return s["seats"][seat][what]


def ip_time(s: State, seat: int) -> int:
    """Return when a seat's IP disc reached its space (earlier: lower in the stack)."""
    return s["seats"][seat]["ip_time"]


def spell_levels(s: State, seat: int) -> list[int]:
    """Return the level of each spell a seat has learned."""
    return [spell["level"] for spell in s["seats"][seat]["spells"]]


def spell_departments(s: State, seat: int) -> list[str]:
    """Return the department of each spell a seat has learned."""
    return [book_department(spell["id"]) for spell in s["seats"][seat]["spells"]]


def cards_held(s: State, seat: int) -> int:
    """Return how many vault cards and supporters a seat holds in its office."""
    office = s["seats"][seat]
    return len(office["vaults"]) + len(office["supporters"])


# --------------------------------------------------------------------------- mages


def mage_spots(s: State) -> list[tuple[int | None, str]]:
    """Return every mage's owner (None: in the supply) and location."""
    return [(m["owner"], m["loc"]) for m in s["mages"]]


def mages_of(s: State, seat: int) -> int:
    """Return how many mages a seat owns for good (temporary ones left out)."""
    return sum(1 for m in s["mages"] if m["owner"] == seat and not m["temp"])


def unplaced(s: State, seat: int) -> int:
    """Return how many of a seat's mages wait in its office."""
    return sum(1 for m in s["mages"] if m["owner"] == seat and m["loc"] == "office")


# --------------------------------------------------------------------------- voters


def voter_count(s: State) -> int:
    """Return how many voters sit on the board."""
    return len(s["voters"])


def voter_id(s: State, index: int) -> str:
    """Return which voter sits at a board index (hidden to a seat unless ``voter_known_to``)."""
    return s["voters"][index]["id"]


def voter_known_to(s: State, index: int, seat: int) -> bool:
    """Whether a seat may see a voter: face up, or marked by it."""
    v = s["voters"][index]
    return v["face_up"] or seat in v["marks"]


def criterion(voter: str) -> str:
    """Return what a voter weighs ("ip", "most:gold", "second_most:mana", ...)."""
    return content.voter(voter)["criterion"]


def face_down_pool(s: State) -> list[str]:
    """Return every voter that may lie face down in a game of this size (the always-in-play left out)."""
    two = s["players"] == 2
    return [v["id"] for v in content.voters() if not v["always_in_play"] and (v["two_player"] or not two)]


# --------------------------------------------------------------------------- cards and rooms


def tableau(s: State, deck: str) -> list[str]:
    """Return the ids of the face-up cards of a deck ("spell", "supporter", "vault")."""
    return s["tableau"][deck]


def book_department(book: str) -> str:
    """Return a spell book's department."""
    return content.book(book)["department"]


def supporter_department(supporter: str) -> str:
    """Return the department printed on a supporter."""
    return content.supporter(supporter)["department"]


def _side(s: State, room: str) -> dict[str, Any]:
    return content.room_side(room, s["board"]["rooms"][room]["side"])


def _slot(side: dict[str, Any], slot_id: str) -> dict[str, Any] | None:
    return next((x for x in side["slots"] if x["id"] == slot_id), None)


def instant(s: State, room: str) -> bool:
    """Whether a room's face-up side acts at once (its slots wait for no resolution)."""
    return bool(_side(s, room).get("instant"))


def slot_kind(s: State, room: str, slot_id: str) -> str | None:
    """Return a slot's kind ("errand", "merit", "shadow_merit", ...); None if the side has no such slot."""
    slot = _slot(_side(s, room), slot_id)
    return None if slot is None else slot["kind"]


def slot_effects(s: State, room: str, slot_id: str) -> list[Effect] | None:
    """Return what a slot does at the resolution (a shadow slot: its errand slot's); None if no such slot."""
    side = _side(s, room)
    slot = _slot(side, slot_id)
    if slot is None:
        return None
    if slot.get("of"):
        slot = next(x for x in side["slots"] if x["id"] == slot["of"])
    return slot.get("effects", [])


# --------------------------------------------------------------------------- the effect vocabulary


class GainPer(NamedTuple):
    """A ``gain_per`` effect's parts (rules/argent/VOCABULARY.md)."""

    resource: str
    per: str
    each: int
    divide: int
    plus: int
    most: int | None


def gain_per(arg: dict[str, Any]) -> GainPer:
    """Return a ``gain_per`` effect's parts, its defaults filled in."""
    each, divide, plus = arg.get("each", 1), arg.get("divide", 1), arg.get("plus", 0)
    return GainPer(arg["resource"], arg["per"], each, divide, plus, arg.get("max"))


def distinct_choice(arg: dict[str, Any]) -> tuple[list[list[Effect]], int]:
    """Return a ``choose_distinct`` effect's options and how many of them are picked."""
    return arg["options"], arg["picks"]
