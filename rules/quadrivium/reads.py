"""Named reads of a Quadrivium state for code outside the engine (the bots' playouts).

A bot that plays on a sampled full state asks these instead of reaching into the state's keys, so
the state's shape stays the rules' business. Each is a plain read; none decides a rule (a card's
rank in the conflict is ``ranks.card_rank``, a Magic rating ``magic.rating``).
"""

from __future__ import annotations

from rules.quadrivium.conflict import side_of
from rules.quadrivium.state import Phase, State, fresh, mage


def hand(s: State, seat: int) -> list[str]:
    """Return the cards in a seat's hand."""
    return s["hands"][seat]


def votes(s: State, seat: int) -> int:
    """Return a seat's Council Votes."""
    return s["votes"][seat]


def trait_value(s: State, seat: int, trait: str) -> int:
    """Return the printed value of a mage's Trait (before spending and Harm)."""
    return mage(s, seat)["traits"][trait]["value"]


def side(s: State, seat: int) -> int | None:
    """Return 0 (protagonist) or 1 (antagonist) for a seat in the running conflict, else None."""
    c = s.get("conflict")
    return side_of(c, seat) if c else None


def settled(s: State) -> bool:
    """Whether the tale is over, no conflict runs, or the running one is decided."""
    c = s["conflict"]
    return s["phase"] == Phase.OVER or c is None or c["winner"] is not None


def side_seat(s: State, i: int) -> int:
    """Return the seat on side ``i`` (0 protagonist, 1 antagonist) of the running conflict."""
    return s["conflict"]["sides"][i]


def conflict_winner(s: State) -> int | None:
    """Return the side that won the running conflict, or None while it is undecided."""
    return s["conflict"]["winner"]


def target(s: State) -> int | None:
    """Return how many tricks win the running conflict (None while the conditions are framed)."""
    return s["conflict"]["target"]


def tricks_needed(s: State, i: int) -> int:
    """Return the tricks side ``i`` still needs to win the running conflict."""
    c = s["conflict"]
    return c["target"] - c["wins"][i]


def decisive(s: State, i: int) -> bool:
    """Whether losing this trick would lose side ``i`` the conflict."""
    c = s["conflict"]
    return c["wins"][1 - i] + 1 >= c["target"]


def trick_card(s: State, i: int) -> str | None:
    """Return side ``i``'s card in the current trick (None before it is placed)."""
    return s["conflict"]["trick"]["cards"][i]["card"]


def harm_set_for(s: State, part: str) -> bool:
    """Whether the conditions' ``part`` ("win" or "lose") carries Harm."""
    return s["conflict"]["cond"][f"{part}_harm"] not in (None, "none")


def council_resource(s: State) -> str:
    """Return the covenant resource the council is on (repair, bidding, taking)."""
    k = s["council"]
    return k["resources"][k["ri"]]


def resource_fresh(s: State, name: str) -> int:
    """Return a covenant resource's fresh points."""
    return fresh(s["covenant"]["res"][name])


def has_taken(s: State, seat: int) -> bool:
    """Whether a seat has taken from the council's current resource."""
    return seat in s["council"]["take"]["takers"]


def take_cost(s: State) -> int:
    """Return what taking a point of the council's current resource costs now."""
    return s["council"]["take"]["cost"]


def high_bid(s: State) -> int:
    """Return the highest bid for first pick of the council's current resource."""
    return s["council"]["bid"]["high"]
