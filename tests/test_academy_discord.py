"""Wizard's Academy on Discord: whole games through /academy panels, buttons and selects.

Two wizards play a basic game and an advanced scenario to the end with the self-play policy,
every move made with the control that the player's own panel offers (a button, a select, or a
two-step select). Along the way nothing public names a face-down spell or another wizard's
next disaster, and the board posted in the thread is drawn from the public view.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bots.games.academy_policy import Policy
from rules.academy import RULES
from rules.academy.cards import disasters, spells
from rules.contract import Move
from tests import faults
from tests.drawings import views_as_json
from tests.faults import Table, components

SEED = 11


@pytest.fixture
def table_seed() -> int:
    """The tables' seed (a test parametrized on ``table_seed`` plays other games)."""
    return SEED




@pytest.fixture
def view_as_image() -> Iterator[None]:
    """Draw boards as their JSON (fast), so what each image shows is read back exactly."""
    with views_as_json("academy", private=False):
        yield


async def open_table(env: simcord.Env, options: str) -> Table:
    return await faults.open_table(env, "academy", 2, options)


async def use_panel(table: Table, seat: int, move: Move) -> Any:
    """Open the seat's /academy panel and play the move with the control it offers for it."""
    member = table.members[seat]
    shown = await member.slash(table.thread, "academy panel")
    assert shown.ephemeral and shown.response is not None
    panel = shown.response
    code = move.code()
    for item in components(panel):
        if item["type"] == 2 and item.get("custom_id", "").endswith(f":{code}"):
            return await member.click(panel, custom_id=item["custom_id"])
        if item["type"] != 3:
            continue
        if any(o["value"] == code for o in item["options"]):
            return await member.select(panel, [code], custom_id=item["custom_id"])
        grouped = item["custom_id"].startswith("ac:g:")
        if grouped and item["options"][0]["value"].startswith(move.action + "|"):
            for option in item["options"]:
                opened = await member.select(panel, [option["value"]], custom_id=item["custom_id"])
                step = opened.response or opened.followups[-1]
                second = next(c for c in components(step) if c["type"] == 3)
                if any(o["value"] == code for o in second["options"]):
                    return await member.select(step, [code], custom_id=second["custom_id"])
    raise AssertionError(f"seat {seat}'s panel does not offer {code}: {panel.content}")


def hidden_names(state: dict[str, Any]) -> set[str]:
    """Names that nothing public may show: face-down spells (unless cast this turn), held disasters."""
    names = {spells()[v["spell"]]["name"] for v in state["slots"].values() if v["spell"] and not v["bound"]}
    reveal = (state.get("reveal") or {}).get("spell")
    names.discard(spells()[reveal]["name"] if reveal in spells() else None)
    return names


async def play_to_the_end(table: Table, limit: int) -> tuple[Any, dict[str, Any], int]:
    record, state = await table.loaded()
    policy = Policy(SEED)
    moves = 0
    while record.status == "active":
        assert moves < limit, "the game did not end"
        seat = RULES.waiting_on(state)[0]
        move = policy.pick(state, seat)
        result = await use_panel(table, seat, move)
        assert result.response is not None or result.followups
        moves += 1
        record, state = await table.loaded()
        policy.mind.observe(RULES.view(state, seat), [])
        secret = hidden_names(state)
        for message in table.public()[-2:]:
            # A played disaster's name is public and may contain a spell's ("Deep Freeze", "Freeze"):
            # it is taken out before looking for the spell names.
            text = message.content
            for title in sorted((d["name"] for d in disasters().values()), key=len, reverse=True):
                text = text.replace(title, "")
            # A wrong guess names a spell aloud ("names Dash at 2-3, wrongly"): a player said it.
            named = [
                name for name in secret
                if re.search(rf"\b{re.escape(name)}\b", text)
                and f"names {name} at" not in text
            ]
            assert not named, message.content
            for attachment in message.attachments:
                view = json.loads(await attachment.read())
                assert view["seat"] is None and view["my_disaster"] is None
    return record, state, moves


async def test_a_whole_basic_game_through_the_panels(simcord_env: simcord.Env, view_as_image: None) -> None:
    table = await open_table(simcord_env, "scenario=basic")
    record, state, moves = await play_to_the_end(table, 900)
    assert record.status == "finished" and moves > 10
    assert state["over"]
    # The thread says how it ended, and the table's log replays to the stored game.
    texts = "\n".join(m.content for m in table.public())
    together = "Game over: the table wins together" if state["won"] else "Game over: the table loses"
    assert together in texts and "Scores:" not in texts
    assert await simcord_env.bot.service.replay(record.id)  # type: ignore[attr-defined]


async def test_a_whole_advanced_game_with_shifts_through_the_panels(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env, "scenario=golem difficulty=easy")
    _, state = await table.loaded()
    assert state["step"] == "shifts"
    record, state, moves = await play_to_the_end(table, 1200)
    assert record.status == "finished" and moves > 10


