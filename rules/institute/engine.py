"""The Institute for Magical Arts: the engine (the rules object: prompts, legal moves, moves, views).

The view format is documented in ``rules/institute/VIEW.md`` (keep it stable: the board image and the
``/institute`` commands are built from it). In short: ``locations`` (6 entries, each a card, the Portal
or empty, with ``stones`` [red, blue]), ``portal``, ``realm``, ``deck`` (a count), ``players`` (score,
charms, rerolls, stones, characters, active and inactive cards, dice, confirmed, the assignment when it
may be seen, the portal choice when it may be seen), ``round``, ``phase``, ``step``, ``waiting``,
``prompts``, ``decision`` and ``log``.

Flow: ``resolve`` applies one move, then ``advance`` (in ``rules.institute.flow``) runs every
automatic step until some seat has to decide. Phase I and a contested Portal are simultaneous and
secret (SECRET prompts for each seat still deciding); windows for one-time powers are REACTION
prompts; everything else waits on one seat.
"""

from __future__ import annotations

import pickle
from typing import Any

from rules import rng
from rules.contract import (
    Event,
    IllegalMove,
    Move,
    OptionSpec,
    Prompt,
    PromptKind,
    Result,
    RuleRef,
    Rules,
    View,
)
from rules.copies import shared_copy
from rules.institute import effects, moves, scoring
from rules.institute.cards import card_index
from rules.institute.flow import (  # noqa: F401 - re-exported: tests drive the flow's steps through engine
    WINDOW_STEPS,
    _assignment_text,
    _auto_cast,
    _cast_one,
    _dice,
    _no_stones_rule,
    _open_window,
    _realm_holder,
    _start_phase4,
    _start_portal,
    advance,
    new_game,
    start_round,
)
from rules.institute.state import (
    ACTION_LIMITS,
    ACTION_NAMES,
    COLOURS,
    DICE,
    MAX_CHANGES,
    MAX_REROLLS,
    PHASE_NAMES,
    ROUND_CAP,
    SEATS,
    State,
    card,
    counted,
    player,
    portal_index,
    say,
    who,
)

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
    book = "Institute rulebook"
    turn_rule = RuleRef("Playing the Game")
    end_rule = RuleRef("Game End")
    leave_rule = RuleRef("Nobody leaves a two-player duel", ruling=True)
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
        """Return a copy for apply to resolve on (marshal keeps shared parts shared, as pickle did)."""
        return shared_copy(state)

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

    def public_scores(self, view: View) -> dict[int, str]:
        """Return each player's victory points, which the score track shows everyone."""
        return {p["seat"]: f"{p['score']} VP" for p in view.get("players") or []}

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
            "locked_in": _locked_in(s),
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

    def turn_rule_at(self, state: State) -> RuleRef | None:
        """Return the section that says who acts in the step in play (both at once, or in order)."""
        return moves.STEP_RULES.get(state["step"], self.turn_rule)

    def why_not(self, state: State, seat: int, move: Move) -> IllegalMove:
        """Return why a move is not legal now, with the rule it applies."""
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


def _locked_in(s: State) -> str:
    """Say who has locked in their Action Cards in Phase I (never what), in the thread's words.

    The private sheet and the panel show this one sentence (the board's chips use its words), so
    none can say a rival is still choosing while the thread says they have locked in.
    """
    if s["step"] != "assign" or s["over"]:
        return ""
    return " ".join(
        f"{who(seat)} has locked in their Action Cards." if player(s, seat)["confirmed"]
        else f"{who(seat)} has not locked in yet."
        for seat in SEATS
    )
