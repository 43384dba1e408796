"""Quadrivium's rules engine: the contract's methods over the procedure modules.

Free text (names, intents, conditions, the finale) travels in a move's text arguments. Legal moves
are listed without them; ``apply`` checks the move with its text set aside, checks the text itself
(a string, trimmed, within its length limit) and hands the whole move to ``resolve``. The text is
only ever told in events: it never changes a number.
"""

from __future__ import annotations

from typing import Any

from rules.contract import (
    IllegalMove,
    MalformedMove,
    Move,
    NotYourDecision,
    OptionSpec,
    Prompt,
    Result,
    RuleRef,
    Rules,
    UnknownMove,
    View,
)
from rules.copies import shared_copy
from rules.quadrivium import council, refusals, scene, steps
from rules.quadrivium.common import Ask, Events, stock
from rules.quadrivium.labels import label_of
from rules.quadrivium.record import QuadriviumRecord, read_view
from rules.quadrivium.state import (
    SEASONS,
    TEXT_LIMITS,
    Phase,
    QuadriviumEvent,
    State,
    event,
    mage_name,
    new_game,
    tales,
)
from rules.quadrivium.views import public_view, scramble_state, seat_view, view_text

TEXT_ARGS = {
    "covenant": ("name", "desc"),
    "mage": ("name", "desc"),
    "intent": ("text",),
    "conditions": ("win", "lose"),
    "revise": ("text",),
    "finale": ("text",),
}
"""The moves that carry free text, and the names of their text arguments."""

ACTIONS = frozenset(
    [
        "covenant", "mage", "traits", "magic", "boon", "intent", "oppose", "allow", "tiebreak", "type",
        "conditions", "accept", "revise", "tricks", "place", "reveal", "concede", "yield", "aid",
        "pass", "stand", "spend", "companion", "item", "contest", "essence", "vis", "settle", "add",
        "done", "give", "craft", "buy_card", "restore", "facecard", "claim", "swap", "block",
        "take_offer", "raise", "gift", "finale", "discard", "refill", "repair", "collect", "bid",
        "take", "duel", "duel_card", "rest", "improve", "acquire", "heal", "seasons", "sit_out"
    ]
)


AUTOMATIC = frozenset({"answer", "refill", "tiebreak", "duel_card", "block_war", "repair", "bid", "take"})
"""Decisions whose lone legal move the service may play by itself (all of it public knowledge): the
council's repair, bid and take steps offer moves by Council Votes, the covenant's Harm, the shares
and who passed or took, every one of them on the public board."""
PASSIVE = ("yield", "allow", "pass", "done", "refill", "rest", "stand", "settle", "take_offer", "accept",
           "reveal")
"""What an absent player's seat chooses, most passive first."""


def passive(legal: list[Move]) -> Move:
    """Return the most passive of the legal moves (raising no cost), else the first."""
    for action in PASSIVE:
        for move in legal:
            if move.action == action and not move.get("raise_by"):
                return move
    return legal[0]


def clean_text(value: Any, limit: int) -> str:
    """Return player text trimmed and single-spaced, with mentions defused; refuse what is not text."""
    if not isinstance(value, str):
        raise MalformedMove("Text must be written as words.")
    text = " ".join("".join(ch for ch in value if ch.isprintable() or ch.isspace()).split())
    if not text:
        raise MalformedMove("That text is empty.")
    if len(text) > limit:
        raise MalformedMove(f"That text is too long: at most {limit} characters.")
    # A table's text is prose: an @ never pings anyone when the bot posts it.
    return text.replace("@", "@\u200b")


