"""Creation of the covenant and mages, scenes (intent, opposition) and setting up a conflict.

Rulebook: "The nature of conflict" (intent, antagonist, conflict types, conditions revised in turn
until one side accepts, the accepter setting the number of tricks) and the Argrave example.
Creation follows our designed defaults (data/quadrivium/defaults.json): the posts stop before it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from rules import rng
from rules.contract import Move, PromptKind
from rules.quadrivium.cards import show
from rules.quadrivium.common import Ask, Events, gain_votes, power, stock, text_of
from rules.quadrivium.council import open_council
from rules.quadrivium.state import (
    TRAITS,
    State,
    clockwise,
    defaults,
    event,
    mage,
    mage_name,
    opts,
    res,
    tales,
)

CREATE_STEPS = ("name", "traits", "magic", "boon", "done")
BOONS = ("companion", "item", "asset")


def spreads(total: int, low: int, high: int) -> list[tuple[int, ...]]:
    """Return every way to split ``total`` points over the four Traits within [low, high]."""
    return [p for p in product(range(low, high + 1), repeat=4) if sum(p) == total]


def trait_spreads() -> list[tuple[int, ...]]:
    """Return the allowed starting Trait spreads (designed default)."""
    d = defaults()["trait_points"]
    return spreads(d["value"], d["min"], d["max"])


def magic_spreads() -> list[tuple[int, ...]]:
    """Return the allowed starting Magic rating spreads (designed default)."""
    d = defaults()["magic_points"]
    return spreads(d["value"], d["min"], d["max"])


TRAIT_MOVES = [Move.of("traits", **dict(zip(TRAITS, p, strict=True))) for p in trait_spreads()]
MAGIC_MOVES = [Move.of("magic", **dict(zip(TRAITS, p, strict=True))) for p in magic_spreads()]
BOON_MOVES = [Move.of("boon", kind=k, trait=t) for k in BOONS for t in TRAITS]
CREATE_MOVES = {
    "covenant": [Move.of("covenant")],
    "name": [Move.of("mage")],
    "traits": TRAIT_MOVES,
    "magic": MAGIC_MOVES,
    "boon": BOON_MOVES,
}
"""The moves of each creation step (the step after ``create:`` in the decision)."""


def give_boon(s: State, seat: int, kind: str, trait: str) -> str:
    """Give a mage its starting Companion, Item or Asset; return what it is."""
    me = mage(s, seat)
    if kind == "asset":
        me["assets"][trait] = res(1)
    else:
        uses = defaults()["boon"][f"{kind}_uses"]
        me[f"{kind}s"].append({"trait": trait, **res(uses)})
    name = f"{trait.title()} {kind.title()}"
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"  # "an Insight Asset", "a Vigor Companion"


def quick_build(s: State, seat: int) -> None:
    """Make a mage at random from the allowed spreads (table option creation=quick)."""
    me = mage(s, seat)
    taken = {m["name"] for m in s["mages"]}
    me["name"] = rng.choice(s, [n for n in tales()["mage"] if n not in taken])
    me["desc"] = stock(s, "desc")
    for t, v in zip(TRAITS, rng.choice(s, trait_spreads()), strict=True):
        me["traits"][t] = res(v)
    me["magic"] = dict(zip(TRAITS, rng.choice(s, magic_spreads()), strict=True))
    give_boon(s, seat, rng.choice(s, list(BOONS)), rng.choice(s, list(TRAITS)))
    me["made"] = "done"


def create_asks(s: State) -> list[Ask]:
    """Return the creation decisions still open (every seat makes its mage at once)."""
    out = []
    for seat in range(s["players"]):
        if seat == 0 and not s["covenant"]["name"]:
            out.append(Ask(seat, "create:covenant", PromptKind.DECISION, "Name the covenant."))
            continue
        made = mage(s, seat)["made"]  # how far this mage is made: the next creation step, or "done"
        if made != "done":
            out.append(Ask(seat, f"create:{made}", PromptKind.DECISION, f"Make your mage: {made}."))
    return out


def create_moves(s: State, seat: int, decision: str) -> list[Move]:
    """Return the creation moves for one decision."""
    return CREATE_MOVES[decision.split(":")[1]]


def create_resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Apply one creation move."""
    me = mage(s, seat)
    a = move.action
    if a == "covenant":
        s["covenant"]["name"] = text_of(s, move, "name", "covenant")
        s["covenant"]["desc"] = move.get("desc") or ""
        ev.append(event(f"The covenant is founded: {s['covenant']['name']}.", "tale"))
        return
    if a == "mage":
        me["name"] = text_of(s, move, "name", "mage")
        me["desc"] = move.get("desc") or ""
        desc = me["desc"].rstrip(".")
        line = f"{me['name']} joins the covenant" + (f": {desc}." if desc else ".")
        ev.append(event(line, "tale", seat=seat))
        me["made"] = "traits"
    elif a == "traits":
        for t in TRAITS:
            me["traits"][t] = res(move.get(t))
        me["made"] = "magic"
        ev.append(event(f"{me['name']}'s Traits: " + ", ".join(f"{t.title()} "
                                                               f"{move.get(t)}" for t in TRAITS) + "."))
    elif a == "magic":
        me["magic"] = {t: move.get(t) for t in TRAITS}
        me["made"] = "boon"
        ev.append(event(f"{me['name']}'s Magic: " + ", ".join(f"{t.title()} "
                                                              f"{move.get(t)}" for t in TRAITS) + "."))
    elif a == "boon":
        what = give_boon(s, seat, move.get("kind"), move.get("trait"))
        me["made"] = "done"
        ev.append(event(f"{me['name']} brings {what}."))
    if all(m["made"] == "done" for m in s["mages"]) and s["covenant"]["name"]:
        start_scene(s, ev)


