"""Issue 23, item 8: a double abandon votes once, leave asks only the seated, one move matcher.

Two ``/game abandon`` at once post one vote line; ``/game leave`` in a game shows its
confirmation only to someone with a seat; what autocomplete offers for typed words is exactly
what typing them plays (``reading.fits`` and ``reading.matches`` read words the same way).
"""

from __future__ import annotations

import asyncio
import random

import pytest
import simcord

from rules import registry
from service import reading
from tests.async_helpers import ALICE, BOB, CAROL, Harness
from tests.faults import at_once, components, open_table, said

pytestmark = pytest.mark.usefixtures("toy_registered")


@pytest.fixture
def table_seed() -> int:
    """The seed every SimCord table of this module is dealt with."""
    return 5


async def test_two_abandons_at_once_count_one_vote_in_the_service(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table(users=(ALICE, BOB, CAROL))
    first, second = await asyncio.gather(h.svc.abandon(table, BOB), h.svc.abandon(table, BOB))
    lines = [r.board.text for r in (first, second) if r.board is not None]
    assert len(lines) == 1 and "votes to abandon (1 of 3)" in lines[0], lines
    assert "already counted" in (second.answer if second.board is None else first.answer)
    assert (await h.svc.table(table)).status == "active"


async def test_two_abandons_at_once_post_one_vote_line(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "toy", 3)
    voter = next(m for m in table.members if m.user.name != "alice")  # not the host
    async with at_once(simcord_env):
        await voter.slash(table.thread, "game abandon")
        await voter.slash(table.thread, "game abandon")
    lines = [m for m in table.public() if "votes to abandon" in m.content]
    assert len(lines) == 1, [m.content for m in lines]


async def test_leave_asks_no_confirmation_of_someone_without_a_seat(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "argent", 3)  # a game a player may leave (3+ players)
    asked = await table.outsider.slash(table.thread, "game leave")
    assert said(asked) == ["You have no seat at this table."]
    assert asked.response is not None and not components(asked.response)
    seated = await table.members[1].slash(table.thread, "game leave")
    assert seated.response is not None and components(seated.response), "a player is still asked"


# ---------------------------------------------------------------------- one matcher


async def test_words_in_any_order_autocomplete_what_they_play(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, "institute")
    first = table.members[0]
    svc = table.bot.service
    assert svc is not None
    now = await svc.reads.seat_view(await table.table_id(), first.id)
    assign = next(c for c in now.moves if c.label.startswith("Assign Take Stones to die 1"))
    offered = await first.autocomplete(table.thread, "game play", "move", "die 1 take")
    assert [o["name"] for o in offered] == [assign.label]
    played = await first.slash(table.thread, "game play", move="die 1 take")
    assert said(played)[0].startswith(f"You played: {assign.label}.")


def _typed_from(label: str, rand: random.Random) -> str:
    """Return what a player might type for a label: some of its words, cut short, in any order."""
    chosen = [w for w in reading.words(label) if rand.random() < 0.6] or reading.words(label)[:1]
    cut = [w if w.isdigit() else w[: rand.randint(1, len(w))] for w in chosen]
    rand.shuffle(cut)
    return " ".join(cut)


@pytest.mark.parametrize("kind", ["institute", "quadrivium", "argent", "academy"])
def test_autocomplete_offers_exactly_the_moves_typing_may_play(kind: str) -> None:
    rules, rand = registry.get(kind), random.Random(9)
    players = max(2, rules.min_players)
    state = rules.setup(players, rules.check_options({}), 21)
    checked = 0
    for _ in range(60):
        if rules.is_over(state):
            break
        seat = rand.choice(rules.waiting_on(state))
        legal = rules.legal_moves(state, seat)
        labels = [rules.label(state, seat, m) for m in legal]
        for label in rand.sample(labels, min(4, len(labels))):
            typed = _typed_from(label, rand)
            offered = {i for i, lab in enumerate(labels) if reading.fits(typed, lab)}
            played = set(reading.matches(typed, labels))
            assert played <= offered, (typed, labels)
            exact = " ".join(typed.casefold().split()) in {" ".join(x.casefold().split()) for x in labels}
            if not exact:
                assert offered == played, (typed, sorted(offered), sorted(played))
            checked += 1
        state, _ = rules.apply(state, seat, rand.choice(legal))
    assert checked > 40


def test_a_suit_is_a_word_that_tells_cards_apart() -> None:
    labels = ["Place 7♦ face down", "Place 7♣ face down"]
    assert reading.matches("7♦", labels) == [0]
    assert [reading.fits("7♦", x) for x in labels] == [True, False]
