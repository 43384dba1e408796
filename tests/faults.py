"""Fault injection and bursts in SimCord, shared by the reliability and delivery tests.

- ``open_table(env, kind, players, options)`` seats players at a started table in a thread.
- ``at_once(env)`` / ``burst(env, n, fire)`` dispatch many interactions before the bot handles
  any of them, so they truly race (SimCord settles after every action otherwise).
- ``Faults(env)`` makes Discord refuse what a bot meets in the wild: a thread that refuses posts
  (403/50013), closed DMs (403/50007), or both at once.
- ``LogTrap`` records every log line at DEBUG through the bot's own logging policy, and
  ``hidden_names`` finds the card names a seat's private view holds that the public view does not,
  so a test can prove that no log line holds a secret.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord

from bot import ConclaveBot
from logpolicy import log_policy
from rules import registry
from store import TableRecord

Restart = Callable[[], Awaitable[ConclaveBot]]
"""The ``restart_bot`` fixture: start a new bot on the same database (a process after a crash)."""
MISSING_PERMISSIONS = 50013
"""Discord's code for a post the bot may not make (a locked thread, a removed permission)."""
CANNOT_DM = 50007
"""Discord's code for 'Cannot send messages to this user' (closed DMs)."""


@dataclass
class Lobby:
    """The channel where a module's tables open, and the bot under test (its ``World`` adds members)."""

    env: simcord.Env
    channel: simcord.ChannelHandle

    @property
    def bot(self) -> ConclaveBot:
        """Return the bot under test (the newest, after a restart)."""
        return self.env.bot  # type: ignore[return-value]

    def thread(self) -> simcord.ChannelHandle:
        """Return the newest table thread of the channel."""
        return self.channel.threads[-1]


@dataclass
class Table:
    """A started table: its thread, its players by seat, and someone who does not play."""

    env: simcord.Env
    channel: simcord.ChannelHandle
    thread: simcord.ChannelHandle
    members: list[simcord.MemberActor]
    """Indexed by seat."""
    outsider: simcord.MemberActor

    @property
    def bot(self) -> ConclaveBot:
        """Return the bot under test."""
        return self.env.bot  # type: ignore[return-value]

    async def table_id(self) -> int:
        """Return the table's id."""
        assert self.bot.store is not None
        record = await self.bot.store.table_for_thread(self.thread.id)
        assert record is not None
        return record.id

    async def version(self) -> int:
        """Return the table's version (the number of moves applied)."""
        assert self.bot.store is not None
        record = await self.bot.store.table_for_thread(self.thread.id)
        assert record is not None
        return record.version

    async def state(self) -> dict[str, Any]:
        """Return the stored snapshot."""
        return (await self.loaded())[1]

    async def loaded(self) -> tuple[TableRecord, dict[str, Any]]:
        """Return the stored table record and snapshot."""
        assert self.bot.store is not None
        return await self.bot.store.load(await self.table_id())

    def public(self) -> list[Any]:
        """Return the thread's public messages (ephemeral answers left out)."""
        return [m for m in self.thread.history() if not m.flags.ephemeral]


NAMES = ("alice", "bob", "carol", "erin", "frank")


async def open_table(
    env: simcord.Env, kind: str, players: int = 2, options: str = "", *, closed_dm: str | None = None
) -> Table:
    """Open a table of a kind in a new guild, seat ``players`` members, start it; members by seat.

    ``closed_dm`` names a player whose DMs are closed from the start (Discord answers 50007).
    """
    guild = env.create_guild(f"{kind} faults")
    channel = guild.create_text_channel("tables")
    people = [guild.add_member(env.create_user(name)) for name in NAMES[:players]]
    outsider = guild.add_member(env.create_user("dave"))
    if closed_dm:
        dm = people[NAMES.index(closed_dm)].user.dm_channel
        env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=CANNOT_DM, times=None)
    await people[0].slash(channel, "game new", kind=kind, **({"options": options} if options else {}))
    thread = channel.threads[-1]
    for member in people[1:]:
        await member.slash(thread, "game join")
    started = await people[0].slash(thread, "game start")
    assert started.response is not None and started.response.content == "The game has begun."
    assert env.bot.store is not None
    record = await env.bot.store.table_for_thread(thread.id)
    assert record is not None
    seats = sorted(await env.bot.store.seats(record.id), key=lambda s: s.seat)
    by_id = {m.id: m for m in people}
    return Table(env, channel, thread, [by_id[s.user_id] for s in seats], outsider)