class QuadriviumRules(Rules):
    """Quadrivium: a GM-less story game of mages in council and conflict."""

    kind = "quadrivium"
    title = "Quadrivium"
    min_players = 2
    max_players = 6
    has_secrets = True
    event_kinds = QuadriviumEvent
    actions = ACTIONS
    rulebook = "quadrivium.txt"
    book = "Quadrivium design posts"
    turn_rule = refusals.STRUCTURE
    end_rule = refusals.THE_END
    options = (
        OptionSpec("hand_size", "Cards in a full hand (ours: 5)", ("5", "4", "6"), "5"),
        OptionSpec("trick_cap", "Most tricks a conflict may be set at (the author's suggested cap: 4)",
                   ("4", "3", "5"), "4"),
        OptionSpec("years", "Years before the tale ends after that Winter Council (ours: "
                   "1)", ("1", "2"), "1"),
        OptionSpec("ending", "End also when most of the table votes so at a council (ours: either)",
                   ("either", "years"), "either"),
        OptionSpec("creation", "Make each mage step by step, or quick (random spreads, stock names)",
                   ("choose", "quick"), "choose"),
        OptionSpec("start_votes", "Council Votes each player starts with (ours: 3)", ("3", "0", "5"), "3"),
        OptionSpec("revisions", "Revisions of the conditions before the next side must accept (ours: 6)",
                   ("6", "2"), "6"),
        OptionSpec("suit_order", "Suit tie-break: spades highest (our reading) or clubs highest",
                   ("spades_high", "clubs_high"), "spades_high"),
    )

    # ---- setup and prompts

    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        """Return the opening state: covenant at its starting values, hands dealt, creation open."""
        self.check_players(players)
        s = new_game(players, self.check_options(options), seed)
        if s["options"]["creation"] == "quick":
            s["covenant"]["name"] = stock(s, "covenant")
            for seat in range(players):
                scene.quick_build(s, seat)
            scene.start_scene(s, [])
        return s

    def asks(self, s: State) -> list[Ask]:
        """Return every open decision of the state (the step table's)."""
        return steps.asks(s)

    def pending(self, state: State) -> list[Prompt]:
        """Return who must decide what now."""
        return [Prompt(a.seat, a.kind, a.decision, a.text) for a in self.asks(state)]

    def _decision(self, s: State, seat: int) -> str | None:
        for a in self.asks(s):
            if a.seat == seat:
                return a.decision
        return None

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Return every legal move of the seat now (text arguments left out)."""
        decision = self._decision(state, seat)
        return [] if decision is None else steps.moves(state, seat, decision)

    # ---- applying

    def bare(self, move: Move) -> Move:
        """Return the move without its text arguments (the form legal_moves lists)."""
        keys = TEXT_ARGS.get(move.action)
        if not keys:
            return move
        return Move.of(move.action, **{k: v for k, v in move.params.items() if k not in keys})

    def checked_text(self, move: Move) -> Move:
        """Return the move with its text arguments cleaned, or raise MalformedMove."""
        keys = TEXT_ARGS.get(move.action)
        if not keys:
            return move
        params = move.params
        for k in keys:
            if k in params:
                params[k] = clean_text(params[k], TEXT_LIMITS[k])
        return Move.of(move.action, **params)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, Events]:
        """Validate and resolve one move on a copy (text set aside for the legality check)."""
        if self.is_over(state):
            raise IllegalMove("This game is already over.", self.end_rule)
        if move.action == "resign" and not move.args:
            return self.resign(state, seat)
        if seat not in self.waiting_on(state):
            raise NotYourDecision("The game is not waiting on you right now.", self.turn_rule_at(state))
        if move.action not in self.actions:
            raise UnknownMove(f"{self.title} has no move called `{move.action}`.")
        if self.bare(move) not in self.legal_moves(state, seat):
            raise self.why_not(state, seat, move)
        move = self.checked_text(move)
        new = self.copy_state(state)
        events = self.resolve(new, seat, move)
        return new, events

    def resolve(self, state: State, seat: int, move: Move) -> Events:
        """Carry out a legal move."""
        ev: Events = []
        # The result of a trick is news only on the board of the move that decided it.
        state["news"] = None
        steps.resolve(state, seat, move, ev)
        self._autopilot(state, ev)
        return ev

    # ---- a player who leaves

    def resign(self, state: State, seat: int) -> tuple[State, Events]:
        """Take a player out: the mage stays in the tale, its choices pass by default (ours)."""
        if seat not in range(state["players"]):
            raise IllegalMove("You have no seat at this table.", refusals.LEAVING)
        if seat in state["gone"]:
            raise IllegalMove("You have already left this tale.", refusals.LEAVING)
        s = self.copy_state(state)
        s["news"] = None
        s["gone"].append(seat)
        ev: Events = [event(f"{mage_name(s, seat)} leaves the table; the mage's choices now pass by default.",
                            "resign", seat=seat)]
        if s["players"] - len(s["gone"]) < 2:
            council.finish(s, "too few players remain at the table", ev)
            return s, ev
        self._autopilot(s, ev)
        return s, ev

    def _autopilot(self, s: State, ev: Events) -> None:
        """Make every decision of a seat that has left, the most passive way (yield, allow, pass...)."""
        while s["gone"] and not self.is_over(s):
            asked = [a for a in self.asks(s) if a.seat in s["gone"]]
            if not asked:
                return
            seat, decision = asked[0].seat, asked[0].decision
            if decision == "intent":
                ev.append(event(f"{mage_name(s, seat)} is away: the scene passes.", "scene", seat=seat))
                scene.end_scene(s, ev)
                continue
            steps.resolve(s, seat, passive(self.legal_moves(s, seat)), ev)

    def copy_state(self, state: State) -> State:
        """Return an independent copy (plain JSON data)."""
        return shared_copy(state)

    # ---- views and the end

    def view(self, state: State, seat: int | None) -> View:
        """Return what that seat (None: a spectator) may know, with whom the table waits on (public)."""
        out = seat_view(state, seat) if seat is not None else public_view(state)
        out["prompts"] = [{"seat": a.seat, "text": a.text} for a in self.asks(state)]
        return out

    def typed_view(self, view: View) -> QuadriviumRecord:
        """Return the typed record presenters read (built from the view alone; see ``record.py``)."""
        return read_view(view)

    def scramble(self, state: State, seat: int | None, rand: Any) -> State:
        """Return a copy with every card the seat cannot see redealt at random."""
        return scramble_state(state, seat, rand)

    def is_over(self, state: State) -> bool:
        """Whether the tale has ended."""
        return state["phase"] == Phase.OVER

    def result(self, state: State) -> Result | None:
        """Return the end: a story game has no winner; Council Votes are the only score kept."""
        if not self.is_over(state):
            return None
        scores = {seat: float(v) for seat, v in enumerate(state["votes"])}
        return Result((), scores, f"The tale of the covenant ends: {state['ended']}.")

    def label(self, state: State, seat: int, move: Move) -> str:
        """Return a readable sentence for a move."""
        return label_of(state, seat, move)

    def auto_resolvable(self, state: State, prompt: Prompt, move: Move) -> bool:
        """Whether a lone move may be played for the seat: accepting after the last revision, a refill
        or a tie-break or duel with an empty hand, taking an offer one cannot raise, the council's
        "done" or "pass" when one's Council Votes buy nothing. Never a move that names a card (its
        label would show the card), nor one whose words the player writes."""
        return prompt.decision in AUTOMATIC and move.get("card") is None and not self.writes(move)

    def writes(self, move: Move) -> bool:
        """Whether the move carries words the player writes (intent, conditions, finale, names)."""
        return move.action in TEXT_ARGS

    def decline(self, state: State, seat: int, prompt: Prompt) -> Move | None:
        """Return the move that lets a reaction go by: allow an intent or a Claim, pass on Aid."""
        declines = {"oppose": Move.of("allow"), "aid": Move.of("pass"), "block": Move.of("allow")}
        move = declines.get(prompt.decision)
        return move if move is not None and move in self.legal_moves(state, seat) else None

    def sample_words(self, move: Move, rand: Any) -> Move:
        """Return the move with random words in its text arguments (for self-play), sometimes none."""
        keys = TEXT_ARGS.get(move.action)
        if not keys or rand.random() < 0.2:
            return move
        words = [w for lines in tales().values() for line in lines for w in line.split()]
        texts = {}
        for key in keys:
            text = " ".join(rand.choice(words) for _ in range(rand.randint(1, 12)))
            texts[key] = (rand.choice(["", "@here ", "  ", "«", "\t"]) + text)[: TEXT_LIMITS[key]]
        return Move.of(move.action, **move.params, **texts)

    def turn_rule_at(self, state: State) -> RuleRef | None:
        """Return the rule of the decision the table waits on (who bids, places, aids...)."""
        asked = self.asks(state)
        return refusals.decision_rule(asked[0].decision if asked else None)

    def why_not(self, state: State, seat: int, move: Move) -> IllegalMove:
        """Return why a move is refused now: what the table asks of the seat, and that step's rule."""
        asked = next((a for a in self.asks(state) if a.seat == seat), None)
        waits = f": {asked.text}" if asked else "."
        return IllegalMove(f"That move does not answer what the table asks of you now{waits}",
                           refusals.decision_rule(asked and asked.decision))

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        """Return a bound on a whole game's moves (councils are capped by the years option)."""
        return 60_000 * int(options.get("years", "1")) * players

    def public_scores(self, view: View) -> dict[int, str]:
        """Return each mage's Council Votes, won and spent in the open; the final count is the score."""
        return {s["seat"]: f"{s['votes']} Council Votes" for s in view.get("seats") or []}

    def round_of(self, view: View) -> int | None:
        """Return the round: each season of each year is one (the game counts years and seasons)."""
        year, season = view.get("year"), view.get("season")
        if not isinstance(year, int) or season not in SEASONS:
            return None
        return (year - 1) * len(SEASONS) + SEASONS.index(season) + 1

    def view_text(self, view: View) -> str:
        """Return the view as text."""
        return view_text(view)
