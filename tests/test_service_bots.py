"""Bot seats at the table service: fill seats, play through act, take over a seat and give it back."""

from __future__ import annotations

import pytest

from service import Reply, TableError, TableService
from store import Store

pytestmark = pytest.mark.usefixtures("toy_registered")

ALICE, BOB = 101, 102
SEED = 2024


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


@pytest.fixture
def svc(svc: TableService) -> TableService:
    """The shared service, with a strong bot that thinks briefly (these tests test seats, not play)."""
    svc.bots.bot_budget = 0.02
    return svc


async def open_toy(svc: TableService) -> int:
    table = await svc.open_table("toy", "", guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    return table.id


async def run_bots(svc: TableService, table_id: int) -> list[Reply]:
    """Let the bots play until the game waits on a person (or ends)."""
    replies = []
    while (reply := await svc.bots.next_bot_move(table_id)) is not None:
        replies.append(reply)
    return replies


async def person_move(svc: TableService, table_id: int, user_id: int) -> Reply:
    """Play the first legal move of a person's seat."""
    choices = await svc.reads.choices(table_id, user_id)
    return await svc.act(table_id, user_id, choices[0].value)


async def test_a_bot_fills_a_seat_and_plays_a_whole_game(svc: TableService, store: Store) -> None:
    table_id = await open_toy(svc)
    added = await svc.bots.add_bots(table_id, ALICE, "basic")
    assert "Bot (basic) takes a seat" in added.board.text
    seats = await store.seats(table_id)
    bot = next(s for s in seats if s.bot)
    assert bot.name == "Bot (basic)" and bot.user_id < 0 and bot.bot == "basic"
    start = await svc.start(table_id, ALICE)
    # Nobody DMs or pings a bot.
    assert all(n.user_id == ALICE for n in start.private)
    assert all(u > 0 for u in start.board.ping)
    moves = 0
    while (await svc.table(table_id)).status == "active":
        for reply in await run_bots(svc, table_id):
            assert all(n.user_id > 0 for n in reply.private) and all(u > 0 for u in reply.board.ping)
            moves += 1
        if (await svc.table(table_id)).status == "active":
            await person_move(svc, table_id, ALICE)
    assert moves > 0
    assert (await svc.table(table_id)).status == "finished"
    # Every move went through the log like anyone's: the replay gives the stored snapshot.
    assert await svc.replay(table_id)
    logged = {m.seat for m in await store.moves(table_id)}
    assert logged == {0, 1}


async def test_a_lobby_of_only_bots_is_refused(svc: TableService, store: Store) -> None:
    table_id = await open_toy(svc)
    with pytest.raises(TableError, match="at least one person"):
        await svc.bots.add_bots(table_id, ALICE, "random", count=3)
    with pytest.raises(TableError, match="Only the host"):
        await svc.bots.add_bots(table_id, BOB, "random")
    with pytest.raises(TableError, match="no bot level"):
        await svc.bots.add_bots(table_id, ALICE, "genius")
    # A lobby whose only person is gone (here: taken out behind the service's back) cannot start.
    await svc.bots.add_bots(table_id, ALICE, "random", count=2)
    async with store._transaction() as db:
        await db.execute(
            "UPDATE seats SET bot = 'random' WHERE table_id = ? AND user_id = ?", (table_id, ALICE)
        )
    with pytest.raises(TableError, match="at least one person"):
        await svc.start(table_id, ALICE)
    assert (await svc.table(table_id)).status == "lobby"


async def test_a_seat_handed_to_a_bot_and_taken_back(svc: TableService, store: Store) -> None:
    table_id = await open_toy(svc)
    await svc.join(table_id, BOB, "bob")
    await svc.start(table_id, ALICE)
    bob_seat = next(s.seat for s in await store.seats(table_id) if s.user_id == BOB)
    reply = await svc.bots.set_seat_bot(table_id, bob_seat, "basic")
    assert "basic bot plays bob's seat" in reply.board.text
    # Bob's table no longer waits on him, and a bot seat takes no person's moves.
    assert await svc.reads.waiting_on(BOB) == []
    with pytest.raises(TableError, match="rejoin"):
        await person_move(svc, table_id, BOB)
    played = await run_bots(svc, table_id)
    for reply in played:
        assert all(n.user_id != BOB for n in reply.private)
    with pytest.raises(TableError, match="at least one person"):
        await svc.bots.set_seat_bot(table_id, 1 - bob_seat, "basic")
    back = await svc.bots.set_seat_bot(table_id, bob_seat, None)
    assert back.answer == "Your seat is yours again." and "bob is back" in back.board.text
    with pytest.raises(TableError, match="A person already plays"):
        await svc.bots.set_seat_bot(table_id, bob_seat, None)
    assert [t.table.id for t in await svc.reads.waiting_on(BOB)] in ([], [table_id])
    seats = {s.user_id: s for s in await store.seats(table_id)}
    assert seats[BOB].bot is None and seats[BOB].name == "bob"


async def test_a_bot_filled_seat_has_nobody_to_give_it_back_to(svc: TableService) -> None:
    table_id = await open_toy(svc)
    await svc.bots.add_bots(table_id, ALICE, "random")
    await svc.start(table_id, ALICE)
    seats = await svc.seats(table_id)
    bot_seat = next(s.seat for s in seats if s.bot)
    with pytest.raises(TableError, match="from the start"):
        await svc.bots.set_seat_bot(table_id, bot_seat, None)
    assert await svc.bots.bot_seats(table_id) == {bot_seat: "random"}


async def test_practice_opens_a_table_with_bots_in_the_other_seats(svc: TableService) -> None:
    table = await svc.bots.practice(
        "toy", None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice", level="strong", players=3
    )
    seats = await svc.seats(table.id)
    assert [s.bot for s in seats] == [None, "strong", "strong"]
    assert [s.name for s in seats] == ["alice", "Bot (strong)", "Bot (strong) #2"]
    await svc.start(table.id, ALICE)
    assert (await svc.table(table.id)).status == "active"


async def test_a_bot_whose_move_is_refused_plays_its_first_legal_move(
    svc: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot bug (a move the rules refuse) never stalls the table: its first legal move plays."""
    from bots import levels
    from rules.contract import Move

    table_id = await open_toy(svc)
    await svc.bots.add_bots(table_id, ALICE, "random")
    await svc.start(table_id, ALICE)
    monkeypatch.setattr(levels.RandomBot, "choose", lambda self, seating, rand: Move.of("nonsense"))
    before = (await svc.table(table_id)).version
    reply = await svc.bots.next_bot_move(table_id)
    assert reply is not None and (await svc.table(table_id)).version == before + 1


async def test_a_bot_move_on_a_seat_given_back_meanwhile_is_refused(svc: TableService, store: Store) -> None:
    """A bot thinking while its person rejoins never plays the person's seat."""
    from rules.contract import Move

    table_id = await open_toy(svc)
    await svc.join(table_id, BOB, "bob")
    await svc.start(table_id, ALICE)
    bob_seat = next(s.seat for s in await store.seats(table_id) if s.user_id == BOB)
    await svc.bots.set_seat_bot(table_id, bob_seat, "basic")
    await svc.bots.set_seat_bot(table_id, bob_seat, None)
    version = (await svc.table(table_id)).version
    _, state = await store.load(table_id)
    sigil = state["hands"][bob_seat][0]
    assert await svc.bots._play_for_bot(table_id, BOB, Move.of("choose", sigil=sigil), version) is None
    assert (await svc.table(table_id)).version == version
    await svc.act(table_id, BOB, Move.of("choose", sigil=sigil))
    assert (await svc.table(table_id)).version == version + 1
