"""One trick of a conflict: face-down cards, the reveal, Aid, actions, and who takes the trick.

Rulebook: the conflict post (placing, revealing together, ranks and suit bonuses, the suit
tie-break, Jokers, Aid in order from the protagonist's left, conceding, yielding) and the actions
post (Trait spends, Companions, Items, Assets, Covenant Resources, Council Votes, face cards).
Magic contests live in ``magic``, the Council Vote bidding war over a Claim in ``block``.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import rng
from rules.contract import Move, PromptKind
from rules.quadrivium import block, magic
from rules.quadrivium.cards import SUITS, is_face, rank, show, suit, with_suit
from rules.quadrivium.common import SIDE_NAMES, Ask, Events, gain_votes, pay, pays, plural, trait_of_card
from rules.quadrivium.conflict import describe_cards, end_conflict
from rules.quadrivium.ranks import (
    BUY_COST,
    after_action,
    joker_winner,
    leader,
    new_trick,
    played_for,
    total,
    type_bonus,
)
from rules.quadrivium.state import (
    RES_SUIT,
    SUIT_OF,
    TRAIT_OF,
    TRAITS,
    State,
    discard,
    draw,
    event,
    mage,
    mage_name,
    restore,
    usable,
    use,
)

RESTORE_COST = 5
SWAP_COST = 10


def swap_cards(cards: list[dict]) -> None:
    """Move every card in play to the other side with its modifiers; the sides keep their mages.

    Actions post (line 209): "switch all cards in play for the protagonist and antagonist", which
    "retain any rank or suit modifiers they received prior to the swap". The people do not move.
    """
    for side in cards:
        side.setdefault("by", side["mage"])  # a trick saved before ``by`` existed
    a, b = cards
    for key in set(a) | set(b):
        if key != "mage":
            a[key], b[key] = b[key], a[key]


# --------------------------------------------------------------------------- asks


def trick_asks(s: State) -> list[Ask]:
    """Return the trick's open decision (the bidding war over a Claim comes first)."""
    c = s["conflict"]
    return block.asks(s) if c["block"] else TRICK_ASKS[c["stage"]](s)


def _ask_place(s: State) -> list[Ask]:
    c = s["conflict"]
    who = c["sides"][c["trick"]["turn"]]
    return [Ask(who, "place", PromptKind.TURN, "Place a card face down for the trick.")]


def _ask_reveal(s: State) -> list[Ask]:
    c = s["conflict"]
    return [Ask(c["sides"][c["trick"]["turn"]], "reveal", PromptKind.TURN, "Reveal, or concede the trick.")]


def _ask_aid(s: State) -> list[Ask]:
    queue = s["conflict"]["trick"]["aid_queue"]
    return [Ask(queue[0], "aid", PromptKind.REACTION, "Aid one side with a card, or pass.")]


def _ask_act(s: State) -> list[Ask]:
    c = s["conflict"]
    sub = c["trick"]["sub"]
    if sub:
        who = c["sides"][sub["who"]]
        return [Ask(who, f"sub:{sub['kind']}", PromptKind.DECISION, _sub_text(sub))]
    loser = 1 - leader(s)
    return [Ask(c["sides"][loser], "act", PromptKind.TURN, "You are losing the trick: act, or let "
                "it stand.")]


def _ask_spoils(s: State) -> list[Ask]:
    c = s["conflict"]
    return [Ask(c["sides"][c["trick"]["spoils"][0]], "spoils", PromptKind.DECISION,
                "Expend Craft to take a card of the trick into your hand, or pass.")]


def _sub_text(sub: dict) -> str:
    return {
        "adds": "Add cards from your hand, then finish.",
        "give": "Give a card back to your opponent.",
        "magic": "The magic contest: play it out.",
    }[sub["kind"]]


# --------------------------------------------------------------------------- moves


def restorables(s: State, seat: int) -> list[str]:
    """Return the character resources of a seat with an expended use to restore."""
    me = mage(s, seat)
    out = [f"trait:{t}" for t in TRAITS if me["traits"][t]["spent"] > 0]
    out += [f"companion:{k}" for k, x in enumerate(me["companions"]) if x["spent"] > 0]
    out += [f"item:{k}" for k, x in enumerate(me["items"]) if x["spent"] > 0]
    out += [f"asset:{t}" for t, x in sorted(me["assets"].items()) if x["spent"] > 0]
    return out


