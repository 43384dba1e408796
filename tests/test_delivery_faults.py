"""Fault injection on the one delivery path: every move gets a true answer, the others their DMs.

For a move from each kind of component (``/game play``, the generic select in a DM, Argent's
panel button, select and commands, the Institute's die select, reroll picker and Confirm button),
Discord refuses the thread's posts and edits (403/50013), closes every DM (403/50007), or both.
The move counts once; the mover's answer says what happened ("the thread refused the board" only
when a board was refused, never "nothing was changed"); every newly asked seat is sent its DM;
nothing escapes to discord.py; no log line holds a hidden card. Uses the shared SimCord fault
harness in ``tests/faults.py``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import simcord

from cogs import argent, kit
from rules import registry
from tests.faults import (
    FAULT_KINDS,
    Faults,
    Table,
    hidden_names,
    open_table,
    said,
    sent_by_bot,
    trapped_logs,
    with_prefix,
)

pytestmark = pytest.mark.usefixtures("toy_registered")

SEED = 5
"""Argent with candidates=B at seed 5 starts with seat 1 drafting; the Institute rolls rerollable dice."""


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


Move = Callable[[Table], Awaitable[tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]]]
"""Set a move up (before the faults): return the mover and the call that makes the move."""


async def toy_command(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    alice = table.members[0]
    value = (await alice.autocomplete(table.thread, "game play", "move", ""))[0]["value"]
    return alice, lambda: alice.slash(table.thread, "game play", move=value)


async def toy_dm_select(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    bob = table.members[1]
    dm = bob.user.dm_channel.history()[-1]
    select = with_prefix(dm, "cc:ms:")[0]
    value = select["options"][0]["value"]
    return bob, lambda: bob.user.select(dm, [value], custom_id=select["custom_id"])


async def argent_panel_button(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    bob = table.members[1]
    board = [m for m in table.thread.history() if with_prefix(m, "ag:p:")][-1]
    panel = await bob.click(board, custom_id=with_prefix(board, "ag:p:")[0]["custom_id"])
    assert panel.response is not None
    move = with_prefix(panel.response, "ag:m:")[0]
    return bob, lambda: bob.click(panel.response, custom_id=move["custom_id"])


async def argent_panel_select(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    bob = table.members[1]
    svc = table.bot.service
    assert svc is not None
    now = await svc.reads.seat_view(await table.table_id(), bob.id)
    dm = await sent_by_bot(table.env, bob, argent.MoveSelect(now.table.id, now.version, 0, list(now.moves)))
    return bob, lambda: bob.user.select(dm, [now.moves[0].value])


async def argent_command(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    bob = table.members[1]
    value = (await bob.autocomplete(table.thread, "argent decide", "choice", ""))[0]["value"]
    return bob, lambda: bob.slash(table.thread, "argent decide", choice=value)


async def institute_panel(table: Table, seat: int) -> tuple[simcord.MemberActor, Any]:
    member = table.members[seat]
    shown = await member.slash(table.thread, "institute panel")
    assert shown.response is not None
    return member, shown.response


async def institute_die(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    alice, panel = await institute_panel(table, 0)
    die = with_prefix(panel, "ins:d:")[0]
    card = die["options"][0]["value"]
    return alice, lambda: alice.select(panel, [card], custom_id=die["custom_id"])


async def institute_reroll(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    bob, panel = await institute_panel(table, 1)
    picker = await bob.click(panel, custom_id=with_prefix(panel, "ins:r:")[0]["custom_id"])
    assert picker.response is not None
    chooser = picker.response
    select = with_prefix(chooser, "ins:rs:")[0]
    return bob, lambda: bob.select(chooser, ["2"], custom_id=select["custom_id"])


async def institute_confirm(table: Table) -> tuple[simcord.MemberActor, Callable[[], Awaitable[Any]]]:
    """Blue assigns every die, then Confirm: Red still waits, so the living board is edited."""
    for n in range(1, 5):
        bob, panel = await institute_panel(table, 1)
        select = next(c for c in with_prefix(panel, "ins:d:") if c["custom_id"].endswith(f":{n}"))
        await bob.select(panel, [select["options"][0]["value"]], custom_id=select["custom_id"])
    bob, panel = await institute_panel(table, 1)
    confirm = next(c for c in with_prefix(panel, "ins:m:") if c["custom_id"].endswith(":confirm"))
    return bob, lambda: bob.click(panel, custom_id=confirm["custom_id"])


MOVES: dict[str, tuple[str, int, str, Move]] = {
    "game play": ("toy", 2, "", toy_command),
    "generic select": ("toy", 2, "", toy_dm_select),
    "argent button": ("argent", 3, "candidates=B", argent_panel_button),
    "argent select": ("argent", 3, "candidates=B", argent_panel_select),
    "argent command": ("argent", 3, "candidates=B", argent_command),
    "institute die": ("institute", 2, "", institute_die),
    "institute reroll": ("institute", 2, "", institute_reroll),
    "institute confirm": ("institute", 2, "", institute_confirm),
}


def _thread_calls(env: simcord.Env, start: int, thread_id: int) -> list[Any]:
    """Return the bot's board posts and edits in the thread since a point of the request log."""
    found = []
    for entry in env.http_requests[start:]:
        if entry.method in ("POST", "PATCH") and entry.path.startswith(f"/channels/{thread_id}/messages"):
            body = entry.json if isinstance(entry.json, dict) else {}
            body = body.get("payload_json", body) if isinstance(body.get("payload_json"), dict) else body
            if "I can't DM you" not in (body.get("content") or ""):
                found.append(entry)
    return found


