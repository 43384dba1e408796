"""The suite must fail loudly when a game breaks the contract: one broken toy per rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.contract import Event, Move, Seat, State, View
from rules.toy import ToyRules
from tests.conformance import ConformanceError, check_game


class LeakyView(ToyRules):
    """Shows every hand to everyone."""

    def view(self, state: State, seat: Seat | None) -> View:
        view = super().view(state, seat)
        for p in view["players"]:
            p["hand"] = list(state["hands"][p["seat"]])
        return view


class Unkinded(ToyRules):
    """Tells a pass under a kind the game never declared."""

    def resolve(self, state: State, seat: Seat, move: Move) -> list[Event]:
        events = super().resolve(state, seat, move)
        return [Event("passes", e.text) if e.kind == "pass" else e for e in events]


class Mutating(ToyRules):
    """Resolves moves on the caller's state instead of a copy."""

    def apply(self, state: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        new, events = super().apply(state, seat, move)
        state.update(copy.deepcopy(new))
        return new, events


class TooLenient(ToyRules):
    """Accepts any sigil, even one the mage does not hold."""

    def apply(self, state: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        if move.action == "choose" and move.get("sigil") not in new["hands"][seat]:
            new["hands"][seat].append(move.get("sigil"))
        return new, self.resolve(new, seat, move)


class Endless(ToyRules):
    """Never ends: every revealed sigil goes back to its mage's hand."""

    def _next_round(self, state: State) -> None:
        for seat, sigil in enumerate(state["revealed"]):
            state["hands"][seat].append(sigil)
        state["round"] += 1
        state["phase"] = "choose"
        state["lowest"] = None

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        return 40


class Unseeded(ToyRules):
    """Shuffles with a generator that does not live in the state."""

    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        import random

        state = super().setup(players, options, seed)
        random.shuffle(state["deck"])
        return state


class LazyScramble(ToyRules):
    """Declares secrets but never re-draws them, so leaks could hide."""

    def scramble(self, state: State, seat: Seat | None, rand: Any) -> State:
        return copy.deepcopy(state)


@pytest.mark.parametrize(
    ("broken", "complaint"),
    [
        (LeakyView(), "leaks them"),
        (Mutating(), "mutated its input"),
        (TooLenient(), "not in legal_moves"),
        (Endless(), "did not end within"),
        (Unseeded(), "different opening states"),
        (LazyScramble(), "scramble never changed"),
        (Unkinded(), "not one of the game's event kinds"),
    ],
    ids=lambda x: type(x).__name__ if not isinstance(x, str) else "",
)
def test_suite_fails_loudly(broken: ToyRules, complaint: str) -> None:
    with pytest.raises(ConformanceError, match=complaint) as caught:
        check_game(broken, seeds=2)
    # The message names the kind, the case and the step, so the failure can be reproduced.
    assert "[toy " in str(caught.value) and "step" in str(caught.value)
