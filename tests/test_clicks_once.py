"""Every click applies once: 50 identical interactions at once, for every kind of component of every game.

Each burst goes through SimCord (``tests.faults.burst``): all 50 interactions are dispatched before
the bot handles any, so they race for the table's lock. Exactly one move is applied; the others
are told the game (or their panel) moved on.
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from cogs import argent, institute, kit
from cogs.kit import PlayMoveButton, messages
from rules import registry
from service import SeatView
from tests.faults import Table, burst, open_table, said, sent_by_bot, with_prefix

pytestmark = pytest.mark.usefixtures("toy_registered")

N = 50
SEED = 5
"""Argent with candidates=B at seed 5 starts with seat 1 drafting; the Institute rolls rerollable dice."""


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


def test_the_kit_components_act_through_what_delivery_handed_in() -> None:
    """A click reaches delivery's own functions, handed in as delivery loads (no import back)."""
    actions = kit.controls.click_actions()
    delivery = kit.delivery
    assert actions == kit.controls.ClickActions(delivery.show_private, delivery.play, delivery.deliver)


async def applied_once(table: Table, before: int, results: list[simcord.InteractionResult]) -> None:
    """Assert one move was applied and every interaction got an answer."""
    assert await table.version() == before + 1
    unanswered = [r for r in results if not said(r) and r.response is None]
    assert not unanswered, f"{len(unanswered)} interactions got no answer"


# ---------------------------------------------------------------------- the kit's generic components


async def test_generic_select_in_a_dm_applies_once(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "toy")
    bob = table.members[1]
    dm = bob.user.dm_channel.history()[-1]
    select = with_prefix(dm, "cc:ms:")[0]
    value = select["options"][0]["value"]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: bob.user.select(dm, [value], custom_id=select["custom_id"]))
    await applied_once(table, before, results)
    refused = [r for r in results if any("moved on" in t for t in said(r))]
    assert len(refused) == N - 1


async def test_generic_button_applies_once(simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(messages, "_PRIVATE_ITEMS", {})
    kit.add_private_items("toy", lambda note: [PlayMoveButton(note.table_id, note.version, note.choices[0])])
    table = await open_table(simcord_env, "toy")
    alice = table.members[0]
    dm = alice.user.dm_channel.history()[-1]
    button = with_prefix(dm, "cc:mv:")[0]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: alice.user.click(dm, custom_id=button["custom_id"]))
    await applied_once(table, before, results)


async def test_game_play_autocompleted_value_applies_once(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "toy")
    bob = table.members[1]
    value = (await bob.autocomplete(table.thread, "game play", "move", ""))[0]["value"]
    assert value.startswith("#0.")
    before = await table.version()
    results = await burst(simcord_env, N, lambda: bob.slash(table.thread, "game play", move=value))
    await applied_once(table, before, results)
    assert sum(any(t.startswith("You played") for t in said(r)) for r in results) == 1


# ---------------------------------------------------------------------- the Institute's panel


async def institute_panel(table: Table, seat: int) -> tuple[simcord.MemberActor, Any]:
    member = table.members[seat]
    shown = await member.slash(table.thread, "institute panel")
    assert shown.response is not None
    return member, shown.response


async def test_institute_reroll_select_applies_once(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "institute")
    bob, panel = await institute_panel(table, 1)
    picker = await bob.click(panel, custom_id=with_prefix(panel, "ins:r:")[0]["custom_id"])
    assert picker.response is not None
    chooser = picker.response
    select = with_prefix(chooser, "ins:rs:")[0]
    cubes = (await table.state())["players"][1]["rerolls"]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: bob.select(chooser, ["2"], custom_id=select["custom_id"]))
    await applied_once(table, before, results)
    after = (await table.state())["players"][1]["rerolls"]
    # A reroll is free while the dice total 6 or less, else it costs one Reroll Cube: never two.
    assert cubes - after in (0, 1)


async def test_institute_die_select_and_confirm_apply_once(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "institute")
    alice, panel = await institute_panel(table, 0)
    die = with_prefix(panel, "ins:d:")[0]
    card = die["options"][0]["value"]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: alice.select(panel, [card], custom_id=die["custom_id"]))
    await applied_once(table, before, results)
    # Assign the other dice one by one (each from the fresh panel), then burst the Confirm button.
    for n in range(2, 5):
        alice, panel = await institute_panel(table, 0)
        select = next(c for c in with_prefix(panel, "ins:d:") if c["custom_id"].endswith(f":{n}"))
        await alice.select(panel, [select["options"][0]["value"]], custom_id=select["custom_id"])
    alice, panel = await institute_panel(table, 0)
    confirm = next(c for c in with_prefix(panel, "ins:m:") if c["custom_id"].endswith(":confirm"))
    before = await table.version()
    results = await burst(simcord_env, N, lambda: alice.click(panel, custom_id=confirm["custom_id"]))
    await applied_once(table, before, results)


