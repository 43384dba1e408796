"""The Council Vote bidding war over a Claim of a Covenant Resource (rulebook, actions post).

When a side Claims (or Harms) a Covenant Resource, any player not its opponent may offer Council
Votes to stop it, in order from the protagonist's left. The claimer either takes the offer (and
may not Claim this trick) or offers the blocker one more; the blocker takes that or raises; a
player who cannot raise must take the other's offer. If the blocker takes, the Claim goes ahead.
"""

from __future__ import annotations

from rules.contract import Move, PromptKind
from rules.quadrivium.cards import show, with_suit
from rules.quadrivium.common import Ask, Events, plural
from rules.quadrivium.magic import essence_drawn
from rules.quadrivium.state import RES_SUIT, State, draw, event, mage_name, use


def open_claim(s: State, seat: int, res_name: str, ev: Events) -> None:
    """Announce a Claim; open the bidding window when anyone could stop it, else carry it out."""
    c = s["conflict"]
    pro = c["sides"][0]
    order = [(pro + k) % s["players"] for k in range(1, s["players"])]
    queue = [x for x in order if x not in c["sides"] and s["votes"][x] >= 1]
    ev.append(event(f"{mage_name(s, seat)} moves to Claim {res_name.title()} from the covenant.", "claim",
                    seat=seat, res=res_name))
    if not queue:
        _carry_out(s, seat, res_name, ev)
        return
    c["block"] = {"claimer": seat, "res": res_name, "queue": queue, "blocker": None, "offer": 0, "turn": None}


def claim_essences(s: State, seat: int, move: Move, ev: Events) -> None:
    """Claim Essences for a losing magic contest: another card for it, unless the Claim is blocked."""
    open_claim(s, seat, "essences", ev)


def asks(s: State) -> list[Ask]:
    """Return the bidding war's open decision."""
    b = s["conflict"]["block"]
    if b["blocker"] is None:
        return [Ask(b["queue"][0], "block", PromptKind.REACTION, "Offer Council Votes to stop the "
                    "Claim, or allow it.")]
    return [Ask(b["turn"], "block_war", PromptKind.DECISION, "Take the offer, or raise it.")]


def moves(s: State, seat: int, decision: str) -> list[Move]:
    """Return the bidding war's moves."""
    b = s["conflict"]["block"]
    cv = s["votes"][seat]
    # "a number of Council Votes (minimum 1)", each raise "at least one more" (Council Votes post):
    # any amount the bidder holds.
    if decision == "block":
        return [Move.of("block", bid=n) for n in range(1, cv + 1)] + [Move.of("allow")]
    return [Move.of("take_offer")] + [Move.of("raise", bid=n) for n in range(b["offer"] + 1, cv + 1)]


def resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Apply a bidding-war move."""
    c = s["conflict"]
    b = c["block"]
    name = mage_name(s, seat)
    if move.action == "allow":
        b["queue"].pop(0)
        if not b["queue"]:
            c["block"] = None
            _carry_out(s, b["claimer"], b["res"], ev)
        return
    if move.action in ("block", "raise"):
        if move.action == "block":
            b["blocker"] = seat
        b["offer"] = move.get("bid")
        b["turn"] = b["claimer"] if seat == b["blocker"] else b["blocker"]
        ev.append(event(f"{name} offers {plural(move.get('bid'), 'Council Vote')} to "
                        f"{mage_name(s, b['turn'])} over the Claim.", "block", seat=seat,
                        bid=move.get("bid")))
        return
    # take_offer: the seat whose turn it is accepts the other's latest offer.
    giver = b["blocker"] if seat == b["claimer"] else b["claimer"]
    s["votes"][giver] -= b["offer"]
    s["votes"][seat] += b["offer"]
    c["block"] = None
    votes = plural(b["offer"], "Council Vote")
    ev.append(event(f"{name} accepts {votes} from {mage_name(s, giver)}.", "block", seat=seat,
                    bid=b["offer"]))
    if seat == b["claimer"]:
        c["trick"]["no_claim"][c["sides"].index(seat)] = True
        ev.append(event(f"{name} may not Claim again this trick.", "block"))
    else:
        _carry_out(s, b["claimer"], b["res"], ev)


def _carry_out(s: State, seat: int, res_name: str, ev: Events) -> None:
    if res_name == "essences":
        how = use(s["covenant"]["res"]["essences"])
        essence_drawn(s, seat, ev, f"Claims Essences ({how})")
    else:
        claimed(s, seat, res_name, ev)


def claimed(s: State, seat: int, res_name: str, ev: Events) -> None:
    """Carry out a Claim that stood: use the resource and draw a card of its suit into hand."""
    what = use(s["covenant"]["res"][res_name])
    got = draw(s, 1)
    name = mage_name(s, seat)
    ev.append(event(f"{name} Claims {res_name.title()} ({what}) and draws a card.", "claim", seat=seat,
                    res=res_name, how=what))
    if got:
        card = with_suit(got[0], RES_SUIT[res_name])
        s["hands"][seat].append(card)
        ev.append(event(f"You drew {show(card)}.", "draw", (seat,), card=card))
