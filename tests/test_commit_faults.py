"""Faults after the commit: every step after a move is saved raises once, or the process dies there.

In the Discord stand-in, Bob's move (the one that reveals the sigils and hands the turn on) meets
a fault at each step after the store accepted it: the drawing, the composing, the time line
(the clocks read back), the board's post, the next player's DM. Either the step raises once
(the bot lives on: the board follows from the store's delivery work), or the process is killed
there (a fresh bot starts on the same database). Each time: the move counts once, the mover's
answer is true ("saved; the board will follow", never "nothing was changed"), the board with
its ping and the next player's DM arrive, every open delivery is done, and no clock runs (nor
any reminder or deadline waits) for a seat the game does not wait on.

A fault while the commit itself plans the clocks rolls the whole move back: the answer then
truly says nothing was changed, and the same move can be played again.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import re
from typing import Any

import discord
import pytest
import simcord

import render
from cogs.kit.messages import SORRY_SAVED
from rules import registry
from service import Reply
from service.clock import ManualClock
from service.compose import Composer
from service.tables import SAVED_LATER
from service.timekeeper import Timekeeper
from store.duework import DELIVERY_GRACE
from tests.async_helpers import ALICE, BOB, DAY, START, Harness
from tests.faults import Restart, Table, kept_dms, open_table, said

pytestmark = pytest.mark.usefixtures("toy_registered")


class Killed(asyncio.CancelledError):
    """The process dies here (SIGKILL): nothing of the bot's catches it, the task just ends.

    A cancellation, so the stand-in treats the dying task as gone rather than as a broken harness;
    like a kill, it runs no ``except Exception`` of ours and an open transaction rolls back.
    """


@pytest.fixture
def bot_clock() -> ManualClock:
    """The bot's hand-moved clock: the delivery work comes due when the test moves it."""
    return ManualClock(START)


def _raise_once(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, error: BaseException,
                when: Any = None) -> list[bool]:
    """Make ``owner.name`` raise ``error`` the first time ``when(*args)`` holds; return the trip flag."""
    real = getattr(owner, name)
    tripped: list[bool] = []

    def hit(args: tuple[Any, ...]) -> bool:
        if tripped or (when is not None and not when(*args)):
            return False
        tripped.append(True)
        return True

    if inspect.iscoroutinefunction(real):

        async def wrapped_async(*args: Any, **kwargs: Any) -> Any:
            if hit(args):
                raise error
            return await real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapped_async)
    else:

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if hit(args):
                raise error
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapped)
    return tripped


def _to_thread(target: Any, *args: Any) -> bool:
    return isinstance(target, discord.Thread)


def _to_a_user(target: Any, *args: Any) -> bool:
    return isinstance(target, discord.User | discord.Member | discord.DMChannel)


