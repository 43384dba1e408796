"""The Institute's flow: setting up a game, the five phases run step by step, and the round's end.

Each step's automatic part is one function here (``run_assign``, ``run_window``...), returning
True while some seat has to decide; ``rules.institute.steps`` declares which belongs to which
step and runs them (``advance``). Pure: state in, events out.
"""

from __future__ import annotations

from typing import Any

from rules import rng
from rules.contract import (
    Event,
)
from rules.institute import moves, scoring
from rules.institute.cards import deck
from rules.institute.state import (
    ACTION_NAMES,
    CAST_AMOUNT,
    DICE,
    DISCARD_AT,
    LOCATIONS,
    PHASE_NAMES,
    ROUND_CAP,
    SEATS,
    STONES_PER_COLOUR,
    WINDOWS,
    State,
    Step,
    card,
    card_slots,
    counted,
    new_player,
    other,
    phase4_order_key,
    player,
    portal_index,
    return_stones,
    say,
    take_from_supply,
    who,
)

WINDOW_STEPS = {step.value: phase for step, phase in WINDOWS.items()}
"""The one-time power windows by their stored names (tests and the policy read them)."""
_WINDOW_AT = {phase: step for step, phase in WINDOWS.items()}


def _slot(kind: str, card_id: int | None = None) -> dict[str, Any]:
    return {"kind": kind, "card": card_id, "stones": [0, 0]}


# --------------------------------------------------------------------------- setup and rounds


def new_game(options: dict[str, str], seed: int) -> tuple[State, list[Event]]:
    """Return the opening state: starting cards dealt, five cards out, the Portal at Location 6."""
    s: State = {
        "kind": "institute",
        "options": dict(options),
        "goal": int(options["goal"]),
        "round": 1,
        "phase": 1,
        "step": Step.ASSIGN.value,
        "slots": [],
        "realm": [0, 0],
        "deck": [],
        "discarded": [],
        "supply": [STONES_PER_COLOUR - 5, STONES_PER_COLOUR - 5],
        "players": [new_player(), new_player()],
        "frames": {},
        "window": [],
        "cast_left": {},
        "portal_secret": False,
        "realm_done": False,
        "revealed": False,
        "phase4": {"order": [], "at": 0},
        "check_at": 0,
        "log": [],
        "over": False,
        "result": None,
    }
    rng.seed_state(s, seed)
    events: list[Event] = []
    cards = deck()
    starting = [i for i, c in enumerate(cards) if c.starting]
    rng.shuffle(s, starting)
    per_seat = int(options["starting_cards"])
    for seat in SEATS:
        for _ in range(per_seat):
            cid = starting.pop(0)
            me = player(s, seat)
            me["active"].append(cid)
            me["score"] += card(cid).vp or 0
            say(s, events, "setup", f"{who(seat)} starts with {card(cid).name}.")
    pile = [i for i, c in enumerate(cards) if not c.starting] + starting
    rng.shuffle(s, pile)
    s["deck"] = pile
    s["slots"] = [_slot("card", s["deck"].pop(0)) for _ in range(LOCATIONS - 1)] + [_slot("portal")]
    start_round(s, events)
    return s, events


def start_round(s: State, events: list[Event]) -> None:
    """Begin Phase I: both players roll their four dice."""
    s["phase"], s["step"], s["revealed"] = 1, Step.ASSIGN.value, False
    for seat in SEATS:
        me = player(s, seat)
        me["dice"] = [rng.roll(s) for _ in range(DICE)]
        me.update(assign=[None] * DICE, confirmed=False, changes=0, portal=None)
        rolled = dice_text(me["dice"])
        say(s, events, "roll", f"{who(seat)} rolls {rolled}.", seat=seat, dice=list(me["dice"]))
    say(s, events, "phase", f"Round {s['round']}, Phase I: assign Action Cards to dice in secret.")


def dice_text(dice: list[int]) -> str:
    """Return the dice as words: "3, 5, 1, 6"."""
    return ", ".join(str(d) for d in dice)


def assignment_text(me: dict[str, Any]) -> str:
    """Return a player's assignment die by die, as the reveal says it."""
    return "; ".join(
        f"die {d + 1} ({me['dice'][d]}): {ACTION_NAMES[a] if a else 'nothing'}"
        for d, a in enumerate(me["assign"])
    )


