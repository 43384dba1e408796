"""Long answers are paged or say what was left out; a refusal quotes only a short excerpt of the input."""

from __future__ import annotations

import pytest
import simcord

from cogs.kit import CONTENT_LIMIT, fit_message
from cogs.kit.lists import page_of, pages
from tests.faults import open_table, said

pytestmark = pytest.mark.usefixtures("toy_registered")

TABLES = 300


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 7


async def test_game_mine_at_300_tables_pages_and_says_how_many_more(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "toy")
    alice, bob = table.members
    svc = table.bot.service
    assert svc is not None
    guild_id = (await table.loaded())[0].guild_id  # /game mine lists this server's tables only
    for _ in range(TABLES - 1):
        opened = await svc.open_table(
            "toy", None, guild_id=guild_id, channel_id=2, host_id=alice.id, host_name="a"
        )
        await svc.join(opened.id, bob.id, "bob")
        await svc.start(opened.id, alice.id)
    first = said(await alice.slash(table.thread, "game mine"))[0]
    assert len(first) <= CONTENT_LIMIT
    shown = first.count("waiting since")
    assert 0 < shown < TABLES
    assert "Page 1 of" in first and f"{TABLES - shown} more on later pages" in first
    # Every table is on some page, each exactly once.
    seen = shown
    page = 2
    while True:
        text = said(await alice.slash(table.thread, "game mine", page=page))[0]
        assert len(text) <= CONTENT_LIMIT and f"Page {page} of" in text
        seen += text.count("waiting since")
        if "more on later pages" not in text:
            break
        page += 1
    assert seen == TABLES


def test_pages_keep_every_line_once_and_fit() -> None:
    lines = [f"line {n} " + "x" * (n % 150) for n in range(500)]
    split = pages(lines)
    assert [line for page in split for line in page] == lines
    assert all(len("\n".join(page)) <= CONTENT_LIMIT - 200 for page in split)
    assert page_of(["a", "b"], 1, "things", "/x") == "a\nb"


def test_a_long_message_says_what_was_left_out() -> None:
    text = "word " * 1000
    fitted = fit_message(text)
    assert len(fitted) <= CONTENT_LIMIT
    assert fitted.endswith("more characters not shown)")
    assert fit_message("short") == "short"


async def test_a_refusal_echoes_no_more_than_an_excerpt(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "toy")
    alice = table.members[0]
    for typed in ("q" * 6000, "pass " + "w" * 300, "choose " + "e" * 380):
        answer = " ".join(said(await alice.slash(table.thread, "game play", move=typed)))
        assert answer and len(answer) < 300
        assert typed[-50:] not in answer
    assert await table.version() == 0