def extras(s: State, seat: int) -> list[Move]:
    """Return the actions a side may take at any of its decisions in a trick."""
    c = s["conflict"]
    i = c["sides"].index(seat)
    out = []
    if s["votes"][seat] >= BUY_COST[i]:
        out.append(Move.of("buy_card"))
    targets = restorables(s, seat)
    if s["votes"][seat] >= RESTORE_COST:
        out += [Move.of("restore", what=w) for w in targets]
    faces = sorted({x for x in s["hands"][seat] if is_face(x)})
    out += [Move.of("facecard", card=x, what=w) for x in faces for w in targets]
    if not c["trick"]["no_claim"][i]:
        out += [Move.of("claim", res=r) for r in RES_SUIT if usable(s["covenant"]["res"][r])]
    return out


def trick_moves(s: State, seat: int, decision: str) -> list[Move]:
    """Return the moves of a trick decision."""
    return TRICK_DECISIONS[decision](s, seat)


def _place_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("place", card=x) for x in s["hands"][seat]] + extras(s, seat) + [Move.of("yield")]


def _reveal_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("reveal"), Move.of("concede"), Move.of("yield")]


def _spoils_moves(s: State, seat: int) -> list[Move]:
    t = s["conflict"]["trick"]
    i = t["spoils"][0]
    against = suit(t["cards"][1 - i]["card"])
    ways = pays(s, seat, "craft", against)
    left = [w for w in ("win", "lose") if w not in t["taken"]]
    return [Move.of("craft", take=w, pay=p) for w in left for p in ways] + [Move.of("pass")]


def _sub_add_moves(s: State, seat: int) -> list[Move]:
    return _add_moves(s, seat, s["conflict"]["trick"]["sub"])


def _give_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("give", card=x) for x in s["hands"][seat]]


def _block_moves(s: State, seat: int) -> list[Move]:
    return block.moves(s, seat, "block")


def _block_war_moves(s: State, seat: int) -> list[Move]:
    return block.moves(s, seat, "block_war")


def _aid_moves(s: State, seat: int) -> list[Move]:
    c = s["conflict"]
    locked = c["aiders"][seat]
    sides = [0, 1] if locked is None else [locked]
    out = [Move.of("aid", side=i, card=x) for i in sides for x in s["hands"][seat]]
    if s["votes"][seat] >= BUY_COST[0]:
        out.append(Move.of("buy_card"))
    return [*out, Move.of("pass")]


def _add_moves(s: State, seat: int, sub: dict) -> list[Move]:
    want = sub.get("suit")
    cards = [x for x in s["hands"][seat] if want is None or suit(x) == want]
    return [Move.of("add", card=x) for x in cards] + [Move.of("done")]


def _act_moves(s: State, seat: int) -> list[Move]:
    c = s["conflict"]
    t = c["trick"]
    i = c["sides"].index(seat)
    mine, theirs = t["cards"][i]["card"], t["cards"][1 - i]["card"]
    my_suit, their_suit = suit(mine), suit(theirs)
    hand = s["hands"][seat]
    out = [Move.of("stand"), Move.of("yield"), *extras(s, seat)]
    if s["votes"][seat] >= SWAP_COST:
        out.append(Move.of("swap"))
    trait = trait_of_card(mine)
    if trait and trait != "craft":
        possible = {
            "vigor": any(suit(x) == "C" for x in hand),
            "influence": bool(hand),
            "insight": bool(s["hands"][c["sides"][1 - i]]),
        }[trait]
        if possible:
            out += [Move.of("spend", trait=trait, pay=p) for p in pays(s, seat, trait, their_suit)]
    me = mage(s, seat)
    for k, comp in enumerate(me["companions"]):
        if my_suit and comp["trait"] == TRAIT_OF[my_suit] and usable(comp):
            out += [Move.of("companion", idx=k, suit=x) for x in SUITS if x != my_suit]
    for k, item in enumerate(me["items"]):
        want = SUIT_OF[item["trait"]]
        if usable(item) and their_suit == want and any(suit(x) == want for x in hand):
            out.append(Move.of("item", idx=k))
    if trait and not t["magic_done"][i] and magic.can_start(s, seat, trait):
        out += [Move.of("magic", power=p) for p in range(1, 11)]
    return out