async def test_the_panel_shows_your_disaster_and_only_yours(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env, "scenario=basic")
    _, state = await table.loaded()
    for seat, member in enumerate(table.members):
        mine = RULES.view(state, seat)["my_disaster"]
        shown = await member.slash(table.thread, "academy panel")
        assert shown.ephemeral and shown.response is not None
        text = shown.response.content
        if mine is not None:
            assert f"Your next disaster (secret; you may tell the table): **{mine['name']}**" in text
        other = RULES.view(state, 1 - seat)["my_disaster"]
        if other is not None and mine is not None and other["name"] != mine["name"]:
            assert other["name"] not in text


async def test_commands_play_typed_and_autocompleted_moves(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env, "scenario=basic")
    record, state = await table.loaded()
    seat = RULES.waiting_on(state)[0]
    member, other = table.members[seat], table.members[1 - seat]
    # Out of turn: a short refusal to that player alone, and nothing changes.
    refused = await other.slash(table.thread, "academy end")
    assert refused.ephemeral and refused.response is not None
    assert (await table.loaded())[0].version == record.version
    # Autocomplete offers the adjoining rooms as version-stamped tokens.
    offered = await member.autocomplete(table.thread, "academy move", "room", "")
    rooms = [m for m in RULES.legal_moves(state, seat) if m.action == "move"]
    assert len(offered) == len(rooms) and all(str(o["value"]).startswith("#") for o in offered)
    # A token sent twice applies once.
    first = await member.slash(table.thread, "academy move", room=offered[0]["value"])
    assert first.response is not None
    again = await member.slash(table.thread, "academy move", room=offered[0]["value"])
    assert again.response is not None and "moved on" in again.response.content
    after, state = await table.loaded()
    assert after.version > record.version
    # Typed words match a legal move loosely.
    if RULES.waiting_on(state) == [seat] and any(m.action == "end" for m in RULES.legal_moves(state, seat)):
        ended = await member.slash(table.thread, "academy end")
        assert ended.response is not None and "You played" in ended.response.content


async def play_until(table: Table, wanted: Any, limit: int = 400) -> tuple[Any, dict[str, Any]]:
    """Play the policy's moves through the panels until ``wanted(state)`` holds; return the table."""
    record, state = await table.loaded()
    policy = Policy(SEED)
    for _ in range(limit):
        if wanted(state):
            return record, state
        assert record.status == "active", "the game ended first"
        seat = RULES.waiting_on(state)[0]
        await use_panel(table, seat, policy.pick(state, seat))
        record, state = await table.loaded()
    raise AssertionError("never reached")


def helped_cast(state: dict[str, Any]) -> Move | None:
    """Return a cast the waiting seat may make with another wizard's glyph, if any."""
    seat = RULES.waiting_on(state)[0]
    casts = [m for m in RULES.legal_moves(state, seat) if m.action == "cast" and "helper" in m.params]
    return casts[0] if casts else None


def latest_dm(member: simcord.MemberActor) -> Any:
    return member.user.dm_channel.history()[-1]


async def test_a_glyph_request_asks_the_helper_who_gives_it_with_a_button(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env, "scenario=basic")
    _, state = await play_until(table, lambda s: helped_cast(s) is not None)
    cast = helped_cast(state)
    assert cast is not None
    caster, helper = RULES.waiting_on(state)[0], int(cast.params["helper"])
    glyph = int(cast.params["b"])
    held = state["wizards"][helper]["glyphs"].count(glyph)
    await use_panel(table, caster, cast)
    record, state = await table.loaded()
    assert state["request"] is not None and RULES.waiting_on(state) == [helper]
    # The helper's DM is a consent panel naming the caster, the glyph and the slot, with two buttons.
    asked = latest_dm(table.members[helper])
    caster_name = table.members[caster].user.name
    low, high = sorted((int(cast.params["a"]), glyph))
    assert f"**{caster_name} asks for your glyph {glyph}** to cast the spell at {low}-{high}" in asked.content
    buttons = {c["label"]: c["custom_id"] for c in components(asked) if c["type"] == 2}
    assert set(buttons) == {"Give the glyph", "Keep the glyph"}
    # The caster's panel says whom the table waits on; the caster cannot answer for the helper.
    shown = await table.members[caster].slash(table.thread, "academy panel")
    assert shown.response is not None
    waits = f"Waiting for {table.members[helper].user.name} to give or keep glyph {glyph}."
    assert waits in shown.response.content
    assert not [c for c in components(shown.response) if c["type"] == 2]
    given = await table.members[helper].user.click(asked, custom_id=buttons["Give the glyph"])
    assert given.response is not None or given.followups
    after, state = await table.loaded()
    assert after.version == record.version + 1 and state["request"] is None
    assert state["wizards"][helper]["glyphs"].count(glyph) == held - 1


