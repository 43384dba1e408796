"""The turn: play the disaster drawn last turn, draw the next, actions, endure threats, share a glyph.

Each step is an op on the effect queue, so a choice inside a disaster or an endured threat simply
suspends the turn until it is answered.
"""

from __future__ import annotations

from rules import rng
from rules.academy.cards import disasters, spells
from rules.academy.events import AcademyEvent
from rules.academy.flow import Op, ask, handler, push
from rules.academy.state import CRYSTAL, State, end, lose_mana, say, who
from rules.academy.threats import endure_ops, endures

ACTIONS = 3
SLOT_NAMES = ("move", "room", "magic")
PAY_ORDER = {"move": ("move", "room", "magic"), "room": ("room", "magic"), "magic": ("magic",)}
"""Advanced turn: a room action may be spent as a move, a magic action as either (rulebook: Take Actions)."""


def start_turn(s: State) -> None:
    """Begin the current player's turn: their disaster card first."""
    s["turn"] += 1
    s["damage"] = {}
    s["shield"] = None
    s["extra"] = 0
    s["binding"] = False
    s["staff_uses"] = 0
    s["last_from"] = None
    s["step"] = "disaster"
    push(s, [{"op": "play_disaster"}, {"op": "draw_disaster"}, {"op": "begin_actions"}])


@handler("play_disaster")
def _play(s: State, op: Op) -> None:
    """Play the disaster card the current player drew last turn, paragraph by paragraph."""
    seat = s["current"]
    key = s["hands"][seat]
    s["hands"][seat] = None
    if key is None:
        return
    card = disasters()[key]
    s["disaster_discard"].append(key)
    s["played"] = key
    say(
        s,
        AcademyEvent.DISASTER,
        f"{who(s, seat)} plays the disaster {card['name']}: {card['text']}".replace("\n\n", " "),
        card=key,
    )
    push(s, [dict(x, by=seat) for x in card["effects"]])


@handler("draw_disaster")
def _draw(s: State, op: Op) -> None:
    """Draw next turn's disaster; an empty deck takes two progression cards and the discards."""
    seat = s["current"]
    if not s["disaster_deck"]:
        if not s["progression"]:
            end(s, False, "The disaster deck and the progression deck are both empty: the academy crumbles.")
            return
        # Ruling: with a single progression card left, that one card goes in.
        s["disaster_deck"] = s["progression"][:2] + s["disaster_discard"]
        s["progression"] = s["progression"][2:]
        s["disaster_discard"] = []
        rng.shuffle(s, s["disaster_deck"])
        s["refills"] += 1
        if s["options"].get("hopeless") == "concede" and _highest_bound(s) < s["refills"]:
            end(s, False, "No bound spell is strong enough for the disasters to come: the players concede.")
            return
        say(
            s,
            AcademyEvent.REFILL,
            f"The disaster deck is rebuilt with two progression cards "
            f"({len(s['progression'])} progression cards left).",
        )
    key = s["disaster_deck"].pop(0)
    s["hands"][seat] = key
    say(s, AcademyEvent.DRAW, f"{who(s, seat)} draws a disaster card.")
    say(s, AcademyEvent.MY_DISASTER,
        f"Your next disaster: {disasters()[key]['name']}.", seats=(seat,), card=key)


def _highest_bound(s: State) -> int:
    """Return the level of the highest bound spell (0 with none)."""
    return max((spells()[v["spell"]]["level"] for v in s["slots"].values() if v["bound"]), default=0)


@handler("begin_actions")
def _begin(s: State, op: Op) -> None:
    """Open the action step."""
    s["step"] = "actions"
    if s["basic"]:
        s["left"] = ACTIONS
    else:
        s["slots_left"] = {name: True for name in SLOT_NAMES}


def actions_left(s: State) -> int:
    """Return how many actions the current player still has (extra actions included)."""
    if s["basic"]:
        return s["left"] + s["extra"]
    return sum(s["slots_left"].values()) + s["extra"]


def can_pay(s: State, kind: str) -> bool:
    """Whether an action of this kind can still be paid for."""
    if s["basic"]:
        return actions_left(s) > 0
    return s["extra"] > 0 or any(s["slots_left"][k] for k in PAY_ORDER[kind])


