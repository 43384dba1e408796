"""What the bots know of Wizard's Academy.

``basic`` plays the cooperative policy of the Academy's balance tool (``rules.academy.selfplay``) from
the seat's view alone. A bot keeps no memory between moves, so it remembers only what the view shows:
bound spells and this turn's reveal (under ``memory=strict`` that is all a player may rely on anyway).

The search (``strong``) plays each candidate to the start of the next turn's actions (the rest of this
turn, the threats endured, the next disaster) on states sampled from the seat's view: a short playout,
so the policy's view per move is affordable. Its playouts (``rollout_policy``) play the rest of the
turn as ``basic`` would, on the sampled state: every face-down spell there has a guessed identity,
which a cast reveals, but the policy knows no more than a player would, so the search is never lured
by knowledge it could not have. It leaves ``basic``'s move only for one clearly better by a margin.
The evaluator judges where a playout stops by the
crystal's mana, the threats and creatures in the academy, the spells bound, the scenario's progress
and the glyphs the table holds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from bots.core import Playbook, Seating, register
from rules.academy.selfplay import BAD, GOAL, Mind, Policy, best_shift
from rules.academy.state import CRYSTAL, distances
from rules.contract import Move, Rules, Seat, State

HORIZON = 80
"""A cap on a playout's plies (it normally stops sooner, at the next turn's actions)."""
CORNERS = (0, 3, 12, 15)
MARGIN = 0.03
"""The search leaves the policy's move only for one worth about half a mana more (in evaluator units)."""
GLYPHS_WORTH = 8
"""Glyphs a wizard holds beyond this add nothing to the evaluation (hands are capped in play)."""


def heuristic(seating: Seating, rand: random.Random) -> Move:
    """Return the policy's move for the seat, remembering only what its view shows now."""
    policy = Policy(rand.getrandbits(32))
    if seating.view["step"] == "shifts":
        return best_shift(seating.sample(rand))  # the board is public: any sample has the real one
    policy.mind = Mind()
    policy.mind.observe(seating.view, [])
    return policy.decide(seating.view, seating.seat, list(seating.legal))


def rollout_policy(rules: Rules, state: State, seat: Seat, legal: list[Move], rand: random.Random) -> Move:
    """Play a playout's moves on the sampled state: the balance policy's actions, the rest at once.

    A playout stops at the next turn's actions (``next_actions``), so every action it plays belongs to
    the turn the search began in: the balance policy plays them on the sampled state's view, as
    ``basic`` would go on. What follows the turn is read from the state alone, without a view: a glyph
    request is granted, the glyph share is skipped, a lone move is played; an effect's choice (where
    fire goes, which room turns) is the policy's again.
    """
    if len(legal) == 1:
        return legal[0]
    if state["request"] is not None and state["choice"] is None:
        yes = Move.of("consent", ok=True)
        return yes if yes in legal else legal[0]
    if state["step"] == "share" and state["choice"] is None:
        done = Move.of("done")
        return done if done in legal else legal[0]
    return view_policy(rules, state, seat, legal, rand)


def view_policy(rules: Rules, state: State, seat: Seat, legal: list[Move], rand: random.Random) -> Move:
    """Play the balance policy on the sampled state's view (it knows no more than a player would)."""
    if state["step"] == "shifts" and state["choice"] is None:
        return best_shift(state)
    policy = Policy(rand.getrandbits(32))
    view = rules.view(state, seat)
    # It knows only this turn's reveal, though the sample fixes every spell: a policy that knew them
    # all would bind them in the Library for free and lure the search there.
    policy.mind.observe(view, [])
    return policy.decide(view, seat, legal)


def searches(seating: Seating) -> bool:
    """Whether the search weighs this decision: actions and an effect's choices; not the setup shifts
    (the policy already looks two shifts ahead), a glyph request or the glyph share."""
    return any(p.decision in ("actions", "binding", "choice") for p in seating.prompts)


def next_actions(start: State) -> Callable[[State], bool]:
    """Return the test that stops a playout at the next turn's actions (after its disaster)."""
    turn = start["turn"]

    def done(state: State) -> bool:
        return state["turn"] > turn and state["step"] == "actions" and state["choice"] is None

    return done


def standing(state: State) -> float:
    """Return how well the table stands, in rough units of one mana."""
    rooms = [state["rooms"][r] for r in state["board"]]
    fire = sum(r["fire"] for r in rooms)
    score = 1.0 * state["mana"] - 0.6 * fire
    # A creature close to the crystal is about to cost mana: nearer counts up to twice as much.
    near = distances(state, CRYSTAL) if CRYSTAL in state["board"] else {}
    for key in state["board"]:
        r = state["rooms"][key]
        if r["imp"] or r["troll"] or r["demon"] or r["fire"]:
            close = 1.0 + 1.0 / (1.0 + near.get(key, 9))
            score -= close * (0.4 * r["imp"] + 0.8 * r["troll"] + 1.5 * r["demon"] + 0.3 * r["fire"])
    score -= sum(0.15 * r["ice"] + 0.1 * r["water"] + 0.1 * r["darkness"] + 0.1 * r["haunt"] for r in rooms)
    goal = GOAL.get(state["scenario"])
    for v in state["slots"].values():
        if v["bound"] and v["spell"] not in BAD:
            score += 2.5 if v["spell"] == goal else 0.6
    score += 0.08 * sum(min(GLYPHS_WORTH, len(w["glyphs"])) for w in state["wizards"])
    score += 0.04 * sum(len(set(w["glyphs"])) for w in state["wizards"])
    kind = state["scenario"]
    if kind == "golem":
        score += 2.0 * sum(1 for p in CORNERS if state["rooms"][state["board"][p]]["guardian"])
    elif kind == "gates":
        score -= 1.0 * sum(len(r["portals"]) for r in rooms)
    elif kind == "basic" and fire == 0:
        score += 0.5  # Abjure only saves the academy while no fire burns
    return score


def evaluate(rules: Rules, state: State, seat: Seat) -> float:
    """Return a share in [0, 1] from the table's standing (a finished game scores its outcome instead)."""
    return 1.0 / (1.0 + math.exp(-(standing(state) - 6.0) / 4.0))


PLAYBOOK = register(
    "academy",
    Playbook(
        heuristic=heuristic,
        evaluate=evaluate,
        rollout=rollout_policy,
        horizon=HORIZON,
        until=next_actions,
        margin=MARGIN,
        searches=searches,
    ),
)
