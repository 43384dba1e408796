"""Fewer, better posts: every public event reaches the thread, one post per turn, pings once.

Played through the real cogs in SimCord (``tests/faults.open_table``).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from itertools import pairwise

import pytest
import simcord

from cogs.kit import delivery
from rules import registry
from rules.contract import Event, Prompt, PromptKind, State
from rules.toy import ToyRules
from service import Reply, TableError, TableService
from service.notify import DRAFT, PHASE, starts_message, told_in_thread
from tests.async_helpers import DAVE, DAY, EVE, Harness
from tests.faults import Table, open_table
from tests.test_undo import to_the_draw

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
        choice = (await svc.reads.choices(table_id, member.id))[0]
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
        choice = (await svc.reads.choices(table_id, seats[seat]))[0]
        reply = await svc.act(table_id, seats[seat], choice.value)
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
        choices = await h.svc.reads.choices(table, lowest)
        return await h.svc.act(table, lowest, next(c for c in choices if c.label == "Pass").value)

    first = await pass_turn()
    assert first.board is not None and other in first.board.ping  # the new round asks the other mage
    await h.svc.play.undo(table, lowest)
    again = await pass_turn()
    assert again.board is not None and again.board.ping == ()  # the same turn: pinged already
    # A later turn pings again: the memory holds one turn, not the game.
    later: list[int] = []
    for _ in range(8):
        for user in (other, lowest):
            choices = await h.svc.reads.choices(table, user)
            if choices:
                reply = await h.svc.act(table, user, choices[0].value)
                later.extend(reply.board.ping if reply.board is not None else ())
    assert other in later


# ---------------------------------------------------------------------- spectators' digests


async def _play_rounds(h: Harness, table: int, rounds: int) -> None:
    """Play the first offered move of whoever is asked, for this many rounds of Sigil Duel."""
    assert h.svc is not None
    for _ in range(rounds * 3):
        for user in (ALICE, BOB):
            choices = await h.svc.reads.choices(table, user)
            if choices:
                await h.svc.act(table, user, choices[0].value)


def _secrets(records: list) -> list[str]:
    return [e["text"] for r in records for e in r.events if e.get("seats") is not None]


async def test_a_spectator_gets_a_digest_at_the_cadence_chosen_with_public_events_only(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table = await h.table()
    assert "once a round" in await h.svc.play.watch(table, DAVE)  # the default
    assert "at every turn" in await h.svc.play.watch(table, EVE, "turn")
    await _play_rounds(h, table, 3)
    rounds = (await h.svc.reads.public_view(table)).view["round"]
    by_round, by_turn = h.notices("spectate", DAVE), h.notices("spectate", EVE)
    assert len(by_round) == rounds - 1  # one as each new round began
    assert len(by_turn) > len(by_round)
    records = await h.store.moves(table)
    for digests in (by_round, by_turn):
        told = "\n".join(n.text for n in digests)
        assert not any(s in told for s in _secrets(records))
        assert all(n.board is not None and n.board.ping == () for n in digests)
        # Every public event up to the last digest is in some digest.
        last = max(n.board.version for n in digests if n.board is not None)
        for record in records:
            for event in record.events:
                if record.version <= last and event.get("seats") is None:
                    assert event["text"].rstrip(".") in told


async def test_a_daily_digest_waits_a_day_and_then_tells_the_day(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table = await h.table()
    assert "once a day" in await h.svc.play.watch(table, DAVE, "day")
    await _play_rounds(h, table, 1)
    assert h.notices("spectate", DAVE) == []
    h.clock.advance(DAY)
    await _play_rounds(h, table, 1)
    digests = h.notices("spectate", DAVE)
    assert len(digests) == 1
    assert "has locked in" in digests[0].text  # the day's first moves, not only the last one


async def test_a_digest_cadence_is_checked_and_stored(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table = await h.table()
    with pytest.raises(TableError, match="every turn, round or day"):
        await h.svc.play.watch(table, DAVE, "hour")
    await h.svc.play.watch(table, DAVE)
    assert "now comes at every turn" in await h.svc.play.watch(table, DAVE, "turn")
    assert [s.every for s in await h.store.spectator_rows(table)] == ["turn"]


def test_a_phase_without_turns_opens_one_message_and_argent_marks_its_resolution() -> None:
    # The shared rule reads only typed data: a phase event opens a message, plain steps do not.
    plain = Event("note", "Something resolves.")
    opening = Event("resolution", "The rooms resolve.", data={PHASE: True})
    assert not starts_message(pinged=set(), opening=False, over=False, closed=False, events=[plain])
    assert starts_message(pinged=set(), opening=False, over=False, closed=False, events=[plain, opening])
    # Argent's resolution begins with such an event (one post, edited as each room resolves).
    rules = registry.get("argent")
    state, rand = rules.setup(3, {}, 7), random.Random(7)
    for _ in range(400):
        seat = rules.pending(state)[0].seat
        state, events = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))
        found = [e for e in events if e.kind == "resolution"]
        if found:
            assert found[0].public and found[0].data.get(PHASE) is True
            return
    pytest.fail("no resolution within 400 moves")


async def test_the_argent_draft_is_one_post_edited_as_picks_come_in(simcord_env: simcord.Env) -> None:
    """The mage draft (setup step 10) is one thread message; each next picker is told by DM.

    The picks are open (the rulebook's mages wait "in the center of the table"), so every pick
    reaches the thread; a picker's turn comes on its panel and by DM, not as a new ping each pick.
    """
    table = await open_table(simcord_env, "argent", 2)
    svc = table.bot.service
    table_id = await table.table_id()
    opened = len(table.public())
    dms = {m.id: len(m.user.dm_channel.history()) for m in table.members}
    pickers: list[int] = []
    while (public := await svc.reads.public_view(table_id)).view["phase"] == "draft":
        assert len(table.public()) == opened, "no new thread message while the draft goes on"
        seat = public.prompts[0].seat
        pickers.append(seat)
        await _play_first(table, seat)
        await simcord_env.advance_time(3)  # the living board's spaced edit falls due
    assert len(pickers) == 10, "two players draft five mages each"
    # Every pick is told in the thread (a ping notifies only in a new message: none was posted).
    told = "\n".join(m.content for m in table.public()[opened - 1:])
    assert told.count(" drafts a ") == 10
    # Each run of picks by one seat was asked by one DM (the first picker was asked at the start).
    asked = [b for a, b in pairwise(pickers) if a != b]
    for seat, member in enumerate(table.members):
        new = member.user.dm_channel.history()[dms[member.id]:]
        assert len(new) >= asked.count(seat), [d.content[:80] for d in new]
        assert all("draft a mage" in d.content for d in new[: asked.count(seat)])


def test_a_draft_pick_tells_the_next_picker_privately_and_argent_marks_every_pick_but_the_last() -> None:
    # The shared rule reads only typed data: after a pick that more picks follow, the next
    # picker is pinged in the thread only when its DMs are closed.
    asked = [Prompt(1, PromptKind.TURN, "draft", "P2: draft a mage.")]
    before = [Prompt(0, PromptKind.TURN, "draft", "P1: draft a mage.")]
    pick = Event("argent", "P1 drafts a Sorcery mage.", data={DRAFT: True})
    assert told_in_thread(asked, before, 0) == {1}
    assert told_in_thread(asked, before, 0, events=[pick]) == set()
    assert told_in_thread(asked, before, 0, unreachable=[1], events=[pick]) == {1}
    rules = registry.get("argent")
    state, rand = rules.setup(3, {}, 7), random.Random(7)
    marks: list[bool] = []
    while rules.pending(state)[0].decision == "draft":
        seat = rules.pending(state)[0].seat
        state, events = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))
        marks.append(any(e.public and e.data.get(DRAFT) for e in events))
    assert marks == [True] * 8 + [False], "3 players draft 3 mages each; the last pick ends the draft"
