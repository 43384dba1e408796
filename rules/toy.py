"""Sigil Duel: a tiny unregistered game for the tests and the bench, to prove the spine and the suite.

Each mage holds a secret hand of sigils (numbers) dealt from a shuffled deck. Every round all
mages choose a sigil in secret; once all have chosen, the sigils are revealed together and the
highest unique sigil scores a point. The mage who showed the lowest sigil then takes a turn:
draw a sigil from the deck, or pass. The game ends when some mage's hand runs out.

It exercises every shape the real games need: simultaneous secret choices, an ordinary turn,
a hidden hand, a hidden deck order, private events and an option.
"""

from __future__ import annotations

import copy
from typing import Any

from rules import rng
from rules.contract import (
    Event,
    EventKind,
    Move,
    OptionSpec,
    Prompt,
    PromptKind,
    Result,
    Rules,
    Seat,
    State,
    View,
)


class ToyEvent(EventKind):
    """What can happen in Sigil Duel."""

    DRAW = "draw"
    """A mage draws a sigil from the deck."""
    PASS = "pass"
    """A mage passes the turn."""
    CHOSE = "chose"
    """A mage's own note of the sigil it chose (private)."""
    LOCKED = "locked"
    """A mage has chosen, without saying what."""
    REVEAL = "reveal"
    """Every chosen sigil is shown."""
    SCORE = "score"
    """The highest unique sigil scores."""
    PONDER = "ponder"
    """A mage ponders (the quiet variant; private)."""


class ToyRules(Rules):
    """The rules of Sigil Duel."""

    kind = "toy"
    title = "Sigil Duel"
    min_players = 2
    max_players = 3
    options = (OptionSpec("hand", "Sigils dealt to each mage", ("3", "4"), "3"),)
    has_secrets = True
    event_kinds = ToyEvent
    actions = frozenset({"choose", "draw", "pass"})
    rulebook = "rules/toy.py"

    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        """Shuffle the sigils and deal each mage a hand."""
        self.check_players(players)
        options = self.check_options(options)
        state: State = {"players": players, "round": 1, "phase": "choose", "lowest": None}
        rng.seed_state(state, seed)
        deck = list(range(1, 13))
        rng.shuffle(state, deck)
        size = int(options["hand"])
        state["hands"] = [sorted(deck[i * size : (i + 1) * size]) for i in range(players)]
        state["deck"] = deck[players * size :]
        state["chosen"] = [None] * players
        state["scores"] = [0] * players
        state["revealed"] = []
        state["over"] = False
        return state

    def pending(self, state: State) -> list[Prompt]:
        """Every mage still to choose, or the lowest mage's turn."""
        if state["over"]:
            return []
        if state["phase"] == "choose":
            return [
                Prompt(seat, PromptKind.SECRET, "choose", "Choose a sigil in secret.")
                for seat in range(state["players"])
                if state["chosen"][seat] is None
            ]
        return [Prompt(state["lowest"], PromptKind.TURN, "draw", "Draw a sigil or pass.")]

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Sigils in hand while choosing; draw (if the deck has any) or pass on the turn."""
        if state["over"]:
            return []
        if state["phase"] == "choose":
            if state["chosen"][seat] is not None:
                return []
            return [Move.of("choose", sigil=s) for s in state["hands"][seat]]
        if seat != state["lowest"]:
            return []
        moves = [Move.of("pass")]
        if state["deck"]:
            moves.insert(0, Move.of("draw"))
        return moves

    def resolve(self, state: State, seat: Seat, move: Move) -> list[Event]:
        """Carry out a legal move."""
        if move.action == "choose":
            return self._choose(state, seat, move.get("sigil"))
        if move.action == "draw":
            state["hands"][seat].append(state["deck"].pop())
            state["hands"][seat].sort()
            events = [Event(ToyEvent.DRAW, f"Seat {seat} draws a sigil.")]
        else:
            events = [Event(ToyEvent.PASS, f"Seat {seat} passes.")]
        self._next_round(state)
        return events

    def _choose(self, state: State, seat: Seat, sigil: int) -> list[Event]:
        state["hands"][seat].remove(sigil)
        state["chosen"][seat] = sigil
        events = [
            Event(ToyEvent.CHOSE, f"You chose sigil {sigil}.", seats=(seat,)),
            Event(ToyEvent.LOCKED, f"Seat {seat} has locked in a sigil."),
        ]
        if all(c is not None for c in state["chosen"]):
            events.extend(self._reveal(state))
        return events

    def _reveal(self, state: State) -> list[Event]:
        chosen = state["chosen"]
        shown = ", ".join(f"seat {i}: {c}" for i, c in enumerate(chosen))
        events = [Event(ToyEvent.REVEAL, f"Revealed: {shown}.")]
        unique = [c for c in chosen if chosen.count(c) == 1]
        if unique:
            winner = chosen.index(max(unique))
            state["scores"][winner] += 1
            events.append(Event(ToyEvent.SCORE, f"Seat {winner} scores with the highest sigil."))
        state["revealed"] = list(chosen)
        # The lowest sigil gets the consolation turn; ties go to the lower seat.
        state["lowest"] = chosen.index(min(chosen))
        state["chosen"] = [None] * state["players"]
        state["phase"] = "draw"
        return events

    def _next_round(self, state: State) -> None:
        state["round"] += 1
        state["phase"] = "choose"
        state["lowest"] = None
        if any(not hand for hand in state["hands"]):
            state["over"] = True

    def view(self, state: State, seat: Seat | None) -> View:
        """What a seat may know: its own hand and choice, everyone's counts and scores."""
        players = []
        for i in range(state["players"]):
            mine = seat == i
            players.append(
                {
                    "seat": i,
                    "hand": list(state["hands"][i]) if mine else None,
                    "hand_size": len(state["hands"][i]),
                    "locked": state["chosen"][i] is not None,
                    "chosen": state["chosen"][i] if mine else None,
                    "score": state["scores"][i],
                }
            )
        return {
            "kind": self.kind,
            "seat": seat,
            "round": state["round"],
            "phase": state["phase"],
            "deck_size": len(state["deck"]),
            "revealed": list(state["revealed"]),
            "players": players,
            "over": state["over"],
        }

    def view_text(self, view: View) -> str:
        """Show the view as a few lines of text."""
        lines = [f"Sigil Duel, round {view['round']} ({view['phase']}); deck {view['deck_size']}."]
        for p in view["players"]:
            hand = f" hand {p['hand']}" if p["hand"] is not None else ""
            lock = " (locked in)" if p["locked"] else ""
            lines.append(f"Seat {p['seat']}: {p['score']} points, {p['hand_size']} sigils{hand}{lock}")
        if view["revealed"]:
            lines.append(f"Last reveal: {view['revealed']}")
        return "\n".join(lines)

    def is_over(self, state: State) -> bool:
        """Whether some hand ran out."""
        return bool(state["over"])

    def result(self, state: State) -> Result | None:
        """The mages with the most points win; several at the top share a draw."""
        if not state["over"]:
            return None
        scores = state["scores"]
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best)
        ranking = tuple(sorted(range(len(scores)), key=lambda i: -scores[i]))
        return Result(winners, dict(enumerate(scores)), "most points", ranking)

    def label(self, state: State, seat: Seat, move: Move) -> str:
        """Name a move in words."""
        if move.action == "choose":
            return f"Choose sigil {move.get('sigil')}"
        return "Draw a sigil" if move.action == "draw" else "Pass"

    def scramble(self, state: State, seat: Seat | None, rand: Any) -> State:
        """Re-deal the deck and every other mage's hand and hidden choice."""
        new = copy.deepcopy(state)
        others = [i for i in range(new["players"]) if i != seat]
        pool = list(new["deck"])
        for i in others:
            pool += new["hands"][i]
            if new["chosen"][i] is not None:
                pool.append(new["chosen"][i])
        pool.sort()  # a canonical order: the result depends on what the seat knows, not on the real deal
        rand.shuffle(pool)
        for i in others:
            size = len(new["hands"][i])
            new["hands"][i] = sorted(pool[:size])
            pool = pool[size:]
            if new["chosen"][i] is not None:
                new["chosen"][i] = pool.pop()
        new["deck"] = pool
        return new

    def reveals(self, before: State, seat: Seat, move: Move, after: State, events: list[Event]) -> bool:
        """Drawing shows the drawer a sigil from the hidden deck; a secret choice is revealed too."""
        return move.action == "draw" or super().reveals(before, seat, move, after, events)

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        """Each round takes one choice per mage and one turn; at most 12 rounds."""
        return 12 * (players + 1)


