"""The Institute's state: constants, the opening layout and small accessors.

The state is plain JSON. Locations are ``state["slots"]``: six entries, index 0 is Location 1, each
``{"kind": "card" | "portal" | "empty", "card": id | None, "stones": [red, blue]}``. Stones sit on the
Institute Card (or the Portal), not on the Location, so they travel with it when cards shift.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from rules.contract import Event, EventKind
from rules.institute.cards import Card, deck

State = dict[str, Any]

SEATS = (0, 1)
COLOURS = ("red", "blue")
ACTIONS = ("take", "cast2", "cast1")
ACTION_LIMITS = {"take": 2, "cast2": 1, "cast1": 3}
"""How many of each Action Card a player holds (6 in all, 4 get assigned)."""
ACTION_NAMES = {"take": "Take Stones", "cast2": "Cast 2 Stones", "cast1": "Cast 1 Stone"}
CAST_AMOUNT = {"cast1": 1, "cast2": 2}
STONES_PER_COLOUR = 30
"""House ruling: each colour has 30 stones in all (the box's stone tokens come in 1s and 3s)."""
START_STONES = 5
START_CHARMS = 2
MAX_REROLLS = 3
DICE = 4
LOCATIONS = 6
DISCARD_AT = 20
"""A card left with this many stones or more after the Phase V check is discarded."""
ROUND_CAP = 40
"""House ruling: a game still running after this many rounds ends at the close of that round."""
MAX_CHANGES = 4
"""House ruling: changing an already assigned die is allowed this many times a round."""


class Step(StrEnum):
    """The steps of a round (stored as their plain names in ``state["step"]``)."""

    ASSIGN = "assign"
    """Phase I: both players assign Action Cards to their dice in secret, then confirm."""
    WINDOW2 = "window2"
    """The moment for Phase II one-time powers, before stones are taken."""
    CAST = "cast"
    """Phase II, Step B: a player short of stones chooses which Cast Card to fulfil."""
    PORTAL = "portal"
    """Phase III: the Portal's stones move to a card or to the Ethereal Realm (secret when both choose)."""
    REALM = "realm"
    """Phase III: the Ethereal Realm's holder claims its award or waits."""
    WINDOW3 = "window3"
    """The moment for Phase III one-time powers."""
    PHASE4 = "phase4"
    """Phase IV: permanent powers trigger in card-number order."""
    WINDOW5 = "window5"
    """The moment for Phase V one-time powers, before the Locations are checked."""
    CHECK = "check"
    """Phase V: each Location is checked against Cost and Surpass, then the round ends."""
    OVER = "over"
    """The game has ended."""


class InstituteEvent(EventKind):
    """The Institute's event kinds, a closed set: ``say`` refuses any other (stored as plain names)."""

    SETUP = "setup"
    """A starting card is dealt at setup."""
    ROLL = "roll"
    """Dice are rolled or rerolled (the seat's dice in data)."""
    REFILL = "refill"
    """A Charm is returned to refill the Reroll Cubes."""
    ASSIGN = "assign"
    """An Action Card is put under a die (private to its player)."""
    CONFIRM = "confirm"
    """A player locks in their Action Cards."""
    REVEAL = "reveal"
    """The assignments are revealed together (a milestone)."""
    PHASE = "phase"
    """A new phase begins."""
    TAKE = "take"
    """Power Stones are taken from the supply."""
    CAST = "cast"
    """Power Stones are cast onto a Location (or a cast is lost)."""
    STONES = "stones"
    """The no-stones rule takes a stone of each colour from shared cards."""
    PORTAL = "portal"
    """Portal stones move, or a Portal choice is made or the Portal wraps."""
    REALM = "realm"
    """Something happens on the Ethereal Realm (cancelling out, waiting, claiming)."""
    POWER = "power"
    """A card's power is used or triggered, or a step of it resolves."""
    PHASE4 = "phase4"
    """A Phase IV power is declined."""
    AWARD = "award"
    """An Institute Card is won, or none is this round."""
    WIN = "win"
    """A player takes an Institute Card (its VP, its power)."""
    DISCARD = "discard"
    """A crowded card leaves the game."""
    DEAL = "deal"
    """A card comes out onto a Location."""
    TIE = "tie"
    """A perfect tie: another round is played."""
    END = "end"
    """The game ends."""


WINDOWS = {Step.WINDOW2: 2, Step.WINDOW3: 3, Step.WINDOW5: 5}
"""The steps that are a phase's moment for one-time powers, with their phase."""

PHASE_NAMES = {
    1: "Assign Action Cards to Dice",
    2: "Take and Cast Power Stones",
    3: "Use the Portal",
    4: "Trigger Permanent Powers",
    5: "Award Institute Cards",
}
REALM_AWARDS = {
    1: "1 Charm",
    2: "2 Charms and Reroll Cubes refilled to 3",
    3: "4 Charms",
    4: "4 Charms and the top Institute Card",
}


def card(card_id: int) -> Card:
    """Return the record of a physical card."""
    return deck()[card_id]


def other(seat: int) -> int:
    """Return the opponent's seat."""
    return 1 - seat


def who(seat: int) -> str:
    """Return the name a seat goes by in events and prompts (its colour)."""
    return COLOURS[seat].capitalize()


def counted(n: int, word: str) -> str:
    """Return a number with its noun in the right number: 1 stone, 3 stones, 2 Charms."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def player(state: State, seat: int) -> dict[str, Any]:
    """Return a seat's player record."""
    return state["players"][seat]


def new_player() -> dict[str, Any]:
    """Return a player's opening record (before the starting card is dealt)."""
    return {
        "score": START_CHARMS,
        "charms": START_CHARMS,
        "rerolls": MAX_REROLLS,
        "stones": START_STONES,
        "characters": 0,
        "active": [],
        "inactive": [],
        "dice": [1] * DICE,
        "assign": [None] * DICE,
        "confirmed": False,
        "changes": 0,
        "portal": None,
    }


def portal_index(state: State) -> int:
    """Return the slot index (0-based) of the Portal."""
    for i, slot in enumerate(state["slots"]):
        if slot["kind"] == "portal":
            return i
    raise AssertionError("the Portal is always at a Location")


def card_slots(state: State) -> list[int]:
    """Return the indices of the slots holding an Institute Card."""
    return [i for i, slot in enumerate(state["slots"]) if slot["kind"] == "card"]


def slot_at(state: State, location: int) -> dict[str, Any]:
    """Return the slot at a 1-based Location number."""
    return state["slots"][location - 1]


def take_from_supply(state: State, seat: int, wanted: int) -> int:
    """Move up to ``wanted`` stones from the general supply to nowhere yet; return how many."""
    got = max(0, min(wanted, state["supply"][seat]))
    state["supply"][seat] -= got
    return got


def return_stones(state: State, stones: list[int]) -> None:
    """Return a [red, blue] pile to the general supply and empty it."""
    for seat in SEATS:
        state["supply"][seat] += stones[seat]
        stones[seat] = 0


def stones_in_play(state: State, seat: int) -> int:
    """Count a colour's stones everywhere (supply, personal, cards, Portal, Realm): always 30."""
    total = state["supply"][seat] + player(state, seat)["stones"] + state["realm"][seat]
    return total + sum(slot["stones"][seat] for slot in state["slots"])


def phase4_order_key(state: State, card_id: int, owner: int) -> tuple[int, int, int]:
    """Sort Phase IV cards by number; equal numbers (copies): lower score first, then seat 0."""
    return (card(card_id).number or 0, player(state, owner)["score"], owner)


def owner_of(state: State, card_id: int) -> int | None:
    """Return the seat holding a card, or None."""
    for seat in SEATS:
        p = player(state, seat)
        if card_id in p["active"] or card_id in p["inactive"]:
            return seat
    return None


LOG_SIZE = 8


def say(
    state: State,
    events: list[Event],
    kind: InstituteEvent | str,
    text: str,
    seats: tuple[int, ...] | None = None,
    **data: Any,
) -> None:
    """Record an event of one of the game's kinds; public ones are also kept in the state's short log."""
    events.append(Event(InstituteEvent(kind).value, text, seats, data))
    if seats is None:
        state["log"] = [*state["log"], text][-LOG_SIZE:]
