"""The Institute for Magical Arts: the engine (the rules object: prompts, legal moves, moves, views).

The view format is documented in ``rules/institute/VIEW.md`` (keep it stable: the board image and the
``/institute`` commands are built from it). In short: ``locations`` (6 entries, each a card, the Portal
or empty, with ``stones`` [red, blue]), ``portal``, ``realm``, ``deck`` (a count), ``players`` (score,
charms, rerolls, stones, characters, active and inactive cards, dice, confirmed, the assignment when it
may be seen, the portal choice when it may be seen), ``round``, ``phase``, ``step``, ``waiting``,
``prompts``, ``decision`` and ``log``.

Flow: each step is declared once in ``rules.institute.steps`` (its prompts, legal moves, what a
move does, its automatic part); ``resolve`` applies one move there, then ``advance`` runs every
automatic part until some seat has to decide. Phase I and a contested Portal are simultaneous and
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
    Result,
    RuleRef,
    Rules,
    View,
)
from rules.copies import shared_copy
from rules.institute import effects, moves, scoring, steps
from rules.institute.cards import card_index
from rules.institute.flow import (  # noqa: F401 - re-exported: tests drive the flow's steps through engine
    _no_stones_rule,
    _open_window,
    _start_phase4,
    _start_portal,
    new_game,
    start_round,
)
from rules.institute.record import InstituteRecord, read_view
from rules.institute.state import (
    ACTION_LIMITS,
    COLOURS,
    DICE,
    MAX_CHANGES,
    PHASE_NAMES,
    ROUND_CAP,
    SEATS,
    InstituteEvent,
    State,
    Step,
    card,
    player,
    portal_index,
    who,
)
from rules.institute.steps import advance  # noqa: F401 - re-exported: tests run the flow through engine
from rules.institute.text import board_text

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
    event_kinds = InstituteEvent

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
        """Return who must decide what now (the step table's prompts)."""
        return steps.pending(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Return every legal move for that seat now (the step table's moves)."""
        return steps.legal_moves(state, seat)

    # ---- resolving a move

    def copy_state(self, state: State) -> State:
        """Return a copy for apply to resolve on (marshal keeps shared parts shared, as pickle did)."""
        return shared_copy(state)

    def resolve(self, state: State, seat: int, move: Move) -> list[Event]:
        """Carry out a legal move, then run the automatic steps that follow."""
        events: list[Event] = []
        steps.resolve(state, seat, move, events)
        return events

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
        portal_hidden = s["step"] == Step.PORTAL and s["portal_secret"]
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

    def typed_view(self, view: View) -> InstituteRecord:
        """Return the typed record presenters read (built from the view alone; see ``record.py``)."""
        return read_view(view)

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
        return steps.step_rules(state).rule or self.turn_rule

    def why_not(self, state: State, seat: int, move: Move) -> IllegalMove:
        """Return why a move is not legal now, with the rule it applies."""
        return moves.why_not(state, seat, move, steps.step_rules(state).name)

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
            if s["step"] == Step.PORTAL and s["portal_secret"] and me["portal"] is not None:
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
    if s["step"] != Step.ASSIGN or s["over"]:
        return ""
    return " ".join(
        f"{who(seat)} has locked in their Action Cards." if player(s, seat)["confirmed"]
        else f"{who(seat)} has not locked in yet."
        for seat in SEATS
    )
