"""A trick on the table: starting one, what each side's card counts, and which side leads.

Rulebook: the conflict post (ranks, +2 per matching conflict type, Aid, the suit tie-break,
Jokers) and the actions post (Council Votes to draw a card). Below ``magic``, ``block`` and
``trick``: everything here reads the trick and touches no other stage.
"""

from __future__ import annotations

from rules.quadrivium.cards import is_joker, rank, suit
from rules.quadrivium.common import SIDE_NAMES, Events, suit_order
from rules.quadrivium.state import SUIT_OF, TRAIT_OF, State, event, mage

BUY_COST = (2, 1)
"""Council Votes to draw a card: 2, or 1 for the Antagonist (rulebook, actions post)."""


def new_trick(s: State, ev: Events) -> None:
    """Start the next trick: the protagonist places first."""
    c = s["conflict"]
    c["tricks"] += 1
    c["stage"] = "place"
    c["trick"] = {
        "cards": [_side(c["sides"][0]), _side(c["sides"][1])],
        "turn": 0,
        "revealed": False,
        "aid_queue": [],
        "magic_done": [False, False],
        "no_claim": [False, False],
        "sub": None,
        "spoils": [],
        "taken": [],
    }
    ev.append(event(f"Trick {c['tricks']}: the Protagonist places a card face down first.", "trick",
                    n=c["tricks"]))


def _side(seat: int) -> dict:
    # ``mage``: whose side this is (it never changes); ``by``: the mage the Trick card was played
    # for, whose Corruption marks it (it goes with the card when the 10-vote swap moves the cards).
    return {"card": None, "aids": [], "adds": [], "minus": 0, "magic": 0, "mage": seat, "by": seat}


def played_for(side: dict) -> int:
    """Return the seat whose mage a side's Trick card was played for (its Corruption applies)."""
    return side.get("by", side["mage"])


def type_bonus(s: State, card: str) -> int:
    """Return the rank bonus of a card from the conflict types (+2 per matching type)."""
    st = suit(card)
    return 2 * sum(1 for t in s["conflict"]["types"] if SUIT_OF[t] == st)


def card_rank(s: State, seat: int, card: str) -> int:
    """Return a card's rank played for a seat's mage: +2 per matching conflict type (while a conflict
    runs) less the mage's Corruption in the card's Trait; Aid, Vigor, Magic and Items come on top."""
    st = suit(card)
    bonus = type_bonus(s, card) if s.get("conflict") else 0
    corr = mage(s, seat)["corruption"][TRAIT_OF[st]] if st else 0
    return rank(card) + bonus - corr


def total(s: State, i: int) -> int:
    """Return a side's Trick card rank with every modifier (types, Aid, Vigor, Magic, Items, Corruption)."""
    side = s["conflict"]["trick"]["cards"][i]
    return (card_rank(s, played_for(side), side["card"]) + 2 * len(side["aids"])
            + sum(rank(a) for a in side["adds"]) + side["magic"] - side["minus"])


def leader(s: State) -> int:
    """Return the side currently winning the trick: rank, then the suit tie-break, then the printed rank."""
    cards = s["conflict"]["trick"]["cards"]

    def key(i: int) -> tuple[int, int, int]:
        card = cards[i]["card"]
        return total(s, i), suit_order(s).index(suit(card)), rank(card)

    # A tie that survives every step goes to the protagonist (house ruling: who acts first).
    return 1 if key(1) > key(0) else 0


def joker_winner(s: State) -> int | None:
    """Return the side whose Joker takes the trick at once, if a Joker was played."""
    cards = [side["card"] for side in s["conflict"]["trick"]["cards"]]
    jokers = [i for i in (0, 1) if is_joker(cards[i])]
    if not jokers:
        return None
    return max(jokers, key=lambda i: rank(cards[i]))


def after_action(s: State, ev: Events) -> None:
    """Say who leads the trick after an action changed it."""
    c = s["conflict"]
    if c["stage"] != "act" or not c["trick"]["revealed"]:
        return
    lead = leader(s)
    ev.append(event(f"Now {total(s, 0)} against {total(s, 1)}: the {SIDE_NAMES[lead]} leads.", "rank",
                    ranks=[total(s, 0), total(s, 1)], lead=lead))
