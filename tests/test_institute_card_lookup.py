"""/game card finds every Institute Card, in a table's thread and from any channel."""

from __future__ import annotations

import pytest
import simcord

from rules.institute.cards import deck

TITLE = "The Institute for Magical Arts"


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 5


async def test_every_institute_card_is_found_in_a_table_thread(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild("G")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    await alice.slash(channel, "game new", kind="institute")
    thread = channel.threads[-1]
    records = {c.key: c for c in deck()}
    assert len(records) >= 30
    for card in records.values():
        found = await alice.slash(thread, "game card", name=card.name)
        assert found.ephemeral and found.response is not None
        assert card.name in found.response.content and card.text in found.response.content, card.name
    names = await alice.autocomplete(thread, "game card", "name", "ring")
    assert {"name": "Ring of Influence", "value": "Ring of Influence"} in names


async def test_a_card_is_found_from_any_channel_with_its_game_named(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild("G")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    names = await alice.autocomplete(channel, "game card", "name", "grimoire")
    wanted = f"Grimoire ({TITLE})"
    assert {"name": wanted, "value": wanted} in names
    found = await alice.slash(channel, "game card", name=wanted)
    assert found.response is not None and "Grimoire" in found.response.content


async def test_an_exact_name_from_another_game_is_found_and_its_game_named(simcord_env: simcord.Env) -> None:
    # "Broken Wand" is an Institute Card: asked in an Argent thread or a plain channel, it is found.
    guild = simcord_env.create_guild("G")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    await alice.slash(channel, "game new", kind="argent")
    thread = channel.threads[-1]
    wand = next(c for c in deck() if c.name == "Broken Wand")
    for where in (thread, channel):
        found = await alice.slash(where, "game card", name="broken wand")
        assert found.response is not None
        said = found.response.content
        assert said.startswith(f"A card of {TITLE}:") and wand.text in said
    missing = await alice.slash(thread, "game card", name="Broken Wan")
    assert missing.response is not None and "No card" in missing.response.content