def _dm_attempts(env: simcord.Env, start: int, member: simcord.MemberActor) -> int:
    path = f"/channels/{member.user.dm_channel.id}/messages"
    return sum(1 for e in env.http_requests[start:] if e.method == "POST" and e.path == path)


@pytest.mark.parametrize("fault", sorted(FAULT_KINDS))
@pytest.mark.parametrize("name", list(MOVES))
async def test_a_move_under_faults_gets_a_true_answer_and_the_others_their_dms(
    simcord_env: simcord.Env, name: str, fault: str
) -> None:
    kind, players, options, setup = MOVES[name]
    table = await open_table(simcord_env, kind, players, options)
    rules = registry.get(kind)
    mover, move = await setup(table)
    before_state = await table.state()
    before = await table.version()
    asked_before = set(rules.pending(before_state))
    FAULT_KINDS[fault](Faults(simcord_env), table, mover)
    start = len(simcord_env.http_requests)
    with trapped_logs() as trap:
        result = await move()
    after_state = await table.state()
    # The move counted, exactly once (automatic follow-ups may add moves of their own).
    assert await table.version() > before
    texts = said(result)
    assert texts and texts[0].startswith("You played"), texts
    assert not any("nothing was changed" in t for t in texts), texts
    # The answer says whether the board was refused, and only when it was.
    refused = fault in ("thread", "both") and bool(_thread_calls(simcord_env, start, table.thread.id))
    assert (kit.BOARD_REFUSED in texts[0]) == refused, (fault, texts[0])
    # Every seat newly asked (other than the mover) was sent its DM; with DMs open it arrived.
    fresh = {p.seat for p in rules.pending(after_state) if p not in asked_before}
    for seat in fresh - {table.members.index(mover)}:
        member = table.members[seat]
        assert _dm_attempts(simcord_env, start, member) >= 1, (name, fault, seat)
    simcord_env.raise_errors()  # nothing escaped to discord.py
    secrets = hidden_names(kind, after_state, players) | hidden_names(kind, before_state, players)
    assert trap.holding(secrets) == []


async def test_joining_with_closed_dms_and_a_refusing_thread_says_what_happened(
    simcord_env: simcord.Env,
) -> None:
    guild = simcord_env.create_guild("join faults")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    await alice.slash(channel, "game new", kind="toy")
    thread = channel.threads[-1]
    faults = Faults(simcord_env)
    faults.both(thread, bob)
    joined = await bob.slash(thread, "game join")
    texts = said(joined)
    assert texts and texts[0].startswith("You joined"), texts
    assert "your seat is taken" in texts[0] and "could not DM you" in texts[0]
    assert not any("nothing was changed" in t for t in texts)
    record = await simcord_env.bot.store.table_for_thread(thread.id)  # type: ignore[union-attr]
    assert record is not None
    seats = await simcord_env.bot.store.seats(record.id)  # type: ignore[union-attr]
    assert {s.user_id: s.dm_ok for s in seats}[bob.id] is False
    simcord_env.raise_errors()


COMMANDS = {
    "game play": ("toy", 2, "", lambda t: t.members[0].slash(t.thread, "game play", move="pass")),
    "game hand": ("toy", 2, "", lambda t: t.members[0].slash(t.thread, "game hand")),
    "argent panel": ("argent", 3, "candidates=B", lambda t: t.members[1].slash(t.thread, "argent panel")),
    "argent office": ("argent", 3, "candidates=B", lambda t: t.members[1].slash(t.thread, "argent office")),
    "institute panel": ("institute", 2, "", lambda t: t.members[0].slash(t.thread, "institute panel")),
}


@pytest.mark.parametrize("name", list(COMMANDS))
async def test_commands_acknowledge_before_reading_the_database(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Discord's 3 seconds: the deferral reaches Discord before the command's first table read."""
    kind, players, options, run = COMMANDS[name]
    table = await open_table(simcord_env, kind, players, options)
    svc = table.bot.service
    assert svc is not None
    seen: list[int] = []
    real = type(svc).table_in_thread

    def callbacks() -> int:
        return sum(1 for e in simcord_env.http_requests if e.path.endswith("/callback"))

    async def watched(self: Any, thread_id: int | None) -> Any:
        seen.append(callbacks())
        return await real(self, thread_id)

    monkeypatch.setattr(type(svc), "table_in_thread", watched)
    before = callbacks()
    result = await run(table)
    assert result.response is not None and seen, name
    assert seen[0] == before + 1, "the table was read before the interaction was acknowledged"


@pytest.mark.parametrize("name", list(MOVES))
async def test_every_component_goes_through_the_commands_guard(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """An unexpected failure behind any component gets the same short answer as a command's."""
    kind, players, options, setup = MOVES[name]
    table = await open_table(simcord_env, kind, players, options)
    _, move = await setup(table)
    svc = table.bot.service
    assert svc is not None
    before = await table.version()

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the store fell over")

    monkeypatch.setattr(type(svc), "act", broken)
    result = await move()
    texts = said(result)
    assert texts and texts[-1] == kit.SORRY, texts
    assert await table.version() == before
    # The failure itself goes on to the logs (a command's error handler, or the view's).
    with contextlib.suppress(BaseExceptionGroup):
        simcord_env.raise_errors()
