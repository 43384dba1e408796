"""The moves a seat may make at each step, their readable labels, and why a move is refused.

Granularity keeps every list short enough for buttons and Discord autocomplete: Action Cards are
assigned one die at a time and then confirmed; stones move one at a time inside a power.
"""

from __future__ import annotations

from itertools import combinations

from rules.contract import IllegalMove, Move, RuleRef
from rules.institute import effects
from rules.institute.state import (
    ACTION_LIMITS,
    ACTION_NAMES,
    ACTIONS,
    CAST_AMOUNT,
    DICE,
    MAX_CHANGES,
    MAX_REROLLS,
    REALM_AWARDS,
    SEATS,
    State,
    Step,
    card,
    card_slots,
    counted,
    player,
    portal_index,
)

ALL_ACTIONS = frozenset(
    {
        "reroll",
        "refill",
        "assign",
        "confirm",
        "power",
        "pass",
        "decline",
        "cast",
        "portal",
        "claim",
        "keep",
        "move",
        "remove",
        "place",
        "clear",
        "set",
        "swap",
        "accept",
        "roll_again",
        "done",
    }
)
"""Every action name the Institute knows."""

SUBSETS = [c for n in range(1, DICE + 1) for c in combinations(range(1, DICE + 1), n)]
# Moves are immutable values: build the common ones once (legal_moves runs on every click).
REROLLS = [Move.of("reroll", dice=list(c)) for c in SUBSETS]
FREE_REROLL = Move.of("reroll", dice=list(range(1, DICE + 1)))
REFILL = Move.of("refill")
CONFIRM = Move.of("confirm")
ASSIGN = {(d, a): Move.of("assign", die=d + 1, card=a) for d in range(DICE) for a in ACTIONS}


def free_reroll(state: State, seat: int) -> bool:
    """Whether the dice total 6 or less, so a full reroll costs nothing."""
    return sum(player(state, seat)["dice"]) <= 6


def usable_one_time(state: State, seat: int, phase: int) -> list[int]:
    """Return the seat's unused one-time cards whose power belongs to the phase."""
    return [
        c for c in player(state, seat)["active"] if card(c).power == "one-time" and card(c).phase == phase
    ]


def assign_moves(state: State, seat: int) -> list[Move]:
    """Return the Phase I moves of a seat that has not confirmed."""
    me = player(state, seat)
    moves: list[Move] = []
    if sum(me["dice"]) <= 6:
        moves.append(FREE_REROLL)
    elif me["rerolls"] > 0:
        moves.extend(REROLLS)
    if me["rerolls"] < MAX_REROLLS and me["charms"] > 0:
        moves.append(REFILL)
    assign = me["assign"]
    counts = {a: assign.count(a) for a in ACTIONS}
    for d in range(DICE):
        here = assign[d]
        if here is not None and me["changes"] >= MAX_CHANGES:
            continue
        for action in ACTIONS:
            # a card already under this die may move; otherwise one must be left in hand
            if here != action and counts[action] < ACTION_LIMITS[action]:
                moves.append(ASSIGN[d, action])
    moves.extend(Move.of("power", card=c) for c in usable_one_time(state, seat, 1))
    if None not in assign:
        moves.append(CONFIRM)
    return moves


def cast_target(state: State, seat: int, die: int) -> int | None:
    """Return the slot index a casting die points at, or None when that Location is empty."""
    i = player(state, seat)["dice"][die] - 1
    return None if state["slots"][i]["kind"] == "empty" else i


def cast_moves(state: State, seat: int) -> list[Move]:
    """Return the choices of a player short of stones: which Cast Card to fulfil next."""
    return [Move.of("cast", die=d + 1) for d in state["cast_left"].get(str(seat), [])]


def portal_choosers(state: State) -> list[int]:
    """Return the seats with stones on the Portal at the start of Phase III."""
    slot = state["slots"][portal_index(state)]
    return [s for s in SEATS if slot["stones"][s] > 0]


def portal_moves(state: State, seat: int) -> list[Move]:
    """Return the Portal options: a Location with an Institute Card, or the Portal's own (the Realm)."""
    here = portal_index(state) + 1
    return [Move.of("portal", to=i + 1) for i in card_slots(state)] + [Move.of("portal", to=here)]


def phase4_current(state: State) -> tuple[int, int] | None:
    """Return (card, owner) of the Phase IV card whose turn it is, or None."""
    q = state["phase4"]
    if q["at"] >= len(q["order"]):
        return None
    cid = q["order"][q["at"]]
    for s in SEATS:
        if cid in player(state, s)["active"]:
            return cid, s
    return None