async def test_institute_move_select_applies_once(simcord_env: simcord.Env) -> None:
    """A panel select of moves (shown when a decision has more than 20 answers) applies once."""
    table = await open_table(simcord_env, "institute")
    table_id = await table.table_id()
    bob = table.members[1]
    now = await seat_view(table, bob)
    rerolls = [c for c in now.moves if c.value.startswith("reroll")]
    select = institute.MoveSelect(table_id, institute.seat_stamp(now), 0, rerolls)
    dm = await sent_by_bot(simcord_env, bob, select)
    before = await table.version()
    results = await burst(simcord_env, N, lambda: bob.user.select(dm, [rerolls[0].value]))
    await applied_once(table, before, results)


async def seat_view(table: Table, member: simcord.MemberActor) -> SeatView:
    svc = table.bot.service
    assert svc is not None
    return await svc.reads.seat_view(await table.table_id(), member.id)


# ---------------------------------------------------------------------- Argent's panels and commands


async def argent_table(env: simcord.Env) -> Table:
    return await open_table(env, "argent", 3, "candidates=B")


async def test_argent_panel_button_applies_once(simcord_env: simcord.Env) -> None:
    table = await argent_table(simcord_env)
    bob = table.members[1]
    board = [m for m in table.thread.history() if with_prefix(m, "ag:p:")][-1]
    panel = await bob.click(board, custom_id=with_prefix(board, "ag:p:")[0]["custom_id"])
    assert panel.response is not None
    move = with_prefix(panel.response, "ag:m:")[0]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: bob.click(panel.response, custom_id=move["custom_id"]))
    await applied_once(table, before, results)


async def test_argent_panel_select_applies_once(simcord_env: simcord.Env) -> None:
    table = await argent_table(simcord_env)
    bob = table.members[1]
    now = await seat_view(table, bob)
    select = argent.MoveSelect(await table.table_id(), now.version, 0, list(now.moves))
    dm = await sent_by_bot(simcord_env, bob, select)
    before = await table.version()
    results = await burst(simcord_env, N, lambda: bob.user.select(dm, [now.moves[0].value]))
    await applied_once(table, before, results)


async def test_argent_snake_draft_command_drafts_once(simcord_env: simcord.Env) -> None:
    """The snake draft: the last seat of round one drafts twice in a row, but one command drafts once."""
    table = await argent_table(simcord_env)
    for seat in (1, 0):
        member = table.members[seat]
        value = (await member.autocomplete(table.thread, "argent decide", "choice", ""))[0]["value"]
        await member.slash(table.thread, "argent decide", choice=value)
    carol = table.members[2]
    value = (await carol.autocomplete(table.thread, "argent decide", "choice", ""))[0]["value"]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: carol.slash(table.thread, "argent decide", choice=value))
    await applied_once(table, before, results)
    # The same seat may draft again now: a typed (not autocompleted) move still plays, once.
    again = await carol.autocomplete(table.thread, "argent decide", "choice", "")
    assert again and again[0]["value"] != value


async def test_argent_game_play_autocompleted_applies_once(simcord_env: simcord.Env) -> None:
    table = await argent_table(simcord_env)
    bob = table.members[1]
    value = (await bob.autocomplete(table.thread, "game play", "move", "draft"))[0]["value"]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: bob.slash(table.thread, "game play", move=value))
    await applied_once(table, before, results)


# ---------------------------------------------------------------------- the games on the kit's own components


async def test_academy_game_play_autocompleted_applies_once(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "academy", 2)
    mover = table.members[registry.get("academy").pending(await table.state())[0].seat]
    value = (await mover.autocomplete(table.thread, "game play", "move", ""))[0]["value"]
    before = await table.version()
    results = await burst(simcord_env, N, lambda: mover.slash(table.thread, "game play", move=value))
    await applied_once(table, before, results)


async def test_quadrivium_panel_button_applies_once(simcord_env: simcord.Env) -> None:
    from cogs import quadrivium

    table = await open_table(simcord_env, "quadrivium", 2)
    seat = registry.get("quadrivium").pending(await table.state())[0].seat
    member = table.members[seat]
    now = await seat_view(table, member)
    # The first decisions take words (a form); the button carries them as its form would.
    named = quadrivium.worded_move(now.moves[0].value, {"name": "Ravenhold"}).code()
    stamp = quadrivium.seat_stamp(now)
    button = quadrivium.MoveButton(await table.table_id(), stamp, named, "Found Ravenhold")
    dm = await sent_by_bot(simcord_env, member, button)
    before = await table.version()
    results = await burst(simcord_env, N, lambda: member.user.click(dm, custom_id=button.item.custom_id))
    await applied_once(table, before, results)
