"""Quadrivium's typed record holds what the drawings draw (issue 27): checked against the view, frozen,
and blind to what its seat may not see; render/quadrivium.py reads no key of the view."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from rules.quadrivium import council
from rules.quadrivium.record import QuadriviumRecord, read_view
from tests.quadrivium_helpers import R, act, fresh_table, play_cards, quick, to_trick


def _played(players: int, seed: int, steps: int = 400) -> list[dict[str, Any]]:
    """Return the states of a table played at random (seeded), one per move."""
    rand = random.Random(seed)
    s = quick(players, seed)
    out = [s]
    for _ in range(steps):
        seats = sorted({p.seat for p in R.pending(s)})
        if R.is_over(s) or not seats:
            break
        seat = rand.choice(seats)
        s, _ = R.apply(s, seat, rand.choice(R.legal_moves(s, seat)))
        out.append(s)
    return out


@pytest.fixture(scope="module")
def states() -> list[dict[str, Any]]:
    """A spread: scenes, conflicts with tricks under way and decided, councils at every step."""
    out = _played(3, 2) + _played(4, 3, 250)
    t = to_trick(fresh_table(3), ("vigor", "influence"), tricks=2)
    t["hands"][2] = ["3S"]
    t = play_cards(t, "10C", "8H")
    t, _ = act(t, 2, "aid", side=1, card="3S")
    t, _ = act(t, 0, "stand")
    out.append(t)
    k = quick(3)
    k["votes"], k["last_antagonist"] = [9, 9, 9], 0
    council.open_council(k, [])
    return [*out, k]


def _views(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [R.view(state, seat) for seat in (None, *range(state["players"]))]


def _check_mages(record: QuadriviumRecord, view: dict[str, Any]) -> None:
    for mage, raw in zip(record.mages, view["seats"], strict=True):
        for trait in mage.traits:
            assert trait.corruption == raw["corruption"][trait.name]
            assert trait.fresh == raw["traits"][trait.name]["value"] - raw["traits"][trait.name]["spent"] \
                - raw["traits"][trait.name]["harm"]
        for gear, kind in ((mage.companions, "companions"), (mage.items, "items")):
            assert [(g.name, g.value, g.spent, g.harm) for g in gear] == [
                (c["trait"], c["value"], c["spent"], c["harm"]) for c in raw[kind]]
        assert [(a.trait, a.used) for a in mage.assets] == [
            (t, bool(a["spent"])) for t, a in sorted(raw["assets"].items())]
        assert dict(mage.shares) == raw["shares"]


def _check_conflict(record: QuadriviumRecord, view: dict[str, Any]) -> None:
    raw = view["conflict"]
    c = record.conflict
    assert (c is None) == (raw is None)
    if c is None:
        return
    cond = raw["cond"] or {}
    assert (c.sides, c.wins, c.tricks) == (tuple(raw["sides"]), tuple(raw["wins"]), raw["tricks"] or 0)
    assert (c.intent, c.win, c.lose) == (raw["intent"] or "", cond.get("win") or "", cond.get("lose") or "")
    assert c.types == tuple(t for t in raw["types"] or [] if t)
    trick = raw["trick"]
    sides = trick["sides"] if trick else []
    assert [(x.seat, x.placed) for x in c.trick] == [(x["seat"], x["placed"]) for x in sides]
    assert c.revealed == bool(trick and trick["revealed"])


def _check_council(record: QuadriviumRecord, view: dict[str, Any]) -> None:
    raw = view["council"]
    k = record.council
    assert (k is None) == (raw is None)
    if k is None:
        return
    assert (k.step, k.winter, k.sat_out) == (raw["step"], raw["winter"], tuple(raw.get("sat_out") or ()))
    resources = raw["resources"]
    assert k.resource == (resources[raw["ri"]] if raw["ri"] < len(resources) else "")
    assert k.voted == tuple(x for x, v in enumerate(raw["votes"]) if v is not None)
    bid, take, duel = raw["bid"], raw["take"], raw["duel"]
    assert (k.bid is None, k.take is None, k.duel is None) == (not bid, not take, not duel)
    if k.bid:
        assert (k.bid.high, k.bid.leader, k.bid.active) == (bid["high"], bid["leader"], tuple(bid["active"]))
    if k.take:
        assert (k.take.cost, k.take.takers) == (take["cost"], tuple(take["takers"]))
        assert k.take.passed == tuple(x for x, done in enumerate(take["passed"]) if done)
    if k.duel:
        assert (k.duel.res, k.duel.a, k.duel.b) == (duel["res"], duel["a"], duel["b"])


def test_the_record_holds_what_the_drawings_read(states: list[dict[str, Any]]) -> None:
    seen = set()
    for state in states:
        for view in _views(state):
            record = read_view(view)
            cov = view["covenant"]
            assert record.covenant.name == (cov["name"] or "") and record.deck == view["deck"]
            assert {r.name: (r.value, r.spent, r.harm) for r in record.covenant.resources} == {
                name: (r["value"], r["spent"], r["harm"]) for name, r in cov["res"].items()}
            _check_mages(record, view)
            _check_conflict(record, view)
            _check_council(record, view)
            scene = view["scene"]
            assert (record.scene is None) == (scene is None)
            if record.scene:
                assert (record.scene.pro, record.scene.intent) == (scene["pro"], scene["intent"] or "")
            news = view["news"]
            assert (record.news is None) == (news is None)
            if record.news:
                assert (record.news.trick, record.news.winner, record.news.wins) == (
                    news["trick"], news["winner"], tuple(news["wins"]))
                assert [(s.seat, s.card, s.total, s.aids, s.adds) for s in record.news.sides] == [
                    (s["seat"], s["card"], s["total"], tuple(s["aids"]), tuple(s["adds"]))
                    for s in news["sides"]]
            # Frozen all the way down: every part the drawings read hashes.
            drawn = (record.mages, record.covenant, record.scene, record.conflict, record.council)
            assert hash((*drawn, record.news))
            seen |= {view["phase"], *(["trick"] if record.conflict and record.conflict.trick else []),
                     *(["news"] if record.news else []), *([record.council.step] if record.council else [])}
    assert {"scene", "conflict", "council", "trick", "news", "bid", "take", "years"} <= seen  # the spread


def test_the_record_does_not_change_when_the_seats_secrets_are_redrawn(states: list[dict[str, Any]]) -> None:
    rand = random.Random(9)
    for state in states[::5]:
        for seat in (None, *range(state["players"])):
            hidden = R.scramble(state, seat, rand)
            assert read_view(R.view(hidden, seat)) == read_view(R.view(state, seat))


def test_the_drawings_read_no_key_of_the_view() -> None:
    # render/quadrivium.py draws from the typed record: no x["key"] read, no x.get("key") on a view.
    tree = ast.parse(Path("render/quadrivium.py").read_text())
    reads = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
             and isinstance(node.slice.value, str)]
    assert reads == []
