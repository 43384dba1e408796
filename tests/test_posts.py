"""Fewer, better posts: every public event reaches the thread, one post per turn, pings once.

Played through the real cogs in SimCord (``tests/faults.open_table``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
import simcord

from cogs import delivery
from rules import registry
from rules.contract import Event, Prompt, PromptKind, State
from service import Reply, TableService
from tests.async_helpers import Harness
from tests.faults import Table, open_table
from tests.test_undo import to_the_draw
from tests.toygame import ToyRules

ALICE, BOB = 101, 102

pytestmark = pytest.mark.usefixtures("toy_registered")


async def _play_first(table: Table, seat: int) -> None:
    """Play the first move the seat's autocomplete offers, as a player would."""
    member = table.members[seat]
    offered = await member.autocomplete(table.thread, "game play", "move", "")
    await member.slash(table.thread, "game play", move=offered[0]["value"])


async def _public_events(table: Table) -> list[str]:
    """Return the text of every public event in the table's move log."""
    assert table.bot.store is not None
    records = await table.bot.store.moves(await table.table_id())
    return [e.text for r in records for e in map(Event.from_json, r.events) if e.public]


async def test_a_quick_run_of_moves_loses_no_event_when_a_new_post_follows(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The edits are spaced as on Discord: the second lock-in's edit waits while the third move
    # opens a new message (the reveal passes the turn); its line must still reach the thread.
    monkeypatch.setattr(delivery, "EDIT_SPACING", 1.0)
    table = await open_table(simcord_env, "toy", 3)
    svc = table.bot.service
    table_id = await table.table_id()
    # With the first sigils offered, P3 shows the lowest and takes the next turn: moving first,
    # the last lock-in passes the turn to another seat (a new message).
    for member in (table.members[2], table.members[0], table.members[1]):
        # Moves delivered back to back, as a bot's run is: no pause for the spaced edit.
        choice = (await svc.choices(table_id, member.id))[0]
        await delivery.deliver(table.bot, await svc.act(table_id, member.id, choice.value), mover=member.id)
    await asyncio.sleep(delivery.EDIT_SPACING + 0.3)
    await simcord_env.settle()
    shown = "\n".join(m.content for m in table.public())
    events = await _public_events(table)
    assert sum("has locked in" in e for e in events) == 3
    assert "Waiting on carol" in table.public()[-1].content
    missing = [e for e in events if e.rstrip(".") not in shown]
    assert missing == []


class BonusToy(ToyRules):
    """Sigil Duel whose draw-or-pass is a decision inside the round's effect, not a turn (like a
    bonus another player's action grants)."""

    kind = "toy-bonus"

    def pending(self, state: State) -> list[Prompt]:
        asked = super().pending(state)
        if state["phase"] == "draw":
            return [replace(p, kind=PromptKind.DECISION) for p in asked]
        return asked


async def _lowest_moves_last(svc: TableService, table_id: int) -> Reply:
    """Both lock in their first (lowest) sigil, the one who shows the lower first; return the last reply."""
    _, state = await svc.store.load(table_id)
    seats = {s.seat: s.user_id for s in await svc.seats(table_id)}
    order = sorted(seats, key=lambda n: state["hands"][n][0])
    reply = None
    for seat in order:
        reply = await svc.act(table_id, seats[seat], (await svc.choices(table_id, seats[seat]))[0].value)
    assert reply is not None
    return reply


@pytest.mark.parametrize(
    ("kind", "pref", "dms", "pinged"),
    [
        ("toy", "turn", True, True),
        ("toy", "every", True, True),
        # A decision inside another's turn is told by DM, whatever the preference...
        ("toy-bonus", "every", True, False),
        ("toy-bonus", "turn", True, False),
        # ...and in the thread to a player whose DMs are closed, unless they want their turn only.
        ("toy-bonus", "every", False, True),
        ("toy-bonus", "turn", False, False),
    ],
)
async def test_the_thread_pings_a_turn_and_a_decision_outside_it_comes_by_dm(
    svc: TableService, monkeypatch: pytest.MonkeyPatch, kind: str, pref: str, dms: bool, pinged: bool
) -> None:
    monkeypatch.setitem(registry._GAMES, "toy-bonus", BonusToy())
    table = await svc.open_table(kind, "", guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.join(table.id, BOB, "bob")
    await svc.start(table.id, ALICE)
    for user in (ALICE, BOB):
        await svc.time.set_pings(user, pref)
        await svc.set_dm_ok(table.id, user, dms)
    reply = await _lowest_moves_last(svc, table.id)
    assert reply.board is not None
    asked = {p.seat for p in reply.board.waiting}
    user = next(s.user_id for s in await svc.seats(table.id) if s.seat in asked)
    assert (user in reply.board.ping) is pinged
    # A new thread message for a new turn only; a decision inside the reveal's turn edits it.
    assert reply.board.fresh is (kind == "toy" or not dms)
    # Pinged or not, the decision reaches its seat privately (DM/panel).
    assert any(n.user_id == user and n.choices for n in reply.private)


async def test_an_undo_never_pings_the_next_player_twice_for_one_turn(h: Harness) -> None:
    assert h.svc is not None
    table, lowest, other = await to_the_draw(h)

    async def pass_turn() -> Reply:
        choices = await h.svc.choices(table, lowest)
        return await h.svc.act(table, lowest, next(c for c in choices if c.label == "Pass").value)

    first = await pass_turn()
    assert first.board is not None and other in first.board.ping  # the new round asks the other mage
    await h.svc.undo(table, lowest)
    again = await pass_turn()
    assert again.board is not None and again.board.ping == ()  # the same turn: pinged already
    # A later turn pings again: the memory holds one turn, not the game.
    later: list[int] = []
    for _ in range(8):
        for user in (other, lowest):
            choices = await h.svc.choices(table, user)
            if choices:
                reply = await h.svc.act(table, user, choices[0].value)
                later.extend(reply.board.ping if reply.board is not None else ())
    assert other in later
