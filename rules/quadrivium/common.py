"""Small shared pieces of Quadrivium's procedure: asks, payments, Council Votes and the next scene."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import rng
from rules.contract import Event, Move, PromptKind
from rules.quadrivium.cards import SUITS, rank, suit
from rules.quadrivium.state import (
    SUIT_OF,
    TRAIT_OF,
    State,
    event,
    fresh,
    harm,
    mage,
    mage_name,
    tales,
    usable,
    use,
)

Events = list[Event]

SIDE_NAMES = ("Protagonist", "Antagonist")
"""The two sides of a conflict, by index."""


@dataclass(frozen=True)
class Ask:
    """One seat's pending decision (the engine turns it into a Prompt)."""

    seat: int
    decision: str
    kind: PromptKind
    text: str


def suit_order(s: State) -> str:
    """Return the suits from lowest to highest for the tie-break (table option suit_order)."""
    return SUITS if s["options"]["suit_order"] == "spades_high" else SUITS[::-1]


def power(s: State, card: str) -> tuple[int, int]:
    """Return a card's plain order (rank, then the table's suit tie-break)."""
    st = suit(card)
    return rank(card), -1 if st is None else suit_order(s).index(st)


def stock(s: State, key: str) -> str:
    """Return a stock story line (ours), chosen with the table's generator."""
    return rng.choice(s, tales()[key])


def text_of(s: State, move: Move, key: str, stock_key: str) -> str:
    """Return the player's text for ``key``, or a stock line when the move carries none."""
    value = move.get(key)
    return value if isinstance(value, str) and value else stock(s, stock_key)


def gain_votes(s: State, seat: int, n: int, why: str, ev: Events) -> None:
    """Give a seat Council Votes (only antagonism makes them, rulebook) and say so."""
    s["votes"][seat] += n
    ev.append(event(f"{mage_name(s, seat)} gains {n} Council Vote{'s' if n != 1 else ''} ({why}).",
                    "votes", seat=seat, n=n))


def pays(s: State, seat: int, trait: str, against: str | None) -> list[str]:
    """Return the ways a seat may pay for one use of a Trait now.

    ``point``: expend a fresh point; ``harm``: none fresh, Harm one; ``asset``: the Trait's Asset;
    ``cross``: none fresh, take Harm in the Trait of the opponent's suit ``against`` (rulebook,
    "The meaning of Harm"). The ladder uses the Trait's own points, so a Trait that normally has no
    value (0) has no use to buy, not even by Harming the opposing Trait: "A character may never Harm
    a resource which normally has no value". An Asset is an additional use of its own.
    """
    me = mage(s, seat)
    tr = me["traits"][trait]
    out = []
    if fresh(tr) > 0:
        out.append("point")
    elif usable(tr):
        out.append("harm")
    asset = me["assets"].get(trait)
    if asset and fresh(asset) > 0:
        out.append("asset")
    if usable(tr) and fresh(tr) <= 0 and against and usable(me["traits"][TRAIT_OF[against]]):
        out.append("cross")
    return out


def pay(s: State, seat: int, trait: str, how: str, against: str | None) -> str:
    """Pay for one use of a Trait in the given way; return a short phrase for the log."""
    me = mage(s, seat)
    if how == "asset":
        me["assets"][trait]["spent"] += 1
        return f"using an Asset of {trait.title()}"
    if how == "cross" and against:
        hit = TRAIT_OF[against]
        what = harm(me["traits"][hit])
        return f"taking Harm to {hit.title()} ({what})"
    what = use(me["traits"][trait])
    verb = "expending" if what == "expended" else what
    return f"{verb} a point of {trait.title()}"


def trait_of_card(card: str | None) -> str | None:
    """Return the Trait a card's suit stands for (None for a Joker or no card)."""
    st = suit(card) if card else None
    return TRAIT_OF.get(st) if st else None


def suit_of_trait(trait: str) -> str:
    """Return the suit of a Trait."""
    return SUIT_OF[trait]


def plural(n: int, word: str) -> str:
    """Return ``n word`` with an s when needed."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def seat_list(s: State) -> list[int]:
    """Return every seat in order."""
    return list(range(s["players"]))


def as_int(value: Any, default: int = 0) -> int:
    """Return a move argument as an int (moves are already checked against legal_moves)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default
