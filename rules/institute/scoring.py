"""Winning cards, the Ethereal Realm's awards, and the end of the game with its tie-break chain."""

from __future__ import annotations

from typing import Any

from rules.contract import Event, Result
from rules.institute import effects
from rules.institute.state import (
    MAX_REROLLS,
    SEATS,
    State,
    card,
    counted,
    other,
    player,
    say,
    who,
)

TIE_BREAKS = (
    ("Institute Cards", lambda p: len(p["active"]) + len(p["inactive"])),
    ("Character Cards", lambda p: p["characters"]),
    ("Charms", lambda p: p["charms"]),
    ("Power Stones in the personal supply", lambda p: p["stones"]),
    ("Reroll Cubes", lambda p: p["rerolls"]),
)
"""The rulebook's order of checks when two players tie on VP."""


def give_card(state: State, seat: int, card_id: int, events: list[Event], where: str) -> None:
    """Hand a won card to a seat: score its VP, then file it or fire its immediate power."""
    me = player(state, seat)
    c = card(card_id)
    if c.character:
        me["characters"] += 1
        vp = me["characters"]
        me["inactive"].append(card_id)
    else:
        vp = c.vp or 0
        (me["inactive"] if c.power == "immediate" else me["active"]).append(card_id)
    me["score"] += vp
    say(
        state,
        events,
        "win",
        f"{who(seat)} wins {c.name} {where} and scores {vp} VP.",
        seat=seat,
        card=card_id,
    )
    if c.power == "immediate":
        # Scoring comes first, then the power, at once (in Phase III when won from the Realm).
        effects.start(state, seat, card_id, events)


def claim_realm(state: State, seat: int, events: list[Event]) -> None:
    """Return a seat's stones on the Ethereal Realm and give the award their number earns."""
    me = player(state, seat)
    count = state["realm"][seat]
    state["supply"][seat] += count
    state["realm"][seat] = 0
    charms = {1: 1, 2: 2, 3: 4, 4: 4}[count]
    me["charms"] += charms
    me["score"] += charms
    extra = ""
    if count == 2:
        me["rerolls"] = MAX_REROLLS
        extra = " and refills their Reroll Cubes"
    say(
        state,
        events,
        "realm",
        f"{who(seat)} claims the Ethereal Realm award for {counted(count, 'stone')}:"
        f" {counted(charms, 'Charm')}{extra}.",
    )
    if count == 4:
        if state["deck"]:
            give_card(state, seat, state["deck"].pop(0), events, "from the Ethereal Realm")
        else:
            say(state, events, "realm", "The deck is empty, so the award brings no Institute Card.")


def standing(state: State) -> tuple[tuple[int, ...], str]:
    """Return the winners (one seat, or both for a draw) and the sentence saying why."""
    a, b = player(state, 0), player(state, 1)
    if a["score"] != b["score"]:
        best = 0 if a["score"] > b["score"] else 1
        return (
            (best,),
            f"{who(best)} wins with {a['score'] if best == 0 else b['score']} VP "
            f"to {b['score'] if best == 0 else a['score']}.",
        )
    for name, count in TIE_BREAKS:
        if count(a) != count(b):
            best = 0 if count(a) > count(b) else 1
            return (
                (best,),
                f"{who(best)} wins the tie at {a['score']} VP on {name} "
                f"({count(player(state, best))} to {count(player(state, other(best)))}).",
            )
    return SEATS, f"A draw: both have {a['score']} VP and every tie-break is level."


def result(state: State) -> Result:
    """Return the game's Result from a finished state."""
    winners, reason = standing(state)
    scores = {s: float(player(state, s)["score"]) for s in SEATS}
    ranking = winners + tuple(s for s in SEATS if s not in winners)
    return Result(winners, scores, reason, ranking)


def result_json(state: State) -> dict[str, Any]:
    """Return the short result record kept in the state and shown in the view."""
    winners, reason = standing(state)
    return {
        "winners": list(winners),
        "reason": reason,
        "scores": {str(s): player(state, s)["score"] for s in SEATS},
    }
