"""Named reads of an Institute state for code outside the engine (the bots' playouts and tools).

A bot that plays on a sampled full state asks these instead of reaching into the state's keys, so
the state's shape stays the rules' business. Each is a plain read; none decides a rule. Locations
are read by their 0-based index here (Location 1 is index 0), as the state's slots are.
"""

from __future__ import annotations

from rules.institute.cards import Card
from rules.institute.state import State, Step, card, player


def dice(s: State, seat: int) -> list[int]:
    """Return a player's four dice."""
    return player(s, seat)["dice"]


def assignment(s: State, seat: int) -> list[str | None]:
    """Return the Action Card under each of a player's dice (None: not laid yet); the list itself."""
    return player(s, seat)["assign"]


def confirmed(s: State, seat: int) -> bool:
    """Whether a player has locked in this round's Action Cards."""
    return player(s, seat)["confirmed"]


def score(s: State, seat: int) -> int:
    """Return a player's VP."""
    return player(s, seat)["score"]


def stones(s: State, seat: int) -> int:
    """Return the Power Stones in a player's personal supply."""
    return player(s, seat)["stones"]


def charms(s: State, seat: int) -> int:
    """Return a player's Charms."""
    return player(s, seat)["charms"]


def characters(s: State, seat: int) -> int:
    """Return how many Character Cards a player has won."""
    return player(s, seat)["characters"]


def holdings(s: State, seat: int) -> list[int]:
    """Return the ids of the Institute Cards a player holds (active, then inactive)."""
    me = player(s, seat)
    return me["active"] + me["inactive"]


def locations(s: State) -> range:
    """Return the Locations' indices."""
    return range(len(s["slots"]))


def kind_at(s: State, i: int) -> str:
    """Return what lies at a Location: "card", "portal" or "empty"."""
    return s["slots"][i]["kind"]


def card_at(s: State, i: int) -> Card | None:
    """Return the Institute Card at a Location, or None (the Portal, an empty Location)."""
    slot = s["slots"][i]
    return card(slot["card"]) if slot["kind"] == "card" else None


def stones_at(s: State, i: int, seat: int) -> int:
    """Return a player's stones at a Location."""
    return s["slots"][i]["stones"][seat]


def realm_stones(s: State, seat: int) -> int:
    """Return a player's stones in the Ethereal Realm."""
    return s["realm"][seat]


def rolled_die(s: State, seat: int) -> int:
    """Return the die a player's current power frame rolled (the Location it points at)."""
    return s["frames"][str(seat)]["cur"]["die"]


def cards_face_down(s: State) -> bool:
    """Whether the round is in Phase I with the Action Cards still secret."""
    return not s["revealed"] and s["step"] == Step.ASSIGN


def rounds(s: State) -> int:
    """Return the round number."""
    return s["round"]
