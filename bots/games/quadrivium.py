"""What the bots know of Quadrivium: sensible conflicts and councils, judged by conflicts won.

Quadrivium has no winner (the story matters more), so the bots aim at what a player can win: the
conflicts. ``basic`` plays a plain, sensible policy (``policy``) on a state sampled from its view; the
policy reads only the seat's own hand and the public table, so a sample's re-drawn secrets never sway
it. It opposes an intent when its hand is strong, names the conflict type its hand favours, keeps the
conditions fair (no Harm either way), sets few tricks with a weak hand, plays the lowest card that
should take the trick (else throws its weakest), spends a Trait or magic only when that turns the
trick, and at council takes a fair share, heals and improves.

The search (``strong``) plays the same policy in its playouts and stops a playout when the conflict it
started in is decided; the evaluator scores that outcome (1 for the seat's side, 0 against) and, for a
conflict still running, the tricks each side still needs and the cards in hand. Outside a conflict
every candidate scores the same, so the search keeps the basic move there.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from bots.core import Playbook, Seating, register
from rules.contract import Move, Rules, Seat, State
from rules.quadrivium.cards import is_joker, rank, suit
from rules.quadrivium.magic import rating
from rules.quadrivium.ranks import card_rank, leader, total
from rules.quadrivium.reads import (
    conflict_winner,
    council_resource,
    decisive,
    hand,
    harm_set_for,
    has_taken,
    high_bid,
    resource_fresh,
    settled,
    side,
    side_seat,
    take_cost,
    target,
    trait_value,
    trick_card,
    tricks_needed,
    votes,
)
from rules.quadrivium.state import TRAIT_OF, TRAITS, QuadriviumEvent

STRONG_CARD = 11.0
"""An effective rank that usually takes a trick (the deck averages about 8, a conflict type adds 2-4)."""
OPPOSE_HAND = 10.0
"""Oppose an intent when the two best cards in hand average at least this effective rank."""
KEEP = 7
"""After a conflict, discard the cards ranking below this and refill."""


# --------------------------------------------------------------------------- reading the table


def effective(s: State, seat: int, card: str) -> float:
    """Return a card's rank as it would count in the current conflict (types, Corruption; a Joker 20)."""
    return 20.0 if is_joker(card) else float(card_rank(s, seat, card))


def hand_strength(s: State, seat: int) -> float:
    """Return the average effective rank of the seat's two best cards (0 with an empty hand)."""
    ranks = sorted((effective(s, seat, x) for x in hand(s, seat)), reverse=True)[:2]
    return sum(ranks) / len(ranks) if ranks else 0.0


def first(legal: list[Move], action: str, **args: Any) -> Move | None:
    """Return the first legal move of that action whose arguments match ``args``."""
    for m in legal:
        if m.action == action and all(m.get(k) == v for k, v in args.items()):
            return m
    return None


def fallback(legal: list[Move]) -> Move:
    """Return the most passive move (never a yield while anything else is open)."""
    for action in ("pass", "done", "stand", "reveal", "accept", "allow", "rest", "settle", "take_offer",
                   "refill", "finale"):
        m = first(legal, action)
        if m is not None and not m.get("raise_by"):
            return m
    calm = [m for m in legal if m.action != "yield"]
    return (calm or legal)[0]


# --------------------------------------------------------------------------- creation and scenes


