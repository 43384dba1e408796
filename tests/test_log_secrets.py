"""No secret in any log line: games played at LOG_LEVEL=DEBUG, and a component that fails.

A hidden value is a card name that some seat's private view holds and the public view does not
(an Argent supporter, a voter seen through a Mark), or the stored state itself (its generator
position ``"rng"`` is in every snapshot and in no view).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import simcord

from cogs import kit
from cogs.kit import PlayMoveButton, messages
from logpolicy import Redact, frames_only
from rules import registry
from service import Choice
from tests.faults import Table, hidden_names, open_table, trapped_logs

pytestmark = pytest.mark.usefixtures("toy_registered")

SEED = 5
STATE_TELL = '"rng"'
SECRET_LABEL = "Keep Lynssara Yuuno"


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


async def play_autocompleted(table: Table, moves: int, kind: str, players: int) -> set[str]:
    """Play moves with /game play and its autocomplete; return every hidden name met on the way."""
    hidden: set[str] = set()
    rules = registry.get(kind)
    for _ in range(moves):
        state = await table.state()
        hidden |= hidden_names(kind, state, players)
        prompts = rules.pending(state)
        if not prompts:
            break
        member = table.members[prompts[0].seat]
        offered = await member.autocomplete(table.thread, "game play", "move", "")
        assert offered
        result = await member.slash(table.thread, "game play", move=offered[0]["value"])
        assert result.response is not None
    hidden |= hidden_names(kind, await table.state(), players)
    return hidden


async def test_argent_at_debug_logs_no_hidden_card_and_no_state(simcord_env: simcord.Env) -> None:
    with trapped_logs("DEBUG") as trap:
        table = await open_table(simcord_env, "argent", 3, "candidates=B")
        hidden = await play_autocompleted(table, 14, "argent", 3)
        await table.members[0].slash(table.thread, "game hand")
    assert hidden, "the game should have dealt a secret by now"
    assert any("conclave" in line for line in trap.lines), "our own DEBUG and INFO lines still log"
    assert not trap.holding(hidden)
    assert not trap.holding([STATE_TELL])


async def test_institute_at_debug_logs_no_state(simcord_env: simcord.Env) -> None:
    with trapped_logs("DEBUG") as trap:
        table = await open_table(simcord_env, "institute")
        await play_autocompleted(table, 6, "institute", 2)
    assert await table.version() >= 1
    assert not trap.holding([STATE_TELL, '"assignment"'])


async def test_a_failing_component_logs_neither_its_label_nor_the_error_text(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError(f"cannot play {SECRET_LABEL}")

    monkeypatch.setattr(messages, "_PRIVATE_ITEMS", {})
    playing = replace(kit.controls.click_actions(), play=broken)  # what a click on a component plays with
    monkeypatch.setattr(kit.controls, "click_actions", lambda: playing)
    kit.add_private_items(
        "toy", lambda note: [PlayMoveButton(note.table_id, note.version, Choice(SECRET_LABEL, "pass"))]
    )
    with trapped_logs("INFO") as trap:
        table = await open_table(simcord_env, "toy")
        alice = table.members[0]
        dm = alice.user.dm_channel.history()[-1]
        await alice.user.click(dm, label=SECRET_LABEL)
    failed = [line for line in trap.lines if line.startswith("ERROR discord.ui.view")]
    assert failed and "RuntimeError" in failed[0], "the failure is still logged, by its type"
    assert not trap.holding(["Lynssara"])


def test_redact_keeps_numbers_and_frames_but_no_text() -> None:
    import logging

    try:
        raise KeyError("Zyla the Silent")
    except KeyError as exc:
        record = logging.LogRecord(
            "discord.ui.view", logging.ERROR, __file__, 1, "item %r at %s failed in %d ms", None, None
        )
        record.args = (object(), "Zyla the Silent", 12)
        record.exc_info = (type(exc), exc, exc.__traceback__)
        Redact().filter(record)
        text = logging.Formatter().format(record)
        assert "Zyla" not in text and "12 ms" in text and "KeyError" in text
        assert "test_log_secrets.py" in frames_only(exc)
