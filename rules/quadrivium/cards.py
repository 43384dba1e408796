"""The standard deck Quadrivium plays with: card codes, ranks, suits and the trick order.

A card is a short code: rank then suit (``"7C"``, ``"10H"``, ``"QS"``, ``"AD"``), or a Joker
(``"BJ"`` black, ``"RJ"`` red). A card drawn by Claiming a Covenant Resource changes suit "for all
purposes": it is written ``"7C/H"`` (printed seven of clubs, now a heart) and loses the change when
it is discarded.
"""

from __future__ import annotations

SUITS = "CDHS"
"""Clubs, diamonds, hearts, spades: also the suit tie-break order, spades highest (rulebook)."""
SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}
"""Face cards and the Ace by the rulebook: Jacks 11, Queens 12, Kings 13, Aces 14."""
JOKERS = ("BJ", "RJ")
JOKER_RANK = 15
"""House ruling: a Joker outranks every card; the red Joker beats the black one."""


def full_deck() -> list[str]:
    """Return the 54 cards of one deck (52 and two Jokers) in a fixed order."""
    names = [str(n) for n in range(2, 11)] + ["J", "Q", "K", "A"]
    return [f"{n}{s}" for s in SUITS for n in names] + list(JOKERS)


def printed(card: str) -> str:
    """Return the card as printed, without a suit change."""
    return card.split("/")[0]


def is_joker(card: str) -> bool:
    """Whether the card is a Joker."""
    return printed(card) in JOKERS


def rank(card: str) -> int:
    """Return the card's rank: 2-10, J 11, Q 12, K 13, A 14, a Joker 15 (red 16)."""
    base = printed(card)
    if base in JOKERS:
        return JOKER_RANK + JOKERS.index(base)
    face = base[:-1]
    return RANKS.get(face) or int(face)


def suit(card: str) -> str | None:
    """Return the card's suit letter for all purposes (a changed suit wins), None for a Joker."""
    if "/" in card:
        return card.split("/")[1]
    base = printed(card)
    return None if base in JOKERS else base[-1]


def is_face(card: str) -> bool:
    """Whether the card is a face card (Jack, Queen or King; an Ace and a Joker are not)."""
    return not is_joker(card) and printed(card)[:-1] in ("J", "Q", "K")


def strength(card: str) -> tuple[int, int]:
    """Return the card's order for a plain comparison: rank, then the suit tie-break."""
    s = suit(card)
    return rank(card), -1 if s is None else SUITS.index(s)


def with_suit(card: str, new: str) -> str:
    """Return the card changed to another suit (a Joker stays a Joker)."""
    base = printed(card)
    if base in JOKERS:
        return base
    return base if base[-1] == new else f"{base}/{new}"


def show(card: str) -> str:
    """Return the card for people: ``7♣``, ``Q♥``, ``7♣→♥``, ``Red Joker``."""
    base = printed(card)
    if base in JOKERS:
        return "Red Joker" if base == "RJ" else "Black Joker"
    text = base[:-1] + SUIT_SIGNS[base[-1]]
    if "/" in card:
        text += "→" + SUIT_SIGNS[card.split("/")[1]]
    return text
