"""The history file (/game history): ISO times with their zone, players by name, bots as bots."""

from __future__ import annotations

import json
import re

from tests.async_helpers import ALICE, BOB, Harness

ISO = re.compile(r"^#\d+ \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 ")
SEAT_CODE = re.compile(r"(?<!\()\bP\d\b(?!\))")


async def test_the_history_names_players_and_bots_with_iso_times(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table("argent", "", users=(ALICE, BOB))
    for _ in range(3):  # a few moves by the people
        public = await h.svc.reads.public_view(table)
        user = public.users[public.prompts[0].seat]
        await h.svc.act(table, user, (await h.svc.reads.choices(table, user, stamped=True))[0].value)
    bob_seat = next(s.seat for s in await h.svc.seats(table) if s.user_id == BOB)
    await h.svc.bots.set_seat_bot(table, bob_seat, "basic")
    for _ in range(40):  # the bot plays bob's seat until it has moved
        public = await h.svc.reads.public_view(table)
        seat = public.prompts[0].seat
        if seat == bob_seat:
            await h.svc.bots.next_bot_move(table)
            break
        mover = public.users[seat]
        await h.svc.act(table, mover, (await h.svc.reads.choices(table, mover, stamped=True))[0].value)
    text, data = await h.svc.history.history(table)
    moves = text.splitlines()[1:]
    entries = [line for line in moves if line.startswith("#")]
    assert entries and all(ISO.match(line) for line in entries), entries[:3]
    coded = [line for line in moves if SEAT_CODE.search(line)]
    assert not coded, coded[:3]
    assert any(": " in line and " a bot for bob: " in line for line in entries)
    assert any(line.split(" ", 2)[2].startswith("bob: ") for line in entries)  # bob's own moves stay his
    parsed = json.loads(data)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", m["at"]) for m in parsed["moves"])
    assert {m["player"] for m in parsed["moves"]} >= {"alice", "bob", "a bot for bob"}
