"""Refusals that teach the rule (issue 26 item 12): every refusal names the rule it applies.

Random playouts of every game try moves that are not legal at each step (moves offered earlier,
another seat's moves, bare actions); each ``IllegalMove`` must carry a ``RuleRef`` whose section is
found in the game's rulebook (``shared/rules/<rulebook>``: a heading, or the opening words of a
paragraph) or whose ruling is a bold title in the game's part of ``docs/rulings.md``.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest

from rules import registry
from rules.contract import IllegalMove, Move, NotYourDecision, RuleRef, Rules, RulesError, State
from service.replies import cited, refusal

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT.parent / "shared" / "rules"
RULINGS = ROOT / "docs" / "rulings.md"
_NUMBERING = re.compile(r"^(?:[-•]|\d+\s*[-.)]|[A-Za-z]\))?\s*")


@cache
def _openings(rulebook: str) -> tuple[str, ...]:
    """Return every line of a rulebook without its list marker or numbering ("1. ", "2 - ", "• ")."""
    text = (RULEBOOKS / rulebook).read_text(encoding="utf-8")
    return tuple(_NUMBERING.sub("", line.strip()) for line in text.splitlines() if line.strip())


@cache
def _rulings_of(title: str) -> str:
    """Return the part of docs/rulings.md under the game's own heading."""
    text = RULINGS.read_text(encoding="utf-8")
    part = text.split(f"\n## {title}\n", 1)[1]
    return part.split("\n## ", 1)[0]


def found(rules: Rules, rule: RuleRef) -> bool:
    """Whether the rule stands where it says: a rulebook line opening with it, or a ruling's title."""
    if rule.ruling:
        title = re.compile(r"\*\*" + re.escape(rule.section) + r"[.:]?\*\*")
        return title.search(_rulings_of(rules.title)) is not None
    # A heading is a whole line; a paragraph is named by its opening words (long enough to be its own).
    return any(
        line == rule.section or (len(rule.section) >= 12 and line.startswith(rule.section))
        for line in _openings(rules.rulebook)
    )


KINDS = ("argent", "institute", "academy", "quadrivium")
TABLES = [
    ("argent", 2, {}),
    ("argent", 4, {}),
    ("institute", 2, {}),
    ("academy", 2, {"scenario": "basic"}),
    ("academy", 3, {"scenario": "golem"}),
    ("quadrivium", 3, {"creation": "quick"}),
    ("quadrivium", 2, {}),
]
STEPS = 260
"""Moves played per probe game: enough to reach every game's main phases (councils included)."""


def _attempts(rules: Rules, state: State, seen: list[Move], rand: random.Random) -> list[tuple[int, Move]]:
    """Return moves to try now, none of them legal for the seat that tries it."""
    waiting = rules.waiting_on(state)
    seat = waiting[0]
    legal = set(rules.legal_moves(state, seat))
    tries = [(seat, m) for m in rand.sample(seen, min(6, len(seen))) if m not in legal]
    tries += [(seat, Move.of(a)) for a in sorted(rules.actions) if Move.of(a) not in legal][:4]
    others = [s for s in range(len(_players(state, rules))) if s not in waiting]
    if others and legal:
        tries.append((rand.choice(others), next(iter(sorted(legal, key=Move.code)))))
    return tries


def _players(state: State, rules: Rules) -> range:
    seats = state.get("players")
    return range(seats if isinstance(seats, int) else len(state.get("wizards") or state.get("seats") or []))


def _probe(kind: str, players: int, options: dict[str, str], seed: int) -> tuple[int, set[RuleRef]]:
    """Play a random game, trying illegal moves along the way; return how many were refused and why."""
    rules = registry.get(kind)
    state = rules.setup(players, rules.check_options(options), seed)
    rand = random.Random(seed)
    seen: list[Move] = []
    refused, rules_met = 0, set()
    for _ in range(STEPS):
        if rules.is_over(state):
            break
        for seat, move in _attempts(rules, state, seen, rand):
            try:
                rules.apply(state, seat, move)
            except IllegalMove as exc:
                assert exc.rule is not None, f"{kind}: {move.code()} refused without a rule: {exc.sentence}"
                assert found(rules, exc.rule), f"{kind}: {exc.rule} is not in {rules.rulebook} / rulings"
                refused += 1
                rules_met.add(exc.rule)
            except RulesError:
                continue  # an unknown or unreadable move is not a rules refusal
            else:
                raise AssertionError(f"{kind}: {move.code()} was played though it was not offered")
        seat = rules.waiting_on(state)[0]
        legal = rules.legal_moves(state, seat)
        move = rand.choice(legal)
        seen += [m for m in legal if m.action != "resign"][:8]
        seen = seen[-80:]
        state, _ = rules.apply(state, seat, move)
    return refused, rules_met


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda v: str(v))
def test_every_refusal_in_random_play_names_a_rule_that_exists(
    kind: str, players: int, options: dict[str, str]
) -> None:
    refused, met = _probe(kind, players, options, seed=11)
    # Enough refusals to mean something, and more than one rule behind them.
    assert refused >= 100 and len(met) >= 3, (refused, met)