async def test_a_stale_panel_click_is_refused_and_changes_nothing(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env, "scenario=basic")
    _, state = await table.loaded()
    seat = RULES.waiting_on(state)[0]
    member = table.members[seat]
    old = (await member.slash(table.thread, "academy panel")).response
    assert old is not None
    buttons = [c for c in components(old) if c["type"] == 2 and c["label"].startswith("Move to")]
    assert len(buttons) >= 1
    # The game moves on (the same player moves with a fresh panel), then the old button is clicked.
    moved = next(m for m in RULES.legal_moves(state, seat) if m.action == "move")
    await use_panel(table, seat, moved)
    record, _ = await table.loaded()
    late = await member.click(old, custom_id=buttons[-1]["custom_id"])
    refusal = late.followups[-1] if late.followups else late.response
    assert refusal is not None and refusal.flags.ephemeral and "moved on" in refusal.content
    assert (await table.loaded())[0].version == record.version
    # A stale first step of a two-step select is refused the same way.
    grouped = [c for c in components(old) if c["type"] == 3 and c["custom_id"].startswith("ac:g:")]
    for select in grouped:
        opened = await member.select(old, [select["options"][0]["value"]], custom_id=select["custom_id"])
        refusal = opened.followups[-1] if opened.followups else opened.response
        assert refusal is not None and "moved on" in refusal.content


def spoken(text: str, secret: set[str]) -> list[str]:
    """Return the secret names a text shows as words."""
    return [name for name in secret if re.search(rf"\b{re.escape(name)}\b", text)]


async def check_private_side(table: Table, state: dict[str, Any]) -> int:
    """Check every seat's panel, latest DM and autocomplete lists for face-down spells; return lists seen."""
    secret = hidden_names(state)
    seen = 0
    for seat, member in enumerate(table.members):
        shown = await member.slash(table.thread, "academy panel")
        assert shown.response is not None and not spoken(shown.response.content, secret)
        assert not spoken(latest_dm(member).content, secret)
        for command, field in (("academy move", "room"), ("academy cast", "spell")):
            offered = await member.autocomplete(table.thread, command, field, "")
            seen += len(offered)
            assert not spoken(" ".join(o["name"] for o in offered), secret)
        by_level: dict[int, set[frozenset[str]]] = {}
        levels = {s["id"]: s["level"] for s in RULES.view(state, seat)["spells"]}
        for slot in sorted({m.params["slot"] for m in RULES.legal_moves(state, seat) if m.action == "bind"}):
            offered = await member.autocomplete(table.thread, "academy bind", "spell", f"at {slot} ")
            seen += len(offered)
            names = frozenset(o["name"].split(f"at {slot} ", 1)[1] for o in offered)
            by_level.setdefault(levels[slot], set()).add(names)
        # Each face-down spell of a level is offered the same candidate names: the list never tells.
        assert all(len(lists) <= 1 for lists in by_level.values()), by_level
    return seen


@pytest.mark.parametrize("table_seed", [5, 23])
async def test_no_face_down_spell_in_panels_dms_or_autocomplete(
    simcord_env: simcord.Env, view_as_image: None, table_seed: int
) -> None:
    table = await open_table(simcord_env, "scenario=basic")
    record, state = await table.loaded()
    policy = Policy(table_seed)
    seen = 0
    for step in range(120):
        if record.status != "active":
            break
        if step % 4 == 0 or RULES.legal_moves(state, RULES.waiting_on(state)[0])[0].action == "bind":
            seen += await check_private_side(table, state)
        seat = RULES.waiting_on(state)[0]
        await use_panel(table, seat, policy.pick(state, seat))
        record, state = await table.loaded()
    assert seen > 20  # the lists were really read


async def test_game_card_finds_spells_disasters_rooms_and_characters(simcord_env: simcord.Env) -> None:
    from rules.academy.cards import characters, disasters, rooms

    guild = simcord_env.create_guild("G")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    await alice.slash(channel, "game new", kind="academy")
    thread = channel.threads[-1]
    picks = {
        "Spell": next(iter(spells().values())),
        "Disaster": next(iter(disasters().values())),
        "Room": rooms()["library"],
        "Character": next(iter(characters().values())),
    }
    for kind, record in picks.items():
        found = await alice.slash(thread, "game card", name=record["name"])
        assert found.ephemeral and found.response is not None
        assert found.response.content.count(kind) >= 1 and record["text"].split()[0] in found.response.content
        names = await alice.autocomplete(thread, "game card", "name", record["name"][:5])
        assert any(n["name"] == record["name"] for n in names), (kind, names)


async def test_the_hand_of_fate_asks_the_current_player_with_a_button_per_option(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env, "scenario=basic")
    _, state = await play_until(table, lambda s: s["choice"] is not None)
    choice = state["choice"]
    member = table.members[choice["seat"]]
    shown = await member.slash(table.thread, "academy panel")
    assert shown.response is not None
    assert "**The Helpful Hand of Fate — you decide:**" in shown.response.content
    offered = [c["label"] for c in components(shown.response) if c["type"] == 2]
    offered += [o["label"] for c in components(shown.response) if c["type"] == 3 for o in c["options"]]
    assert [o["label"] for o in choice["options"]] == offered
    # Another wizard is told whom the table waits on, and has nothing to click.
    other = table.members[1 - choice["seat"]]
    theirs = await other.slash(table.thread, "academy panel")
    assert theirs.response is not None and not components(theirs.response)
    assert f"waits on {member.user.name}" in theirs.response.content