def label(state: State, seat: int, move: Move) -> str:
    """Return a short readable sentence for a move."""
    if effects.frame(state, seat) is not None:
        return effects.label(state, seat, move)
    me = player(state, seat)
    act = move.action
    if act == "reroll":
        dice = move.get("dice")
        if free_reroll(state, seat):
            return "Reroll all dice for free (total 6 or less)"
        which = "all dice" if len(dice) == DICE else ", ".join(f"die {d} ({me['dice'][d - 1]})" for d in dice)
        return f"Spend a Reroll Cube to reroll {which}"
    if act == "refill":
        return "Return a Charm (-1 VP) to refill your Reroll Cubes to 3"
    if act == "assign":
        d = move.get("die")
        return f"Assign {ACTION_NAMES[move.get('card')]} to die {d} ({me['dice'][d - 1]})"
    if act == "confirm":
        return "Confirm your Action Cards"
    if act == "power":
        c = card(move.get("card"))
        cost = " (pay 1 stone)" if c.power == "permanent" else ""
        return f"Use {c.name}{cost}: {c.short}"
    if act == "pass":
        return "Use no more powers now"
    if act == "decline":
        return "Decline this power"
    if act == "cast":
        d = move.get("die") - 1
        what = me["assign"][d]
        amount = CAST_AMOUNT[what]
        stones = counted(amount, "stone")
        return f"Fulfil {ACTION_NAMES[what]} on die {d + 1}: Location {me['dice'][d]} ({stones})"
    if act == "portal":
        to = move.get("to")
        if to == portal_index(state) + 1:
            return f"Move 1 stone from the Portal to the Ethereal Realm (die shows {to})"
        return f"Move all your Portal stones to {card(state['slots'][to - 1]['card']).name} (Location {to})"
    if act == "claim":
        n = state["realm"][seat]
        return f"Claim the Ethereal Realm award for {counted(n, 'stone')}: {REALM_AWARDS.get(n, '')}"
    if act == "keep":
        return "Leave your stones on the Ethereal Realm"
    return move.code()


PHASE_I = RuleRef("Phase I: Assign Action Cards to Dice")
PHASE_I_MORE = RuleRef("Additional Rules for Phase I")
POWERS = RuleRef("Using the Powers of Institute Cards")
REALM = RuleRef("The Ethereal Realm Card")


def why_not(state: State, seat: int, move: Move, step_name: str) -> IllegalMove:
    """Return the refusal of a move that is not legal now: a sentence and the rule it applies."""
    if state.get("over"):
        return IllegalMove("This game is already over.", RuleRef("Game End"))
    if effects.frame(state, seat) is not None:
        return IllegalMove(
            "Finish the power you are using first: " + effects.prompt_text(state, seat), POWERS
        )
    if state["step"] == Step.ASSIGN:
        return _why_not_phase_i(state, seat, move)
    act = move.action
    if act in ("power", "pass", "decline"):
        return IllegalMove("That card's power cannot be used now.", RuleRef("General Rules"))
    if act == "cast":
        return IllegalMove(
            "Choose one of your Cast Cards that is still waiting to be fulfilled.",
            RuleRef("Step B: Cast Power Stones"),
        )
    if act == "portal":
        return IllegalMove(
            "Move your Portal stones to a Location with an Institute Card, "
            "or choose the Portal's own Location for the Ethereal Realm.",
            RuleRef("Options for Using the Portal"),
        )
    if act in ("claim", "keep"):
        if state["realm"][seat] >= 4:
            return IllegalMove("With 4 stones on the Ethereal Realm you must claim the award.", REALM)
        return IllegalMove("You have no stones on the Ethereal Realm to claim.", REALM)
    return IllegalMove(
        f"That move is not part of this step ({step_name}).",
        RuleRef("Playing the Game"),
    )


def _why_not_phase_i(state: State, seat: int, move: Move) -> IllegalMove:
    """Refuse a Phase I move: rerolls, refills, assignments and the confirmation."""
    me = player(state, seat)
    act = move.action
    if me["confirmed"]:
        return IllegalMove("You have already confirmed your Action Cards; wait for the reveal.", PHASE_I)
    if act == "reroll":
        if me["rerolls"] == 0 and not free_reroll(state, seat):
            return IllegalMove(
                "You have no Reroll Cubes left. Return a Charm to refill them, or keep these dice.",
                PHASE_I_MORE,
            )
        if free_reroll(state, seat):
            return IllegalMove(
                "Your dice total 6 or less: the free reroll rerolls all four dice.",
                RuleRef("Free and paid rerolls", ruling=True),
            )
        return IllegalMove("Name the dice to reroll as numbers 1 to 4, e.g. dice=[1,3].", PHASE_I_MORE)
    if act == "refill":
        if me["rerolls"] >= MAX_REROLLS:
            return IllegalMove("You already hold 3 Reroll Cubes.", PHASE_I_MORE)
        return IllegalMove("You have no Charm to return.", PHASE_I_MORE)
    if act == "assign":
        d, what = move.get("die"), move.get("card")
        if not isinstance(d, int) or not 1 <= d <= DICE:
            return IllegalMove("Pick a die from 1 to 4.", PHASE_I)
        if what not in ACTION_LIMITS:
            return IllegalMove("The Action Cards are take, cast1 and cast2.", PHASE_I)
        if me["assign"][d - 1] is not None and me["changes"] >= MAX_CHANGES:
            return IllegalMove(
                "You have changed your assignments too often this round; keep this one.",
                RuleRef("Changing an assignment", ruling=True),
            )
        return IllegalMove(
            f"You hold only {counted(ACTION_LIMITS[what], ACTION_NAMES[what] + ' card')}"
            " and they are all assigned.",
            PHASE_I,
        )
    if act == "confirm":
        return IllegalMove("Assign an Action Card to each of your four dice first.", PHASE_I)
    if act == "power":
        return IllegalMove("You have no unused Phase I power on that card.", RuleRef("General Rules"))
    return IllegalMove("In Phase I you reroll, refill, assign Action Cards and confirm.", PHASE_I)