# --------------------------------------------------------------------------- scenes


def start_scene(s: State, ev: Events) -> None:
    """Open the next scene: the protagonist in turn declares an intent."""
    s["phase"] = "scene"
    s["scenes"] += 1
    s["scene"] = {"pro": s["protagonist"], "stage": "intent", "intent": "", "answers": [None] * s["players"],
                  "tied": [], "shown": [None] * s["players"]}
    ev.append(event(f"Scene {s['scenes']}: {mage_name(s, s['protagonist'])} takes the stage.", "scene",
                    seat=s["protagonist"]))


def scene_asks(s: State) -> list[Ask]:
    """Return the scene's open decisions."""
    return SCENE_ASKS[s["scene"]["stage"]](s)


def _ask_intent(s: State) -> list[Ask]:
    return [Ask(s["scene"]["pro"], "intent", PromptKind.TURN, "Declare what your mage intends.")]


def _ask_oppose(s: State) -> list[Ask]:
    sc = s["scene"]
    return [Ask(seat, "oppose", PromptKind.REACTION, "Oppose the intent, or let it pass.")
            for seat in range(s["players"]) if seat != sc["pro"] and sc["answers"][seat] is None]


def _ask_tiebreak(s: State) -> list[Ask]:
    sc = s["scene"]
    return [Ask(seat, "tiebreak", PromptKind.SECRET, "Show a card: the highest takes the Antagonist role.")
            for seat in sc["tied"] if sc["shown"][seat] is None]


def scene_moves(s: State, seat: int, decision: str) -> list[Move]:
    """Return the scene moves for a decision."""
    if decision == "intent":
        return [Move.of("intent")]
    if decision == "oppose":
        return [Move.of("oppose"), Move.of("allow")]
    hand = s["hands"][seat]
    return [Move.of("tiebreak", card=c) for c in hand] or [Move.of("tiebreak")]


