"""Refusals that say what is wrong and how to do it right, the same way wherever they are asked."""

from __future__ import annotations

import pytest
import simcord

from rules import registry
from service import TableError
from tests import faults
from tests.async_helpers import ALICE, BOB, Harness
from tests.faults import components


async def test_a_mistyped_game_or_option_gets_a_did_you_mean(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild("G")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    kind = await alice.slash(channel, "game new", kind="argnt")
    assert kind.response is not None and "Did you mean `argent`?" in kind.response.content
    option = await alice.slash(channel, "game new", kind="quadrivium", options="hand_sise=5")
    said = option.response.content if option.response else ""
    assert "has no option called `hand_sise`. Did you mean `hand_size`?" in said
    listed = said.split("Its options: ", 1)[1]
    assert all(o.name in listed for o in registry.get("quadrivium").options)
    assert "clock" in listed and "spectators" in listed
    assert channel.threads == []


async def test_a_move_too_long_is_called_too_long(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table("quadrivium", "", users=(ALICE, BOB))
    public = await h.svc.reads.public_view(table)
    user = public.users[public.prompts[0].seat]
    before = (await h.svc.reads.public_view(table)).version
    with pytest.raises(TableError, match=r"too long \(4\d\d characters"):
        await h.svc.act(table, user, 'intent text="' + "I seek the codex. " * 24 + '"')
    assert (await h.svc.reads.public_view(table)).version == before


async def test_a_move_out_of_turn_gets_one_answer_whichever_command(simcord_env: simcord.Env) -> None:
    table = await faults.open_table(simcord_env, "argent", 2)
    _, state = await table.loaded()
    idle = next(s for s in range(2) if s not in registry.get("argent").waiting_on(state))
    member = table.members[idle]
    placed = await member.slash(table.thread, "argent place", where="Guilds")
    played = await member.slash(table.thread, "game play", move="Guilds")
    assert placed.response is not None and played.response is not None
    assert placed.response.content == played.response.content
    assert placed.response.content.startswith("It is not your decision now")


async def test_leaving_a_two_player_game_is_refused_before_any_confirmation(simcord_env: simcord.Env) -> None:
    table = await faults.open_table(simcord_env, "institute", 2)
    asked = await table.members[0].slash(table.thread, "game leave")
    assert asked.response is not None and "use /game abandon" in asked.response.content
    assert not components(asked.response)  # no "Leave the game" button that would then refuse
    assert (await table.loaded())[0].status == "active"


async def test_leaving_a_game_that_plays_on_asks_first(simcord_env: simcord.Env) -> None:
    table = await faults.open_table(simcord_env, "argent", 3)
    member = table.members[2]
    asked = await member.slash(table.thread, "game leave")
    assert asked.response is not None and "Leave this game for good?" in asked.response.content
    before = (await table.loaded())[0].version
    left = await member.click(asked.response, label="Leave the game")
    assert left.response is not None and "You left the game" in left.response.content
    assert (await table.loaded())[0].version == before + 1


def test_the_mysticism_placement_says_it_comes_from_the_mages_power() -> None:
    from rules.argent import engine
    from rules.argent.agenda import push
    from tests.argent_helpers import give_mage, round_one, seat_now

    state = round_one()
    seat = seat_now(state)
    give_mage(state, seat, "mysticism")
    push(state, {"op": "mystic", "seat": seat, "offer": True})
    engine.advance(state, [])
    asked = [p.text for p in registry.get("argent").pending(state) if p.seat == seat]
    assert any("(your Mysticism mage's power, after a normal-action spell)" in text for text in asked), asked