# --------------------------------------------------------------------------- each step's automatic part
# Each returns True while a seat must decide; otherwise it has moved the game to another step.


def run_assign(s: State, events: list[Event]) -> bool:
    """Reveal both assignments once both players have confirmed, then open Phase II's window."""
    if not all(player(s, seat)["confirmed"] for seat in SEATS):
        return True
    _reveal(s, events)
    _open_window(s, 2, events)
    return False


def run_window(s: State, events: list[Event]) -> bool:
    """Keep the window open while someone holds a usable one-time power; then go on with the phase."""
    phase = WINDOW_STEPS[s["step"]]
    s["window"] = [seat for seat in s["window"] if moves.usable_one_time(s, seat, phase)]
    if s["window"]:
        return True
    if phase == 2:
        _take(s, events)
        _start_cast(s, events)
    elif phase == 3:
        _start_phase4(s, events)
    else:
        s["step"], s["check_at"], s["check_won"] = Step.CHECK.value, 0, 0
    return False


def run_cast(s: State, events: list[Event]) -> bool:
    """Cast what needs no choice; once every Cast Card is done, go to the Portal."""
    for seat in SEATS:
        auto_cast(s, seat, events)
    if s["cast_left"]:
        return True
    _no_stones_rule(s, events)
    _start_portal(s, events)
    return False


def run_portal(s: State, events: list[Event]) -> bool:
    """Move the Portal's stones once every chooser has chosen."""
    choosers = moves.portal_choosers(s)
    if any(player(s, seat)["portal"] is None for seat in choosers):
        return True
    _resolve_portal(s, choosers, events)
    s["step"] = Step.REALM.value
    return False


def run_realm(s: State, events: list[Event]) -> bool:
    """Wait on the Realm's holder (four stones claim at once); then open Phase III's window."""
    holder = realm_holder(s)
    if holder is None or s["realm_done"]:
        _open_window(s, 3, events)
    elif s["realm"][holder] >= 4:
        s["realm_done"] = True  # four stones: the award must be claimed
        scoring.claim_realm(s, holder, events)
    else:
        return True
    return False


def run_phase4(s: State, events: list[Event]) -> bool:
    """Wait on the owner of the next usable Phase IV card; skip the rest; then Phase V's window."""
    current = moves.phase4_current(s)
    if current is None:
        _open_window(s, 5, events)
    elif _phase4_usable(s, *current):
        return True
    else:
        s["phase4"]["at"] += 1
    return False


def run_check(s: State, events: list[Event]) -> bool:
    """Check the next Location; after the last, discard crowded cards and end the round."""
    if s["check_at"] >= LOCATIONS:
        if not s.get("check_won"):
            # The phase was announced; say how it went even when nobody met a card's needs.
            say(s, events, "award", "No Institute Card is won this round.")
        _discard_crowded(s, events)
        _end_round(s, events)
    else:
        i = s["check_at"]
        s["check_at"] += 1
        _check(s, i, events)
    return False


def _reveal(s: State, events: list[Event]) -> None:
    s["revealed"] = True
    for seat in SEATS:
        me = player(s, seat)
        say(
            s,
            events,
            "reveal",
            f"{who(seat)} reveals: {assignment_text(me)}.",
            seat=seat,
            assign=list(me["assign"]),
            milestone=True,
        )


def _open_window(s: State, phase: int, events: list[Event]) -> None:
    """Enter a phase at its moment for one-time powers (everyone holding one may use it or pass)."""
    if phase != s["phase"]:
        s["phase"] = phase
        say(s, events, "phase", f"Phase {['I', 'II', 'III', 'IV', 'V'][phase - 1]}: {PHASE_NAMES[phase]}.")
    s["step"] = _WINDOW_AT[phase].value
    s["window"] = [seat for seat in SEATS if moves.usable_one_time(s, seat, phase)]


def _take(s: State, events: list[Event]) -> None:
    for seat in SEATS:
        me = player(s, seat)
        wanted = sum(me["dice"][d] for d in range(DICE) if me["assign"][d] == "take")
        if wanted:
            got = take_from_supply(s, seat, wanted)
            me["stones"] += got
            short = f" (the supply had only {got})" if got < wanted else ""
            say(s, events, "take", f"{who(seat)} takes {counted(got, 'Power Stone')}{short}.")


