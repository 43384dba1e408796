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
from tests.faults import Table, open_table
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
    ("kind", "pref", "pinged"),
    [("toy", "turn", True), ("toy-bonus", "turn", False), ("toy-bonus", "every", True)],
)
async def test_pings_for_my_turn_leave_out_a_decision_outside_it(
    svc: TableService, monkeypatch: pytest.MonkeyPatch, kind: str, pref: str, pinged: bool
) -> None:
    monkeypatch.setitem(registry._GAMES, "toy-bonus", BonusToy())
    table = await svc.open_table(kind, "", guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.join(table.id, BOB, "bob")
    await svc.start(table.id, ALICE)
    for user in (ALICE, BOB):
        await svc.time.set_pings(user, pref)
    reply = await _lowest_moves_last(svc, table.id)
    assert reply.board is not None
    asked = {p.seat for p in reply.board.waiting}
    user = next(s.user_id for s in await svc.seats(table.id) if s.seat in asked)
    assert (user in reply.board.ping) is pinged
    # Pinged or not, the decision reaches its seat privately (DM/panel).
    assert any(n.user_id == user and n.choices for n in reply.private)
