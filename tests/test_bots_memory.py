"""A bot seat's private memory: fed every view, kept with each move and across a restart, seeing a
view twice changes nothing, a takeover starts afresh, and nothing of it is ever shown.

Wizard's Academy is the game whose bots remember (a cast shows a spell for that turn only).
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace

import pytest

from bots import BasicBot, Memory, StrongBot, bot_rng, keeps_memory, make_bot, observe, remember
from bots.games import academy as book
from bots.games.academy_policy import BAD
from rules.academy import RULES
from rules.academy.state import slot_level
from rules.contract import Move, State
from service import TableError
from service.replies import Reply
from tests.academy_helpers import calm
from tests.async_helpers import ALICE, BOB, NAMES, Harness

OPTIONS = "scenario=basic"


async def open_academy(h: Harness, people: tuple[int, ...] = (ALICE,), bots: int = 1) -> int:
    """Start a basic Academy game for the people (the host first) and ``bots`` basic bots."""
    assert h.svc is not None
    record = await h.svc.open_table(
        "academy", OPTIONS, guild_id=1, channel_id=2, host_id=people[0], host_name=NAMES[people[0]]
    )
    for user in people[1:]:
        await h.svc.join(record.id, user, NAMES[user])
    if bots:
        await h.svc.bots.add_bots(record.id, people[0], "basic", bots)
    await h.svc.start(record.id, people[0])
    return record.id


async def play(h: Harness, table_id: int, moves: int, replies: list[Reply] | None = None) -> None:
    """Play up to ``moves`` moves: a bot's when the game waits on one, else a person's (basic's choice)."""
    assert h.svc is not None and h.store is not None
    for n in range(moves):
        if (await h.svc.table(table_id)).status != "active":
            return
        reply = await h.svc.bots.next_bot_move(table_id)
        if reply is None:
            _, state = await h.store.load(table_id)
            seat = RULES.waiting_on(state)[0]
            user = next(s.user_id for s in await h.store.seats(table_id) if s.seat == seat)
            move = BasicBot().choose(observe(RULES, state, seat), bot_rng("person", n))
            reply = await h.svc.act(table_id, user, move)
        if replies is not None:
            replies.append(reply)


async def replayed_memory(h: Harness, table_id: int, seat: int) -> Memory:
    """Return what the seat remembers when it sees every state of the logged game (the arena's way)."""
    assert h.store is not None
    record = await h.store.table(table_id)
    assert record is not None and record.seed is not None
    players = len([s for s in await h.store.seats(table_id) if s.seat is not None])
    state = RULES.setup(players, {"scenario": "basic"}, record.seed)
    memory = remember(RULES, state, seat, None)
    for m in await h.store.moves(table_id):
        state, _ = RULES.apply(state, m.seat, Move.from_json(m.move))
        memory = remember(RULES, state, seat, memory)
    return memory


def remembered_after_the_reveal(memory: Memory, state: State) -> bool:
    """Whether the memory holds a face-down spell that the board no longer shows."""
    shown = (state["reveal"] or {}).get("slot")
    return any(slot != shown and not state["slots"][slot]["bound"] for slot in memory.get("known", {}))


async def test_the_service_keeps_a_bots_memory_with_every_move_and_across_a_restart(h: Harness) -> None:
    table_id = await open_academy(h)
    assert h.store is not None
    bot_seat = next(s.seat for s in await h.store.seats(table_id) if s.bot)
    for _ in range(40):
        await play(h, table_id, 10)
        _, state = await h.store.load(table_id)
        kept = (await h.store.bot_memories(table_id)).get(bot_seat, {})
        if remembered_after_the_reveal(kept, state) or state["over"]:
            break
    assert remembered_after_the_reveal(kept, state), "the bot never had a reveal to remember"
    # Fed exactly the views the seat was shown, move by move (the arena's path gives the same).
    assert kept == await replayed_memory(h, table_id, bot_seat)
    await h.restart()
    assert (await h.store.bot_memories(table_id))[bot_seat] == kept
    await play(h, table_id, 30)
    assert (await h.store.bot_memories(table_id))[bot_seat] == await replayed_memory(h, table_id, bot_seat)


async def test_a_move_refused_as_stale_changes_no_memory(h: Harness) -> None:
    table_id = await open_academy(h)
    assert h.svc is not None and h.store is not None
    await play(h, table_id, 25)
    while await h.svc.bots.next_bot_move(table_id) is not None:
        pass  # now the game waits on alice
    record, state = await h.store.load(table_id)
    before = await h.store.bot_memories(table_id)
    assert before, "the bot has seen moves"
    seat = RULES.waiting_on(state)[0]
    move = BasicBot().choose(observe(RULES, state, seat), bot_rng(1))
    with pytest.raises(TableError):
        await h.svc.act(table_id, ALICE, move, expected_version=record.version - 1)
    assert await h.store.bot_memories(table_id) == before
    await h.svc.act(table_id, ALICE, move, expected_version=record.version)
    assert (await h.store.bot_memories(table_id)) == {
        n: remember(RULES, (await h.store.load(table_id))[1], n, m) for n, m in before.items()
    }


async def test_a_bot_taking_an_absent_players_seat_starts_with_an_empty_memory(h: Harness) -> None:
    table_id = await open_academy(h, people=(ALICE, BOB), bots=0)
    assert h.svc is not None and h.store is not None
    await play(h, table_id, 20)
    assert await h.store.bot_memories(table_id) == {}  # no bot: nothing kept
    await h.svc.bots.set_seat_bot(table_id, 1, "basic")
    await play(h, table_id, 40)
    _, state = await h.store.load(table_id)
    kept = (await h.store.bot_memories(table_id))[1]
    # It saw only the views since the takeover: its shuffle counts and spells are no older.
    assert set(kept) >= {"known", "shuffles"}
    assert kept["shuffles"] == state["shuffles"]
    await h.svc.bots.set_seat_bot(table_id, 1, None)  # bob is back: the bot's memory goes with it
    assert await h.store.bot_memories(table_id) == {}


async def test_a_bots_memory_is_never_posted_logged_or_sent(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "SECRET-MEMORY-7f3a"
    learn = book.PLAYBOOK.remember
    assert learn is not None

    def marked(rules: object, view: dict, seat: int, memory: Memory) -> None:
        learn(rules, view, seat, memory)  # type: ignore[arg-type]
        memory["note"] = secret

    monkeypatch.setattr(book.PLAYBOOK, "remember", marked)
    caplog.set_level(logging.DEBUG)
    table_id = await open_academy(h)
    replies: list[Reply] = []
    await play(h, table_id, 60, replies)
    assert h.store is not None
    assert any(m.get("note") == secret for m in (await h.store.bot_memories(table_id)).values())
    shown = [replace(r, board=replace(r.board, picture=None) if r.board else None) for r in replies]
    assert replies and not any(secret in repr(r) for r in shown)
    assert not any(secret in repr(n) for n in h.sent)
    # Conclave's own log lines (the SQL driver's debug log echoes every stored value, snapshots too).
    ours = [r.getMessage() for r in caplog.records if r.name.startswith("conclave")]
    assert ours and not any(secret in line for line in ours)


def states_of_a_game(seed: int, count: int) -> list[tuple[State, int, Memory]]:
    """Return decision points of a 2-player basic game of basic bots, with the waiting seat's memory."""
    state = RULES.setup(2, {"scenario": "basic"}, seed)
    memories: dict[int, Memory] = {0: {}, 1: {}}
    found: list[tuple[State, int, Memory]] = []
    plies = 0
    while not RULES.is_over(state) and len(found) < count:
        seat = RULES.waiting_on(state)[0]
        memory = memories[seat]
        if plies % 5 == 2 and memory.get("known") and len(RULES.legal_moves(state, seat)) > 1:
            found.append((state, seat, memory))
        move = BasicBot().choose(observe(RULES, state, seat, memory), bot_rng(plies))
        state, _ = RULES.apply(state, seat, move)
        memories = {s: remember(RULES, state, s, m) for s, m in memories.items()}
        plies += 1
    return found


def test_seeing_the_same_view_twice_changes_nothing() -> None:
    assert keeps_memory("academy") and not keeps_memory("institute")
    state = RULES.setup(2, {"scenario": "basic"}, 3)
    memory: Memory = {}
    rand = random.Random(3)
    for _ in range(150):
        if RULES.is_over(state):
            break
        once = remember(RULES, state, 0, memory)
        assert remember(RULES, state, 0, once) == once
        memory = once
        seat = RULES.waiting_on(state)[0]
        state, _ = RULES.apply(state, seat, rand.choice(RULES.legal_moves(state, seat)))


def test_same_view_and_same_memory_give_the_same_choice_whatever_the_hidden_spells() -> None:
    points = states_of_a_game(seed=7, count=4)
    assert points, "the game never reached a decision with something remembered"
    for n, (state, seat, memory) in enumerate(points):
        for k in range(2):
            other = RULES.scramble(state, seat, random.Random(100 * n + k))
            assert RULES.view(other, seat) == RULES.view(state, seat)
            for bot in (make_bot("random"), BasicBot(), StrongBot(iterations=4)):
                real = bot.choose(observe(RULES, state, seat, memory), bot_rng(n, bot.level))
                fake = bot.choose(observe(RULES, other, seat, memory), bot_rng(n, bot.level))
                assert real == fake, bot.level


def test_a_sample_keeps_every_spell_the_seat_remembers() -> None:
    for state, seat, memory in states_of_a_game(seed=5, count=3):
        for k in range(3):
            sample = observe(RULES, state, seat, memory).sample(random.Random(k))
            for slot, spell in memory["known"].items():
                assert sample["slots"][slot]["spell"] == spell == state["slots"][slot]["spell"]


def seen_cast() -> tuple[dict, str, str, dict]:
    """Return a calm 2-player table where seat 1 cast a level 1 spell, its slot, the spell, and what
    seat 0 remembers of it."""
    s = calm(players=2)
    slot, spell = next(
        (k, v["spell"]) for k, v in sorted(s["slots"].items()) if slot_level(k) == 1 and v["spell"] not in BAD
    )
    s["reveal"] = {"slot": slot, "spell": spell, "seat": 1, "turn": s["turn"], "how": "cast"}
    return s, slot, spell, remember(RULES, s, 0, None)


def test_basic_binds_a_spell_it_saw_cast_on_an_earlier_turn() -> None:
    """A cast shows a spell for its turn only (memory=strict); the bot remembers it and binds it later."""
    s, slot, spell, memory = seen_cast()
    assert memory["known"] == {slot: spell}
    # Turns later the board shows nothing of it, and seat 0 stands in the Library.
    s.update(reveal=None, turn=s["turn"] + 2)
    s["wizards"][0]["room"] = "library"
    assert next(x for x in RULES.view(s, 0)["spells"] if x["id"] == slot)["spell"] is None
    memory = remember(RULES, s, 0, memory)
    move = BasicBot().choose(observe(RULES, s, 0, memory), random.Random(1))
    assert move == Move.of("bind", slot=slot, spell=spell)
    # Without the memory it would not name that spell there.
    assert BasicBot().choose(observe(RULES, s, 0), random.Random(1)) != move


def test_a_shuffled_level_is_forgotten() -> None:
    s = calm(players=2)
    slot = next(k for k, v in s["slots"].items() if k.split("-")[1] in "123" and v["spell"])
    spell = s["slots"][slot]["spell"]
    s["reveal"] = {"slot": slot, "spell": spell, "seat": 1, "turn": s["turn"], "how": "cast"}
    memory = remember(RULES, s, 0, None)
    assert slot in memory["known"]
    s["reveal"] = None
    s["shuffles"] = [1, 0, 0, 0]  # a wrong guess in the Library shuffled level 1
    assert remember(RULES, s, 0, memory)["known"] == {}


def test_the_searchs_playouts_carry_what_the_seat_remembers() -> None:
    s, slot, spell, memory = seen_cast()
    s.update(reveal=None, turn=s["turn"] + 2)
    s["wizards"][0]["room"] = "library"
    sample = observe(RULES, s, 0, memory).sample(random.Random(4))
    legal = RULES.legal_moves(sample, 0)
    bind = Move.of("bind", slot=slot, spell=spell)
    assert book.rollout_policy(RULES, sample, 0, legal, random.Random(1)) == bind
    blank = observe(RULES, s, 0).sample(random.Random(4))
    assert book.rollout_policy(RULES, blank, 0, legal, random.Random(1)).action != "bind"
