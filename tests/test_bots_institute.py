"""The Institute's bot playbook: the search imagines a rival's secret Action Cards sensibly."""

from __future__ import annotations

import random

from bots.games.institute import believe
from rules import registry
from rules.contract import State
from rules.institute.state import ACTION_LIMITS

RULES = registry.get("institute")


def _assigning(seed: int, rival_confirms: bool) -> State:
    """Return a fresh round's Phase I with seat 0 still assigning and the rival (seat 1) as asked."""
    state = RULES.setup(2, {}, seed)
    rand = random.Random(seed)
    while rival_confirms and not state["players"][1]["confirmed"]:
        lay = [m for m in RULES.legal_moves(state, 1) if m.action in ("assign", "confirm")]
        confirm = [m for m in lay if m.action == "confirm"]
        state, _ = RULES.apply(state, 1, confirm[0] if confirm else rand.choice(lay))
    return state


def _sampled_belief(state: State, seat: int, seed: int) -> State:
    """Scramble the state for the seat, then let the belief re-lay the rival's cards, always."""
    sample = RULES.scramble(state, seat, random.Random(seed))
    return believe(RULES, sample, seat, _Always(seed))


class _Always(random.Random):
    """A generator whose first draw always picks the greedy belief (the rest as seeded)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.first = True

    def random(self) -> float:
        if self.first:
            self.first = False
            return 0.0
        return super().random()


def test_a_confirmed_rival_gets_a_full_legal_hand_and_the_seat_sees_nothing_new() -> None:
    for seed in range(6):
        state = _assigning(seed, rival_confirms=True)
        after = _sampled_belief(state, 0, seed)
        hand = after["players"][1]["assign"]
        assert None not in hand and after["players"][1]["confirmed"]
        assert all(hand.count(a) <= n for a, n in ACTION_LIMITS.items())
        assert RULES.view(after, 0) == RULES.view(state, 0)


def test_the_belief_lays_cards_like_a_sensible_rival_and_the_scramble_does_not() -> None:
    """A sensible rival takes stones on its high dice; the belief lays them so, the scramble at random."""

    def misplayed(s: State) -> int:
        them = s["players"][1]
        high = [d for d, v in enumerate(them["dice"]) if v >= 5]
        return sum(1 for d in high if them["assign"][d] != "take") if len(high) <= 2 else 0

    believed = scrambled = 0
    for seed in range(30):
        state = _assigning(seed, rival_confirms=True)
        believed += misplayed(_sampled_belief(state, 0, seed))
        scrambled += misplayed(RULES.scramble(state, 0, random.Random(seed)))
    assert believed == 0 and scrambled > 0


def test_a_rival_still_assigning_is_left_to_the_playout_and_a_revealed_round_is_untouched() -> None:
    state = _assigning(3, rival_confirms=False)
    after = _sampled_belief(state, 0, 3)
    assert after["players"][1]["assign"] == [None] * 4 and not after["players"][1]["confirmed"]
    assert RULES.view(after, 0) == RULES.view(state, 0)
    revealed = RULES.copy_state(state)
    revealed["revealed"] = True
    assert believe(RULES, RULES.copy_state(revealed), 0, _Always(3)) == revealed
