"""Conclave's entry point: configuration, logging, the store, the cogs, the command sync.

``python bot.py`` runs on Discord when ``DISCORD_TOKEN`` is set, else the local table (the same
bot and cogs against SimCord, in this terminal; see ``localtable.py``). Tests build the bot
with ``create_bot``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import importlib
import json
import logging
import os
import pkgutil
import signal
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

import web
from cogs.kit import ANSWERED, SORRY, delivery
from logpolicy import log_policy
from service import TableService
from service import metrics as numbers
from service.clock import Clock, SystemClock
from store import Store

log = logging.getLogger("conclave")

DEFAULT_DB = "conclave.db"
TREE_HASH_KEY = "command_tree_sha256"
INTENTS = discord.Intents(guilds=True)
"""Slash commands, buttons and DMs need only the guilds intent (servers, channels, threads):
no privileged intent (members, presences, message content), no message events."""
SYNC_FLAG = "--sync"
"""``python bot.py --sync`` syncs the command tree even when its hash is unchanged."""


Shards = tuple[tuple[int, ...], int]
"""The Discord shards one process runs: (shard ids, shard count)."""


def parse_shards(text: str) -> Shards:
    """Read ``CONCLAVE_SHARDS``: ``0-3/8`` (shards 0 to 3 of 8), ``4,6/8`` or ``5/8``."""
    ids_text, slash, count_text = text.replace(" ", "").partition("/")
    try:
        count = int(count_text)
        ids: set[int] = set()
        for part in ids_text.split(","):
            low, dash, high = part.partition("-")
            ids.update(range(int(low), int(high) + 1) if dash else [int(low)])
    except ValueError:
        raise SystemExit("CONCLAVE_SHARDS must look like 0-3/8 (shards 0 to 3 of 8).") from None
    if not slash or count < 1 or not ids or min(ids) < 0 or max(ids) >= count:
        raise SystemExit(f"CONCLAVE_SHARDS {text!r}: each shard must be one of 0 to {max(count, 1) - 1}.")
    return tuple(sorted(ids)), count


@dataclass(frozen=True)
class Config:
    """Settings read from the environment."""

    token: str | None
    db_path: str
    dev_guild: int | None
    log_level: str
    shards: Shards | None = None
    """CONCLAVE_SHARDS: this process's Discord shards (None: one process, discord.py's default)."""
    web: web.WebConfig | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read DISCORD_TOKEN, CONCLAVE_DB, CONCLAVE_DEV_GUILD, CONCLAVE_SHARDS, LOG_LEVEL, the web."""
        env = os.environ if env is None else env
        guild = env.get("CONCLAVE_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit("CONCLAVE_DEV_GUILD must be a guild id (digits only).")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            db_path=env.get("CONCLAVE_DB", "").strip() or DEFAULT_DB,
            dev_guild=int(guild) if guild else None,
            log_level=(env.get("LOG_LEVEL", "").strip() or "INFO").upper(),
            shards=parse_shards(shards) if (shards := env.get("CONCLAVE_SHARDS", "").strip()) else None,
            web=web.WebConfig.from_env(env),
        )


