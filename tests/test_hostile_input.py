"""Hostile input gets a short sentence and changes nothing: huge numbers, deep nesting, forged ids."""

from __future__ import annotations

import pytest
import simcord

from cogs import institute
from cogs.kit import NOT_A_PANEL, PlayMoveButton, PrivateViewButton
from rules.contract import EXCERPT_LIMIT, MalformedMove, Move
from service import Choice, TableError, TableService
from tests.faults import open_table, said, sent_by_bot

pytestmark = pytest.mark.usefixtures("toy_registered")

ALICE, BOB = 101, 102
HUGE_NUMBER = "assign die=" + "7" * 5000
DEEP = "assign die=" + "[" * 3000
DEEP_CLOSED = "assign die=" + "[" * 40 + "]" * 40


async def started(svc: TableService) -> int:
    table = await svc.open_table("toy", None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.join(table.id, BOB, "bob")
    await svc.start(table.id, ALICE)
    return table.id


@pytest.mark.parametrize(
    "text",
    [HUGE_NUMBER, DEEP, DEEP_CLOSED, "assign die=" + "9" * 19, "x" * 401, "pass x=" + "[" * 9 + "]" * 9],
)

def test_the_move_reader_refuses_with_a_sentence(text: str) -> None:
    with pytest.raises(MalformedMove) as refused:
        Move.parse(text)
    assert refused.value.sentence.endswith(".") and len(refused.value.sentence) < 120


def test_the_move_reader_still_reads_ordinary_moves() -> None:
    move = Move.parse('reroll dice=[1,2] card="Take" n=123456789012345678')
    assert tuple(move.get("dice")) == (1, 2) and move.get("n") == 123456789012345678


def test_a_refusal_quotes_only_an_excerpt_of_what_was_typed() -> None:
    with pytest.raises(MalformedMove) as refused:
        Move.parse("pass " + "y" * 300)
    assert "y" * (EXCERPT_LIMIT + 1) not in refused.value.sentence


@pytest.mark.parametrize("text", [HUGE_NUMBER, DEEP, DEEP_CLOSED, "z" * 6000, "choose " + "q" * 390])
async def test_the_service_refuses_hostile_moves_and_changes_nothing(svc: TableService, text: str) -> None:
    table_id = await started(svc)
    with pytest.raises(TableError) as refused:
        await svc.act(table_id, ALICE, text)
    assert len(refused.value.sentence) < 200
    assert (await svc.table(table_id)).version == 0


@pytest.mark.parametrize("table_id", [2**63, 2**64 + 5, 10**30, 0, -1])
async def test_forged_table_ids_name_no_table(svc: TableService, table_id: int) -> None:
    await started(svc)
    for call in (
        svc.table(table_id),
        svc.act(table_id, ALICE, "pass"),
        svc.reads.hand(table_id, ALICE),
        svc.reads.seat_view(table_id, ALICE),
        svc.reads.status(table_id),
    ):
        with pytest.raises(TableError, match="does not exist"):
            await call
    assert await svc.reads.choices(table_id, ALICE) == []


async def test_an_index_token_from_an_old_version_is_refused(svc: TableService) -> None:
    table_id = await started(svc)
    token = (await svc.reads.choices(table_id, ALICE, stamped=True))[0].value
    assert token.startswith("#0.")
    await svc.act(table_id, ALICE, token)
    with pytest.raises(TableError, match="moved on"):
        await svc.act(table_id, ALICE, token)
    with pytest.raises(TableError):
        await svc.act(table_id, ALICE, "#0." + "9" * 40)


# ---------------------------------------------------------------------- forged components in SimCord


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 7


async def test_a_forged_table_id_in_a_custom_id_is_refused(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "toy")
    alice = table.members[0]
    for item in (
        PlayMoveButton(2**64, 0, Choice("Pass", "pass")),
        PrivateViewButton(2**63),
    ):
        message = await sent_by_bot(simcord_env, alice, item)
        result = await alice.user.click(message, custom_id=item.item.custom_id)
        assert said(result) == ["That table does not exist."]
    assert await table.version() == 0


async def test_a_forged_reroll_value_is_refused(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "institute")
    bob = table.members[1]
    now = await table.bot.service.reads.seat_view(await table.table_id(), bob.id)  # type: ignore[union-attr]
    select = institute.RerollSelect(await table.table_id(), institute.seat_stamp(now), [3, 4, 5, 6])
    select.item.add_option(label="Die ²", value="²")
    message = await sent_by_bot(simcord_env, bob, select)
    result = await bob.user.select(message, ["²"], custom_id=select.item.custom_id)
    assert said(result) == ["Pick at least one die from the list."]
    assert await table.version() == 0


async def test_a_panel_control_on_a_public_message_never_replaces_it(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "institute")
    bob = table.members[1]
    table_id = await table.table_id()
    now = await table.bot.service.reads.seat_view(table_id, bob.id)  # type: ignore[union-attr]
    reroll = next(c for c in now.moves if c.value.startswith("reroll"))
    button = institute.MoveButton(table_id, institute.seat_stamp(now), reroll.value, "Reroll")
    board = await sent_by_bot(simcord_env, table.thread, button)
    result = await bob.click(board, custom_id=button.item.custom_id)
    assert said(result) == [NOT_A_PANEL] and result.ephemeral
    shown = next(m for m in table.thread.history() if m.id == board.id)
    assert shown.content == "components under test" and not shown.attachments
    assert await table.version() == 0