class QuietToyRules(ToyRules):
    """Sigil Duel with quiet moves for the spine: a choosing mage may ponder (a private note,
    nothing else changes for the table), and locking in a sigil tells the table nothing."""

    kind = "toy-quiet"
    title = "Quiet Sigil Duel"
    actions = frozenset({"choose", "draw", "pass", "ponder"})

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Sigil Duel's moves, plus pondering while still to choose."""
        moves = super().legal_moves(state, seat)
        if state["phase"] == "choose" and moves:
            moves.append(Move.of("ponder"))
        return moves

    def resolve(self, state: State, seat: Seat, move: Move) -> list[Event]:
        """Ponder privately, or resolve as Sigil Duel without the public 'has locked in' line."""
        if move.action == "ponder":
            state["pondered"] = state.get("pondered", 0) + 1
            return [Event(ToyEvent.PONDER, "You ponder your sigils.", seats=(seat,))]
        return [e for e in super().resolve(state, seat, move) if e.kind != ToyEvent.LOCKED]

    def label(self, state: State, seat: Seat, move: Move) -> str:
        """Name a move in words."""
        return "Ponder" if move.action == "ponder" else super().label(state, seat, move)


class WideToyRules(ToyRules):
    """Sigil Duel whose choosing mages may also pass with any of 30 remarks (more than 25 moves)."""

    kind = "toy-wide"
    title = "Wide Sigil Duel"

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Sigil Duel's moves, plus 30 remarks (the last one too long for a choice value)."""
        moves = super().legal_moves(state, seat)
        if state["phase"] != "choose" or not moves:
            return moves
        remarks = [Move.of("pass", remark=f"r{i}") for i in range(29)]
        return moves + remarks + [Move.of("pass", remark="x" * 120)]


TOY = ToyRules()
