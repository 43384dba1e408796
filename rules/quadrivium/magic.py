"""Magic contests inside a trick (rulebook, the magic post).

The initiator declares a power of 1-10 and draws cards equal to the Magic rating of the Trait of
its Trick card's suit (less its Taint); with a rating of 1 or more one hand card may stand in for a
draw, at 0 or less a hand card must be given. The opponent draws power cards, plus one per point of
negative rating. If the initiator's best card beats all of the opponent's, the Trick card gains +2
rank per point of power; otherwise, unless Essences or Council Votes bring a winning card, each
opponent card above the initiator's best is a point of Taint, which lowers that Magic rating at once.
"""

from __future__ import annotations

from rules.contract import Move
from rules.quadrivium.cards import show
from rules.quadrivium.common import Events, power, trait_of_card
from rules.quadrivium.ranks import BUY_COST, after_action
from rules.quadrivium.state import State, discard, draw, event, mage, mage_name, usable


def rating(s: State, seat: int, trait: str) -> int:
    """Return a mage's Magic rating in a Trait, lowered by its Taint."""
    me = mage(s, seat)
    return me["magic"][trait] - me["taint"][trait]


def can_start(s: State, seat: int, trait: str) -> bool:
    """Whether a side may open a magic contest now (a rating of 0 or less needs a hand card)."""
    return rating(s, seat, trait) >= 1 or bool(s["hands"][seat])


def start(s: State, seat: int, move: Move, ev: Events) -> None:
    """Declare a magic contest of some power on the Trait of the Trick card."""
    c = s["conflict"]
    t = c["trick"]
    i = c["sides"].index(seat)
    trait = trait_of_card(t["cards"][i]["card"])
    t["magic_done"][i] = True
    r = rating(s, seat, trait)
    t["sub"] = {"kind": "magic", "who": i, "power": move.get("power"), "trait": trait, "rating": r,
                "stage": "open", "mine": [], "theirs": []}
    ev.append(event(f"{mage_name(s, seat)} works {trait.title()} magic of power {move.get('power')} "
                    f"(rating {r}).", "magic", seat=seat, power=move.get("power"), trait=trait, rating=r))


def moves(s: State, seat: int) -> list[Move]:
    """Return the moves of the open magic contest."""
    c = s["conflict"]
    sub = c["trick"]["sub"]
    if sub["stage"] == "open":
        out = [Move.of("contest", card=x) for x in s["hands"][seat]]
        return ([Move.of("contest")] if sub["rating"] >= 1 else []) + out
    out = []
    if usable(s["covenant"]["res"]["essences"]) and not c["trick"]["no_claim"][sub["who"]]:
        out.append(Move.of("essence"))
    if mage(s, seat)["shares"]["essences"] > 0:
        out.append(Move.of("vis"))
    if s["votes"][seat] >= BUY_COST[sub["who"]]:
        out.append(Move.of("buy_card"))
    return [*out, Move.of("settle")]


def resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Apply a contest move: draw the cards, add a vis card, or settle a loss (Essences: ``block``)."""
    c = s["conflict"]
    sub = c["trick"]["sub"]
    name = mage_name(s, seat)
    if move.action == "contest":
        r = sub["rating"]
        card = move.get("card")
        if card is not None:
            s["hands"][seat].remove(card)
        mine = draw(s, max(0, r) - (1 if card is not None and r >= 1 else 0))
        sub["mine"] = mine + ([card] if card is not None else [])
        # The opposition's magic resistance adds cards against the protagonist's magic only.
        resist = c["resistance"] if sub["who"] == 0 else 0
        sub["theirs"] = draw(s, sub["power"] + max(0, -r) + resist)
        ev.append(event(f"Contest: {name} has {_cards(sub['mine'])} against "
                        f"{_cards(sub['theirs'])}.", "magic",
                        seat=seat, mine=list(sub["mine"]), theirs=list(sub["theirs"])))
        sub["stage"] = "losing"
        check(s, ev)
    elif move.action == "vis":
        mage(s, seat)["shares"]["essences"] -= 1
        essence_drawn(s, seat, ev, "uses a share of vis")
    else:
        _lose(s, seat, ev)


def essence_drawn(s: State, seat: int, ev: Events, how: str) -> None:
    """Add one card to the initiator's side of the contest (its suit unchanged)."""
    sub = s["conflict"]["trick"]["sub"]
    got = draw(s, 1)
    sub["mine"] += got
    ev.append(event(f"{mage_name(s, seat)} {how}: another contest card, {_cards(got)}.", "magic", seat=seat))
    check(s, ev)


def best(s: State, cards: list[str]) -> tuple[int, int]:
    """Return the strongest card's order (rank, then the suit tie-break; house ruling for contests)."""
    return max((power(s, x) for x in cards), default=(-1, -1))


def check(s: State, ev: Events) -> None:
    """Close the contest as a success when the initiator's best card beats all of the opponent's."""
    c = s["conflict"]
    sub = c["trick"]["sub"]
    if not sub["mine"] or (sub["theirs"] and best(s, sub["mine"]) <= best(s, sub["theirs"])):
        return
    side = c["trick"]["cards"][sub["who"]]
    side["magic"] += 2 * sub["power"]
    seat = c["sides"][sub["who"]]
    ev.append(event(f"The magic succeeds: {mage_name(s, seat)}'s Trick card gains +{2 * sub['power']}.",
                    "magic_won", seat=seat, bonus=2 * sub["power"]))
    _close(s, ev)


def taint_for(s: State, mine: list[str], theirs: list[str]) -> int:
    """Return the Taint of a lost contest: the opponent's cards above the initiator's best."""
    top = best(s, mine)
    return sum(1 for x in theirs if power(s, x) > top)


def _lose(s: State, seat: int, ev: Events) -> None:
    sub = s["conflict"]["trick"]["sub"]
    taint = taint_for(s, sub["mine"], sub["theirs"])
    me = mage(s, seat)
    me["taint"][sub["trait"]] += taint
    ev.append(event(f"The magic fails: {mage_name(s, seat)} gains {taint} Taint; {sub['trait'].title()} "
                    f"magic "
                    f"falls to {me['magic'][sub['trait']] - me['taint'][sub['trait']]}.", "taint", seat=seat,
                    taint=taint, trait=sub["trait"]))
    _close(s, ev)


def _close(s: State, ev: Events) -> None:
    t = s["conflict"]["trick"]
    discard(s, t["sub"]["mine"] + t["sub"]["theirs"])
    t["sub"] = None
    after_action(s, ev)


def _cards(cards: list[str]) -> str:
    return ", ".join(show(x) for x in cards) or "no cards"
