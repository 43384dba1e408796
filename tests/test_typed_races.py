"""The same typed move, or the same undo, sent twice at once applies once (issue 23, item 4).

Typed text carries no version the player saw, so the service refuses an identical typed move
from the same user within ``REPEAT_WINDOW`` and says why; sent again after it, the move is read
as meant. ``/game undo`` carries the table version it found, checked under the lock, and the
Undo button the version of its board.
"""

from __future__ import annotations

import asyncio
import random

import pytest
import simcord

from rules import registry
from rules.contract import Move
from service import StaleOffer, TableError
from service.repeats import REPEAT_WINDOW, REPEATED_MOVE
from tests.async_helpers import ALICE, BOB, CAROL, Harness
from tests.drawings import views_as_json
from tests.faults import at_once, open_table, said

pytestmark = pytest.mark.usefixtures("toy_registered")

GAMES = [("institute", 2), ("quadrivium", 3), ("argent", 3), ("academy", 2)]


async def to_a_repeatable_move(h: Harness, kind: str, players: int) -> tuple[int, int, Move]:
    """Play randomly until a seat has a move it may make twice in a row; return table, user, move."""
    assert h.svc is not None and h.store is not None
    rules, rand = registry.get(kind), random.Random(5)
    table = await h.table(kind, users=(ALICE, BOB, CAROL)[:players])
    users = {s.seat: s.user_id for s in await h.svc.seats(table)}
    for _ in range(300):
        _, state = await h.store.load(table)
        for seat in rules.waiting_on(state):
            for move in rules.legal_moves(state, seat):
                after, _ = rules.apply(state, seat, move)
                if seat in rules.waiting_on(after) and move in rules.legal_moves(after, seat):
                    return table, users[seat], move
        seat = rand.choice(rules.waiting_on(state))
        await h.svc.act(table, users[seat], rand.choice(rules.legal_moves(state, seat)))
    raise AssertionError(f"{kind}: no move a seat may make twice in a row")


async def times_played(h: Harness, table: int, move: Move) -> int:
    """Return how many times the move is in the table's log."""
    assert h.store is not None
    return sum(1 for r in await h.store.moves(table) if r.move == move.to_json())


@pytest.mark.parametrize(("kind", "players"), GAMES, ids=[g[0] for g in GAMES])
async def test_the_same_typed_move_sent_twice_at_once_applies_once(
    h: Harness, kind: str, players: int
) -> None:
    assert h.svc is not None
    with views_as_json(kind):
        table, user, move = await to_a_repeatable_move(h, kind, players)
        before = await times_played(h, table, move)
        results = await asyncio.gather(
            h.svc.act(table, user, move.code()), h.svc.act(table, user, move.code()), return_exceptions=True
        )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], StaleOffer), results
    assert refused[0].sentence == REPEATED_MOVE
    assert await times_played(h, table, move) == before + 1
    # Sent again after the window, the same text is a move the player means: it plays.
    h.clock.advance(REPEAT_WINDOW)
    with views_as_json(kind):
        await h.svc.act(table, user, move.code())
    assert await times_played(h, table, move) == before + 2


async def test_a_different_typed_move_is_never_held_back(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table()
    for user in (ALICE, BOB):
        now = await h.svc.reads.seat_view(table, user)
        await h.svc.act(table, user, now.moves[0].label)
    assert (await h.svc.table(table)).version >= 2


async def test_two_bare_undos_at_once_take_back_one_move(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table = await h.table()
    for user in (ALICE, BOB):
        now = await h.svc.reads.seat_view(table, user)
        await h.svc.act(table, user, now.moves[0].move)  # type: ignore[arg-type]
    view = await h.svc.reads.public_view(table)
    lowest = view.users[view.prompts[0].seat]
    await h.svc.act(table, lowest, "Pass")
    version = (await h.svc.table(table)).version
    twice = (h.svc.play.undo(table, lowest), h.svc.play.undo(table, lowest))
    results = await asyncio.gather(*twice, return_exceptions=True)
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], TableError), results
    assert (await h.svc.table(table)).version == version + 1, "one undo row"
    assert not h.notices("vote"), "the second undo opened no vote on an earlier move"


async def test_two_undos_with_the_version_seen_take_back_one_move(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table()
    for user in (ALICE, BOB):
        now = await h.svc.reads.seat_view(table, user)
        await h.svc.act(table, user, now.moves[0].move)  # type: ignore[arg-type]
    view = await h.svc.reads.public_view(table)
    lowest = view.users[view.prompts[0].seat]
    await h.svc.act(table, lowest, "Pass")
    seen = (await h.svc.table(table)).version
    h.clock.advance(REPEAT_WINDOW)
    results = await asyncio.gather(
        h.svc.play.undo(table, lowest, expected_version=seen),
        h.svc.play.undo(table, lowest, expected_version=seen),
        return_exceptions=True,
    )
    assert sum(isinstance(r, BaseException) for r in results) == 1, results
    assert (await h.svc.table(table)).version == seen + 1 and not h.notices("vote")


# ---------------------------------------------------------------------- through the Discord stand-in


@pytest.fixture
def table_seed() -> int:
    """The seed every SimCord table of this module is dealt with."""
    return 3


async def test_two_typed_plays_at_once_in_discord_apply_once(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "institute")
    bob = table.members[0]
    async with at_once(simcord_env):
        first = await bob.slash(table.thread, "game play", move="reroll dice=[1]")
        second = await bob.slash(table.thread, "game play", move="reroll dice=[1]")
    answers = said(first) + said(second)
    assert sum(a.startswith("You played") for a in answers) == 1, answers
    assert any(REPEATED_MOVE in a for a in answers), answers
    assert await table.version() == 1


async def test_two_game_undos_at_once_in_discord_take_back_one_move(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "toy")
    svc = table.bot.service
    assert svc is not None
    table_id = await table.table_id()
    for member in table.members:
        now = await svc.reads.seat_view(table_id, member.id)
        await svc.act(table_id, member.id, now.moves[0].move)  # type: ignore[arg-type]
    view = await svc.reads.public_view(table_id)
    lowest = next(m for m in table.members if m.id == view.users[view.prompts[0].seat])
    await lowest.slash(table.thread, "game play", move="Pass")
    version = await table.version()
    async with at_once(simcord_env):
        first = await lowest.slash(table.thread, "game undo")
        second = await lowest.slash(table.thread, "game undo")
    answers = said(first) + said(second)
    assert sum(a.startswith("You took back") for a in answers) == 1, answers
    assert await table.version() == version + 1
    assert not any("asks to take back" in m.content for m in table.public()), "no vote on an earlier move"