def _start_cast(s: State, events: list[Event]) -> None:
    s["step"] = Step.CAST.value
    s["cast_left"] = {}
    for seat in SEATS:
        me = player(s, seat)
        dice = []
        for d in range(DICE):
            if me["assign"][d] in CAST_AMOUNT:
                if moves.cast_target(s, seat, d) is None:
                    # House ruling: stones cannot be cast onto an empty Location; they stay home.
                    say(
                        s,
                        events,
                        "cast",
                        f"Location {me['dice'][d]} is empty, so {who(seat)}'s cast there is lost.",
                    )
                else:
                    dice.append(d)
        if dice:
            s["cast_left"][str(seat)] = dice


def cast_one(s: State, seat: int, d: int, events: list[Event]) -> None:
    """Fulfil one Cast Card: move its stones (as many as the player has) onto its Location."""
    me = player(s, seat)
    i = moves.cast_target(s, seat, d)
    assert i is not None
    n = min(CAST_AMOUNT[me["assign"][d]], me["stones"])
    me["stones"] -= n
    s["slots"][i]["stones"][seat] += n
    slot = s["slots"][i]
    where = "the Portal" if slot["kind"] == "portal" else card(slot["card"]).name
    say(s, events, "cast", f"{who(seat)} casts {counted(n, 'stone')} onto {where} at Location {i + 1}.")


def auto_cast(s: State, seat: int, events: list[Event]) -> None:
    """Cast everything that needs no choice: all of it when stones suffice or one target remains."""
    left = s["cast_left"].get(str(seat))
    if left is None:
        return
    me = player(s, seat)
    demand = sum(CAST_AMOUNT[me["assign"][d]] for d in left)
    targets = {moves.cast_target(s, seat, d) for d in left}
    if me["stones"] > 0 and (me["stones"] >= demand or len(targets) == 1):
        for d in list(left):
            if me["stones"] > 0:
                cast_one(s, seat, d, events)
        left.clear()
    if not left or me["stones"] == 0:
        if left and me["stones"] == 0:
            say(s, events, "cast", f"{who(seat)} has no stones left to cast.")
        del s["cast_left"][str(seat)]


def _no_stones_rule(s: State, events: list[Event]) -> None:
    """Both players dry everywhere: every card with both colours loses one stone of each."""
    if any(player(s, seat)["stones"] or s["supply"][seat] for seat in SEATS):
        return
    for i in card_slots(s):
        stones = s["slots"][i]["stones"]
        if stones[0] and stones[1]:
            for seat in SEATS:
                stones[seat] -= 1
                s["supply"][seat] += 1
    say(
        s,
        events,
        "stones",
        "Neither player has a stone to take or cast: one stone of each colour leaves every shared card.",
    )


def _start_portal(s: State, events: list[Event]) -> None:
    s["phase"], s["step"], s["realm_done"] = 3, Step.PORTAL.value, False
    say(s, events, "phase", "Phase III: Use the Portal.")
    for seat in SEATS:
        player(s, seat)["portal"] = None
    choosers = moves.portal_choosers(s)
    s["portal_secret"] = len(choosers) == 2
    if s["portal_secret"]:
        say(s, events, "portal", "Both players have stones on the Portal: each chooses in secret.")


def _resolve_portal(s: State, choosers: list[int], events: list[Event]) -> None:
    here = portal_index(s)
    portal = s["slots"][here]
    for seat in choosers:
        to = player(s, seat)["portal"]
        if to == here + 1:
            portal["stones"][seat] -= 1
            s["realm"][seat] += 1
            say(
                s,
                events,
                "portal",
                f"{who(seat)} shows {to}: 1 stone moves from the Portal to the Ethereal Realm.",
            )
        else:
            n = portal["stones"][seat]
            portal["stones"][seat] = 0
            target = s["slots"][to - 1]
            target["stones"][seat] += n
            say(
                s,
                events,
                "portal",
                f"{who(seat)} shows {to}: {counted(n, 'stone')} {'moves' if n == 1 else 'move'}"
                " from the Portal"
                f" to {card(target['card']).name}.",
            )
    if s["realm"][0] and s["realm"][1]:
        # Only one colour may stand in the Realm: each loses a stone until one colour is gone.
        while s["realm"][0] and s["realm"][1]:
            for seat in SEATS:
                s["realm"][seat] -= 1
                s["supply"][seat] += 1
        say(
            s,
            events,
            "realm",
            "Both colours met in the Ethereal Realm and cancelled out: "
            f"Red {s['realm'][0]}, Blue {s['realm'][1]} remain.",
        )


