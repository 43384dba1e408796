"""Where each Quadrivium decision's rule stands, for refusals that cite it.

The design posts (``shared/rules/quadrivium.txt``) have headings only for the council; elsewhere a
reference names the opening words of the paragraph that states the rule. Where the posts are silent
the reference is Conclave's ruling in ``docs/rulings.md``.
"""

from __future__ import annotations

from rules.contract import RuleRef

MAKING = RuleRef("Making a mage", ruling=True)
STRUCTURE = RuleRef("Structure", ruling=True)
"""Who is asked when: scenes in turn, a council after every seat has been protagonist once."""
THE_END = RuleRef("The end", ruling=True)
LEAVING = RuleRef("A player who leaves", ruling=True)

INTENT = RuleRef("When a player states an intention that other players disagree with")
BLOCK = RuleRef("If a player A wishes to Claim or Harm a Covenant Resource")
BIDDING = RuleRef("Bidding for Resources")

DECISIONS = {
    "intent": INTENT,
    "oppose": INTENT,
    "tiebreak": RuleRef("Player B states that he will oppose the outcome and becomes the antagonist"),
    "type": RuleRef("The protagonist specifies a conflict type"),
    "conditions": RuleRef("Once the conflict type is determined, the protagonist now states"),
    "answer": RuleRef("Now the antagonist has the option of either"),
    "tricks": RuleRef("When the conditions are accepted"),
    "place": RuleRef("First the protagonist, and then the antagonist, take a card"),
    "reveal": RuleRef("Once both Trick cards are facedown on the table"),
    "aid": RuleRef("Aid cards are played face up"),
    "act": RuleRef("The currently losing player"),
    "spoils": RuleRef("When a conflict ends"),
    "gift": RuleRef("When a Protagonist wins"),
    "finale": RuleRef("The winner narrates a brief finale"),
    "refill": RuleRef("Hand size 5", ruling=True),
    "block": BLOCK,
    "block_war": BLOCK,
    "repair": RuleRef("Covenant Repair"),
    "bid": BIDDING,
    "take": BIDDING,
    "duel_card": RuleRef("The duel", ruling=True),
    "mage_action": RuleRef("Mage Actions"),
    "seasons": RuleRef("Decide number of years elapsed"),
}
"""The rule of each decision the table can wait on (``create:*`` and ``sub:*`` are read by prefix)."""


def decision_rule(decision: str | None) -> RuleRef:
    """Return the rule that governs a decision (the turn structure when the seat has none)."""
    if decision is None:
        return STRUCTURE
    if decision.startswith("create:"):
        return MAKING
    if decision.startswith("sub:"):
        return RuleRef("Actions are operations that can be invoked by a player")
    return DECISIONS.get(decision, STRUCTURE)
