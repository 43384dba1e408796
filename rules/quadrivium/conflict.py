"""A conflict's frame: the antagonist, conflict types, conditions, the number of tricks, the end.

Rulebook: "The nature of conflict" (types, conditions revised in turn until accepted, the accepter
sets the number of tricks), the Council Votes posts (votes for the Antagonist, aiders and gifts) and
the conflict post's ending (yield, the finale, the refill to hand size).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.contract import Move, PromptKind
from rules.quadrivium.cards import show
from rules.quadrivium.common import SIDE_NAMES, Ask, Events, gain_votes, text_of
from rules.quadrivium.ranks import new_trick
from rules.quadrivium.scene import end_scene, hand_size
from rules.quadrivium.state import (
    TRAITS,
    State,
    discard,
    draw,
    event,
    harm,
    mage,
    mage_name,
    opts,
)

HARMS = ("none", *TRAITS)
RESISTANCE = (1, 2, 3)
"""Magic resistance the antagonist may give the opposition it plays (ours: up to 3)."""


def side_of(c: dict, seat: int) -> int | None:
    """Return 0 (protagonist) or 1 (antagonist) for a seat in the conflict, else None."""
    return c["sides"].index(seat) if seat in c["sides"] else None


def frame_asks(s: State) -> list[Ask]:
    """Return the open decision while the conflict is being framed or wound up."""
    return FRAME_ASKS[s["conflict"]["stage"]](s)


def _ask_type(s: State) -> list[Ask]:
    c = s["conflict"]
    return [Ask(c["sides"][len(c["types"])], "type", PromptKind.TURN, "Choose a conflict type (a Trait).")]


def _ask_conditions(s: State) -> list[Ask]:
    pro = s["conflict"]["sides"][0]
    return [Ask(pro, "conditions", PromptKind.TURN, "State the win and loss conditions.")]


def _ask_answer(s: State) -> list[Ask]:
    c = s["conflict"]
    who = c["sides"][c["answerer"]]
    return [Ask(who, "answer", PromptKind.TURN, "Accept the conditions, or revise one.")]


def _ask_tricks(s: State) -> list[Ask]:
    c = s["conflict"]
    who = c["sides"][c["answerer"]]
    return [Ask(who, "tricks", PromptKind.TURN, "Set how many tricks win the conflict.")]


def _ask_gift(s: State) -> list[Ask]:
    pro = s["conflict"]["sides"][0]
    return [Ask(pro, "gift", PromptKind.DECISION, "Give Council Votes to your aiders, or finish.")]


def _ask_finale(s: State) -> list[Ask]:
    c = s["conflict"]
    return [Ask(c["sides"][c["winner"]], "finale", PromptKind.TURN, "Narrate the finale.")]


def _ask_refill(s: State) -> list[Ask]:
    c = s["conflict"]
    return [Ask(seat, "refill", PromptKind.DECISION, "Discard any cards, then refill your hand.")
            for seat in range(s["players"]) if c["refill"][seat]]


def frame_moves(s: State, seat: int, decision: str) -> list[Move]:
    """Return the moves of a framing or winding-up decision."""
    return FRAME_MOVES[decision](s, seat)


def _type_moves(s: State, seat: int) -> list[Move]:
    out = [Move.of("type", trait=t) for t in TRAITS]
    if s["conflict"]["types"]:
        # The antagonist may play an opponent with magic resistance (magic post).
        out += [Move.of("type", trait=t, resistance=r) for t in TRAITS for r in RESISTANCE]
    return out


def _conditions_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("conditions", win_harm=w, lose_harm=lo) for w in HARMS for lo in HARMS]


def _answer_moves(s: State, seat: int) -> list[Move]:
    out = [Move.of("accept")]
    if s["conflict"]["revisions"] < opts(s, "revisions"):
        out += [Move.of("revise", part=p, harm=h) for p in ("win", "lose") for h in HARMS]
    return out


def _tricks_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("tricks", n=n) for n in range(1, opts(s, "trick_cap") + 1)]


def _gift_moves(s: State, seat: int) -> list[Move]:
    c = s["conflict"]
    out = [Move.of("gift", seat=a) for a in range(s["players"]) if c["aiders"][a] == 0]
    return (out if s["votes"][seat] > 0 else []) + [Move.of("done")]


def _finale_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("finale")]


def _refill_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("discard", card=x) for x in s["hands"][seat]] + [Move.of("refill")]


def frame_resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Apply a framing or winding-up move."""
    c = s["conflict"]
    a = move.action
    if a == "type":
        c["types"].append(move.get("trait"))
        c["resistance"] = move.get("resistance") or 0
        resists = f" The opposition resists magic ({c['resistance']})." if c["resistance"] else ""
        ev.append(event(f"{mage_name(s, seat)} names the conflict type {move.get('trait').title()}.{resists}",
                        "type", seat=seat, trait=move.get("trait"), resistance=c["resistance"]))
        if len(c["types"]) == 2:
            c["stage"] = "conditions"
    elif a == "conditions":
        cond = c["cond"]
        cond["win"] = text_of(s, move, "win", "win")
        cond["lose"] = text_of(s, move, "lose", "lose")
        cond["win_harm"], cond["lose_harm"] = move.get("win_harm"), move.get("lose_harm")
        c["stage"], c["answerer"] = "answer", 1
        ev.append(event(f"{mage_name(s, seat)} states the conditions. Win: “{cond['win']}”"
                        f"{_harm_note(cond['win_harm'], 'the Antagonist')}. Lose: “{cond['lose']}”"
                        f"{_harm_note(cond['lose_harm'], 'the Protagonist')}.", "tale", seat=seat))
    elif a == "revise":
        part = move.get("part")
        c["cond"][part] = text_of(s, move, "text", part)
        c["cond"][f"{part}_harm"] = move.get("harm")
        c["revisions"] += 1
        c["answerer"] = 1 - c["answerer"]
        who = "the Antagonist" if part == "win" else "the Protagonist"
        ev.append(event(f"{mage_name(s, seat)} revises the {part} condition: “{c['cond'][part]}”"
                        f"{_harm_note(move.get('harm'), who)}.", "tale", seat=seat, part=part))
    elif a == "accept":
        c["stage"] = "tricks"
        ev.append(event(f"{mage_name(s, seat)} accepts the conditions.", "tale", seat=seat))
    elif a == "tricks":
        c["target"] = move.get("n")
        tricks = f"{move.get('n')} trick{'' if move.get('n') == 1 else 's'}"
        ev.append(event(f"{mage_name(s, seat)} sets the conflict at {tricks} to win.", "tricks",
                        seat=seat, n=move.get("n")))
        new_trick(s, ev)
    elif a == "gift":
        s["votes"][seat] -= 1
        s["votes"][move.get("seat")] += 1
        ev.append(event(f"{mage_name(s, seat)} gives a Council Vote to "
                        f"{mage_name(s, move.get('seat'))}.", "votes"))
    elif a == "done":
        c["stage"] = "finale"
    elif a == "finale":
        text = text_of(s, move, "text", "finale")
        ev.append(event(f"{mage_name(s, seat)} tells the finale: “{text}”", "tale", seat=seat))
        _open_refill(s)
    elif a == "discard":
        s["hands"][seat].remove(move.get("card"))
        discard(s, [move.get("card")])
        ev.append(event(f"{mage_name(s, seat)} discards a card.", "refill", seat=seat))
    elif a == "refill":
        need = max(0, hand_size(s) - len(s["hands"][seat]))
        s["hands"][seat] += draw(s, need)
        c["refill"][seat] = False
        ev.append(event(f"{mage_name(s, seat)} refills to {len(s['hands'][seat])} "
                        f"cards.", "refill", seat=seat))
        if not any(c["refill"]):
            discard(s, c["pile"])
            c["pile"] = []
            end_scene(s, ev)


