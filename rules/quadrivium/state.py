"""Quadrivium's state: Traits, resources (expend, Harm, destroy, repair), the deck and the opening.

The state is plain JSON. A *resource* (a Trait, a Companion, an Item, an Asset, a Covenant
Resource) is ``{"value": n, "spent": e, "harm": h}``: ``value`` points, of which ``spent`` are
expended (refreshed after a council) and ``harm`` are Harmed (kept until repaired). The rest are
fresh. The rulebook's ladder ("The meaning of Harm"): use a fresh point; with none left, Harm an
expended point; with every point Harmed, a point Harmed again is destroyed (value drops for good).
"""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from rules import rng
from rules.contract import Event, EventKind
from rules.quadrivium.cards import full_deck

State = dict[str, Any]
Res = dict[str, int]

TRAITS = ("vigor", "craft", "influence", "insight")
SUIT_OF = {"vigor": "C", "craft": "D", "influence": "H", "insight": "S"}
TRAIT_OF = {s: t for t, s in SUIT_OF.items()}
COVENANT = ("servants", "coffers", "relations", "archives", "essences")
RES_SUIT = {"servants": "C", "coffers": "D", "relations": "H", "archives": "S"}
"""The suit a Covenant Resource gives a card drawn by Claiming it (Essences: none, rulebook)."""
RES_OF_SUIT = {s: r for r, s in RES_SUIT.items()}
SEASONS = ("spring", "summer", "autumn", "winter")


class Phase(StrEnum):
    """Where the tale stands (stored as its plain string in ``state["phase"]``)."""

    CREATE = "create"
    """The covenant and the mages are being made."""
    SCENE = "scene"
    """A protagonist's scene: the intent and whether anyone opposes it."""
    CONFLICT = "conflict"
    """A conflict: its frame, its tricks, its end."""
    COUNCIL = "council"
    """A council between seasons (the Winter Council in winter)."""
    OVER = "over"
    """The tale has ended."""


class QuadriviumEvent(EventKind):
    """Quadrivium's event kinds, a closed set: ``event`` refuses any other (stored as plain names)."""

    STORY = "story"
    """A line of the tale with no kind of its own (creation)."""
    TALE = "tale"
    """The story moves on: the covenant, a mage, an intent, conditions, a finale."""
    SCENE = "scene"
    """A scene opens or passes."""
    OPPOSE = "oppose"
    """A seat opposes or lets an intent pass, or the tie-break for the Antagonist."""
    TYPE = "type"
    """A conflict type is named."""
    TRICKS = "tricks"
    """The number of tricks to win is set."""
    TRICK = "trick"
    """A trick begins."""
    PLACE = "place"
    """A card is placed face down."""
    REVEAL = "reveal"
    """The Trick cards are revealed."""
    JOKER = "joker"
    """A Joker takes the trick at once."""
    AID = "aid"
    """A card is played as Aid."""
    RANK = "rank"
    """Who leads the trick after an action."""
    SPEND = "spend"
    """A Trait is spent."""
    ADD = "add"
    """A card is added to a side."""
    INSIGHT = "insight"
    """Insight takes or gives back a card."""
    COMPANION = "companion"
    """A Companion changes the Trick card's suit."""
    ITEM = "item"
    """An Item is used."""
    MAGIC = "magic"
    """A magic contest opens or draws cards."""
    MAGIC_WON = "magic_won"
    """A magic contest succeeds."""
    TAINT = "taint"
    """A magic contest fails: Taint."""
    DRAW = "draw"
    """A card is drawn."""
    RESTORE = "restore"
    """A use of a resource is restored."""
    SWAP = "swap"
    """The 10-vote swap of the cards in play."""
    CLAIM = "claim"
    """A covenant resource is Claimed."""
    BLOCK = "block"
    """An offer in the bidding war over a Claim."""
    CONCEDE = "concede"
    """A trick is conceded."""
    YIELD = "yield"
    """A side yields the conflict."""
    TRICK_WON = "trick_won"
    """A trick is won (the trick's record in data)."""
    CONFLICT = "conflict"
    """A conflict ends with its winner."""
    HARM = "harm"
    """Harm is taken."""
    VOTES = "votes"
    """Council Votes are gained or given."""
    CRAFT = "craft"
    """Craft takes a card of the trick into hand."""
    REFILL = "refill"
    """A hand is discarded from or refilled after a conflict."""
    COUNCIL = "council"
    """A council convenes."""
    CORRUPTION = "corruption"
    """The Winter Council's draw: Corruption or cleared Taint."""
    REPAIR = "repair"
    """The covenant is repaired."""
    COLLECT = "collect"
    """A collection towards a repair."""
    BIDDING = "bidding"
    """The bidding for a resource opens or moves on."""
    BID = "bid"
    """A bid for a resource."""
    RAISE = "raise"
    """A raise in a council bid."""
    BID_WON = "bid_won"
    """A resource's bidding is won."""
    SIT_OUT = "sit_out"
    """A seat sits out a resource's bidding."""
    TAKE = "take"
    """Points are taken from a resource."""
    CLOSED = "closed"
    """A resource's taking is closed."""
    UPKEEP = "upkeep"
    """Support is paid for Companions."""
    REST = "rest"
    """A mage rests."""
    IMPROVE = "improve"
    """A mage improves a Trait or rating."""
    ACQUIRE = "acquire"
    """A mage acquires a Companion, Item or Asset."""
    HEAL = "heal"
    """A mage heals Harm."""
    DUEL = "duel"
    """A blocking duel."""
    DUEL_WON = "duel_won"
    """A duel is won."""
    YEARS = "years"
    """Seasons pass."""
    RESIGN = "resign"
    """A player leaves the table."""
    END = "end"
    """The tale ends."""