def realm_holder(s: State) -> int | None:
    """Return the seat whose stones stand on the Ethereal Realm, if any."""
    for seat in SEATS:
        if s["realm"][seat]:
            return seat
    return None


def _start_phase4(s: State, events: list[Event]) -> None:
    s["phase"], s["step"] = 4, Step.PHASE4.value
    say(s, events, "phase", "Phase IV: Trigger Permanent Powers, in card-number order.")
    owned = [(cid, seat) for seat in SEATS for cid in player(s, seat)["active"] if card(cid).phase == 4]
    owned.sort(key=lambda pair: phase4_order_key(s, pair[0], pair[1]))
    s["phase4"] = {"order": [cid for cid, _ in owned], "at": 0}


def _phase4_usable(s: State, cid: int, owner: int) -> bool:
    return card(cid).power != "permanent" or player(s, owner)["stones"] > 0


def _check(s: State, i: int, events: list[Event]) -> None:
    """Check one Location against Cost and Surpass; a winner takes the card."""
    slot = s["slots"][i]
    if slot["kind"] != "card":
        return
    c = card(slot["card"])
    for seat in SEATS:
        mine, theirs = slot["stones"][seat], slot["stones"][other(seat)]
        if mine >= c.cost and mine - theirs >= c.surpass:
            cid = slot["card"]
            return_stones(s, slot["stones"])
            s["slots"][i] = _slot("empty")
            s["check_won"] = s.get("check_won", 0) + 1
            scoring.give_card(s, seat, cid, events, f"at Location {i + 1}")
            return


def _discard_crowded(s: State, events: list[Event]) -> None:
    for i in card_slots(s):
        slot = s["slots"][i]
        if sum(slot["stones"]) >= DISCARD_AT:
            return_stones(s, slot["stones"])
            s["discarded"].append(slot["card"])
            say(
                s,
                events,
                "discard",
                f"{card(slot['card']).name} at Location {i + 1} holds {DISCARD_AT}+ stones "
                "and leaves the game.",
            )
            s["slots"][i] = _slot("empty")


def _end_round(s: State, events: list[Event]) -> None:
    reached = any(player(s, seat)["score"] >= s["goal"] for seat in SEATS)
    dry = not s["deck"] and not card_slots(s)
    capped = s["round"] >= ROUND_CAP
    if reached or dry or capped:
        winners, reason = scoring.standing(s)
        if len(winners) > 1 and s["options"].get("on_tie") == "play_on" and not (dry or capped):
            say(s, events, "tie", "A perfect tie: the players play another round to break it.")
        else:
            why = (
                ""
                if reached
                else (" (the deck and the Locations ran out)" if dry else f" (the {ROUND_CAP}-round limit)")
            )
            s["over"], s["step"] = True, Step.OVER.value
            s["result"] = scoring.result_json(s)
            say(s, events, "end", f"The game ends{why}. {reason}")
            return
    _shift(s, events)
    s["round"] += 1
    start_round(s, events)


def _shift(s: State, events: list[Event]) -> None:
    """Slide cards and the Portal toward Location 1, wrap the Portal, refill from the deck."""
    entries = [slot for slot in s["slots"] if slot["kind"] != "empty"]
    if entries and entries[0]["kind"] == "portal":
        portal = entries.pop(0)
        if sum(portal["stones"]):
            say(
                s,
                events,
                "portal",
                "The Portal wraps from Location 1 to Location 6; its stones return to the supply.",
            )
        else:
            say(s, events, "portal", "The Portal wraps from Location 1 to Location 6.")
        return_stones(s, portal["stones"])
        cards = entries + [_slot("empty") for _ in range(LOCATIONS - 1 - len(entries))]
        s["slots"] = [*cards, portal]
    else:
        s["slots"] = entries + [_slot("empty") for _ in range(LOCATIONS - len(entries))]
    for i, slot in enumerate(s["slots"]):
        if slot["kind"] == "empty" and s["deck"]:
            s["slots"][i] = _slot("card", s["deck"].pop(0))
            say(s, events, "deal", f"{card(s['slots'][i]['card']).name} comes out at Location {i + 1}.")
