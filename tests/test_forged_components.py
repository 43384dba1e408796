"""Forged components act on nothing (issue 23, item 5).

Every restart-proof component the bot registers is clicked with a forged custom id: on a table
that does not exist, and on a real table by a member with no seat, from a public message the
bot posted. Each click gets a short ephemeral sentence (never the apology for a crash), the
game stays where it was, and the public message is left as it was. A forged undo vote (never
opened, or naming a seat that does not exist) takes nothing back.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import discord
import pytest
import simcord

from cogs.kit.messages import SORRY
from cogs.tablelife import LogPageButton
from service.undo import undo_topic
from tests.async_helpers import ALICE, BOB, Harness
from tests.faults import open_table, said, sent_by_bot

pytestmark = pytest.mark.usefixtures("toy_registered")

NOWHERE = 2**62
"""A table id no table has."""
FORGED = {
    "cc:pv:{t}": "button",
    "cc:mv:{t}:0:pass": "button",
    "cc:ms:{t}:0": "select",
    "cc:undo:{t}:0": "button",
    "cc:vote:{t}:undo:1:1:0:yes": "button",
    "cc:vote:{t}:undo:1:1:9:yes": "button",
    "cc:vote:{t}:absent:999:skip": "button",
    "cc:log:{t}:0": "button",
    "cc:leave:{t}": "button",
    "ac:m:{t}:0:pass": "button",
    "ac:s:{t}:0": "select",
    "ac:g:{t}:0": "select",
    "ac:p:{t}": "button",
    "ag:p:{t}": "button",
    "ag:o:{t}": "button",
    "ag:m:{t}:0:pass": "button",
    "ag:s:{t}:0": "select",
    "ins:ctl:{t}": "button",
    "ins:m:{t}:deadbeef:pass": "button",
    "ins:s:{t}:deadbeef": "select",
    "ins:d:{t}:deadbeef:1": "select",
    "ins:r:{t}:deadbeef": "button",
    "ins:rs:{t}:deadbeef": "select",
    "qd:m:{t}:deadbeef:pass": "button",
    "qd:t:{t}:deadbeef:pass": "button",
    "qd:n:{t}:deadbeef:bid": "button",
    "qd:s:{t}:deadbeef:0": "select",
    "qd:p:{t}": "button",
}
"""A forged custom id for every restart-proof component, by the kind of component it is."""


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 11


def registered(bot: discord.Client) -> list[re.Pattern[str]]:
    """Return the custom-id patterns of every restart-proof component the bot registered."""
    return list(bot._connection._view_store._dynamic_items)  # type: ignore[attr-defined]


def forged_item(custom_id: str, kind: str) -> discord.ui.Item[Any]:
    """Return a plain component carrying a forged custom id."""
    if kind == "select":
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=custom_id)
        for value in ("pass", "1", "cast1", "yes"):
            select.add_option(label=value, value=value)
        return select
    return discord.ui.Button(label="Forged", custom_id=custom_id)


async def test_every_registered_component_has_a_forgery_here(simcord_env: simcord.Env) -> None:
    patterns = registered(simcord_env.bot)
    forged = [f.format(t=1) for f in FORGED]
    missing = [p.pattern for p in patterns if not any(p.fullmatch(f) for f in forged)]
    assert not missing, f"components without a forged-id test: {missing}"


@pytest.mark.parametrize(("template", "kind"), FORGED.items(), ids=list(FORGED))
async def test_a_forged_component_changes_nothing_and_edits_no_public_message(
    simcord_env: simcord.Env, template: str, kind: str
) -> None:
    table = await open_table(simcord_env, "toy")
    table_id = await table.table_id()
    for who, target in ((table.outsider, NOWHERE), (table.outsider, table_id), (table.members[1], table_id)):
        custom_id = template.format(t=target)
        message = await sent_by_bot(table.env, table.thread, forged_item(custom_id, kind))
        if kind == "select":
            result = await who.select(message, ["pass"], custom_id=custom_id)
        else:
            result = await who.click(message, custom_id=custom_id)
        answers = said(result)
        assert answers and SORRY not in answers, (custom_id, answers)
        assert result.ephemeral, (custom_id, answers)
        shown = next(m for m in table.thread.history() if m.id == message.id)
        assert shown.content == "components under test" and not shown.attachments, custom_id
    assert await table.version() == 0


async def test_a_log_page_button_on_the_board_answers_apart_and_leaves_the_board(
    simcord_env: simcord.Env,
) -> None:
    table = await open_table(simcord_env, "toy")
    table_id = await table.table_id()
    board = next(m for m in reversed(table.public()) if m.author.id == table.bot.user.id)  # type: ignore[union-attr]
    before = board.content
    item = LogPageButton(table_id, 0, "Older")
    message = await sent_by_bot(table.env, table.thread, item)
    result = await table.members[0].click(message, custom_id=item.item.custom_id)
    assert result.ephemeral and said(result)[0].startswith("Log, page")
    shown = next(m for m in table.thread.history() if m.id == message.id)
    assert shown.content == "components under test"
    assert next(m for m in table.thread.history() if m.id == board.id).content == before


async def test_the_log_page_buttons_still_turn_the_page_of_a_log_answer(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await open_table(simcord_env, "toy")
    svc = table.bot.service
    assert svc is not None
    history = svc.history
    monkeypatch.setattr(history, "log_page", functools.partial(type(history).log_page, history, size=1))
    for member in table.members:  # both mages lock in a sigil and the round scores: four lines
        now = await svc.reads.seat_view(await table.table_id(), member.id)
        await svc.act(await table.table_id(), member.id, now.moves[0].move)  # type: ignore[arg-type]
    asked = await table.members[0].slash(table.thread, "game log")
    assert asked.response is not None and asked.response.content.startswith("Log, page 4 of 4")
    turned = await table.members[0].click(asked.response, label="Older")
    assert turned.response is not None and turned.response.content.startswith("Log, page 3 of 4")
    assert turned.response.id == asked.response.id, "the log answer itself turned its page"


# ---------------------------------------------------------------------- forged undo votes


async def _moved(h: Harness) -> tuple[int, int, int]:
    """Open a toy table, let both mages choose; return the table, alice's move version, her seat."""
    assert h.svc is not None and h.store is not None
    table = await h.table()
    for user in (ALICE, BOB):
        now = await h.svc.reads.seat_view(table, user)
        await h.svc.act(table, user, now.moves[0].move)  # type: ignore[arg-type]
    seats = {s.user_id: s.seat for s in await h.svc.seats(table)}
    mine = [r.version for r in await h.store.moves(table) if r.seat == seats[ALICE]]
    return table, mine[-1], seats[ALICE]


