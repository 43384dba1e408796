"""Wizard's Academy: the cooperative engine (setup, prompts, moves, views, the shared result).

The view format is in ``rules/academy/VIEW.md``. Flow: ``resolve`` applies one move, then runs the
effect queue (``flow.run``) until a seat must decide: a choice inside an effect (DECISION), a glyph
request (REACTION), or the current player's next action (TURN).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

from rules.academy import moves, record, scoring, turn
from rules.academy.cards import card_index, scenarios
from rules.academy.events import AcademyEvent
from rules.academy.flow import run
from rules.academy.setup import new_state
from rules.academy.state import State, who
from rules.academy.views import view
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

# Importing these registers their ops on the queue.
from rules.academy import casting, effects, items, threats  # noqa: F401  isort: skip
from rules.academy import refusals
from rules.academy.leave import leave
from rules.copies import shared_copy


class AcademyRules(Rules):
    """Wizard's Academy: wizards save a collapsing academy together, basic or advanced."""

    kind = "academy"
    title = "Wizard's Academy"
    min_players = 1
    max_players = 6
    cooperative = True
    has_secrets = True
    event_kinds = AcademyEvent
    rulebook = "wizards-academy.txt"
    turn_rule = RuleRef("Play (Basic Game)")
    end_rule = RuleRef("Victory and Defeat")
    actions = frozenset(
        {
            "move",
            "take",
            "bind",
            "stop",
            "cast",
            "staff",
            "consent",
            "choose",
            "room",
            "recall",
            "end",
            "share",
            "done",
            "shift",
            "ready",
        }
    )
    options = (
        OptionSpec(
            "scenario",
            "basic: the rulebook's basic game; the others are advanced scenarios",
            tuple(scenarios()),
            "basic",
        ),
        OptionSpec(
            "difficulty",
            "normal is the rulebook's game; easy and hard are designed (easy suits 3 or more wizards)",
            ("normal", "easy", "hard"),
            "normal",
        ),
        OptionSpec(
            "hopeless",
            "concede: lose when the highest bound spell's level is below the disaster deck's rebuilds",
            ("play_on", "concede"),
            "play_on",
        ),
        OptionSpec(
            "memory",
            "strict: a cast's reveal shows on the board for that turn only; open: the log keeps reveals",
            ("strict", "open"),
            "strict",
        ),
    )

    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        """Return the opening state: the advanced game waits for the setup shifts."""
        self.check_players(players)
        s = new_state(players, self.check_options(options), seed)
        if s["basic"]:
            turn.start_turn(s)
            run(s)
            moves._after(s)
        else:
            s["step"] = "shifts"
            s["shifts_left"] = 3
        s["out"] = []
        return s

    def pending(self, state: State) -> list[Prompt]:
        """Return who must decide what now."""
        s = state
        if s["over"]:
            return []
        if s["choice"] is not None:
            return [Prompt(s["choice"]["seat"], PromptKind.DECISION, "choice", s["choice"]["why"])]
        if s["request"] is not None:
            r = s["request"]
            return [
                Prompt(
                    r["helper"],
                    PromptKind.REACTION,
                    "consent",
                    f"{who(s, r['helper'])}: {who(s, r['caster'])} asks for your glyph {r['glyph']}"
                    " to cast with.",
                )
            ]
        if s["step"] == "shifts":
            return [
                Prompt(
                    s["current"],
                    PromptKind.TURN,
                    "shifts",
                    f"{who(s, s['current'])}: refine the academy, {s['shifts_left']} shift"
                    f"{'' if s['shifts_left'] == 1 else 's'} left, or start.",
                )
            ]
        seat = s["current"]
        if s["step"] == "share":
            return [Prompt(seat, PromptKind.TURN, "share", f"{who(s, seat)}: share a glyph, or not.")]
        if s["binding"]:
            return [Prompt(seat, PromptKind.TURN, "binding", f"{who(s, seat)}: bind another spell, or stop.")]
        left = turn.actions_left(s)
        text = f"{who(s, seat)}: {left} action{'' if left == 1 else 's'} left."
        return [Prompt(seat, PromptKind.TURN, "actions", text)]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Return every legal move for that seat now."""
        return moves.legal(state, seat)

    def resolve(self, state: State, seat: int, move: Move) -> list[Event]:
        """Carry out a legal move and everything that follows until someone must decide."""
        state["out"] = []
        moves.act(state, seat, move)
        out = [Event.from_json(e) for e in state["out"]]
        state["out"] = []
        return out

    def view(self, state: State, seat: int | None) -> View:
        """Return what a seat may know (VIEW.md)."""
        prompts = [p.to_json() for p in self.pending(state)]
        return view(state, seat, prompts, self.waiting_on(state))

    def typed_view(self, view: View) -> record.AcademyView:
        """Return the typed record of a view: wizards, rooms, actions left, the choice and request."""
        return record.read(view)

    def is_over(self, state: State) -> bool:
        """Whether the academy is saved or lost."""
        return bool(state["over"])

    def result(self, state: State) -> Result | None:
        """Return the shared result: all seats win together or nobody does."""
        return scoring.result(state)

    def label(self, state: State, seat: int, move: Move) -> str:
        """Return a sentence naming the move (never an unbound spell)."""
        return moves.label(state, seat, move)

    def turn_rule_at(self, state: State) -> RuleRef | None:
        """Return the turn rules of the game in play (basic or advanced)."""
        return refusals.turn_rule(state)

    def why_not(self, state: State, seat: int, move: Move) -> IllegalMove:
        """Say why a move is refused, citing the basic or the advanced rules as the game plays."""
        return refusals.why_not(state, seat, move)

    def scramble(self, state: State, seat: int | None, rng: Any) -> State:
        """Re-draw what the seat cannot know: other seats' disasters, deck orders, unbound spells."""
        s = pickle.loads(pickle.dumps(state))
        hidden = [i for i, h in enumerate(s["hands"]) if h is not None and i != seat]
        # Pools are sorted before shuffling, so a sample depends only on what the seat knows.
        pool = sorted([s["hands"][i] for i in hidden] + s["disaster_deck"])
        rng.shuffle(pool)
        for i in hidden:
            s["hands"][i] = pool.pop()
        s["disaster_deck"] = pool
        s["progression"] = sorted(s["progression"])
        rng.shuffle(s["progression"])
        s["room_deck"] = sorted(s["room_deck"])
        rng.shuffle(s["room_deck"])
        shown = (s["reveal"] or {}).get("slot")  # a revealed face-down spell is known while it shows
        for level in (1, 2, 3, 4):
            slots = [
                k
                for k, v in s["slots"].items()
                if v["spell"]
                and not v["bound"]
                and k != shown
                and k.split("-")[1] in {1: "123", 2: "45", 3: "6", 4: "7"}[level]
            ]
            keys = sorted(s["slots"][k]["spell"] for k in slots)
            rng.shuffle(keys)
            for k, key in zip(slots, keys, strict=True):
                s["slots"][k]["spell"] = key
        return s

    def resign(self, state: State, seat: int) -> tuple[State, list]:
        """A wizard leaves the academy; the others play on (the last one cannot leave: abandon instead)."""
        return leave(self, state, seat)

    def auto_resolvable(self, state: State, prompt: Prompt, move: Move) -> bool:
        """Whether the service may play a lone move: ending one's actions when nothing else can be
        done. What an action needs (the board, the rooms, the spell slots, every wizard's glyphs)
        is all on the public board; the disaster hands and the decks never add an action."""
        return prompt.decision == "actions" and move.action == "end"

    def decline(self, state: State, seat: int, prompt: Prompt) -> Move | None:
        """A seat that passes every reaction keeps its glyph when asked for it."""
        if prompt.kind is PromptKind.REACTION and prompt.decision == "consent":
            return Move.of("consent", ok=False)
        return None

    def copy_state(self, state: State) -> State:
        """Copy a state quickly (it is plain JSON)."""
        return shared_copy(state)

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        """Return a bound on a game's moves (decks run out; staves are capped at 101 uses a turn)."""
        return 20_000

    def card_index(self) -> dict[str, str]:
        """Return spells, disasters, rooms and characters for ``/game card``."""
        return card_index()

    def round_of(self, view: View) -> int | None:
        """Return the round: every wizard's turn once (the game counts turns, not rounds)."""
        turn, wizards = view.get("turn"), view.get("wizards") or []
        if not isinstance(turn, int) or not wizards:
            return None
        return -(-turn // len(wizards))

    def view_text(self, view: View) -> str:
        """Return the view as plain text."""
        return json.dumps(view, indent=1)