def _create(s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
    """Make an even-handed mage: the flattest spreads, and an Asset (it needs no upkeep)."""
    action = legal[0].action
    if action in ("traits", "magic"):
        def spread(m: Move) -> int:
            values = [m.get(t) for t in TRAITS]
            return max(values) - min(values)

        low = min(spread(m) for m in legal)
        return rand.choice([m for m in legal if spread(m) == low])
    if action == "boon":
        return rand.choice([m for m in legal if m.get("kind") == "asset"] or legal)
    return legal[0]


def _suit_weight(s: State, seat: int) -> dict[str, float]:
    """Return, per Trait, how much the seat's hand would gain from it as a conflict type."""
    out = {t: 0.0 for t in TRAITS}
    for card in hand(s, seat):
        st = suit(card)
        if st:
            out[TRAIT_OF[st]] += 1.0 + rank(card) / 14.0
    return out


def _type(s: State, seat: int, legal: list[Move]) -> Move:
    """Name the Trait of the suit the hand holds most of (the antagonist adds magic resistance)."""
    weight = _suit_weight(s, seat)
    best = max(TRAITS, key=lambda t: (weight[t], trait_value(s, seat, t)))
    resist = max((m.get("resistance") or 0 for m in legal if m.get("trait") == best), default=0)
    return first(legal, "type", trait=best, resistance=resist or None) or first(legal, "type", trait=best) \
        or legal[0]


def _conditions(s: State, seat: int, legal: list[Move]) -> Move:
    """Keep the conditions fair: no Harm either way; revise a Harm meant for oneself away."""
    action = legal[0].action
    if action == "conditions":
        return first(legal, "conditions", win_harm="none", lose_harm="none") or legal[0]
    mine = "lose" if side(s, seat) == 0 else "win"
    if harm_set_for(s, mine):
        fix = first(legal, "revise", part=mine, harm="none")
        if fix is not None:
            return fix
    return first(legal, "accept") or legal[0]


def _tricks(s: State, seat: int, legal: list[Move]) -> Move:
    """Set few tricks with a weak hand (one trick is a gamble) and more with a strong one."""
    strength = hand_strength(s, seat)
    n = 1 if strength < 9 else 2 if strength < 12 else 3
    return first(legal, "tricks", n=n) or legal[0]


# --------------------------------------------------------------------------- tricks


def _place(s: State, seat: int, legal: list[Move]) -> Move:
    """Play the lowest card that should take the trick; with none, throw the weakest card."""
    places = [m for m in legal if m.action == "place"]
    if not places:
        buy = first(legal, "buy_card")
        return buy or first(legal, "yield") or legal[0]
    i = side(s, seat)
    by_rank = sorted(places, key=lambda m: (effective(s, seat, m.get("card")), m.get("card")))
    jokers = [m for m in by_rank if is_joker(m.get("card"))]
    # A Joker takes a trick outright: keep it for the trick that decides the conflict.
    if jokers and i is not None and (decisive(s, i) or decisive(s, 1 - i)):
        return jokers[0]
    plain = [m for m in by_rank if not is_joker(m.get("card"))] or by_rank
    good = [m for m in plain if effective(s, seat, m.get("card")) >= STRONG_CARD]
    if good:
        return good[0]
    return plain[-1] if i is not None and decisive(s, i) else plain[0]


def _deficit(s: State, i: int) -> int:
    """Return the rank side ``i`` must gain to lead the trick (a tie goes by suit: one more to be sure)."""
    return total(s, 1 - i) - total(s, i) + 1


def _act(s: State, seat: int, legal: list[Move]) -> Move:
    """Losing the trick: spend a Trait or work magic when it turns the trick, else let it stand."""
    i = side(s, seat)
    assert i is not None
    need = _deficit(s, i)
    held = hand(s, seat)
    stake = decisive(s, i)
    cheap = ("point", "asset", "harm", "cross") if stake else ("point", "asset")
    spends = [m for m in legal if m.action == "spend" and m.get("pay") in cheap]
    spends.sort(key=lambda m: cheap.index(m.get("pay")))
    for m in spends:
        trait = m.get("trait")
        if trait == "vigor" and sum(rank(x) for x in held if suit(x) == "C") >= need:
            return m
        if trait == "influence" and 2 * len(held) >= need and (stake or need <= 4):
            return m
    power = max(1, math.ceil(need / 2))
    card = trick_card(s, i)
    trait = TRAIT_OF.get(suit(card) or "")
    magic = first(legal, "magic", power=power)
    if magic is not None and trait and rating(s, seat, trait) >= power + (0 if stake else 1):
        return magic
    return first(legal, "stand") or fallback(legal)


def _sub(s: State, seat: int, decision: str, legal: list[Move]) -> Move:
    """Finish an action already begun: add cards until the trick turns, give back the weakest card."""
    if decision == "sub:give":
        return min(legal, key=lambda m: (rank(m.get("card")), m.get("card")))
    if decision == "sub:adds":
        i = side(s, seat)
        adds = [m for m in legal if m.action == "add"]
        if i is None or not adds or _deficit(s, i) <= 0:
            return first(legal, "done") or legal[0]
        need = _deficit(s, i)
        # The smallest card that closes the gap alone, else the biggest one to get closer.
        enough = [m for m in adds if rank(m.get("card")) >= need]
        if enough:
            return min(enough, key=lambda m: rank(m.get("card")))
        return max(adds, key=lambda m: rank(m.get("card")))
    # sub:magic
    contest = [m for m in legal if m.action == "contest"]
    if contest:
        best = max((m for m in contest if m.get("card")), key=lambda m: rank(m.get("card")), default=None)
        if best is not None and rank(best.get("card")) >= 12:
            return best
        return first(legal, "contest", card=None) or contest[0]
    i = side(s, seat)
    if i is not None and decisive(s, i):
        for action in ("vis", "buy_card"):
            m = first(legal, action)
            if m is not None:
                return m
    return first(legal, "settle") or legal[0]


def _aid(s: State, seat: int, legal: list[Move]) -> Move:
    """Aid the side that trails when +2 (or a higher card of its suit) would put it ahead."""
    lead = leader(s)
    behind = 1 - lead
    gap = total(s, lead) - total(s, behind) + 1
    trick = trick_card(s, behind)
    aids = [m for m in legal if m.action == "aid" and m.get("side") == behind]

    def gain(card: str) -> int:
        if suit(card) == suit(trick) and rank(card) > rank(trick):
            return 2 + rank(card) - rank(trick)
        return 2

    works = [m for m in aids if gain(m.get("card")) >= gap]
    if works:
        return min(works, key=lambda m: (rank(m.get("card")), m.get("card")))
    return first(legal, "pass") or legal[0]


def _spoils(s: State, seat: int, legal: list[Move]) -> Move:
    """Take the winning card back into hand with a fresh point of Craft (never by Harm)."""
    for take in ("win", "lose"):
        for pay in ("point", "asset"):
            m = first(legal, "craft", take=take, pay=pay)
            if m is not None:
                return m
    return first(legal, "pass") or legal[0]


def _refill(s: State, seat: int, legal: list[Move]) -> Move:
    """Discard the low cards, then refill."""
    low = [m for m in legal if m.action == "discard" and not is_joker(m.get("card"))
           and rank(m.get("card")) < KEEP]
    return min(low, key=lambda m: m.get("card")) if low else first(legal, "refill") or legal[0]


# --------------------------------------------------------------------------- councils


def _repair(s: State, seat: int, legal: list[Move]) -> Move:
    """Chip in one Council Vote toward a Harmed resource while keeping a few votes; else done."""
    if votes(s, seat) >= 3:
        chip = [m for m in legal if m.action == "collect" and m.get("n") == 1]
        if chip:
            return chip[0]
    return first(legal, "done") or legal[0]


def _take(s: State, seat: int, legal: list[Move]) -> Move:
    """Take one point while the resource has fresh points (never Harm the covenant), then pass."""
    if not has_taken(s, seat) and resource_fresh(s, council_resource(s)) > 0:
        m = first(legal, "take", n=1, raise_by=0)
        if m is not None and take_cost(s) <= 1:
            return m
    return first(legal, "pass", raise_by=0) or legal[0]


def _mage_action(s: State, seat: int, legal: list[Move]) -> Move:
    """Heal first, then raise the weakest Trait when affordable, else rest."""
    heal = first(legal, "heal")
    if heal is not None:
        return heal
    traits = [m for m in legal if m.action == "improve" and str(m.get("what")).startswith("trait:")]
    if traits:
        return min(traits, key=lambda m: (trait_value(s, seat, m.get("what").split(":")[1]), m.get("what")))
    return first(legal, "rest") or legal[0]


# --------------------------------------------------------------------------- the policy


def _decision(rules: Rules, s: State, seat: int) -> str:
    for prompt in rules.pending(s):
        if prompt.seat == seat:
            return prompt.decision
    return ""


def policy(rules: Rules, s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
    """Return the sensible move for a seat, reading only its own hand and the public table."""
    if len(legal) == 1:
        return legal[0]
    decision = _decision(rules, s, seat)
    handler = HANDLERS.get(decision.split(":")[0] if decision.startswith("create") else decision)
    if decision.startswith("sub:"):
        return _sub(s, seat, decision, legal)
    if handler is None:
        return fallback(legal)
    return handler(s, seat, legal, rand)


def _oppose(s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
    strong = hand_strength(s, seat) >= OPPOSE_HAND
    return first(legal, "oppose" if strong else "allow") or legal[0]


def _tiebreak(s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
    # Shown cards return to hand: show the best, to take the role one opposed for.
    return max(legal, key=lambda m: (rank(m.get("card")), m.get("card")) if m.get("card") else (0, ""))


def _duel_card(s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
    return max(legal, key=lambda m: (rank(m.get("card")), m.get("card")) if m.get("card") else (0, ""))


def _seasons(s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
    # One season at a time: more scenes, more story; the tale ends at its Winter Council.
    return first(legal, "seasons", n=1, end=None) or legal[0]


def _bid(s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
    """Bid a Council Vote for first pick when rich in votes, else pass."""
    if votes(s, seat) >= 6 and high_bid(s) == 0:
        m = first(legal, "bid", n=1)
        if m is not None:
            return m
    return first(legal, "pass") or legal[0]


def _plain(fn: Callable[[State, int, list[Move]], Move]) -> Callable[..., Move]:
    def wrapped(s: State, seat: int, legal: list[Move], rand: random.Random) -> Move:
        return fn(s, seat, legal)

    return wrapped


HANDLERS: dict[str, Callable[[State, int, list[Move], random.Random], Move]] = {
    "create": _create,
    "oppose": _oppose,
    "tiebreak": _tiebreak,
    "type": _plain(_type),
    "conditions": _plain(_conditions),
    "answer": _plain(_conditions),
    "tricks": _plain(_tricks),
    "place": _plain(_place),
    "reveal": lambda s, seat, legal, rand: first(legal, "reveal") or legal[0],
    "aid": _plain(_aid),
    "act": _plain(_act),
    "spoils": _plain(_spoils),
    "block": lambda s, seat, legal, rand: first(legal, "allow") or legal[0],
    "block_war": lambda s, seat, legal, rand: first(legal, "take_offer") or legal[0],
    "gift": lambda s, seat, legal, rand: first(legal, "done") or legal[0],
    "refill": _plain(_refill),
    "repair": _plain(_repair),
    "bid": _bid,
    "take": _plain(_take),
    "mage_action": _plain(_mage_action),
    "duel_card": _duel_card,
    "seasons": _seasons,
}


def heuristic(seating: Seating, rand: random.Random) -> Move:
    """Return the policy's move on a state sampled from the seat's view (it reads no secret)."""
    state = seating.sample(rand)
    return policy(seating.rules, state, seating.seat, list(seating.legal), rand)


# --------------------------------------------------------------------------- the search's judge


def searches(seating: Seating) -> bool:
    """Whether the search has something to weigh: whether to oppose, or a conflict the seat fights."""
    if any(p.seat == seating.seat and p.decision == "oppose" for p in seating.prompts):
        return True
    return seating.seat in seating.typed.fighting


def evaluate(rules: Rules, state: State, seat: Seat) -> float:
    """Return the seat's chance of winning the running conflict (0.5 when it takes no part in one)."""
    i = side(state, seat)
    if i is None:
        return 0.5
    won = conflict_winner(state)
    if won is not None:
        return 1.0 if won == i else 0.0
    if not target(state):
        return 0.5  # still framing: nothing played yet
    need_me, need_them = tricks_needed(state, i), tricks_needed(state, 1 - i)
    cards = hand_strength(state, seat) - hand_strength(state, side_seat(state, 1 - i))
    edge = 0.9 * (need_them - need_me) + 0.12 * cards
    return 1.0 / (1.0 + math.exp(-edge))


# --------------------------------------------------------------------------- the arena's count


def feats(event: Any) -> list[tuple[str, int]]:
    """Return what an event credits to seats: a conflict fought (both sides), a conflict won."""
    if event.kind == QuadriviumEvent.CONFLICT and "winner" in event.data:
        return [("conflicts won", event.data["winner"])]
    if event.kind == QuadriviumEvent.TALE and "pro" in event.data and "ant" in event.data:
        return [("conflicts fought", event.data["pro"]), ("conflicts fought", event.data["ant"])]
    return []


PLAYBOOK = register(
    "quadrivium",
    Playbook(
        heuristic=heuristic,
        evaluate=evaluate,
        rollout=policy,
        until=lambda start: settled,
        searches=searches,
        extra={"feats": feats},
    ),
)