async def test_a_vote_nobody_opened_takes_nothing_back(h: Harness) -> None:
    assert h.svc is not None
    table, target, seat = await _moved(h)
    version = (await h.svc.table(table)).version
    with pytest.raises(Exception, match="not open"):
        await h.svc.play.vote(table, BOB, undo_topic(target, version, seat), "yes")
    assert (await h.svc.table(table)).version == version
    assert await h.svc.history.rebuild_check(table)


async def test_a_vote_naming_a_seat_that_does_not_exist_is_refused(h: Harness) -> None:
    assert h.svc is not None
    table, target, _ = await _moved(h)
    version = (await h.svc.table(table)).version
    for seat in (9, 2**40):
        with pytest.raises(Exception, match="not open"):
            await h.svc.play.vote(table, BOB, undo_topic(target, version, seat), "yes")
    assert (await h.svc.table(table)).version == version


async def test_an_opened_undo_vote_still_decides(h: Harness) -> None:
    assert h.svc is not None
    table, _, _ = await _moved(h)
    asked = await h.svc.play.undo(table, ALICE)
    assert "vote" in asked.answer
    topic = h.notices("vote")[-1].topic
    assert topic is not None
    said_ = await h.svc.play.vote(table, BOB, topic, "yes")
    assert "taken back" in said_
    with pytest.raises(Exception, match=r"not open|lapsed"):
        await h.svc.play.vote(table, BOB, topic, "yes")