def _drawing_fails(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> list[bool]:
    """Give the toy game a board drawing, and make its next drawing raise (when the board is shown)."""
    monkeypatch.setitem(render._BOARDS, "toy", lambda view: b"png")
    return _raise_once(monkeypatch, render, "board", error)


STEPS: dict[str, Any] = {
    "drawing": _drawing_fails,
    "composing": lambda mp, error: _raise_once(mp, Composer, "compose", error),
    "time line": lambda mp, error: _raise_once(mp, Timekeeper, "decorate", error),
    "board post": lambda mp, error: _raise_once(mp, discord.abc.Messageable, "send", error, _to_thread),
    "next player's dm": lambda mp, error: _raise_once(mp, discord.abc.Messageable, "send", error, _to_a_user),
}
"""Each step after the commit, and how to make it fail once."""


def _sigil(label: str) -> int:
    return int(re.findall(r"\d+", label)[-1])


async def _choices(member: simcord.MemberActor, table: Table) -> list[dict[str, Any]]:
    return await member.autocomplete(table.thread, "game play", "move", "")


async def _set_up(env: simcord.Env) -> tuple[Table, simcord.MemberActor, str, simcord.MemberActor]:
    """Alice chooses her lowest sigil; return the table, Bob, his highest (the move that reveals)
    and the player who takes the turn after the reveal (the lower sigil's)."""
    table = await open_table(env, "toy", 2, "clock=fast")
    alice, bob = table.members
    low = min(await _choices(alice, table), key=lambda c: _sigil(c["name"]))
    await alice.slash(table.thread, "game play", move=low["value"])
    high = max(await _choices(bob, table), key=lambda c: _sigil(c["name"]))
    return table, bob, high["value"], alice if _sigil(high["name"]) > _sigil(low["name"]) else bob


async def _consistent(table: Table, mover: simcord.MemberActor) -> None:
    """Check the clocks and due work match whom the game waits on, and nothing is left undelivered."""
    store = table.bot.store
    assert store is not None
    table_id = await table.table_id()
    _, state = await store.load(table_id)
    rules = registry.get("toy")
    awaited = {table.members[n].id for n in rules.waiting_on(state)}
    clocks = await store.seat_clocks(table_id)
    assert {c.user_id for c in clocks if c.running_since is not None} == awaited
    later = await store.due(START + 1000 * 86400, limit=1000)
    timed = {w.user_id for w in later if w.kind in ("remind", "deadline")}
    assert timed <= awaited, (timed, awaited)
    assert await store.undelivered(table_id) is None


async def _delivered_after(table: Table, env: simcord.Env, mark: int, dms: int, player: simcord.MemberActor,
                           mover: simcord.MemberActor) -> None:
    """Check a board pinging the next player reached the thread, and (unless they moved) their DM."""
    posted = [m for m in table.public() if m.id > mark]
    assert any(f"<@{player.id}>" in m.content for m in posted), [m.content for m in posted]
    if player is not mover:
        assert len(player.user.dm_channel.history()) > dms


async def _let_due_work_run(env: simcord.Env, clock: ManualClock) -> None:
    """Move the clock past the delivery's grace and let the scheduler deliver."""
    clock.advance(DELIVERY_GRACE + 1)
    for _ in range(20):
        await env.settle()
        if await env.bot.store.undelivered(1) is None:  # type: ignore[union-attr]
            return


@pytest.mark.parametrize("step", list(STEPS))
async def test_a_step_that_fails_after_the_commit_is_delivered_later_and_answered_truly(
    simcord_env: simcord.Env, bot_clock: ManualClock, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    table, bob, move, player = await _set_up(simcord_env)
    before = await table.version()
    mark = max(m.id for m in table.public())
    dms = len(player.user.dm_channel.history())
    tripped = STEPS[step](monkeypatch, ConnectionResetError("the network dropped"))
    result = await bob.slash(table.thread, "game play", move=move)
    assert tripped, "the fault was met"
    # A failure inside the delivery reaches discord.py's error handler (logged), nothing else.
    assert all(_caused_by(e, ConnectionResetError) for e in simcord_env.errors)
    assert await table.version() == before + 1
    texts = said(result)
    assert texts and not any("nothing was changed" in t for t in texts), texts
    # Told in the service's answer (composing failed) or by the kit's apology (the post failed).
    assert any(SAVED_LATER in t or t == SORRY_SAVED for t in texts), texts
    await _let_due_work_run(simcord_env, bot_clock)
    await _delivered_after(table, simcord_env, mark, dms, player, bob)
    await _consistent(table, bob)


@pytest.mark.parametrize("step", list(STEPS))
async def test_a_kill_after_the_commit_is_delivered_by_the_next_start(
    simcord_env: simcord.Env, restart_bot: Restart, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    table, bob, move, player = await _set_up(simcord_env)
    before = await table.version()
    mark = max(m.id for m in table.public())
    dms = len(player.user.dm_channel.history())
    with monkeypatch.context() as patched, contextlib.suppress(Killed):
        tripped = STEPS[step](patched, Killed())
        await bob.slash(table.thread, "game play", move=move)
    assert tripped, "the process died at the step"
    assert all(_caused_by(e, Killed) for e in simcord_env.errors)
    await restart_bot()  # a new process: the fault died with the old one
    for _ in range(20):
        await simcord_env.settle()
        if await table.bot.store.undelivered(await table.table_id()) is None:  # type: ignore[union-attr]
            break
    assert await table.version() == before + 1
    await _delivered_after(table, simcord_env, mark, dms, player, bob)
    await _consistent(table, bob)


async def test_a_fault_while_the_commit_plans_the_clocks_changes_nothing_and_is_said_so(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, bob, move, _ = await _set_up(simcord_env)
    before = await table.version()
    clocks_before = await table.bot.store.seat_clocks(await table.table_id())  # type: ignore[union-attr]
    real = Timekeeper.timing

    def failing_timing(self: Timekeeper, *args: Any) -> Any:
        timing = real(self, *args)

        def plan(*_: Any) -> Any:
            raise ConnectionResetError("the planner failed")

        timing.plan = plan
        return timing

    with monkeypatch.context() as patched:
        patched.setattr(Timekeeper, "timing", failing_timing)
        with contextlib.suppress(ConnectionResetError):
            result = await bob.slash(table.thread, "game play", move=move)
    assert all(_caused_by(e, ConnectionResetError) for e in simcord_env.errors)
    assert await table.version() == before
    assert any("nothing was changed" in t for t in said(result))
    assert await table.bot.store.seat_clocks(await table.table_id()) == clocks_before  # type: ignore[union-attr]
    again = await bob.slash(table.thread, "game play", move=move)
    assert said(again)[0].startswith("You played")
    assert await table.version() == before + 1
    await _consistent(table, bob)


def _caused_by(error: BaseException | None, kind: type[BaseException]) -> bool:
    """Whether an error captured by the stand-in is, or was raised from, an error of a kind."""
    while error is not None:
        if isinstance(error, kind):
            return True
        error = error.__cause__ or error.__context__
    return False


# ---------------------------------------------------------------------- each DM of a delivery


def _fail_dm(monkeypatch: pytest.MonkeyPatch, index: int, moment: str, error: BaseException) -> list[bool]:
    """Make the ``index``-th DM sent from now fail once, before Discord gets it or right after."""
    real = discord.abc.Messageable.send
    dms: list[object] = []
    tripped: list[bool] = []

    async def send(target: Any, *args: Any, **kwargs: Any) -> Any:
        if tripped or not _to_a_user(target):
            return await real(target, *args, **kwargs)
        dms.append(target)
        if len(dms) - 1 != index:
            return await real(target, *args, **kwargs)
        tripped.append(True)
        if moment == "after":
            await real(target, *args, **kwargs)
        raise error

    monkeypatch.setattr(discord.abc.Messageable, "send", send)
    return tripped


async def _three_at_a_turn(env: simcord.Env) -> tuple[Table, simcord.MemberActor, str]:
    """Play a 3-player round to its consolation turn; return the table, the mover and their pass.

    The pass starts a new round: both other players are asked to choose, each by a DM of its own.
    """
    table = await open_table(env, "toy", 3, "clock=fast")
    for member in table.members:
        choices = await _choices(member, table)
        await member.slash(table.thread, "game play", move=choices[0]["value"])
    offers = [(m, await _choices(m, table)) for m in table.members]
    mover, choices = next((m, c) for m, c in offers if c)  # the lowest sigil's consolation turn
    passing = next(c for c in choices if c["name"] == "Pass")
    return table, mover, passing["value"]


@pytest.mark.parametrize("moment", ["before", "after"])
@pytest.mark.parametrize("fault", ["raise", "kill"])
@pytest.mark.parametrize("index", [0, 1])
async def test_each_dm_of_a_delivery_that_fails_or_dies_arrives_once_later(
    simcord_env: simcord.Env, restart_bot: Restart, bot_clock: ManualClock, monkeypatch: pytest.MonkeyPatch,
    index: int, fault: str, moment: str,
) -> None:
    table, mover, move = await _three_at_a_turn(simcord_env)
    others = [m for m in table.members if m is not mover]
    before = await table.version()
    start = len(simcord_env.http_requests)
    error: BaseException = Killed() if fault == "kill" else ConnectionResetError("the network dropped")
    with monkeypatch.context() as patched, contextlib.suppress(Killed):
        tripped = _fail_dm(patched, index, moment, error)
        result = await mover.slash(table.thread, "game play", move=move)
    assert tripped, "the fault was met at that DM"
    assert all(_caused_by(e, type(error)) for e in simcord_env.errors)
    assert await table.version() == before + 1
    if fault == "kill":
        await restart_bot()  # a new process: the fault died with the old one
        for _ in range(20):
            await simcord_env.settle()
            if await table.bot.store.undelivered(await table.table_id()) is None:  # type: ignore[union-attr]
                break
    else:
        texts = said(result)
        assert texts and not any("nothing was changed" in t for t in texts), texts
        await _let_due_work_run(simcord_env, bot_clock)
    # Every player the game now asks gets their DM exactly once (a DM sent again is the same
    # message to Discord), and the mover, answered on the click, gets at most one.
    for member in others:
        kept = kept_dms(simcord_env, member, start)
        assert len(kept) == 1 and "Choose a sigil" in kept[0]["content"], (member.user.name, kept)
    assert len(kept_dms(simcord_env, mover, start)) <= 1
    await _consistent(table, mover)


# ---------------------------------------------------------------------- the service on its own


async def test_a_move_and_an_undo_whose_board_fails_are_saved_and_owed_to_the_thread(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = h.svc
    assert svc is not None and h.store is not None
    table_id = await h.table(options="clock=fast")
    await h.store.delivered(table_id, 0, h.clock.now())  # the opening board went out
    choice = (await svc.reads.choices(table_id, ALICE))[0]
    with monkeypatch.context() as patched:
        _raise_once(patched, Composer, "compose", ConnectionResetError("drawing server gone"))
        reply = await svc.act(table_id, ALICE, choice.value)
    assert reply.answer == f"You played: {choice.label}. {SAVED_LATER}" and reply.board is None
    assert await h.store.undelivered(table_id) == (0, 1)
    # Alice's clock stopped with her move, in its transaction: she has nothing due.
    clocks = {c.user_id: c for c in await h.store.seat_clocks(table_id)}
    assert clocks[ALICE].running_since is None and clocks[BOB].running_since is not None
    assert {w.user_id for w in await h.store.due(START + 30 * DAY) if w.kind != "deliver"} == {BOB}
    owed = await svc.catch_up(table_id)
    assert owed is not None and owed.board is not None and owed.board.version == 1
    # Bob is asked (pinged, his note), Alice gets her own secret event of the move (her sigil).
    notes = {n.user_id: n for n in owed.private}
    assert owed.board.ping == (BOB,) and notes[BOB].waiting and notes[ALICE].events
    await svc.delivered(owed)
    assert await h.store.undelivered(table_id) is None
    await svc.play.undo(table_id, ALICE)  # her sigil was secret: Bob votes on taking it back
    topic = h.notices("vote")[-1].topic
    with monkeypatch.context() as patched:
        _raise_once(patched, Composer, "compose", ConnectionResetError("drawing server gone"))
        assert "decided" in await svc.play.vote(table_id, BOB, topic, "yes")
    taken = [m for m in h.sent if isinstance(m, Reply)][-1]
    assert taken.answer.endswith("The board will follow.") and taken.board is None
    assert await h.store.undelivered(table_id) == (1, 2)


async def test_a_delivered_mark_lost_to_a_power_cut_posts_the_board_again_and_applies_nothing(
    simcord_env: simcord.Env, restart_bot: Restart
) -> None:
    # The mark commits without an fsync of its own (store.duework.delivered): a power cut can
    # forget it while the move, committed at FULL, stays. The next start delivers the board again.
    table, bob, move, player = await _set_up(simcord_env)
    await bob.slash(table.thread, "game play", move=move)
    store = table.bot.store
    assert store is not None
    table_id = await table.table_id()
    version, logged = await table.version(), len(await store.moves(table_id))
    assert await store.undelivered(table_id) is None, "the move was delivered and marked"
    await store._db.execute(  # the power cut: the mark's commit never reached the disk
        "UPDATE due_work SET claimed_at = NULL WHERE table_id = ? AND kind = 'deliver'"
        " AND json_extract(payload, '$.version') = ?",
        (table_id, version),
    )
    mark = max(m.id for m in table.public())
    await restart_bot()
    for _ in range(20):
        await simcord_env.settle()
        if await table.bot.store.undelivered(table_id) is None:  # type: ignore[union-attr]
            break
    assert await table.bot.store.undelivered(table_id) is None  # type: ignore[union-attr]
    assert (await table.version(), len(await table.bot.store.moves(table_id))) == (version, logged)  # type: ignore[union-attr]
    posted = [m for m in table.public() if m.id > mark]
    assert any(f"<@{player.id}>" in m.content for m in posted), [m.content for m in posted]
    await _consistent(table, bob)