def _harm_note(trait: str | None, who: str) -> str:
    return "" if not trait or trait == "none" else f" (and 1 Harm to {who}'s {trait.title()})"


def end_conflict(s: State, winner: int, how: str, ev: Events) -> None:
    """End the conflict: votes, negotiated Harm, then gifts, the finale and the refill."""
    c = s["conflict"]
    c["winner"] = winner
    c["trick"] = None
    c["block"] = None
    pro, ant = c["sides"]
    ev.append(event(f"{SIDE_NAMES[winner]} {mage_name(s, c['sides'][winner])} wins the conflict ({how}), "
                    f"{c['wins'][0]}-{c['wins'][1]} in tricks.", "conflict", winner=c["sides"][winner],
                    wins=list(c["wins"])))
    if winner == 1:
        gain_votes(s, ant, 1, "winning the conflict as Antagonist", ev)
        for seat, side in enumerate(c["aiders"]):
            if side == 1:
                gain_votes(s, seat, 1, "aiding the winning Antagonist", ev)
        _negotiated_harm(s, pro, c["cond"]["lose_harm"], ev)
    else:
        _negotiated_harm(s, ant, c["cond"]["win_harm"], ev)
    gifts = winner == 0 and s["votes"][pro] > 0 and any(side == 0 for side in c["aiders"])
    c["stage"] = "gift" if gifts else "finale"


def _negotiated_harm(s: State, seat: int, trait: str, ev: Events) -> None:
    if trait and trait != "none":
        what = harm(mage(s, seat)["traits"][trait])
        ev.append(event(f"As agreed, {mage_name(s, seat)} takes Harm to {trait.title()} ({what}).", "harm",
                        seat=seat, trait=trait))


def _open_refill(s: State) -> None:
    """Everyone who took part (both sides and the aiders) may discard and refill (rulebook)."""
    c = s["conflict"]
    c["stage"] = "refill"
    for seat in range(s["players"]):
        c["refill"][seat] = seat in c["sides"] or c["aiders"][seat] is not None


def describe_cards(cards: list[str]) -> str:
    """Return cards for people."""
    return ", ".join(show(x) for x in cards) or "none"


FRAME_ASKS: dict[str, Callable[[State], list[Ask]]] = {
    "types": _ask_type,
    "conditions": _ask_conditions,
    "answer": _ask_answer,
    "tricks": _ask_tricks,
    "gift": _ask_gift,
    "finale": _ask_finale,
    "refill": _ask_refill,
}
"""Who each stage of the conflict's frame and end asks, declared once (keyed by the stage)."""

FRAME_MOVES: dict[str, Callable[[State, int], list[Move]]] = {
    "type": _type_moves,
    "conditions": _conditions_moves,
    "answer": _answer_moves,
    "tricks": _tricks_moves,
    "gift": _gift_moves,
    "finale": _finale_moves,
    "refill": _refill_moves,
}
"""The moves that answer each framing decision (keyed by the decision)."""
