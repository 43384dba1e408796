"""Starting without a network: retry with backoff, one clear line per attempt, never a traceback exit."""

from __future__ import annotations

import logging
from pathlib import Path

import aiohttp
import discord
import pytest

import bot as entry
from bot import backoff, create_bot, login_with_retry


class Offline(discord.Client):
    """A client whose first logins find no network."""

    def __init__(self, failures: list[BaseException]) -> None:
        super().__init__(intents=discord.Intents.none())
        self.failures = failures
        self.logins = 0

    async def login(self, token: str) -> None:
        self.logins += 1
        if self.failures:
            raise self.failures.pop(0)


def test_backoff_doubles_up_to_five_minutes() -> None:
    waits = backoff()
    assert [next(waits) for _ in range(10)] == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300]


async def test_no_network_at_start_is_retried_with_one_line_per_attempt(
    caplog: pytest.LogCaptureFixture,
) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    client = Offline([OSError("Network is unreachable"), aiohttp.ClientConnectionError(), TimeoutError()])
    with caplog.at_level(logging.INFO, logger="conclave"):
        await login_with_retry(client, "token", sleep=sleep)
    assert client.logins == 4 and slept == [2, 4, 8]
    lines = [r for r in caplog.records if r.name == "conclave"]
    assert [r.levelname for r in lines] == ["WARNING"] * 3 + ["INFO"]
    assert all(r.exc_info is None for r in lines)
    assert "cannot reach Discord (OSError); attempt 1 failed, retrying in 2 s" in lines[0].getMessage()


async def test_a_refused_token_is_not_retried() -> None:
    async def sleep(seconds: float) -> None:
        raise AssertionError("no retry for a refused token")

    client = Offline([discord.LoginFailure("Improper token has been passed.")])
    with pytest.raises(discord.LoginFailure):
        await login_with_retry(client, "token", sleep=sleep)
    assert client.logins == 1


async def test_the_real_bot_retries_when_its_login_cannot_connect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conclave = create_bot(str(tmp_path / "c.db"))
    calls: list[str] = []

    async def unreachable(token: str) -> None:
        calls.append(token)
        raise OSError("Temporary failure in name resolution")

    monkeypatch.setattr(conclave.http, "static_login", unreachable)
    with pytest.raises(OSError):
        await login_with_retry(conclave, "token", waits=[0, 0])
    assert len(calls) == 3
    await conclave.close()


def test_main_says_a_refused_token_in_one_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def refused(config: entry.Config, **_: object) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setattr(entry, "run_discord", refused)
    monkeypatch.setattr(entry, "setup_logging", lambda level, token: None)
    with caplog.at_level(logging.ERROR, logger="conclave"):
        assert entry.main([]) == 2
    assert "Discord refused the token" in caplog.text


async def test_a_network_error_while_syncing_commands_is_retried_without_loading_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The login retry runs ``setup_hook`` again: the cogs load once, the store opens once."""
    conclave = create_bot(str(tmp_path / "c.db"))
    opened: list[str] = []
    real_open = entry.Store.open

    async def counting_open(path: str, **kwargs: object) -> entry.Store:
        opened.append(path)
        return await real_open(path, **kwargs)  # type: ignore[arg-type]

    async def static_login(token: str) -> dict[str, object]:
        return {"id": "7", "username": "conclave", "discriminator": "0", "avatar": None}

    async def application_info() -> object:
        return type("App", (), {"id": 7, "interactions_endpoint_url": None,
                                "flags": discord.ApplicationFlags()})()

    failures = [OSError("Connection reset by peer")]
    synced: list[object] = []

    async def sync(*, guild: object = None) -> list[object]:
        if failures:
            raise failures.pop()
        synced.append(guild)
        return []

    monkeypatch.setattr(entry.Store, "open", counting_open)
    monkeypatch.setattr(conclave.http, "static_login", static_login)
    monkeypatch.setattr(conclave, "application_info", application_info)
    monkeypatch.setattr(conclave.tree, "sync", sync)
    await login_with_retry(conclave, "token", waits=[0])
    assert synced == [None] and conclave.synced
    assert len(opened) == 1
    assert set(conclave.extensions) == set(entry.extensions())
    assert conclave.service is not None and conclave.service.store is conclave.store
    await conclave.close()
