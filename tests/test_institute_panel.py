"""The /institute panel's layout and its fingerprint, built from real positions (no Discord needed)."""

from __future__ import annotations

import copy
from typing import Any

import discord
import pytest

from cogs import institute as cog
from rules.contract import Move
from service import Choice, move_value
from store import TableRecord
from tests.institute_stages import R, stages


@pytest.fixture(scope="module")
def positions() -> dict[str, dict[str, Any]]:
    return stages()


def _record(version: int = 0) -> TableRecord:
    return TableRecord(
        id=7,
        kind="institute",
        name="t",
        options={},
        guild_id=None,
        channel_id=1,
        thread_id=2,
        host_id=3,
        status="active",
        seed=1,
        version=version,
        created_at=0.0,
        updated_at=0.0,
        result=None,
    )


def panel_of(state: dict[str, Any], seat: int) -> cog.SeatPanel:
    legal = [] if R.is_over(state) else R.legal_moves(state, seat)
    moves = tuple(Choice(R.label(state, seat, m), move_value(0, i, m)) for i, m in enumerate(legal))
    view = R.view(state, seat)
    return cog.SeatPanel(_record(), 0, seat, view, R.typed_view(view), moves)


def _items(ui: discord.ui.View | None) -> list[Any]:
    assert ui is not None
    return list(ui.children)


async def test_phase_one_has_a_select_per_die_and_a_button_row(positions: dict[str, dict[str, Any]]) -> None:
    state = positions["opening"]
    items = _items(cog.components(panel_of(state, 0)))
    dice = [i for i in items if isinstance(i, cog.DieSelect)]
    assert [d.die for d in dice] == [1, 2, 3, 4]
    assert [d.item.row for d in dice] == [0, 1, 2, 3]
    assert all(len(d.item.options) == 3 for d in dice)
    # Each option says what it will do: stones taken, or the card the stones go to.
    me, locations = state["players"][0], R.view(state, 0)["locations"]
    take, _, cast1 = dice[0].item.options
    assert take.description == f"take {me['dice'][0]} stone" + ("s" if me["dice"][0] != 1 else "")
    target = locations[me["dice"][0] - 1]
    name = target["card"]["name"] if target["kind"] == "card" else "the Portal"
    assert cast1.description == f"cast 1 stone on Location {me['dice'][0]}: {name}"
    buttons = [i for i in items if not isinstance(i, cog.DieSelect)]
    assert buttons and all(b.item.row == 4 for b in buttons)
    assert not any(getattr(b, "code", "") == "confirm" for b in buttons)  # nothing assigned yet
    total = sum(state["players"][0]["dice"])
    if total > 6:
        assert any(isinstance(b, cog.RerollPickerButton) for b in buttons)
    else:
        assert any(getattr(b, "code", "").startswith("reroll") for b in buttons)


async def test_confirm_appears_once_every_die_has_a_card(positions: dict[str, dict[str, Any]]) -> None:
    state = positions["opening"]
    for die, card in enumerate(("take", "cast2", "cast1", "cast1"), 1):
        state, _ = R.apply(state, 0, Move.of("assign", die=die, card=card))
    items = _items(cog.components(panel_of(state, 0)))
    confirm = [i for i in items if getattr(i, "code", "") == "confirm"]
    assert len(confirm) == 1 and confirm[0].item.label == "Confirm my Action Cards"
    # Each die's select shows its card as chosen; the spent Cast 2 is offered nowhere else.
    dice = [i for i in items if isinstance(i, cog.DieSelect)]
    assert [d.current for d in dice] == ["take", "cast2", "cast1", "cast1"]
    assert [o.value for o in dice[0].item.options] == ["take", "cast1"]


async def test_the_fingerprint_ignores_the_rival_but_not_oneself(
    positions: dict[str, dict[str, Any]],
) -> None:
    state = positions["opening"]
    before = cog.fingerprint(panel_of(state, 0))
    rival, _ = R.apply(state, 1, Move.of("assign", die=1, card="take"))
    assert cog.fingerprint(panel_of(rival, 0)) == before
    mine, _ = R.apply(state, 0, Move.of("assign", die=1, card="take"))
    assert cog.fingerprint(panel_of(mine, 0)) != before


async def test_many_answers_become_selects_with_closing_buttons(positions: dict[str, dict[str, Any]]) -> None:
    state = copy.deepcopy(positions["opening"])
    # A Phase I 'set a die' power: 4 dice x 5 other faces + done = 21 answers.
    state["frames"]["0"] = {"card": 0, "effects": [], "cur": {"key": "set_die", "left": 1}}
    panel = panel_of(state, 0)
    assert len(panel.moves) == 21
    items = _items(cog.components(panel))
    selects = [i for i in items if isinstance(i, cog.MoveSelect)]
    assert len(selects) == 1 and len(selects[0].item.options) == 20
    done = [i for i in items if isinstance(i, cog.MoveButton)]
    assert [b.code for b in done] == ["done"] and done[0].item.row == 4


async def test_few_answers_are_buttons_and_a_finished_game_has_none(
    positions: dict[str, dict[str, Any]],
) -> None:
    state = positions["phase4"]
    seat = R.waiting_on(state)[0]
    items = _items(cog.components(panel_of(state, seat)))
    assert all(isinstance(i, cog.MoveButton) for i in items)
    assert {i.code.split(" ")[0] for i in items} == {"power", "decline"}
    assert items[-1].code == "decline"  # the refusing answer comes last, in grey
    assert items[-1].item.style == discord.ButtonStyle.secondary
    assert cog.components(panel_of(positions["over"], 0)) is None


async def test_every_custom_id_fits_discord(positions: dict[str, dict[str, Any]]) -> None:
    for state in positions.values():
        for seat in R.waiting_on(state):
            ui = cog.components(panel_of(state, seat))
            for item in ui.children if ui else []:
                assert len(item.custom_id) <= 100
                assert len(getattr(item.item, "label", "") or "") <= 80


def test_button_labels_are_short() -> None:
    move = Move.of("move", **{"from": 2, "to": 5})
    label = "Move a stone from Phoenix Feather (Location 2) to Philosopher's Stone (Location 5)"
    assert (
        cog.button_label(Choice(label, move.code()), move)
        == "Phoenix Feather (L2) → Philosopher's Stone (L5)"
    )
