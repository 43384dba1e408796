"""Every image the bot posts carries alt text (issue 24 item 7), and a public one tells no secret.

Random games of all four kinds are played through the real bot on SimCord (each table in its
own server); then every image in the threads, the DMs and the answers is checked: it has a
description within Discord's limit, and no public description holds a hidden value (a card name
that some seat's private view holds and the public view does not: ``tests.faults.hidden_names``).
"""

from __future__ import annotations

import random

import discord
import pytest
import simcord

from rules import registry
from service.replies import ALT_LIMIT, alt_text
from tests.faults import Table, hidden_names, open_table

KINDS = {"argent": 3, "institute": 2, "academy": 2, "quadrivium": 3}
MOVES = 12


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 11


def images(messages: list[discord.Message]) -> list[tuple[discord.Message, discord.Attachment]]:
    """Return every image attachment of these messages, with its message."""
    return [
        (m, a) for m in messages for a in m.attachments if a.filename.endswith((".png", ".gif", ".jpg"))
    ]


async def play_randomly(table: Table, kind: str, players: int, rand: random.Random) -> set[str]:
    """Play random offered moves with /game play; return every hidden name met on the way."""
    rules = registry.get(kind)
    hidden: set[str] = set()
    for _ in range(MOVES):
        state = await table.state()
        hidden |= hidden_names(kind, state, players)
        prompts = rules.pending(state)
        if not prompts or (await table.loaded())[0].status != "active":
            break
        member = table.members[rand.choice(prompts).seat]
        offered = await member.autocomplete(table.thread, "game play", "move", "")
        if not offered:
            break
        await member.slash(table.thread, "game play", move=rand.choice(offered)["value"])
    hidden |= hidden_names(kind, await table.state(), players)
    for member in table.members:
        await member.slash(table.thread, "game hand")  # the private view, ephemerally
    await table.outsider.slash(table.thread, "game status")  # the public board, ephemerally
    return hidden


@pytest.mark.parametrize("kind", sorted(KINDS))
async def test_every_posted_image_has_alt_text_and_a_public_one_no_secret(
    simcord_env: simcord.Env, kind: str
) -> None:
    players = KINDS[kind]
    table = await open_table(simcord_env, kind, players)
    hidden = await play_randomly(table, kind, players, random.Random(f"alt-{kind}"))
    thread_messages = table.thread.history()
    public = [m for m in thread_messages if not m.flags.ephemeral]
    dms = [m for member in table.members for m in member.user.dm_channel.history()]
    everything = images(thread_messages) + images(dms)
    assert images(public), "the game should have posted boards"
    for _message, attachment in everything:
        assert attachment.description, f"{attachment.filename} has no alt text"
        assert len(attachment.description) <= ALT_LIMIT
    for _message, attachment in images(public):
        assert attachment.description is not None
        assert not [name for name in hidden if name in attachment.description], attachment.filename
    # The replay's alt text (posted when a game ends) is built from the public view too.
    svc = table.bot.service
    assert svc is not None
    replay = await svc.history.replay_alt(await table.table_id())
    assert replay.startswith("An animated replay") and len(replay) <= ALT_LIMIT
    assert not [name for name in hidden if name in replay]


def test_alt_text_keeps_to_discords_limit_and_reads_as_one_paragraph() -> None:
    long = "\n".join(f"line {n}: " + "x" * 60 for n in range(40))
    cut = alt_text(long)
    assert len(cut) == ALT_LIMIT and cut.endswith("…") and "\n" not in cut
    assert alt_text("a\n\n  b  \nc") == "a b c"