def test_every_game_names_its_turn_and_end_rules_and_they_exist() -> None:
    for kind in KINDS:
        rules = registry.get(kind)
        for rule in (rules.turn_rule, rules.end_rule):
            assert rule is not None and found(rules, rule), (kind, rule)


def test_the_finder_rejects_a_section_the_rulebook_does_not_have() -> None:
    argent = registry.get("argent")
    assert found(argent, RuleRef("Room Clarifications")) and found(argent, RuleRef("Place a Mage"))
    assert not found(argent, RuleRef("Duel for Resource"))
    assert not found(argent, RuleRef("Not a ruling at all", ruling=True))
    assert found(argent, RuleRef("Locked rooms take no placements", ruling=True))


def test_the_reply_cites_the_rule_after_the_sentence() -> None:
    argent = registry.get("argent")
    exc = IllegalMove("No mage can be placed in the Infirmary.", RuleRef("Room Clarifications"))
    assert refusal(argent, exc) == (
        "No mage can be placed in the Infirmary (Argent rulebook, Room Clarifications)."
    )
    ruling = RuleRef("A player leaving", ruling=True)
    assert cited(argent, "This game cannot go on without a player.", ruling) == (
        "This game cannot go on without a player "
        "(Conclave house ruling “A player leaving”, docs/rulings.md)."
    )
    assert refusal(argent, NotYourDecision("Wait.")) == "Wait."


def test_a_place_in_the_infirmary_cites_room_clarifications() -> None:
    """Room Clarifications, Infirmary: "This room cannot be placed in directly"."""
    argent = registry.get("argent")
    state = argent.setup(3, argent.default_options(), 7)
    while state["phase"] != "errands" or state["agenda"]:
        seat = argent.waiting_on(state)[0]
        state, _ = argent.apply(state, seat, argent.legal_moves(state, seat)[0])
    seat = argent.waiting_on(state)[0]
    with pytest.raises(IllegalMove) as refused:
        argent.apply(state, seat, Move.of("place", room="infirmary"))
    assert refused.value.sentence == "No mage can be placed in the Infirmary."
    assert refused.value.rule == RuleRef("Room Clarifications")


def test_leaving_a_two_player_game_cites_the_ruling() -> None:
    for kind, players in (("argent", 2), ("academy", 1), ("quadrivium", 2), ("institute", 2)):
        rules = registry.get(kind)
        state = rules.setup(players, rules.default_options(), 3)
        with pytest.raises(IllegalMove) as refused:
            rules.apply(state, 0 if kind == "institute" else players + 4, Move.of("resign"))
        assert refused.value.rule is not None and refused.value.rule.ruling, kind
        assert found(rules, refused.value.rule), kind


def test_a_move_out_of_turn_cites_the_rule_of_the_decision_in_play() -> None:
    """Quadrivium, Bidding for Resources: "Starting with acting player and continuing clockwise, each
    player may bid"; Argent's draft is part of Game Setup, its turns part of the Errands Phase."""
    quad = registry.get("quadrivium")
    state = quad.setup(3, quad.check_options({"creation": "quick"}), 2)
    rand = random.Random(2)
    while not any(a.decision == "bid" for a in quad.asks(state)):
        seat = quad.waiting_on(state)[0]
        state, _ = quad.apply(state, seat, rand.choice(quad.legal_moves(state, seat)))
    bidder = quad.waiting_on(state)[0]
    with pytest.raises(NotYourDecision) as refused:
        quad.apply(state, (bidder + 1) % 3, quad.legal_moves(state, bidder)[0])
    assert refused.value.rule == RuleRef("Bidding for Resources")
    argent = registry.get("argent")
    drafting = argent.setup(3, argent.default_options(), 7)
    assert drafting["phase"] == "draft" and argent.turn_rule_at(drafting) == RuleRef("Game Setup")