class RedactSecrets(logging.Filter):
    """Replace secrets (the bot token) in every log record that passes through a handler."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message and traceback text without the secrets."""
        if not self.secrets:
            return True
        message = record.getMessage()
        if any(s in message for s in self.secrets):
            record.msg, record.args = self._scrub(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._scrub(record.exc_text)
        return True

    def _scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text


def setup_logging(level: str, token: str | None) -> None:
    """Log to stderr at the given level, with the token redacted from every line."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets([token or ""]))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    # LOG_LEVEL is for our code; libraries stay at INFO and above, and no record holds a secret.
    log_policy(level)


def extensions() -> list[str]:
    """Return every module in cogs/ that is an extension (defines ``setup``), sorted."""
    import cogs

    found = []
    for info in pkgutil.iter_modules(cogs.__path__):
        name = f"cogs.{info.name}"
        if hasattr(importlib.import_module(name), "setup"):
            found.append(name)
    return sorted(found)


class ConclaveTree(app_commands.CommandTree):
    """The command tree, with a last-resort answer for unexpected failures."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        """Log an unexpected failure (no arguments: they may be secret) and apologise briefly."""
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("command %s failed", name, exc_info=error)
        if interaction.extras.get(ANSWERED):
            return
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(SORRY, ephemeral=True)
            else:
                await interaction.response.send_message(SORRY, ephemeral=True)


@contextlib.contextmanager
def edit_spacing(seconds: float) -> Iterator[None]:
    """Space the living board's edits by ``seconds`` inside the block (a bench sets 0)."""
    kept = delivery.EDIT_SPACING
    delivery.EDIT_SPACING = seconds
    try:
        yield
    finally:
        delivery.EDIT_SPACING = kept


class ConclaveBot(commands.Bot):
    """The bot: a store, a table service and the cogs."""

    def __init__(
        self,
        *,
        store_path: str = DEFAULT_DB,
        dev_guild: int | None = None,
        seed_source: Callable[[], int] | None = None,
        clock: Clock | None = None,
        force_sync: bool = False,
        shards: Shards | None = None,
        web_config: web.WebConfig | None = None,
    ) -> None:
        # A sharded bot (ShardedConclaveBot) hands the shard ids and count to AutoShardedClient.
        sharding = {} if shards is None else {"shard_ids": list(shards[0]), "shard_count": shards[1]}
        super().__init__(
            **sharding,
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            tree_cls=ConclaveTree,
            # Nothing pings unless a message names its users: a player called "@everyone"
            # or a role mention inside a name must not ping anyone.
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.store_path = store_path
        self.dev_guild = dev_guild
        self._seed_source = seed_source
        self.clock: Clock = clock or SystemClock()
        self.store: Store | None = None
        self.service: TableService | None = None
        self.synced = False
        self.force_sync = force_sync
        self.owned_shards = shards
        self.web_config = web_config
        self.web: web.WebServer | None = None
        """The web pages when ``web_config`` asks for them (``self.web.links`` makes their links)."""

    async def setup_hook(self) -> None:
        """Open the store, load the cogs and sync the command tree when it changed.

        Safe to run again: a network error while syncing reaches ``login_with_retry``, whose next
        login runs this hook again, so what is done already (the store, the service, each cog)
        is kept and only the rest runs.
        """
        count_refusals(self.http)
        if self.store is None:
            self.store = await self.open_store()
        if self.service is None:
            self.service = TableService(self.store, seed_source=self._seed_source, clock=self.clock)
        if self.web_config is not None and self.web is None:
            self.web = await web.start(self.service, self.web_config, discord_state=self.discord_state)
        for name in extensions():
            if name not in self.extensions:
                await self.load_extension(name)
        self.synced = await self.sync_commands()
        settle_heap()

    def discord_state(self) -> str:
        """Say how the connection to Discord stands: ready, connecting or closed (for /healthz)."""
        if self.is_closed():
            return "closed"
        return "ready" if self.is_ready() else "connecting"

    async def sync_commands(self) -> bool:
        """Sync to the dev guild (or globally) only when the tree's hash differs from the stored one.

        The hash covers the application id too: the same database under another application (a
        new bot token) syncs, since that application has never seen the commands. ``force_sync``
        (``bot.py --sync``) syncs whatever the hash says.
        """
        assert self.store is not None
        guild = discord.Object(self.dev_guild) if self.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = tree_digest(self.tree, guild, self.application_id)
        key = f"{TREE_HASH_KEY}:{self.dev_guild or 'global'}"
        if not self.force_sync and await self.store.get_meta(key) == digest:
            log.info("command tree unchanged: no sync")
            return False
        await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info("command tree synced %s", f"to guild {self.dev_guild}" if guild else "globally")
        return True

    async def open_store(self) -> Store:
        """Open the store ``CONCLAVE_DB`` names; a sharded process runs only its servers' due work."""
        store = await Store.open(self.store_path, clock=self.clock.now)
        if self.owned_shards is not None:
            store.own_shards(*self.owned_shards)
        return store

    async def close_store(self) -> None:
        """Stop the web pages and the scheduler, then close the store (idempotent)."""
        if self.web is not None:
            server, self.web = self.web, None
            await server.stop()
        if self.service is not None:
            await self.service.scheduler.stop()
        if self.store is not None:
            store, self.store = self.store, None
            await store.close()

    async def close(self) -> None:
        """Disconnect from Discord, then close the store."""
        try:
            await super().close()
        finally:
            await self.close_store()


def count_refusals(http: Any) -> None:
    """Count every Discord call refused, by status and code, at the one place all of them pass."""
    request = http.request
    if getattr(request, "counted", False):  # the hook ran before (a login retried)
        return

    async def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            return await request(*args, **kwargs)
        except discord.HTTPException as exc:
            numbers.discord_error(exc.status, exc.code)
            raise

    counted.counted = True  # type: ignore[attr-defined]
    http.request = counted


def tree_digest(
    tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None, application_id: int | None
) -> str:
    """Return the hash that decides syncing: the application's id and every command of the tree."""
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    text = json.dumps({"application": application_id, "commands": payload}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


_HEAP_SETTLED = False


def settle_heap() -> None:
    """Keep what is loaded at start out of the collector's full passes (once per process).

    The modules, the games' card data and the cogs live as long as the process; a full pass
    walked them all again (50-60 ms) and stalled the event loop in the middle of a move: the
    e2e p99 (docs/performance.md). Garbage left so far is collected first, so none is kept
    for good.
    """
    global _HEAP_SETTLED
    if _HEAP_SETTLED:
        return
    _HEAP_SETTLED = True
    gc.collect()
    gc.freeze()


def create_bot(
    store_path: str = DEFAULT_DB,
    *,
    dev_guild: int | None = None,
    seed_source: Callable[[], int] | None = None,
    clock: Clock | None = None,
    force_sync: bool = False,
    shards: Shards | None = None,
    web_config: web.WebConfig | None = None,
) -> ConclaveBot:
    """Build the bot (not yet connected); tests and the local table use this too.

    ``clock`` is the service's clock (default: the wall clock); the local table passes a
    ManualClock so ``wait 2d`` moves time. ``force_sync`` syncs the commands at start whatever
    their hash. ``shards`` (CONCLAVE_SHARDS) makes it discord.py's AutoShardedBot on those shards;
    ``web_config`` serves the web pages in the same process.
    """
    kind = ConclaveBot if shards is None else ShardedConclaveBot
    return kind(
        store_path=store_path,
        dev_guild=dev_guild,
        seed_source=seed_source,
        clock=clock,
        force_sync=force_sync,
        shards=shards,
        web_config=web_config,
    )


class ShardedConclaveBot(ConclaveBot, commands.AutoShardedBot):
    """The bot on a range of Discord's shards (one of several processes sharing a PostgreSQL store)."""


async def run_discord(config: Config, *, force_sync: bool = False) -> None:
    """Run on Discord until SIGINT or SIGTERM, then close cleanly."""
    bot = create_bot(
        config.db_path, dev_guild=config.dev_guild, force_sync=force_sync, shards=config.shards,
        web_config=config.web,
    )
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        # Windows has no add_signal_handler; Ctrl+C still raises KeyboardInterrupt there.
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        assert config.token is not None
        await login_with_retry(bot, config.token)
        # Once logged in, discord.py reconnects by itself (with its own backoff).
        await bot.connect(reconnect=True)
    log.info("stopped cleanly")


RETRY_FIRST = 2.0
RETRY_MOST = 300.0
"""Waits between attempts to reach Discord at start: 2 s, doubling, at most 5 minutes."""
UNREACHABLE = (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord.GatewayNotFound)
"""What no network (or a Discord outage) looks like at login; a refused token is not among them."""


def backoff(first: float = RETRY_FIRST, most: float = RETRY_MOST) -> Iterator[float]:
    """Yield the waits between attempts: doubling from ``first`` up to ``most``, forever."""
    wait = first
    while True:
        yield wait
        wait = min(most, wait * 2)


async def login_with_retry(
    client: discord.Client,
    token: str,
    *,
    waits: Iterable[float] | None = None,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Log in to Discord, retrying with backoff while the network (or Discord) cannot be reached.

    Each failed attempt logs one line (no traceback); a refused token is raised at once.
    """
    for attempt, wait in enumerate(backoff() if waits is None else waits, start=1):
        try:
            await client.login(token)
            if attempt > 1:
                log.info("reached Discord after %d attempts", attempt)
            return
        except UNREACHABLE as exc:
            log.warning(
                "cannot reach Discord (%s); attempt %d failed, retrying in %.0f s",
                type(exc).__name__,
                attempt,
                wait,
            )
            await sleep(wait)
    await client.login(token)


def main(argv: list[str] | None = None) -> int:
    """Run the bot on Discord with a token (``--sync``: sync the commands at start), else the local table."""
    args = sys.argv[1:] if argv is None else list(argv)
    force_sync = SYNC_FLAG in args
    args = [a for a in args if a != SYNC_FLAG]
    config = Config.from_env()
    if config.token:
        setup_logging(config.log_level, config.token)
        try:
            asyncio.run(run_discord(config, force_sync=force_sync))
        except discord.LoginFailure:
            log.error("Discord refused the token: check DISCORD_TOKEN (Developer Portal → Bot → Token).")
            return 2
        return 0
    import localtable

    # The terminal is the local table's screen: only warnings, and none of discord.py's
    # notes about voice support, unless LOG_LEVEL asks for more.
    setup_logging(os.environ.get("LOG_LEVEL", "WARNING").upper(), None)
    logging.getLogger("discord").setLevel(logging.ERROR)
    if force_sync:
        log.warning("--sync needs DISCORD_TOKEN: the local table has no commands to sync")
    return localtable.main(args, create_bot)


if __name__ == "__main__":
    sys.exit(main())