def scene_resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Apply a scene move."""
    sc = s["scene"]
    if move.action == "intent":
        sc["intent"] = text_of(s, move, "text", "intent")
        sc["stage"] = "oppose"
        ev.append(event(f"{mage_name(s, seat)} intends: “{sc['intent']}”. Does anyone oppose?", "tale",
                        seat=seat, intent=sc["intent"]))
        return
    if move.action in ("oppose", "allow"):
        sc["answers"][seat] = move.action == "oppose"
        ev.append(event(f"{mage_name(s, seat)} {'opposes' if move.action == 'oppose' else 'lets it pass'}.",
                        "oppose", seat=seat))
        if any(a is None for i, a in enumerate(sc["answers"]) if i != sc["pro"]):
            return
        _settle_opposition(s, ev)
        return
    # A tie-break card is set aside face down until every tied seat has shown one.
    card = move.get("card")
    if card is not None:
        s["hands"][seat].remove(card)
    sc["shown"][seat] = card or ""
    if all(sc["shown"][t] is not None for t in sc["tied"]):
        _reveal_tiebreak(s, ev)


def _settle_opposition(s: State, ev: Events) -> None:
    """Pick the antagonist: the one opposer, or the fewest Council Votes, ties by a high card."""
    sc = s["scene"]
    opposers = [seat for seat in clockwise(s, sc["pro"]) if sc["answers"][seat]]
    if not opposers:
        ev.append(event(f"Nobody opposes: it comes to pass. {mage_name(s, sc['pro'])} tells how.", "tale",
                        seat=sc["pro"]))
        end_scene(s, ev)
        return
    fewest = min(s["votes"][o] for o in opposers)
    tied = [o for o in opposers if s["votes"][o] == fewest]
    if len(tied) == 1:
        open_conflict(s, tied[0], ev)
        return
    sc["stage"] = "tiebreak"
    sc["tied"] = tied
    ev.append(event("Several would oppose with the fewest Council Votes: each shows a card, high card wins.",
                    "oppose"))


def _reveal_tiebreak(s: State, ev: Events) -> None:
    """Reveal the tie-break cards together; the cards go back to their hands (house ruling)."""
    sc = s["scene"]
    shown = {t: sc["shown"][t] for t in sc["tied"]}
    best = max(sc["tied"], key=lambda t: power(s, shown[t]) if shown[t] else (-1, -1))
    for t, card in shown.items():
        if card:
            s["hands"][t].append(card)
    sc["stage"], sc["shown"] = "settled", [None] * s["players"]
    ev.append(event("Tie-break: " + ", ".join(f"{mage_name(s, t)} {show(c) if c else 'no card'}"
                                              for t, c in shown.items()) + ".", "oppose",
                    cards={str(t): c for t, c in shown.items()}))
    open_conflict(s, best, ev)


def open_conflict(s: State, ant: int, ev: Events) -> None:
    """Start a conflict between the scene's protagonist and ``ant``."""
    sc = s["scene"]
    pro = sc["pro"]
    s["phase"] = "conflict"
    s["conflicts"] += 1
    s["last_antagonist"] = ant
    s["conflict"] = {
        "sides": [pro, ant],
        "intent": sc["intent"],
        "stage": "types",
        "types": [],
        "cond": {"win": "", "lose": "", "win_harm": "none", "lose_harm": "none"},
        "answerer": 1,
        "revisions": 0,
        "target": 0,
        "wins": [0, 0],
        "tricks": 0,
        "aiders": [None] * s["players"],
        "trick": None,
        "pile": [],
        "winner": None,
        "refill": [False] * s["players"],
        "block": None,
        "resistance": 0,
    }
    ev.append(event(f"{mage_name(s, ant)} takes the Antagonist role against {mage_name(s, pro)}.", "tale",
                    pro=pro, ant=ant))
    gain_votes(s, ant, 1, "taking the Antagonist role", ev)


def end_scene(s: State, ev: Events) -> None:
    """Close a scene: the next seat becomes protagonist; a council once every seat has had a turn."""
    s["scene"] = None
    s["conflict"] = None
    s["since_council"] += 1
    s["protagonist"] = (s["protagonist"] + 1) % s["players"]
    # A seat whose player has left has no scenes: its turn counts as taken.
    while s["protagonist"] in s["gone"] and s["since_council"] < s["players"]:
        s["since_council"] += 1
        s["protagonist"] = (s["protagonist"] + 1) % s["players"]
    if s["since_council"] >= s["players"]:
        open_council(s, ev)
    else:
        start_scene(s, ev)


def hand_size(s: State) -> int:
    """Return the normal hand size (table option)."""
    return opts(s, "hand_size")


SCENE_ASKS: dict[str, Callable[[State], list[Ask]]] = {
    "intent": _ask_intent,
    "oppose": _ask_oppose,
    "tiebreak": _ask_tiebreak,
}
"""Who each stage of a scene asks (keyed by the stage; a settled tie-break opens the conflict at once)."""