DATA = Path(__file__).resolve().parents[2] / "data" / "quadrivium"

TEXT_LIMITS = {"name": 60, "desc": 200, "text": 300, "win": 300, "lose": 300}
"""How long each free-text argument may be (characters, after trimming)."""


@cache
def defaults() -> dict[str, Any]:
    """Return the designed defaults (data/quadrivium/defaults.json), read once."""
    return json.loads((DATA / "defaults.json").read_text(encoding="utf-8"))


@cache
def tales() -> dict[str, list[str]]:
    """Return the stock story lines used when a move carries no text of its own."""
    return json.loads((DATA / "tales.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- resources


def res(value: int) -> Res:
    """Return a fresh resource of that value."""
    return {"value": value, "spent": 0, "harm": 0}


def fresh(r: Res) -> int:
    """Return how many points of the resource may be expended now."""
    return r["value"] - r["spent"] - r["harm"]


def usable(r: Res) -> bool:
    """Whether the resource can still be used (by expending, or by Harming; never at value 0)."""
    return r["value"] > 0


def harm(r: Res) -> str:
    """Harm one point: an expended one first, else a fresh one (lost), else destroy a Harmed one."""
    if r["value"] <= 0:
        return "none"
    if r["spent"] > 0:
        r["spent"] -= 1
        r["harm"] += 1
        return "harmed"
    if fresh(r) > 0:
        r["harm"] += 1
        return "harmed"
    # Every point already Harmed: Harming one again destroys it (rulebook, "The meaning of Harm").
    r["harm"] -= 1
    r["value"] -= 1
    return "destroyed"


def use(r: Res) -> str:
    """Use the resource once: expend a fresh point, else Harm one (see ``harm``)."""
    if fresh(r) > 0:
        r["spent"] += 1
        return "expended"
    return harm(r)


def restore(r: Res) -> bool:
    """Restore one expended use (never Harm); return whether there was one to restore."""
    if r["spent"] <= 0:
        return False
    r["spent"] -= 1
    return True


def repair(r: Res) -> bool:
    """Remove one point of Harm; return whether there was Harm to remove."""
    if r["harm"] <= 0:
        return False
    r["harm"] -= 1
    return True


def refresh(r: Res) -> None:
    """Refresh every expended point (after a council)."""
    r["spent"] = 0


# --------------------------------------------------------------------------- the deck


def draw(s: State, n: int = 1) -> list[str]:
    """Draw up to n cards, shuffling the discards back in when the deck runs out."""
    out: list[str] = []
    for _ in range(n):
        if not s["deck"]:
            if not s["discard"]:
                break
            s["deck"] = s["discard"]
            s["discard"] = []
            rng.shuffle(s, s["deck"])
        out.append(s["deck"].pop())
    return out


def discard(s: State, cards: list[str]) -> None:
    """Put cards on the discard pile (a changed suit is forgotten)."""
    s["discard"].extend(c.split("/")[0] for c in cards)


def event(
    text: str,
    kind: QuadriviumEvent | str = QuadriviumEvent.STORY,
    seats: tuple[int, ...] | None = None,
    **data: Any,
) -> Event:
    """Build an event of one of the game's kinds (public unless seats are given)."""
    return Event(QuadriviumEvent(kind).value, text, seats, data)


# --------------------------------------------------------------------------- seats and mages


def opts(s: State, name: str) -> int:
    """Return a numeric table option."""
    return int(s["options"][name])


def mage(s: State, seat: int) -> dict[str, Any]:
    """Return a seat's mage."""
    return s["mages"][seat]


def mage_name(s: State, seat: int) -> str:
    """Return the mage's name, or the seat's while the mage is unnamed."""
    return s["mages"][seat]["name"] or f"Seat {seat}"


def new_mage() -> dict[str, Any]:
    """Return an unmade mage (creation fills it in)."""
    return {
        "name": "",
        "desc": "",
        "traits": {t: res(0) for t in TRAITS},
        "magic": {t: 0 for t in TRAITS},
        "taint": {t: 0 for t in TRAITS},
        "corruption": {t: 0 for t in TRAITS},
        "companions": [],
        "items": [],
        "assets": {},
        "shares": {r: 0 for r in COVENANT},
        "made": "name",
    }


def clockwise(s: State, start: int) -> list[int]:
    """Return every seat once, clockwise from ``start``."""
    n = s["players"]
    return [(start + i) % n for i in range(n)]


def new_game(players: int, options: dict[str, str], seed: int) -> State:
    """Return the opening state: the covenant at its starting values, hands dealt, creation open."""
    s: State = {
        "options": dict(options),
        "players": players,
        "deck": full_deck(),
        "discard": [],
        "hands": [[] for _ in range(players)],
        "votes": [opts({"options": options}, "start_votes")] * players,
        "mages": [new_mage() for _ in range(players)],
        "covenant": {"name": "", "desc": "", "res": {}},
        "phase": "create",
        "year": 1,
        "season": 0,
        "protagonist": 0,
        "since_council": 0,
        "last_antagonist": None,
        "scene": None,
        "conflict": None,
        "council": None,
        "scenes": 0,
        "conflicts": 0,
        "ended": None,
        "news": None,
        "gone": [],
    }
    rng.seed_state(s, seed)
    rng.shuffle(s, s["deck"])
    start = defaults()["covenant_start"]
    for name in COVENANT:
        extra = start["essences_plus"] if name == "essences" else start["others_plus"]
        s["covenant"]["res"][name] = res(players + extra)
    for seat in range(players):
        s["hands"][seat] = draw(s, opts(s, "hand_size"))
    return s