def components(message: Any) -> list[dict[str, Any]]:
    """Return a message's buttons and selects as raw dicts (thread messages hold discord.py objects)."""
    found = []
    for row in message.components:
        if isinstance(row, dict):
            found.extend(row["components"])
        else:
            found.extend(child.to_dict() for child in row.children)
    return found


def with_prefix(message: Any, prefix: str) -> list[dict[str, Any]]:
    """Return a message's components whose custom id starts with a prefix (e.g. ``ins:d:``)."""
    return [c for c in components(message) if c.get("custom_id", "").startswith(prefix)]


# ---------------------------------------------------------------------- racing interactions


@contextlib.asynccontextmanager
async def at_once(env: simcord.Env) -> AsyncIterator[None]:
    """Dispatch every interaction made inside without letting the bot run; settle once after.

    SimCord settles the bot after each action; held back, the interactions all wait in the loop
    and then run together, as 50 clicks arriving within one gateway burst would.
    """
    settle = env._settle_internal

    async def later(*args: Any, **kwargs: Any) -> None:
        return None

    env._settle_internal = later  # type: ignore[method-assign]
    try:
        yield
    finally:
        del env._settle_internal
        assert env._settle_internal == settle
    await env.settle()


async def burst(
    env: simcord.Env, n: int, fire: Callable[[], Awaitable[simcord.InteractionResult]]
) -> list[simcord.InteractionResult]:
    """Fire the same interaction ``n`` times at once; return every result (read them after)."""
    async with at_once(env):
        return [await fire() for _ in range(n)]


async def sent_by_bot(
    env: simcord.Env, to: simcord.MemberActor | simcord.ChannelHandle, *items: discord.ui.Item[Any]
) -> Any:
    """Have the bot send a message holding these components (to a member's DMs or a channel).

    discord.py only dispatches a click whose component is on the message it came from, so a
    test that needs a component no screen shows yet (a select of many moves) has the bot send it.
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    bot = env.bot
    if isinstance(to, simcord.MemberActor):
        user = bot.get_user(to.id) or await bot.fetch_user(to.id)
        sent = await user.send("components under test", view=view)
    else:
        channel = bot.get_channel(to.id) or await bot.fetch_channel(to.id)
        sent = await channel.send("components under test", view=view)  # type: ignore[union-attr]
    view.stop()
    await env.settle()
    stored = to.user.dm_channel if isinstance(to, simcord.MemberActor) else to
    return next(m for m in reversed(stored.history()) if m.id == sent.id)


def said(result: simcord.InteractionResult) -> list[str]:
    """Return every text the bot answered an interaction with (response, edits and follow-ups)."""
    texts = []
    if result.response is not None and result.response.content:
        texts.append(result.response.content)
    texts.extend(m.content for m in result.followups if m.content)
    return texts


# ---------------------------------------------------------------------- refusing Discord


@dataclass
class Faults:
    """Make SimCord refuse the bot's posts: in a thread, to some users' DMs, or both."""

    env: simcord.Env
    injected: list[str] = field(default_factory=list)

    def refuse_thread_posts(self, thread: simcord.ChannelHandle) -> None:
        """Every message the bot posts (or edits: the living board) in the thread fails with 403."""
        path = f"/channels/{thread.id}/messages"
        self.env.inject_error("POST", path, status=403, code=MISSING_PERMISSIONS, times=None)
        edits = f"{path}/*"
        self.env.inject_error("PATCH", edits, status=403, code=MISSING_PERMISSIONS, times=None)
        self.injected += [path, edits]

    def close_dms(self, *members: simcord.MemberActor) -> None:
        """Every DM to these members fails with 403 'Cannot send messages to this user'."""
        for member in members:
            path = f"/channels/{member.user.dm_channel.id}/messages"
            self.env.inject_error("POST", path, status=403, code=CANNOT_DM, times=None)
            self.injected.append(path)

    def both(self, thread: simcord.ChannelHandle, *members: simcord.MemberActor) -> None:
        """The thread refuses posts and these members' DMs are closed."""
        self.refuse_thread_posts(thread)
        self.close_dms(*members)

    def clear(self) -> None:
        """Lift every fault injected through this helper."""
        faults = self.env.backend.faults
        faults[:] = [f for f in faults if f["path"] not in self.injected]
        self.injected.clear()


