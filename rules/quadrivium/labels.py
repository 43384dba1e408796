"""Readable sentences for Quadrivium's moves (autocomplete, buttons and the log)."""

from __future__ import annotations

from rules.contract import Move
from rules.quadrivium.cards import SUIT_WORDS, show
from rules.quadrivium.state import TRAITS, State, mage_name

PAY_WORDS = {"point": "expend a point", "harm": "Harm a point", "asset": "use the Asset",
             "cross": "take Harm in the opposing Trait"}
SIDES = ("Protagonist", "Antagonist")


def _what(s: State, seat: int, what: str) -> str:
    kind, key = what.split(":")
    if kind == "trait":
        return key.title()
    if kind == "cov":
        return f"covenant {key.title()}"
    if kind == "asset":
        return f"{key.title()} Asset"
    items = s["mages"][seat][f"{kind}s"]
    idx = int(key)
    trait = items[idx]["trait"].title() if idx < len(items) else "?"
    return f"{trait} {kind.title()}"


def label_of(s: State, seat: int, move: Move) -> str:
    """Return a short sentence naming the move for that seat."""
    a, g = move.action, move.get
    if a in ("traits", "magic") and g("power") is None:
        head = "Traits" if a == "traits" else "Magic"
        if all(g(t) is None for t in TRAITS):
            # A move whose numbers are still to be typed names what to set, never "None".
            return f"{head}: set " + ", ".join(t.title() for t in TRAITS)
        return f"{head}: " + ", ".join(f"{t.title()} {g(t)}" for t in TRAITS)
    simple = {
        "covenant": "Name the covenant", "mage": "Name your mage", "intent": "Declare an intent",
        "oppose": "Oppose (take the Antagonist role)", "allow": "Let it pass",
        "accept": "Accept the conditions", "reveal": "Reveal", "concede": "Concede the trick",
        "yield": "Yield the conflict", "pass": "Pass", "stand": "Let the trick stand",
        "done": "Done", "finale": "Tell the finale", "refill": "Refill my hand",
        "buy_card": "Pay Council Votes to draw a card (2; the Antagonist 1)",
        "swap": "Pay 10 Council Votes: swap the cards in play",
        "contest": "Draw the contest cards", "essence": "Claim Essences for a contest card",
        "vis": "Use a share of vis for a contest card", "settle": "Accept the contest's outcome",
        "take_offer": "Take the offer", "rest": "Rest", "sit_out": "Pass for the rest of this bidding",
    }
    if a in simple and not (a == "contest" and g("card")) and not (a == "pass" and g("raise_by")):
        return simple[a]
    card = show(g("card")) if isinstance(g("card"), str) else None
    if a == "boon":
        return f"Bring a {g('trait').title()} {g('kind').title()}"
    if a == "tiebreak":
        return f"Show {card}" if card else "Show no card"
    if a == "type":
        resists = f" (the opposition resists magic {g('resistance')})" if g("resistance") else ""
        return f"Conflict type: {g('trait').title()}{resists}"
    if a == "conditions":
        return f"Conditions (win Harm: {g('win_harm')}, lose Harm: {g('lose_harm')})"
    if a == "revise":
        return f"Revise the {g('part')} condition (Harm: {g('harm')})"
    if a == "tricks":
        return f"{g('n')} trick{'s' if g('n') != 1 else ''} to win"
    if a == "place":
        return f"Place {card} face down"
    if a == "aid":
        return f"Aid the {SIDES[g('side')]} with {card}"
    if a == "spend":
        return f"Use {g('trait').title()} ({PAY_WORDS[g('pay')]})"
    if a == "companion":
        return f"Companion: turn the Trick card to {SUIT_WORDS[g('suit')]}"
    if a == "item":
        return f"Use {_what(s, seat, 'item:' + str(g('idx')))}"
    if a == "magic":
        return f"Magic contest of power {g('power')}"
    if a == "contest":
        return f"Contest with {card} from hand"
    if a in ("add", "give", "discard", "duel_card"):
        verb = {"add": "Add", "give": "Give back", "discard": "Discard", "duel_card": "Duel with"}[a]
        return f"{verb} {card}" if card else "Duel with no card"
    if a == "craft":
        which = "winning" if g("take") == "win" else "losing"
        return f"Craft: take the {which} card ({PAY_WORDS[g('pay')]})"
    if a == "restore":
        return f"Pay 5 Council Votes: restore a use of {_what(s, seat, g('what'))}"
    if a == "facecard":
        return f"Discard {card}: restore a use of {_what(s, seat, g('what'))}"
    if a == "claim":
        return f"Claim {g('res').title()} to draw a card"
    if a in ("block", "raise"):
        return f"Offer {g('bid')} Council Vote{'s' if g('bid') != 1 else ''}"
    if a == "gift":
        return f"Give a Council Vote to {mage_name(s, g('seat'))}"
    if a == "repair":
        return f"Repair a point of {g('res').title()} (3 Council Votes)"
    if a == "collect":
        return f"Put {g('n')} toward repairing {g('res').title()}"
    if a == "bid":
        return f"Bid {g('n')}"
    if a == "take":
        extra = f", raise the cost by {g('raise_by')}" if g("raise_by") else ""
        return f"Take {g('n')} point{'s' if g('n') != 1 else ''}{extra}"
    if a == "pass":
        return f"Pass, raise the cost by {g('raise_by')}"
    if a == "duel":
        tail = f" over {g('res').title()}" if g("res") else " to block their taking"
        return f"Duel {mage_name(s, g('target'))}{tail}"
    if a == "improve":
        return f"Improve {_what(s, seat, g('what'))}"
    if a == "acquire":
        return f"Gain a {g('trait').title()} {g('kind').title()}"
    if a == "heal":
        return f"Heal {_what(s, seat, g('what'))} with shares"
    if a == "seasons":
        n = g("n")
        return f"{n} season{'s pass' if n != 1 else ' passes'}" + (", and end the tale" if g("end") else "")
    return move.code()