def pay(s: State, kind: str) -> bool:
    """Spend an action of this kind (basic: any action); return False when none is left."""
    if s["basic"]:
        if s["left"]:
            s["left"] -= 1
        elif s["extra"]:
            s["extra"] -= 1
        else:
            return False
        return True
    for k in PAY_ORDER[kind]:
        if s["slots_left"][k]:
            s["slots_left"][k] = False
            return True
    if s["extra"]:
        s["extra"] -= 1
        return True
    return False


def finish_actions(s: State, ran_out: bool = False) -> None:
    """Close the action step: endure threats, then share (advanced) or pass the turn.

    Advanced game: an emergency recall may be made "at any time during their turn" (rulebook lines 217,
    228), so when the last action ran out (``ran_out``) the wizard is asked before enduring, and between
    two threats endured, whenever something is still to endure (ending one's actions was that chance)."""
    s["step"] = "endure"
    s["binding"] = False
    seat = s["current"]
    window = None if s["basic"] else {"op": "recall_window", "seat": seat}
    ops = endure_ops(s, seat, window)
    if ran_out and window is not None:
        ops = [dict(window), *ops]
    push(s, [*ops, {"op": "after_endure"}])


def can_recall(s: State, seat: int) -> bool:
    """Whether an emergency recall is allowed now: advanced game, away from the crystal, in one's turn."""
    return not s["basic"] and seat == s["current"] and s["wizards"][seat]["room"] != CRYSTAL


def recall(s: State, seat: int) -> None:
    """Teleport the wizard to the Mana Crystal for a mana (Quillon's first recall is free)."""
    w = s["wizards"][seat]
    free = w["char"] == "quillon" and w["recalls"] == 0
    w["recalls"] += 1
    w["room"] = CRYSTAL
    say(s, AcademyEvent.RECALL, f"{who(s, seat)} makes an emergency recall to the Mana Crystal.")
    if not free:
        lose_mana(s, 1, "an emergency recall")


def _recall_costs_the_game(s: State, seat: int) -> bool:
    w = s["wizards"][seat]
    return s["mana"] <= 1 and not (w["char"] == "quillon" and w["recalls"] == 0)


def _still_to_endure(s: State, seat: int) -> bool:
    """Whether an endure op still queued for this turn would act."""
    for op in s["queue"]:
        if op["op"] == "after_endure":
            return False
        ops = [o for g in op["groups"] for o in g] if op["op"] == "in_order" else [op]
        if any(o["op"].startswith("endure_") and o["seat"] == seat and endures(s, o) for o in ops):
            return True
    return False


@handler("recall_window")
def _recall_window(s: State, op: Op) -> None:
    """Before (and between) the threats endured: recall to the Mana Crystal, or endure."""
    seat = op["seat"]
    if not can_recall(s, seat) or _recall_costs_the_game(s, seat) or not _still_to_endure(s, seat):
        return
    go = ask(
        s,
        op,
        seat,
        "Threats in your room are still to be endured: endure them, or make an emergency recall first?",
        [("endure", "Endure the threats here"), ("recall", "Emergency recall to the Mana Crystal (1 mana)")],
        {"seat": seat},
    )
    if go == "recall":
        recall(s, seat)


@handler("after_endure")
def _after_endure(s: State, op: Op) -> None:
    """Advanced: the share step; basic: the next player's turn."""
    if s["basic"]:
        next_turn(s)
    else:
        s["step"] = "share"


def next_turn(s: State) -> None:
    """Pass the turn clockwise.

    Ruling: the reveal of the turn's last cast stays on the board until the next move is made (else a
    cast as the last action would never be seen); ``forget_reveal`` clears it then.
    """
    n = len(s["wizards"])
    for step in range(1, n + 1):
        seat = (s["current"] + step) % n
        if seat not in s["resigned"]:
            s["current"] = seat
            break
    start_turn(s)


def forget_reveal(s: State) -> None:
    """Clear a reveal left over from an earlier turn (called before each move)."""
    if s["reveal"] is not None and s["reveal"].get("turn") != s["turn"]:
        s["reveal"] = None
