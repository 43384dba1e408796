"""The Institute for Magical Arts: the engine (setup, the five phases, the round's end).

The view format is documented in ``rules/institute/VIEW.md`` (keep it stable: the board image and the
``/institute`` commands are built from it). In short: ``locations`` (6 entries, each a card, the Portal
or empty, with ``stones`` [red, blue]), ``portal``, ``realm``, ``deck`` (a count), ``players`` (score,
charms, rerolls, stones, characters, active and inactive cards, dice, confirmed, the assignment when it
may be seen, the portal choice when it may be seen), ``round``, ``phase``, ``step``, ``waiting``,
``prompts``, ``decision`` and ``log``.

Flow: ``resolve`` applies one move, then ``advance`` runs every automatic step until some seat has to
decide. Phase I and a contested Portal are simultaneous and secret (SECRET prompts for each seat still
deciding); windows for one-time powers are REACTION prompts; everything else waits on one seat.
"""

from __future__ import annotations

import pickle
from typing import Any

from rules import rng
from rules.contract import (
    Event,
    Move,
    OptionSpec,
    Prompt,
    PromptKind,
    Result,
    Rules,
    View,
)
from rules.institute import effects, moves, scoring
from rules.institute.cards import card_index, deck
from rules.institute.state import (
    ACTION_LIMITS,
    ACTION_NAMES,
    CAST_AMOUNT,
    COLOURS,
    DICE,
    DISCARD_AT,
    LOCATIONS,
    MAX_CHANGES,
    MAX_REROLLS,
    PHASE_NAMES,
    ROUND_CAP,
    SEATS,
    STONES_PER_COLOUR,
    State,
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

WINDOW_STEPS = {"window2": 2, "window3": 3, "window5": 5}


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
        "step": "assign",
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
    s["phase"], s["step"], s["revealed"] = 1, "assign", False
    for seat in SEATS:
        me = player(s, seat)
        me["dice"] = [rng.roll(s) for _ in range(DICE)]
        me.update(assign=[None] * DICE, confirmed=False, changes=0, portal=None)
        say(s, events, "roll", f"{who(seat)} rolls {_dice(me['dice'])}.", seat=seat, dice=list(me["dice"]))
    say(s, events, "phase", f"Round {s['round']}, Phase I: assign Action Cards to dice in secret.")


def _dice(dice: list[int]) -> str:
    return ", ".join(str(d) for d in dice)


def _assignment_text(me: dict[str, Any]) -> str:
    return "; ".join(
        f"die {d + 1} ({me['dice'][d]}): {ACTION_NAMES[a] if a else 'nothing'}"
        for d, a in enumerate(me["assign"])
    )


# --------------------------------------------------------------------------- the flow


def advance(s: State, events: list[Event]) -> None:
    """Run automatic steps until a seat must decide or the game ends."""
    while not s["over"]:
        if s["frames"]:
            return
        step = s["step"]
        if step == "assign":
            if not all(player(s, seat)["confirmed"] for seat in SEATS):
                return
            _reveal(s, events)
            _open_window(s, 2, events)
        elif step in WINDOW_STEPS:
            phase = WINDOW_STEPS[step]
            s["window"] = [seat for seat in s["window"] if moves.usable_one_time(s, seat, phase)]
            if s["window"]:
                return
            if phase == 2:
                _take(s, events)
                _start_cast(s, events)
            elif phase == 3:
                _start_phase4(s, events)
            else:
                s["step"], s["check_at"], s["check_won"] = "check", 0, 0
        elif step == "cast":
            for seat in SEATS:
                _auto_cast(s, seat, events)
            if s["cast_left"]:
                return
            _no_stones_rule(s, events)
            _start_portal(s, events)
        elif step == "portal":
            choosers = moves.portal_choosers(s)
            if any(player(s, seat)["portal"] is None for seat in choosers):
                return
            _resolve_portal(s, choosers, events)
            s["step"] = "realm"
        elif step == "realm":
            holder = _realm_holder(s)
            if holder is None or s["realm_done"]:
                _open_window(s, 3, events)
            elif s["realm"][holder] >= 4:
                s["realm_done"] = True  # four stones: the award must be claimed
                scoring.claim_realm(s, holder, events)
            else:
                return
        elif step == "phase4":
            current = moves.phase4_current(s)
            if current is None:
                _open_window(s, 5, events)
            elif _phase4_usable(s, *current):
                return
            else:
                s["phase4"]["at"] += 1
        elif step == "check":
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
        else:
            raise AssertionError(f"unknown step {step}")


def _reveal(s: State, events: list[Event]) -> None:
    s["revealed"] = True
    for seat in SEATS:
        me = player(s, seat)
        say(
            s,
            events,
            "reveal",
            f"{who(seat)} reveals: {_assignment_text(me)}.",
            seat=seat,
            assign=list(me["assign"]),
            milestone=True,
        )


def _open_window(s: State, phase: int, events: list[Event]) -> None:
    """Enter a phase at its moment for one-time powers (everyone holding one may use it or pass)."""
    if phase != s["phase"]:
        s["phase"] = phase
        say(s, events, "phase", f"Phase {['I', 'II', 'III', 'IV', 'V'][phase - 1]}: {PHASE_NAMES[phase]}.")
    s["step"] = f"window{phase}"
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
    s["step"] = "cast"
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


def _cast_one(s: State, seat: int, d: int, events: list[Event]) -> None:
    me = player(s, seat)
    i = moves.cast_target(s, seat, d)
    assert i is not None
    n = min(CAST_AMOUNT[me["assign"][d]], me["stones"])
    me["stones"] -= n
    s["slots"][i]["stones"][seat] += n
    slot = s["slots"][i]
    where = "the Portal" if slot["kind"] == "portal" else card(slot["card"]).name
    say(s, events, "cast", f"{who(seat)} casts {counted(n, 'stone')} onto {where} at Location {i + 1}.")


def _auto_cast(s: State, seat: int, events: list[Event]) -> None:
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
                _cast_one(s, seat, d, events)
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
    s["phase"], s["step"], s["realm_done"] = 3, "portal", False
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


def _realm_holder(s: State) -> int | None:
    for seat in SEATS:
        if s["realm"][seat]:
            return seat
    return None


def _start_phase4(s: State, events: list[Event]) -> None:
    s["phase"], s["step"] = 4, "phase4"
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
            s["over"], s["step"] = True, "over"
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


# --------------------------------------------------------------------------- the rules object


class InstituteRules(Rules):
    """The Institute for Magical Arts, for two players."""

    kind = "institute"
    title = "The Institute for Magical Arts"
    min_players = 2
    max_players = 2
    options = (
        OptionSpec(
            "goal", "VP that ends the game (20; 25 or 30 for a longer game)", ("20", "25", "30"), "20"
        ),
        OptionSpec(
            "starting_cards", "Starting cards dealt to each player (the variant deals 2)", ("1", "2"), "1"
        ),
        OptionSpec(
            "on_tie", "After a perfect tie: call a draw, or play another round", ("draw", "play_on"), "draw"
        ),
    )
    actions = moves.ALL_ACTIONS
    rulebook = "institute-for-magical-arts.txt"
    seat_names = ("Red", "Blue")
    has_secrets = True  # the secret assignments, the secret Portal choice, the deck order

    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        """Return the opening state."""
        self.check_players(players)
        state, _ = new_game(self.check_options(options), seed)
        return state

    def setup_events(self, options: dict[str, str], seed: int) -> list[Event]:
        """Return the events of setting up (starting cards, the first roll) for the game log."""
        return new_game(self.check_options(options), seed)[1]

    # ---- who decides

    def pending(self, state: State) -> list[Prompt]:
        """Return who must decide what now."""
        s = state
        if s["over"]:
            return []
        step = s["step"]
        prompts: list[Prompt] = []
        for seat in SEATS:
            if effects.frame(s, seat) is not None:
                prompts.append(Prompt(seat, PromptKind.DECISION, "power", effects.prompt_text(s, seat)))
            elif step == "assign" and not player(s, seat)["confirmed"]:
                # The dice are already rolled when this is asked: assign, reroll if wanted, confirm.
                text = f"{who(seat)}: assign your Action Cards in secret (reroll if you like), then confirm."
                prompts.append(Prompt(seat, PromptKind.SECRET, "assign", text))
        if step == "assign" or s["frames"]:
            return prompts
        if step in WINDOW_STEPS:
            phase = WINDOW_STEPS[step]
            return [
                Prompt(
                    seat,
                    PromptKind.REACTION,
                    "window",
                    f"{who(seat)}: use a Phase {phase} one-time power, or pass.",
                )
                for seat in s["window"]
            ]
        if step == "cast":
            return [
                Prompt(
                    int(k),
                    PromptKind.DECISION,
                    "cast",
                    f"{who(int(k))}: too few stones; choose which Cast Card to fulfil.",
                )
                for k in sorted(s["cast_left"])
            ]
        if step == "portal":
            kind = PromptKind.SECRET if s["portal_secret"] else PromptKind.TURN
            return [
                Prompt(
                    seat,
                    kind,
                    "portal",
                    f"{who(seat)}: move your Portal stones to a card or 1 to the Ethereal Realm.",
                )
                for seat in moves.portal_choosers(s)
                if player(s, seat)["portal"] is None
            ]
        if step == "realm":
            holder = _realm_holder(s)
            assert holder is not None
            return [
                Prompt(
                    holder,
                    PromptKind.DECISION,
                    "realm",
                    f"{who(holder)}: claim the Ethereal Realm award or wait.",
                )
            ]
        if step == "phase4":
            current = moves.phase4_current(s)
            assert current is not None
            cid, owner = current
            return [
                Prompt(
                    owner,
                    PromptKind.TURN,
                    "phase4",
                    f"{who(owner)}: trigger {card(cid).name} (#{card(cid).number}) or decline.",
                )
            ]
        return []

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Return every legal move for that seat now."""
        s = state
        if s["over"] or seat not in SEATS:
            return []
        if effects.frame(s, seat) is not None:
            return effects.choices(s, seat)
        step = s["step"]
        if step == "assign":
            return [] if player(s, seat)["confirmed"] else moves.assign_moves(s, seat)
        if s["frames"]:
            return []
        if step in WINDOW_STEPS:
            if seat not in s["window"]:
                return []
            cards = moves.usable_one_time(s, seat, WINDOW_STEPS[step])
            return [Move.of("power", card=c) for c in cards] + [Move.of("pass")]
        if step == "cast":
            return moves.cast_moves(s, seat)
        if step == "portal":
            if seat in moves.portal_choosers(s) and player(s, seat)["portal"] is None:
                return moves.portal_moves(s, seat)
            return []
        if step == "realm":
            return [Move.of("claim"), Move.of("keep")] if _realm_holder(s) == seat else []
        if step == "phase4":
            current = moves.phase4_current(s)
            if current and current[1] == seat:
                return [Move.of("power", card=current[0]), Move.of("decline")]
        return []

    # ---- resolving a move

    def copy_state(self, state: State) -> State:
        """Return a copy for apply to resolve on (a pickle round trip is faster than deepcopy)."""
        return pickle.loads(pickle.dumps(state))

    def resolve(self, state: State, seat: int, move: Move) -> list[Event]:
        """Carry out a legal move, then run the automatic steps that follow."""
        s = state
        events: list[Event] = []
        if effects.frame(s, seat) is not None:
            effects.answer(s, seat, move, events)
        else:
            handler = {
                "assign": self._on_assign_step,
                "window2": self._on_window,
                "window3": self._on_window,
                "window5": self._on_window,
                "cast": self._on_cast,
                "portal": self._on_portal,
                "realm": self._on_realm,
                "phase4": self._on_phase4,
            }[s["step"]]
            handler(s, seat, move, events)
        advance(s, events)
        return events

    def _on_assign_step(self, s: State, seat: int, move: Move, events: list[Event]) -> None:
        me = player(s, seat)
        act = move.action
        if act == "reroll":
            dice = move.get("dice")
            free = moves.free_reroll(s, seat)
            if not free:
                me["rerolls"] -= 1
            for d in dice:
                me["dice"][d - 1] = rng.roll(s)
            how = (
                "rerolls for free"
                if free
                else "spends a Reroll Cube and rerolls " + ", ".join(f"die {d}" for d in dice)
            )
            say(
                s,
                events,
                "roll",
                f"{who(seat)} {how}: dice now {_dice(me['dice'])}.",
                seat=seat,
                dice=list(me["dice"]),
            )
        elif act == "refill":
            me["charms"] -= 1
            me["score"] -= 1
            me["rerolls"] = MAX_REROLLS
            say(
                s,
                events,
                "refill",
                f"{who(seat)} returns a Charm (-1 VP) and refills their Reroll Cubes to 3.",
            )
        elif act == "assign":
            d = move.get("die") - 1
            if me["assign"][d] is not None:
                me["changes"] += 1
            me["assign"][d] = move.get("card")
            # Private: only the assigning seat learns which card went where.
            say(
                s,
                events,
                "assign",
                f"You put {ACTION_NAMES[move.get('card')]} under die {d + 1} ({me['dice'][d]}).",
                (seat,),
            )
        elif act == "confirm":
            me["confirmed"] = True
            say(s, events, "confirm", f"You locked in: {_assignment_text(me)}.", (seat,))
            say(s, events, "confirm", f"{who(seat)} has locked in their Action Cards.", seat=seat)
        elif act == "power":
            self._use_one_time(s, seat, move.get("card"), events)

    def _use_one_time(self, s: State, seat: int, cid: int, events: list[Event]) -> None:
        me = player(s, seat)
        me["active"].remove(cid)
        me["inactive"].append(cid)
        say(s, events, "power", f"{who(seat)} uses {card(cid).name}.")
        effects.start(s, seat, cid, events)

    def _on_window(self, s: State, seat: int, move: Move, events: list[Event]) -> None:
        if move.action == "pass":
            s["window"].remove(seat)
        else:
            self._use_one_time(s, seat, move.get("card"), events)

    def _on_cast(self, s: State, seat: int, move: Move, events: list[Event]) -> None:
        d = move.get("die") - 1
        s["cast_left"][str(seat)].remove(d)
        _cast_one(s, seat, d, events)
        _auto_cast(s, seat, events)

    def _on_portal(self, s: State, seat: int, move: Move, events: list[Event]) -> None:
        player(s, seat)["portal"] = move.get("to")
        if s["portal_secret"]:
            say(s, events, "portal", f"You chose {move.get('to')} for your Portal stones.", (seat,))
            say(s, events, "portal", f"{who(seat)} has made their Portal choice.")

    def _on_realm(self, s: State, seat: int, move: Move, events: list[Event]) -> None:
        s["realm_done"] = True
        if move.action == "claim":
            scoring.claim_realm(s, seat, events)
        else:
            left = counted(s["realm"][seat], "stone")
            say(s, events, "realm", f"{who(seat)} leaves {left} on the Ethereal Realm.")

    def _on_phase4(self, s: State, seat: int, move: Move, events: list[Event]) -> None:
        cid = s["phase4"]["order"][s["phase4"]["at"]]
        s["phase4"]["at"] += 1
        if move.action == "decline":
            say(s, events, "phase4", f"{who(seat)} declines {card(cid).name}.")
            return
        me = player(s, seat)
        if card(cid).power == "permanent":
            me["stones"] -= 1
            s["supply"][seat] += 1
            say(s, events, "power", f"{who(seat)} pays 1 stone to trigger {card(cid).name}.")
            effects.start(s, seat, cid, events)
        else:
            self._use_one_time(s, seat, cid, events)

    # ---- reading the game

    def view(self, state: State, seat: int | None) -> View:
        """Return what that seat (None: a spectator) may know; see VIEW.md."""
        s = state
        portal_at = portal_index(s)
        locations = []
        for i, slot in enumerate(s["slots"]):
            view_card = card(slot["card"]).to_view(slot["card"]) if slot["kind"] == "card" else None
            locations.append(
                {"number": i + 1, "kind": slot["kind"], "card": view_card, "stones": list(slot["stones"])}
            )
        portal_hidden = s["step"] == "portal" and s["portal_secret"]
        players = []
        for p_seat in SEATS:
            me = player(s, p_seat)
            own = seat == p_seat
            shown = own or s["revealed"]
            players.append(
                {
                    "seat": p_seat,
                    "colour": COLOURS[p_seat],
                    "score": me["score"],
                    "charms": me["charms"],
                    "rerolls": me["rerolls"],
                    "stones": me["stones"],
                    "characters": me["characters"],
                    "active": [card(c).to_view(c) for c in me["active"]],
                    "inactive": [card(c).to_view(c) for c in me["inactive"]],
                    "dice": list(me["dice"]),
                    "confirmed": me["confirmed"],
                    "assignment": list(me["assign"]) if shown else None,
                    "assignment_visible": shown,
                    "portal_choice": me["portal"] if (own or not portal_hidden) else None,
                    "portal_chosen": me["portal"] is not None,
                }
            )
        decision = None
        for f_seat in SEATS:
            f = effects.frame(s, f_seat)
            if f is not None:
                decision = {
                    "seat": f_seat,
                    "card": card(f["card"]).to_view(f["card"]),
                    "prompt": effects.prompt_text(s, f_seat),
                }
        prompts = self.pending(s)
        return {
            "kind": "institute",
            "seat": seat,
            "round": s["round"],
            "phase": s["phase"],
            "phase_name": PHASE_NAMES[s["phase"]],
            "step": s["step"],
            "goal": s["goal"],
            "over": s["over"],
            "result": s["result"],
            "waiting": sorted({p.seat for p in prompts}),
            "prompts": [p.to_json() for p in prompts],
            "locations": locations,
            "portal": {"location": portal_at + 1, "stones": list(s["slots"][portal_at]["stones"])},
            "realm": {"stones": list(s["realm"])},
            "deck": len(s["deck"]),
            "discarded": [card(c).to_view(c) for c in s["discarded"]],
            "supply": {"stones": list(s["supply"])},
            "players": players,
            "decision": decision,
            "phase4": {"order": list(s["phase4"]["order"]), "at": s["phase4"]["at"]},
            "log": list(s["log"]),
        }

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        return bool(state["over"])

    def result(self, state: State) -> Result | None:
        """Return the outcome once the game is over."""
        return scoring.result(state) if state["over"] else None

    def label(self, state: State, seat: int, move: Move) -> str:
        """Return a short sentence naming the move."""
        return moves.label(state, seat, move)

    def why_not(self, state: State, seat: int, move: Move) -> str:
        """Return why a move is not legal now."""
        return moves.why_not(state, seat, move)

    def scramble(self, state: State, seat: int | None, rand: Any) -> State:
        """Return a copy with the deck order, the generator and the opponent's secrets re-drawn."""
        s = pickle.loads(pickle.dumps(state))  # a faithful copy of plain data, faster than deepcopy
        # Sorted first: the result depends on what the seat knows and on ``rand``, never on the real order.
        s["deck"].sort()
        rand.shuffle(s["deck"])
        s[rng.KEY] = rand.getrandbits(64)
        for p_seat in SEATS:
            if p_seat == seat:
                continue
            me = player(s, p_seat)
            if not s["revealed"]:
                me["assign"] = _random_assignment(rand, full=me["confirmed"])
                me["changes"] = rand.randrange(MAX_CHANGES + 1)
            if s["step"] == "portal" and s["portal_secret"] and me["portal"] is not None:
                me["portal"] = rand.choice(moves.portal_moves(s, p_seat)).get("to")
        return s

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        """Return a generous bound on a game's length in moves (the round cap bounds it)."""
        return ROUND_CAP * 400

    def card_index(self) -> dict[str, str]:
        """Return every Institute Card's lookup text by name."""
        return card_index()

    def view_text(self, view: View) -> str:
        """Return the view as a readable text board."""
        from rules.institute.text import board_text

        return board_text(view)


def _random_assignment(rand: Any, full: bool) -> list[str | None]:
    """Return a random legal assignment of Action Cards to the four dice (some empty unless full)."""
    pool = [a for a, n in ACTION_LIMITS.items() for _ in range(n)]
    rand.shuffle(pool)
    out: list[str | None] = pool[:DICE]
    if not full:
        out = [a if rand.random() < 0.5 else None for a in out]
    return out
