"""bot.py: configuration from the environment and a log that never shows the token."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands

from bot import Config, RedactSecrets, create_bot, extensions, parse_shards

TOKEN = "MTIzNDU2Nzg5.secret-token.value"


def test_config_reads_the_environment_with_defaults() -> None:
    assert Config.from_env({}) == Config(token=None, db_path="conclave.db", dev_guild=None, log_level="INFO")
    env = {"DISCORD_TOKEN": TOKEN, "CONCLAVE_DB": "/data/c.db"}
    env |= {"CONCLAVE_DEV_GUILD": "42", "LOG_LEVEL": "debug"}
    config = Config.from_env(env)
    assert config == Config(token=TOKEN, db_path="/data/c.db", dev_guild=42, log_level="DEBUG")
    with pytest.raises(SystemExit, match="digits"):
        Config.from_env({"CONCLAVE_DEV_GUILD": "my-guild"})


def test_the_token_is_redacted_from_messages_arguments_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets([TOKEN]))
    logger = logging.getLogger("conclave.test-redaction")
    logger.addHandler(handler)
    try:
        logger.warning("logging in with %s", TOKEN)
        try:
            raise RuntimeError(f"bad token {TOKEN}")
        except RuntimeError:
            logger.exception("login failed")
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert TOKEN not in text
    assert text.count("[redacted]") == 2
    assert "login failed" in text and "RuntimeError" in text


def test_every_cog_module_with_setup_is_an_extension() -> None:
    assert "cogs.game" in extensions()
    assert "cogs.kit" not in extensions()


def test_conclave_shards_names_this_process_s_range_of_discord_shards() -> None:
    assert Config.from_env({"CONCLAVE_SHARDS": "0-3/8"}).shards == ((0, 1, 2, 3), 8)
    assert parse_shards("4,6/8") == ((4, 6), 8)
    assert parse_shards("5/8") == ((5,), 8)
    for bad in ("8/8", "0-3", "a-b/8", "3/0"):
        with pytest.raises(SystemExit, match="CONCLAVE_SHARDS"):
            parse_shards(bad)


async def test_a_sharded_bot_is_discord_s_auto_sharded_bot_and_runs_only_its_servers_work(
    tmp_path: Path,
) -> None:
    bot = create_bot(str(tmp_path / "c.db"), shards=((4, 5, 6, 7), 8))
    assert isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_ids, bot.shard_count) == ([4, 5, 6, 7], 8)
    store = await bot.open_store()
    try:
        mine = await store.create_table("toy", "t", {}, (8 + 5) << 22, 2, 1)  # a server on shard 5
        theirs = await store.create_table("toy", "t", {}, (8 + 1) << 22, 2, 1)  # on shard 1
        await store.schedule_many([("note", 1.0, f"n{t.id}", t.id, None, {}) for t in (mine, theirs)])
        assert [w.table_id for w in await store.due(2.0)] == [mine.id]
    finally:
        await store.close()
    assert not isinstance(create_bot(str(tmp_path / "c.db")), commands.AutoShardedBot)


async def test_the_discord_run_builds_one_bot_with_its_shards_and_its_web(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import bot as module

    built: list[dict[str, Any]] = []

    class Built(Exception):
        pass

    def capture(path: str, **settings: Any) -> None:
        built.append(settings)
        raise Built

    monkeypatch.setattr(module, "create_bot", capture)
    config = Config.from_env({
        "DISCORD_TOKEN": "token", "CONCLAVE_DB": str(tmp_path / "c.db"),
        "CONCLAVE_SHARDS": "0-1/4", "CONCLAVE_WEB": "127.0.0.1:8080",
    })
    with pytest.raises(Built):
        await module.run_discord(config)
    assert len(built) == 1 and built[0]["shards"] == ((0, 1), 4)
    assert built[0]["web_config"] is not None and built[0]["web_config"].port == 8080


def test_what_is_loaded_at_start_is_frozen_once_after_a_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start's heap leaves the collector's full passes (their 50 ms stalled a move), once per process."""
    import bot

    done: list[str] = []
    monkeypatch.setattr(bot, "_HEAP_SETTLED", False)
    monkeypatch.setattr(bot.gc, "collect", lambda: done.append("collect") or 0)
    monkeypatch.setattr(bot.gc, "freeze", lambda: done.append("freeze"))
    bot.settle_heap()
    bot.settle_heap()  # a second bot in the same process (a test, the bench) freezes nothing more
    assert done == ["collect", "freeze"]


async def test_a_started_bot_has_settled_its_heap(simcord_env: Any) -> None:
    import gc

    import bot

    assert bot._HEAP_SETTLED
    assert gc.get_freeze_count() > 0