FAULT_KINDS: dict[str, Callable[[Faults, Table, simcord.MemberActor], None]] = {
    "thread": lambda f, t, mover: f.refuse_thread_posts(t.thread),
    "dms": lambda f, t, mover: f.close_dms(*t.members),
    "both": lambda f, t, mover: f.both(t.thread, *t.members),
}
"""Each fault a test can run a move under, by name (for ``pytest.mark.parametrize``)."""


# ---------------------------------------------------------------------- secrets in the log


class LogTrap(logging.Handler):
    """Record every log line, formatted with its traceback, from every logger (at DEBUG)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the formatted line."""
        self.lines.append(self.format(record))

    def holding(self, values: Iterable[str]) -> list[tuple[str, str]]:
        """Return (value, line) for each value found in a recorded line."""
        return [(v, line) for line in self.lines for v in values if v in line]


@contextlib.contextmanager
def trapped_logs(level: str = "DEBUG") -> Iterator[LogTrap]:
    """Apply the bot's logging policy at ``level`` and record every line that reaches the root."""
    trap = LogTrap()
    root = logging.getLogger()
    # The policy changes levels and filters process-wide: put every one back for the next test.
    loggers = [root, *(logging.getLogger(name) for name in list(logging.Logger.manager.loggerDict))]
    saved = [(lg, lg.level, list(lg.filters)) for lg in loggers]
    handlers = [(h, list(h.filters)) for h in root.handlers]
    root.addHandler(trap)
    log_policy(level)
    try:
        yield trap
    finally:
        root.removeHandler(trap)
        for logger, lvl, filters in saved:
            logger.setLevel(lvl)
            logger.filters[:] = filters
        for handler, filters in handlers:
            handler.filters[:] = filters


def card_names(kind: str) -> set[str]:
    """Return the names of a kind's cards (empty when the game indexes none)."""
    index = getattr(registry.get(kind), "card_index", None)
    return set(index()) if index else set()


def strings(data: Any) -> set[str]:
    """Return every string anywhere in JSON data (keys included)."""
    found: set[str] = set()
    if isinstance(data, str):
        found.add(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            found |= strings(key) | strings(value)
    elif isinstance(data, list | tuple):
        for value in data:
            found |= strings(value)
    return found


def hidden_names(kind: str, state: dict[str, Any], players: int) -> set[str]:
    """Return card names that some seat's private view holds and the public view does not."""
    rules = registry.get(kind)
    names = card_names(kind)
    public = json.dumps(rules.view(state, None))
    private: set[str] = set()
    for seat in range(players):
        private |= {s for s in strings(rules.view(state, seat)) if s in names}
    return {name for name in private if name not in public}


def kept_dms(env: simcord.Env, member: simcord.MemberActor, start: int = 0) -> list[dict[str, Any]]:
    """Return the DMs to a member Discord keeps since a point of the request log.

    Discord drops a message whose nonce it accepted within the last minutes when the sender sets
    ``enforce_nonce`` (a send again after a kill); SimCord records every post, so this applies
    the rule to the log.
    """
    path = f"/channels/{member.user.dm_channel.id}/messages"
    seen: set[str] = set()
    kept = []
    for entry in env.http_requests[start:]:
        if entry.method != "POST" or entry.path != path:
            continue
        body = entry.json if isinstance(entry.json, dict) else {}
        body = body.get("payload_json", body) if isinstance(body.get("payload_json"), dict) else body
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            if nonce in seen:
                continue
            seen.add(nonce)
        kept.append(body)
    return kept
