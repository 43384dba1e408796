"""Advanced room actions: magic items (robes, wands, staves), the other rooms' actions and the
Mana Crystal's last resorts (designed; the Grimoire's texts are not public).
"""

from __future__ import annotations

from typing import Any

from rules.academy.cards import ROBE_KINDS
from rules.academy.events import AcademyEvent
from rules.academy.flow import Op, ask, ask_glyph, handler
from rules.academy.state import (
    SLOTS,
    State,
    draw_room_card,
    give_glyph,
    lose_mana,
    room_name,
    rotate,
    say,
    who,
)

ITEM_COST = {"robe": 4, "wand": 3, "staff": 5}
"""Glyphs an item costs (rulebook: Magic Items)."""
ITEM_ROOM = {"robe": "awakened_room", "wand": "workshop", "staff": "hoard"}
LAST_RESORTS: dict[str, dict[str, Any]] = {
    "lr_glyph": {
        "cost": 1,
        "text": "Spend 1 mana: gain a glyph of your choice from 1 to 5.",
        "ops": [{"op": "gain", "who": "self", "lo": 1, "hi": 5}],
    },
    "lr_douse": {
        "cost": 1,
        "text": "Spend 1 mana: remove every fire from one room.",
        "ops": [{"op": "remove", "what": "fire", "where": "any", "n": "all"}],
    },
    "lr_banish": {
        "cost": 2,
        "text": "Spend 2 mana: remove an imp, troll or demon from any room.",
        "ops": [{"op": "remove", "what": ["imp", "troll", "demon"], "where": "any", "n": 1}],
    },
    "lr_seal": {
        "cost": 2,
        "text": "Spend 2 mana: close one portal in any room.",
        "ops": [{"op": "remove", "what": "portal", "where": "any", "n": 1}],
    },
}
"""The Mana Crystal's last resorts (designed)."""
ROOM_OPS: dict[str, list[dict[str, Any]]] = {
    "ward": [{"op": "remove", "what": "imp", "where": "here", "n": 1}],
    "calm": [{"op": "remove", "what": ["darkness", "haunt"], "where": "here_and_adjoining", "n": "all"}],
    "douse": [{"op": "remove", "what": ["fire", "water"], "where": "near", "n": 1}],
    "attune": [{"op": "attune"}],
    "study": [{"op": "study"}],
    "scry": [{"op": "scry"}],
}
"""Room actions (designed) as effect ops run for the wizard taking them."""


def item_cost(s: State, seat: int, item: str) -> int:
    """Return what an item costs this wizard (Thistle pays one glyph fewer)."""
    return ITEM_COST[item] - (1 if s["wizards"][seat]["char"] == "thistle" else 0)


def item_choices(s: State, item: str) -> list[tuple[Any, str]]:
    """Return the kinds of an item on offer: threats for robes, glyphs for wands, pairs for staves."""
    if item == "robe":
        return [(k, f"Robe against {k}") for k in ROBE_KINDS]
    if item == "wand":
        return [(g, f"Wand of glyph {g}") for g in range(1, 8)]
    return [(slot, f"Staff of {slot}") for slot in SLOTS if s["slots"][slot]["spell"]]


def give_item(s: State, seat: int, item: str, value: Any) -> None:
    """Give a wizard an item; a second one of a kind replaces the first (ruling: the new one is kept)."""
    if isinstance(value, str) and item == "staff":
        value = [int(x) for x in value.split("-")]
    s["wizards"][seat][item] = value
    say(s, AcademyEvent.ITEM, f"{who(s, seat)} gains a {item} ({value}).", seat=seat, item=item)


def pay_lowest(s: State, seat: int, n: int) -> None:
    """Pay glyphs for an item, lowest first (ruling: the engine pays with the least valuable glyphs)."""
    w = s["wizards"][seat]
    w["glyphs"] = sorted(w["glyphs"])[n:]


@handler("buy")
def _buy(s: State, op: Op) -> None:
    """Pay for an item and pick its kind."""
    value = ask(s, op, op["by"], f"Which {op['item']}?", item_choices(s, op["item"]), {"item": op["item"]})
    pay_lowest(s, op["by"], item_cost(s, op["by"], op["item"]))
    give_item(s, op["by"], op["item"], value)


@handler("attune")
def _attune(s: State, op: Op) -> None:
    """Crystal Ball Room: rotate any room a quarter turn clockwise."""
    room = ask(s, op, op["by"], "Rotate which room?", [(r, room_name(r)) for r in s["board"]])
    rotate(s, room, 1)


@handler("study")
def _study(s: State, op: Op) -> None:
    """Master's Study: return two glyphs, gain one of your choice from 1 to 5."""
    w = s["wizards"][op["by"]]
    first = ask_glyph(s, op, op["by"], "Return which glyph first?", w["glyphs"])
    rest = list(w["glyphs"])
    rest.remove(first)
    second = ask_glyph(s, op, op["by"], "And which second?", rest)
    gain = ask_glyph(s, op, op["by"], "Gain which glyph?", range(1, 6))
    w["glyphs"].remove(first)
    w["glyphs"].remove(second)
    give_glyph(w, gain)
    say(s, AcademyEvent.GLYPH, f"{who(s, op['by'])} trades glyphs {first} and {second} for glyph {gain}.")


@handler("scry")
def _scry(s: State, op: Op) -> None:
    """Observatory: the top room card goes to the discards, face up."""
    card = draw_room_card(s)
    say(s, AcademyEvent.SCRY,
        f"The Observatory shows the room card {room_name(card['room'])}; it is discarded.")


@handler("last_resort")
def _last_resort(s: State, op: Op) -> None:
    """Spend mana on a last resort (its effect ops follow)."""
    lr = LAST_RESORTS[op["act"]]
    lose_mana(s, lr["cost"], f"last resort by {who(s, op['by'])}")
    s["queue"][0:0] = [dict(x, by=op["by"]) for x in lr["ops"]]