# --------------------------------------------------------------------------- resolving


def trick_resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Apply a trick move."""
    c = s["conflict"]
    if c["block"]:
        block.resolve(s, seat, move, ev)
        return
    TRICK_MOVES[move.action](s, seat, move, ev)


def _yield(s: State, seat: int, move: Move, ev: Events) -> None:
    i = s["conflict"]["sides"].index(seat)
    ev.append(event(f"{mage_name(s, seat)} yields.", "yield", seat=seat))
    _clear_trick(s)
    end_conflict(s, 1 - i, "the other side yielded", ev)


def _extra(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    a = move.action
    name = mage_name(s, seat)
    i = c["sides"].index(seat) if seat in c["sides"] else 0
    if a == "buy_card":
        cost = BUY_COST[i]
        s["votes"][seat] -= cost
        got = draw(s, 1)
        sub = c["trick"]["sub"] if c["trick"] else None
        if sub and sub["kind"] == "magic" and sub["stage"] == "losing" and c["sides"][sub["who"]] == seat:
            sub["mine"] += got
            ev.append(event(f"{name} pays {plural(cost, 'Council Vote')} for another contest card: "
                            f"{describe_cards(got)}.", "magic", seat=seat))
            magic.check(s, ev)
            return
        s["hands"][seat] += got
        ev.append(event(f"{name} pays {cost} Council Vote{'s' if cost > 1 else ''} to draw a card.", "draw",
                        seat=seat, cost=cost))
        if got:
            ev.append(event(f"You drew {show(got[0])}.", "draw", (seat,), card=got[0]))
    elif a in ("restore", "facecard"):
        what = move.get("what")
        if a == "restore":
            s["votes"][seat] -= RESTORE_COST
            why = f"pays {RESTORE_COST} Council Votes"
        else:
            s["hands"][seat].remove(move.get("card"))
            discard(s, [move.get("card")])
            why = f"discards {show(move.get('card'))}"
        restore(_resource(s, seat, what))
        ev.append(event(f"{name} {why} to restore a use of {_what(s, seat, what)}.", "restore", seat=seat))
    elif a == "claim":
        block.open_claim(s, seat, move.get("res"), ev)
    elif a == "swap":
        s["votes"][seat] -= SWAP_COST
        swap_cards(c["trick"]["cards"])
        ev.append(event(f"{name} pays {SWAP_COST} Council Votes: the two sides' cards in play change places, "
                        "keeping their modifiers.", "swap", seat=seat))
        after_action(s, ev)


def _resource(s: State, seat: int, what: str) -> dict:
    kind, key = what.split(":")
    me = mage(s, seat)
    if kind == "trait":
        return me["traits"][key]
    if kind == "asset":
        return me["assets"][key]
    return me[f"{kind}s"][int(key)]


def _what(s: State, seat: int, what: str) -> str:
    kind, key = what.split(":")
    if kind in ("trait", "asset"):
        return f"{key.title()}" if kind == "trait" else f"the {key.title()} Asset"
    return f"the {mage(s, seat)[f'{kind}s'][int(key)]['trait'].title()} {kind.title()}"


def _place(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    card = move.get("card")
    s["hands"][seat].remove(card)
    t["cards"][t["turn"]]["card"] = card
    ev.append(event(f"{mage_name(s, seat)} places a card face down.", "place", seat=seat))
    ev.append(event(f"You placed {show(card)} face down.", "place", (seat,), card=card))
    if t["turn"] == 0:
        t["turn"] = 1
    else:
        c["stage"], t["turn"] = "reveal", 0


def _reveal_or_concede(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    i = t["turn"]
    if move.action == "concede":
        _concede(s, i, ev)
        return
    if i == 0:
        t["turn"] = 1
        return
    _reveal(s, ev)


def _concede(s: State, i: int, ev: Events) -> None:
    """The trick is thrown: unrevealed cards go to the discards, the conceder redraws a full hand +1."""
    c = s["conflict"]
    t = c["trick"]
    seat = c["sides"][i]
    hand = s["hands"][seat]
    count = len(hand)
    discard(s, hand + [side["card"] for side in t["cards"]])
    s["hands"][seat] = draw(s, count + 1)
    ev.append(event(f"{mage_name(s, seat)} concedes the trick and redraws {count + 1} cards.", "concede",
                    seat=seat))
    for side in t["cards"]:
        side["card"] = None
    win_trick(s, 1 - i, ev, revealed=False)


def _reveal(s: State, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    t["revealed"] = True
    pro, ant = (side["card"] for side in t["cards"])
    ev.append(event(f"Revealed: Protagonist {show(pro)}, Antagonist {show(ant)}.", "reveal",
                    cards=[pro, ant]))
    joker = joker_winner(s)
    if joker is not None:
        ev.append(event(f"A Joker: the {SIDE_NAMES[joker]} takes the trick at once.", "joker"))
        win_trick(s, joker, ev)
        return
    pro_seat = c["sides"][0]
    order = [(pro_seat + k) % s["players"] for k in range(1, s["players"])]
    t["aid_queue"] = [x for x in order if x not in c["sides"]]
    c["stage"] = "aid" if t["aid_queue"] else "act"


def _aid(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    i, card = move.get("side"), move.get("card")
    s["hands"][seat].remove(card)
    c["aiders"][seat] = i
    swapped = add_aid(s, i, card)
    ev.append(event(f"{mage_name(s, seat)} aids the {SIDE_NAMES[i]} with {show(card)}"
                    + (" (same suit and higher: it becomes the Trick card)." if swapped else "."), "aid",
                    seat=seat, side=i, card=card))
    _next_aider(s)


def add_aid(s: State, i: int, card: str) -> bool:
    """Lay an Aid card by a side (+2 rank); a same-suit higher card swaps with the Trick card."""
    side = s["conflict"]["trick"]["cards"][i]
    trick = side["card"]
    if suit(card) == suit(trick) and rank(card) > rank(trick):
        side["aids"].append(trick)
        side["card"] = card
        return True
    side["aids"].append(card)
    return False


def _pass(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    if c["stage"] == "aid":
        _next_aider(s)
        return
    # Declining the Craft spend.
    c["trick"]["spoils"].pop(0)
    _after_spoils(s, ev)


def _next_aider(s: State) -> None:
    c = s["conflict"]
    t = c["trick"]
    t["aid_queue"].pop(0)
    if not t["aid_queue"]:
        c["stage"] = "act"


def _stand(s: State, seat: int, move: Move, ev: Events) -> None:
    win_trick(s, leader(s), ev)


def _spend(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    i = c["sides"].index(seat)
    trait = move.get("trait")
    against = suit(t["cards"][1 - i]["card"])
    how = pay(s, seat, trait, move.get("pay"), against)
    name = mage_name(s, seat)
    if trait == "vigor":
        t["sub"] = {"kind": "adds", "who": i, "how": "vigor", "suit": "C"}
        ev.append(event(f"{name} calls on Vigor ({how}): clubs from hand add their "
                        f"rank.", "spend", seat=seat))
    elif trait == "influence":
        t["sub"] = {"kind": "adds", "who": i, "how": "influence", "suit": None}
        ev.append(event(f"{name} calls on Influence ({how}): cards from hand join as "
                        f"Aid.", "spend", seat=seat))
    else:
        other = c["sides"][1 - i]
        theirs = s["hands"][other]
        took = theirs.pop(rng.randbelow(s, len(theirs)))
        s["hands"][seat].append(took)
        t["sub"] = {"kind": "give", "who": i}
        ev.append(event(f"{name} calls on Insight ({how}): takes a card at random from "
                        f"{mage_name(s, other)} and must give one back.", "spend", seat=seat))
        ev.append(event(f"{name} took your {show(took)}.", "insight", (other,), card=took))
        ev.append(event(f"You took {show(took)}.", "insight", (seat,), card=took))


def _add(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    sub = t["sub"]
    card = move.get("card")
    s["hands"][seat].remove(card)
    i = sub["who"]
    if sub["how"] == "vigor":
        t["cards"][i]["adds"].append(card)
        ev.append(event(f"{mage_name(s, seat)} adds {show(card)} "
                        f"(+{rank(card)}).", "add", seat=seat, card=card))
    elif sub["how"] == "influence":
        swapped = add_aid(s, i, card)
        ev.append(event(f"{mage_name(s, seat)} plays {show(card)} as Aid (+2)"
                        + (", and it becomes the Trick "
                           "card." if swapped else "."), "add", seat=seat, card=card))
    else:
        target = t["cards"][1 - i]
        target["minus"] += rank(card)
        t["pile_extra"] = [*t.get("pile_extra", []), card]
        ev.append(event(f"{mage_name(s, seat)} turns an Item on the opposing card with {show(card)} "
                        f"(-{rank(card)}).", "item", seat=seat, card=card))
    if not any(m.action == "add" for m in _add_moves(s, seat, sub)):
        _add_done(s, seat, move, ev)
    else:
        after_action(s, ev)


def _add_done(s: State, seat: int, move: Move, ev: Events) -> None:
    s["conflict"]["trick"]["sub"] = None
    after_action(s, ev)


def _give(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    other = c["sides"][1 - t["sub"]["who"]]
    card = move.get("card")
    s["hands"][seat].remove(card)
    s["hands"][other].append(card)
    t["sub"] = None
    ev.append(event(f"{mage_name(s, seat)} gives a card back.", "insight", seat=seat))
    ev.append(event(f"You gave back {show(card)}.", "insight", (seat,), card=card))
    ev.append(event(f"You received {show(card)}.", "insight", (other,), card=card))


def _companion(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    i = c["sides"].index(seat)
    comp = mage(s, seat)["companions"][move.get("idx")]
    how = use(comp)
    side = c["trick"]["cards"][i]
    side["card"] = with_suit(side["card"], move.get("suit"))
    ev.append(event(f"{mage_name(s, seat)}'s {comp['trait'].title()} Companion ({how}) turns the Trick card "
                    f"into {show(side['card'])}.", "companion", seat=seat))
    after_action(s, ev)


def _item(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    i = c["sides"].index(seat)
    item = mage(s, seat)["items"][move.get("idx")]
    how = use(item)
    c["trick"]["sub"] = {"kind": "adds", "who": i, "how": "item", "suit": SUIT_OF[item["trait"]]}
    ev.append(event(f"{mage_name(s, seat)} uses a {item['trait'].title()} Item ({how}).", "item", seat=seat))


def _craft(s: State, seat: int, move: Move, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    i = t["spoils"].pop(0)
    how = pay(s, seat, "craft", move.get("pay"), suit(t["cards"][1 - i]["card"]))
    which = move.get("take")
    card = t["cards"][t["winner"] if which == "win" else 1 - t["winner"]]["card"]
    t["taken"].append(which)
    c["pile"].remove(card)
    s["hands"][seat].append(card)
    ev.append(event(f"{mage_name(s, seat)} expends Craft ({how}) and takes the {which}ning card "
                    f"{show(card)} into hand.", "craft", seat=seat, card=card))
    _after_spoils(s, ev)


# --------------------------------------------------------------------------- the end of a trick


def win_trick(s: State, i: int, ev: Events, *, revealed: bool = True) -> None:
    """Give side ``i`` the trick: its Council Vote if Antagonist, then the Craft spends, then on."""
    c = s["conflict"]
    t = c["trick"]
    t["winner"] = i
    t["sub"] = None
    c["wins"][i] += 1
    seat = c["sides"][i]
    record = trick_record(s, i, revealed)
    s["news"] = record
    ev.append(event(f"The {SIDE_NAMES[i]} {mage_name(s, seat)} takes trick {c['tricks']} "
                    f"({c['wins'][0]}-{c['wins'][1]}).", "trick_won", **record))
    if i == 1:
        gain_votes(s, seat, 1, "a trick won as Antagonist", ev)
    for side in t["cards"]:
        c["pile"] += ([side["card"]] if side["card"] else []) + side["aids"] + side["adds"]
    c["pile"] += t.get("pile_extra", [])
    crafty = revealed and joker_winner(s) is None
    t["spoils"] = [k for k in (0, 1) if crafty and suit(t["cards"][k]["card"]) == "D"
                   and pays(s, c["sides"][k], "craft", suit(t["cards"][1 - k]["card"]))]
    c["stage"] = "spoils"
    _after_spoils(s, ev)


def trick_record(s: State, i: int, revealed: bool) -> dict:
    """Return the public record of a decided trick (drawn as the trick's result image)."""
    c = s["conflict"]
    t = c["trick"]
    plain = revealed and joker_winner(s) is None
    sides = []
    for k, side in enumerate(t["cards"]):
        card = side["card"] if revealed else None
        st = suit(card) if card else None
        sides.append({
            "seat": side["mage"], "name": mage_name(s, side["mage"]), "card": card,
            "aids": list(side["aids"]), "adds": list(side["adds"]), "magic": side["magic"],
            "minus": side["minus"], "bonus": type_bonus(s, card) if plain else 0,
            "corruption": mage(s, played_for(side))["corruption"][TRAIT_OF[st]] if plain and st else 0,
            "total": total(s, k) if plain else None,
        })
    return {"trick": c["tricks"], "winner": i, "sides": sides, "wins": list(c["wins"]),
            "types": list(c["types"]), "how": "joker" if revealed and not plain else
            ("conceded" if not revealed else "ranks")}


def _after_spoils(s: State, ev: Events) -> None:
    c = s["conflict"]
    t = c["trick"]
    if t["spoils"]:
        return
    i = t["winner"]
    if c["wins"][i] >= c["target"]:
        _clear_trick(s)
        end_conflict(s, i, f"{c['target']} trick{'' if c['target'] == 1 else 's'} won", ev)
    else:
        new_trick(s, ev)


def _clear_trick(s: State) -> None:
    """Return any unplayed face-down card to its owner's hand when a conflict ends mid-trick."""
    c = s["conflict"]
    t = c["trick"]
    if t and t.get("winner") is None:
        for side in t["cards"]:
            if side["card"] and not t["revealed"]:
                s["hands"][side["mage"]].append(side["card"])
            elif side["card"]:
                c["pile"] += [side["card"], *side["aids"], *side["adds"]]
            side["card"] = None
        c["pile"] += t.get("pile_extra", [])
    if t and t.get("sub") and t["sub"]["kind"] == "magic":
        discard(s, t["sub"]["mine"] + t["sub"]["theirs"])
    c["trick"] = None


Handler = Callable[[State, int, Move, Events], None]

TRICK_MOVES: dict[str, Handler] = {
    "yield": _yield,
    "buy_card": _extra,
    "restore": _extra,
    "facecard": _extra,
    "claim": _extra,
    "swap": _extra,
    "place": _place,
    "reveal": _reveal_or_concede,
    "concede": _reveal_or_concede,
    "aid": _aid,
    "pass": _pass,
    "stand": _stand,
    "spend": _spend,
    "companion": _companion,
    "item": _item,
    "magic": magic.start,
    "contest": magic.resolve,
    "essence": block.claim_essences,
    "vis": magic.resolve,
    "settle": magic.resolve,
    "add": _add,
    "done": _add_done,
    "give": _give,
    "craft": _craft,
}
"""What each trick move does, declared once (the bidding war over a Claim answers in ``block``)."""

TRICK_ASKS: dict[str, Callable[[State], list[Ask]]] = {
    "place": _ask_place,
    "reveal": _ask_reveal,
    "aid": _ask_aid,
    "act": _ask_act,
    "spoils": _ask_spoils,
}
"""Who each stage of a trick asks, declared once (keyed by the stage)."""

TRICK_DECISIONS: dict[str, Callable[[State, int], list[Move]]] = {
    "place": _place_moves,
    "reveal": _reveal_moves,
    "aid": _aid_moves,
    "act": _act_moves,
    "spoils": _spoils_moves,
    "sub:adds": _sub_add_moves,
    "sub:give": _give_moves,
    "sub:magic": magic.moves,
    "block": _block_moves,
    "block_war": _block_war_moves,
}
"""The moves that answer each trick decision (keyed by the decision)."""
