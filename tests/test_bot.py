"""bot.py: configuration from the environment and a log that never shows the token."""

from __future__ import annotations

import io
import logging

import pytest

from bot import Config, RedactSecrets, extensions

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
