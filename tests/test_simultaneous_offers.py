"""Several seats deciding at once: one seat's answer never stales another's still-valid panel.

Every game is played out at random; at every step where the table waits on several seats, each
other seat's panel stamp (the fingerprint its components carry, ``PanelGame.stamp``) must survive
one seat's answer while that seat is offered the same moves, and the answering seat's own stamp must
change (a second click of its panel is refused). A game without a stamp must never decide at once
(its panels carry the table version). The service then plays a Quadrivium vote on the seasons and
the Institute's Phase I with panels opened before either seat answered.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from cogs import institute, quadrivium
from rules import registry
from rules.contract import Rules
from service import Offer, StaleOffer
from service.compose import _seat_view
from store import TableRecord
from tests.async_helpers import Harness

STAMPS = {"institute": institute.GAME.stamp, "quadrivium": quadrivium.GAME.stamp}
"""The games whose panels are stamped with a fingerprint (their seats decide at once)."""
SEEDS = {2: range(3), 3: range(2), 4: range(1)}


def _record(kind: str, version: int) -> TableRecord:
    return TableRecord(id=7, kind=kind, name="t", options={}, guild_id=None, channel_id=1, thread_id=2,
                       host_id=3, status="active", seed=1, version=version, created_at=0.0,
                       updated_at=0.0, result=None)


def seat_view(rules: Rules, state: dict[str, Any], seat: int, version: int) -> Any:
    """Read a seat's view as the service does (its one snapshot function)."""
    table = SimpleNamespace(rules=rules, state=state, record=_record(rules.kind, version), seats={})
    return _seat_view(table, seat)  # type: ignore[arg-type]


def offered(view: Any) -> list[tuple[str, str]]:
    return [(c.value, c.label) for c in view.moves]


def playouts(kind: str) -> Any:
    """Yield (state before, mover, move, state after, version) of seeded random games of a kind."""
    rules = registry.get(kind)
    for players, seeds in SEEDS.items():
        if not rules.min_players <= players <= rules.max_players:
            continue
        for seed in seeds:
            rand = random.Random(seed)
            state, version = rules.setup(players, {}, seed), 0
            while not rules.is_over(state) and version < 1500:
                seat = rand.choice(rules.waiting_on(state))
                move = rand.choice(rules.legal_moves(state, seat))
                after, _ = rules.apply(state, seat, move)
                yield state, seat, after, version
                state, version = after, version + 1


@pytest.mark.parametrize("kind", sorted(registry.kinds()))
def test_one_answer_never_stales_another_seats_panel(kind: str) -> None:
    rules, stamp = registry.get(kind), STAMPS.get(kind)
    decisions: set[str] = set()
    for before, mover, after, version in playouts(kind):
        waiting = rules.waiting_on(before)
        if len(waiting) < 2:
            continue
        assert stamp is not None, f"{kind} decides at once but its panels carry the table version"
        decisions |= {p.decision for p in rules.pending(before)}
        for seat in waiting:
            old, new = seat_view(rules, before, seat, version), seat_view(rules, after, seat, version + 1)
            if seat == mover:
                assert stamp(new) != stamp(old), f"{kind}: seat {seat}'s panel survives its own answer"
            elif offered(new) == offered(old):
                assert stamp(new) == stamp(old), f"{kind}: seat {mover}'s answer staled seat {seat}"
            else:
                assert stamp(new) != stamp(old), f"{kind}: seat {seat}'s changed offer kept its stamp"
    if stamp is not None:
        assert decisions, f"{kind} has a stamp but never decided at once here"
    if kind == "quadrivium":
        creation = {"create:covenant", "create:name", "create:traits", "create:magic", "create:boon"}
        assert {"seasons", "refill", "duel_card", "tiebreak", "oppose", *creation} <= decisions
    if kind == "institute":
        assert {"assign", "portal"} <= decisions


async def _play_until(h: Harness, table_id: int, decision: str, seed: int = 3) -> list[int]:
    """Play random legal moves through the service until the table waits on several seats for ``decision``."""
    assert h.svc is not None
    rand = random.Random(seed)
    users = [await h.user_at(table_id, seat) for seat in range(2)]
    for _ in range(2000):
        public = await h.svc.reads.public_view(table_id)
        asked = [p.seat for p in public.prompts if p.decision == decision]
        if len(asked) > 1:
            return [users[seat] for seat in asked]
        user = users[rand.choice(sorted({p.seat for p in public.prompts}))]
        view = await h.svc.reads.seat_view(table_id, user)
        await h.svc.act(table_id, user, rand.choice(view.moves).move)  # type: ignore[arg-type]
    raise AssertionError(f"no {decision} decision reached")


@pytest.mark.parametrize(("kind", "options", "decision"), [
    ("quadrivium", "creation=quick", "seasons"),
    ("quadrivium", "", "create:name"),
    ("institute", "", "assign"),
])
async def test_through_the_service_both_panels_count(
    h: Harness, kind: str, options: str, decision: str
) -> None:
    assert h.svc is not None
    stamp = STAMPS[kind]
    assert stamp is not None
    table_id = await h.table(kind, options)
    first, second = await _play_until(h, table_id, decision)
    panels = {u: await h.svc.reads.seat_view(table_id, u) for u in (first, second)}
    offers = {u: Offer(stamp(panels[u]), stamp) for u in (first, second)}
    moves = {u: panels[u].moves[0].move for u in (first, second)}
    await h.svc.act(table_id, first, moves[first], offer=offers[first])
    await h.svc.act(table_id, second, moves[second], offer=offers[second])  # still what it was offered
    before = (await h.svc.reads.public_view(table_id)).version
    with pytest.raises(StaleOffer):  # the same panel clicked again: what it offered has changed
        await h.svc.act(table_id, first, moves[first], offer=offers[first])
    assert (await h.svc.reads.public_view(table_id)).version == before
