"""Fewer, better posts: every public event reaches the thread, one post per turn, pings once.

Played through the real cogs in SimCord (``tests/faults.open_table``).
"""

from __future__ import annotations

import asyncio

import pytest
import simcord

from cogs import delivery
from rules.contract import Event
from tests.faults import Table, open_table

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
