"""`/game web` and the web server in the bot's own process, against SimCord (issue 30)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import aiohttp
import pytest
import simcord

from bot import ConclaveBot, create_bot
from service import metrics as numbers
from web import WebConfig

pytestmark = pytest.mark.usefixtures("toy_registered")


@pytest.fixture
async def simcord_bot(db_path: str, table_seed: int) -> AsyncIterator[ConclaveBot]:
    """The bot with its web pages on an ephemeral local port."""
    bot = create_bot(db_path, seed_source=lambda: table_seed, web_config=WebConfig("127.0.0.1", 0))
    yield bot
    await bot.close_store()


@pytest.fixture
def guild(simcord_env: simcord.Env) -> simcord.Guild:
    return simcord_env.create_guild("Web Test")


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


async def test_game_web_answers_privately_with_the_table_page_and_the_askers_own_seat(
    simcord_env: simcord.Env, guild: simcord.Guild
) -> None:
    channel = guild.create_text_channel("tables")
    alice, bob, carol = (guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol"))
    await alice.slash(channel, "game new", kind="toy")
    thread = channel.threads[-1]
    await bob.slash(thread, "game join")
    await alice.slash(thread, "game start")
    said = await bob.slash(thread, "game web")
    assert said.ephemeral and said.response is not None
    urls = re.findall(r"http://127\.0\.0\.1:\d+/\S+", said.response.content)
    assert len(urls) == 2 and "/t/" in urls[0] and f"/seat/1/{bob.id}/" in urls[1]
    status, page = await _get(urls[0])
    assert status == 200 and "bob" in page
    status, mine = await _get(urls[1])
    assert status == 200 and "Your private view" in mine
    # Carol has no seat: the table's page only.
    seen = await carol.slash(thread, "game web")
    assert seen.response is not None and "/seat/" not in seen.response.content
    assert "/t/" in seen.response.content
    # The server's page is off until its moderators turn it on.
    assert "This server's tables" not in said.response.content
    health = await _get(urls[0].split("/t/")[0] + "/healthz")
    assert health[0] == 200 and '"discord": "ready"' in health[1]


async def test_discord_refusals_are_counted_by_code(simcord_env: simcord.Env, guild: simcord.Guild) -> None:
    channel = guild.create_text_channel("tables")
    alice, bob = (guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob"))
    counted = numbers.DISCORD_ERRORS.labels(status="403", code="50007")
    before = counted._value.get()
    simcord_env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007,
                             times=None)
    await alice.slash(channel, "game new", kind="toy")
    await bob.slash(channel.threads[-1], "game join")
    assert counted._value.get() > before
