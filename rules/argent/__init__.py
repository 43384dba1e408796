"""Argent: The Consortium, as a pure rules engine registered under the kind ``argent``."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from rules.argent import copying, engine, record, setup, views
from rules.argent.effects.gains import TAKE_IP
from rules.argent.events import ArgentEvent
from rules.argent.labels import Labelled, LabelMemo
from rules.argent.state import away, order_from
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
    Seat,
    State,
    View,
)
from rules.registry import register

ACTIONS = frozenset(
    {
        "build",
        "leave_room",
        "power",
        "candidate",
        "draft",
        "mark",
        "place",
        "cast",
        "use",
        "support",
        "bell",
        "done",
        "choose",
        "target",
        "research",
        "pass",
        "keep",
        "buy",
        "cycle",
        "refresh",
        "room",
        "slot",
        "shadow",
        "draw",
        "react",
        "errand",
        "declare",
    }
)


class ArgentRules(Rules):
    """The rules of Argent: The Consortium (2-5 players)."""

    kind = "argent"
    title = "Argent: The Consortium"
    min_players = 2
    max_players = 5
    has_secrets = True
    event_kinds = ArgentEvent
    rulebook = "argent-the-consortium.txt"
    book = "Argent rulebook"
    turn_rule = RuleRef("Errands Phase")
    end_rule = RuleRef("Game End")
    actions = ACTIONS
    _labels = LabelMemo(lambda state, seat: _labelled(state, seat))
    options = (
        OptionSpec(
            "rooms",
            "University room sides: A, B or a random mix",
            ("A", "B", "random"),
            "A",
        ),
        OptionSpec(
            "layout",
            "The first-game University, random rooms, or Build the University (players lay the rooms)",
            ("first_game", "random", "build"),
            "first_game",
        ),
        OptionSpec(
            "candidates",
            "Candidates dealt on side A, B or a random side each, or chosen by the players in turn",
            ("A", "B", "random", "chosen"),
            "A",
        ),
        OptionSpec(
            "mage_powers",
            "Mage powers: A, alternate B, a random mix, or each candidate picks its own (rest random)",
            ("A", "B", "random", "chosen"),
            "A",
        ),
        OptionSpec(
            "diversity", "Diversity Requirement: one mage of each department, no draft", ("off", "on"), "off"
        ),
        OptionSpec("epic", "Epic variant: a sixth round", ("off", "on"), "off"),
        OptionSpec(
            "discards", "Personal discards face down (closed) or face up (open)", ("closed", "open"), "closed"
        ),
    )

    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        """Deal the candidates, voters, University, decks and tableaus; wait on the mage draft."""
        self.check_players(players)
        options = self.check_options(options)
        state = setup.setup_state(players, options, seed)
        state["statuses"] = []
        state["instants"] = []
        state["queue_done"] = False
        engine.advance(state, [])
        return state

    def pending(self, state: State) -> list[Prompt]:
        """Return the seat the game waits on and what for, and any leaver still choosing its rooms."""
        asks = views.decisions(state)
        return [Prompt(a.seat, a.kind, a.decision, f"P{a.seat + 1}: {a.words}.") for a in asks]

    def default_move(self, state: State, seat: Seat) -> Move | None:
        """The deterministic move to play for a seat that is absent (timed out): its first legal move.

        For a leaver's room choice that is the last room outside University Central in resolution
        order, then the one before it (the board shrinks from its edge).
        """
        moves = self.legal_moves(state, seat)
        return moves[0] if moves else None

    def waiting_on(self, state: State) -> list[Seat]:
        """Return the seats ``pending`` names, without writing its sentences (asked on every move)."""
        return views.waiting_seats(state)

    seat_names = ("P1", "P2", "P3", "P4", "P5")
    """Seats as the game's texts name them, so the service's legend and labels match."""

    def auto_resolvable(self, state: State, prompt: Prompt, move: Move) -> bool:
        """Whether the service may play a lone move: a decision inside an effect (the round-end
        errand whose only answer is "Take 1 IP instead", a lone slot, room or target) or a turn
        with one move left (the last Bell Tower offering).

        Which moves these offer follows from public things only (Gold, Merit Badges, the board,
        the cards in each office); what Argent hides (voters, deck orders, discard piles) never
        adds a move to them, so playing them reveals nothing. Kept asked: reaction windows, a
        decision whose options only its seat may read (Mystic Lantern's cards), and the setup
        choices (candidates, powers, the draft, the first Mark).
        """
        if prompt.kind is PromptKind.DECISION:
            agenda = state["agenda"]
            return not (agenda and agenda[0].get("secret"))
        return prompt.kind is PromptKind.TURN and prompt.decision == "turn"

    def decline(self, state: State, seat: Seat, prompt: Prompt) -> Move | None:
        """Every reaction window is declined with Pass."""
        return Move.of("pass") if prompt.kind is PromptKind.REACTION else None

    def presumed(self, state: State, seat: Seat, prompt: Prompt) -> Move | None:
        """An IP gain that could be declined is taken: declining is for a seat that asks to be asked.

        The question comes from a public gain (its card or errand is on the board) and the IP shows
        on every office, so taking it for the seat tells nobody anything.
        """
        if prompt.decision != TAKE_IP:
            return None
        return next((m for m in self.legal_moves(state, seat) if m.action == "choose"), None)

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Return every move the seat may make now."""
        return [engine.to_move(o) for o in engine.options_for(state, seat)]

    def copy_state(self, state: State) -> State:
        """Return a copy for ``apply`` to resolve on, shaped as a JSON reload would give it."""
        # Effect frames share their context within a move; a JSON round trip (and so every
        # reload from the store) separates them, and the copy must give the game that same shape.
        return copying.full_copy(state)

    def apply_listed(self, state: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        """Check the move against the seat's options and resolve it, building them once, up to the move."""
        room = move.get("room") if move.action == "place" else None
        found = engine.find_option(engine.iter_options(state, seat, move.action, room), move)
        if found is None:
            raise self.why_not(state, seat, move)
        # Resolved on a draft: only the parts the move writes are copied (``rules.argent.copying``).
        new = copying.draft(state, answering=engine.answers_question(state, seat))
        events = engine.resolve_option(new, seat, engine.option_in(new, seat, *found))
        return copying.publish(new), events

    def resign(self, state: State, seat: Seat) -> tuple[State, list[Event]]:
        """A player leaves mid-game (FAQ): skipped from now on, two rooms go at the round's end."""
        if self.is_over(state):
            raise IllegalMove("This game is already over.", self.end_rule)
        if seat not in range(state["players"]):
            raise IllegalMove("Only a seated player can leave the game.", LEAVING)
        if away(state, seat):
            raise IllegalMove("You have already left this game.", LEAVING)
        if len(order_from(state, seat)) <= 2:
            raise IllegalMove("This game cannot go on without a player.", LEAVING)
        new = self.copy_state(state)
        events: list[Event] = []
        engine.leave(new, seat, None, events)
        engine.advance(new, events)
        return new, events

    def resolve(self, state: State, seat: Seat, move: Move) -> list[Event]:
        """Carry out a legal move."""
        return engine.resolve(state, seat, move)

    def view(self, state: State, seat: Seat | None) -> View:
        """Return what the seat may know, with its fast actions now (only its own, on its turn)."""
        out = views.view(state, seat)
        awaited = seat is not None and seat in self.waiting_on(state)
        out["fast"] = engine.fast_moves(state, seat) if awaited else []
        return out

    def view_beside(self, state: State, seat: Seat, public: View) -> View:
        """Return the seat's view with the public view's parts, its own built (``views.view_beside``)."""
        out = views.view_beside(state, seat, public)
        out["fast"] = engine.fast_moves(state, seat) if seat in self.waiting_on(state) else []
        return out

    def typed_view(self, view: View) -> record.ArgentView:
        """Return the typed record of a view: offices, voters with standings, the decision, fast moves."""
        return record.read(view)

    def typed_seat_view(self, view: View, public: View, public_typed: Any) -> record.ArgentView:
        """Return the typed record of a seat's view, its public pieces taken from the public record."""
        if not isinstance(public_typed, record.ArgentView):
            return record.read(view)
        return record.read_beside(view, public, public_typed)

    def public_scores(self, view: View) -> dict[Seat, str]:
        """Return each player's Influence: votes decide, but the voters lie face down until the end.

        Influence is the public standing that breaks a tie for votes (rulebook, Game End).
        """
        return {o["seat"]: f"{o['ip']} IP" for o in view.get("offices") or []}

    def card_index(self) -> dict[str, str]:
        """Return every card, room, voter and candidate's lookup text by name."""
        return _card_lookup()

    def view_text(self, view: View) -> str:
        """Return the view as text."""
        return views.view_text(view)

    def view_lines(self, view: View) -> Iterator[str]:
        """Yield the view's text line by line, as late as a reader asks (an alt text stops early)."""
        return views.view_lines(view)

    def scramble(self, state: State, seat: Seat | None, rng: Any) -> State:
        """Re-draw everything the seat does not know."""
        # ``rng`` is the test's own random.Random; rules/ never imports the random module itself.
        return views.scramble(state, seat, rng)

    def is_over(self, state: State) -> bool:
        """Whether the votes have been counted."""
        return bool(state["over"])

    def result(self, state: State) -> Result | None:
        """Return the votes, the winner and the tie-break."""
        if not state["over"]:
            return None
        outcome = state["outcome"]
        votes = outcome["votes"]
        ranking = tuple(outcome["ranking"])
        top = ranking[0]
        tied = [s for s in ranking if votes[s] == votes[top]]
        reason = f"P{top + 1} wins with {votes[top]} votes"
        if len(tied) > 1:
            reason += (
                ", ahead on Influence"
                if state["seats"][top]["ip"] > state["seats"][tied[1]]["ip"]
                else (", having reached that Influence first")
            )
        return Result((top,), {s: float(votes[s]) for s in ranking}, reason + ".", ranking)

    def label(self, state: State, seat: Seat, move: Move) -> str:
        """Return the sentence of a legal move (or its code), from the version's one build of labels."""
        if move.action == "resign" and not move.args:
            return "Leave the game"
        labelled = self._labels.labelled(state, seat)
        return next((text for known, text in labelled if known == move), move.code())

    def labelled_moves(self, state: State, seat: Seat) -> list[tuple[Move, str]]:
        """Return every legal move with its label, built once per version and seat (``labels``)."""
        return list(self._labels.labelled(state, seat))

    def why_not(self, state: State, seat: Seat, move: Move) -> IllegalMove:
        """Explain why a move is refused, naming the rule."""
        opts = engine.options_for(state, seat)
        phase = self.turn_rule_at(state)
        if not opts:
            return IllegalMove("The game is not waiting on you right now.", phase)
        if state["agenda"]:
            return IllegalMove(
                f"First answer the question in front of you: {state['agenda'][0].get('prompt', 'a choice')}.",
                phase,
            )
        if state["phase"] == "errands":
            reason = views.refusal(state, seat, move)
            if reason:
                return reason
        return IllegalMove("That is not one of your choices now; pick one from the list.", phase)

    def turn_rule_at(self, state: State) -> RuleRef | None:
        """Return the section that orders the decisions of the phase in play."""
        return PHASE_RULES.get(state["phase"], self.turn_rule)

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        """Bound the moves of a game: rounds times the decisions a round can hold."""
        rounds = 6 if options.get("epic") == "on" else 5
        return 400 + rounds * players * 260


LEAVING = RuleRef("A player leaving", ruling=True)
PHASE_RULES = {
    phase: RuleRef(section)
    for section, phases in (
        ("Game Setup", ("build", "candidates", "powers", "draft", "marks")),
        ("Errands Phase", ("errands",)),
        ("Resolving Errands", ("resolution",)),
        ("Game End", ("endgame", "over")),
    )
    for phase in phases
}
"""The rulebook section that orders each phase's decisions (cited when a move does not fit it)."""

def _labelled(state: State, seat: Seat) -> Labelled:
    """Build every legal move of the seat with its label, from one build of its options."""
    return tuple((engine.to_move(opt), opt["label"]) for opt in engine.options_for(state, seat))


ARGENT = register(ArgentRules())


@functools.cache
def _card_lookup() -> dict[str, str]:
    """Build the lookup once: '**Name** (kind): text. Source: ...' per entry."""
    from rules.argent import cards

    return {
        name: f"**{name}** ({kind})\n{text}\nSource: {source}."
        for name, kind, text, source in cards.card_index()
    }
