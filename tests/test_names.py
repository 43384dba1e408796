"""Boards and events name people: "alice (Red)", "bob (P2)"; a private note says "you"."""

from __future__ import annotations

import re

import pytest

from rules import registry
from service import TableService
from service.compose import name_seats

ALICE, BOB, CAROL = 101, 102, 103


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 777


async def _started(svc: TableService, kind: str, players: int) -> int:
    table = await svc.open_table(kind, None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    for user, name in [(BOB, "bob"), (CAROL, "carol")][: players - 1]:
        await svc.join(table.id, user, name)
    return table.id


def test_seat_tags_get_the_players_name_once() -> None:
    named = name_seats(registry.get("institute"), {0: "alice (Red)", 1: "bob (Blue)"})
    said = named("Red takes 9 Power Stones; Blue passes.")
    assert said == "alice (Red) takes 9 Power Stones; bob (Blue) passes."
    assert named("alice (Red) waits") == "alice (Red) waits"  # already named: left alone
    assert named("Redcap and Bluebell") == "Redcap and Bluebell"  # whole words only
    argent = name_seats(registry.get("argent"), {0: "alice (P1)", 1: "bob (P2)"})
    assert argent("P1 pays P2 1 Mana; P12 is no seat.") == "alice (P1) pays bob (P2) 1 Mana; P12 is no seat."


async def test_institute_board_names_players_by_name_and_colour(svc: TableService) -> None:
    table_id = await _started(svc, "institute", 2)
    opening = await svc.start(table_id, ALICE)
    assert opening.board is not None
    waiting = next(line for line in opening.board.text.splitlines() if line.startswith("Waiting on"))
    assert re.fullmatch(r"Waiting on (alice|bob) \(Red\): assign.*; (alice|bob) \(Blue\): assign.*", waiting)
    headers = {note.text.splitlines()[0].rsplit(": ", 1)[1] for note in opening.private}
    assert headers == {"you are Red.", "you are Blue."}


async def test_argent_events_name_the_player_beside_the_seat_number(svc: TableService) -> None:
    table_id = await _started(svc, "argent", 3)
    await svc.start(table_id, ALICE)
    public = await svc.reads.public_view(table_id)
    seat = public.prompts[0].seat
    choice = (await svc.reads.choices(table_id, public.users[seat]))[0]
    reply = await svc.act(table_id, public.users[seat], choice.value)
    assert reply.board is not None
    mover = f"{public.names[seat]} (P{seat + 1})"
    assert any(line.startswith(mover + " ") for line in reply.board.text.splitlines()), reply.board.text
    assert not re.search(r"(?<![(\w])P\d(?![)\w])", reply.board.text.split("Seats:")[0])
    assert mover in "\n".join(await svc.reads.log_lines(table_id))


def test_the_living_board_names_the_earlier_steps_of_a_turn_too() -> None:
    from cogs import kit
    from rules.contract import Event
    from service import Board
    from service.replies import SeatLine

    legend = (SeatLine(0, "P1", "alice", 11), SeatLine(1, "P2", "bob", 12))
    memory = kit._Deliveries()
    first = Board(7, 1, "alice (P1) casts Wave.", events=(Event("cast", "P1 casts Wave."),), legend=legend)
    kit._with_turn_events(memory, first)
    placed = (Event("place", "P1 places a mage."),)
    second = Board(7, 2, "alice (P1) places a mage.", events=placed, legend=legend)
    shown = kit._with_turn_events(memory, second)
    assert shown.text.splitlines()[:2] == ["alice (P1) casts Wave.", "alice (P1) places a mage."]
    assert Board(7, 3, "", legend=legend).named("P2 pays P1 1 Mana.") == "bob (P2) pays alice (P1) 1 Mana."
