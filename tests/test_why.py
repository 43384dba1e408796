"""``/game why``: why a move is not offered now, with the rule that rules it out (issue 26 item 12).

The answer is the game's own refusal (sentence and rule) plus the nearest legal moves; it must never
depend on what the asking seat may not know: re-drawing every hidden thing (``Rules.scramble``)
leaves every answer unchanged, and a card in another player's hand is never named.
"""

from __future__ import annotations

import random

import pytest
import simcord

from rules import registry
from rules.contract import Move, Rules, State
from service.why import explain
from tests import faults

ARGENT = registry.get("argent")


def _errands(seed: int = 7) -> State:
    """Return an Argent 3-player game at its first free errands turn."""
    state = ARGENT.setup(3, ARGENT.default_options(), seed)
    while state["phase"] != "errands" or state["agenda"]:
        seat = ARGENT.waiting_on(state)[0]
        state, _ = ARGENT.apply(state, seat, ARGENT.legal_moves(state, seat)[0])
    return state


def test_a_move_the_rules_refuse_is_explained_with_its_rule_and_the_nearest_moves() -> None:
    """Room Clarifications, Infirmary: "This room cannot be placed in directly"."""
    state = _errands()
    seat = ARGENT.waiting_on(state)[0]
    answer = explain(ARGENT, state, seat, "place room=infirmary")
    assert answer.startswith(
        "Not now. No mage can be placed in the Infirmary (Argent rulebook, Room Clarifications)."
        " Offered now: “"
    ), answer
    # The nearest moves are the seat's own placements (same action first).
    legal = ARGENT.legal_moves(state, seat)
    placements = [ARGENT.label(state, seat, m) for m in legal if m.action == "place"]
    assert answer.split("Offered now: ", 1)[1].split("”, “")[0].lstrip("“") in placements


def test_an_offered_move_is_said_to_be_offered() -> None:
    state = _errands()
    seat = ARGENT.waiting_on(state)[0]
    move = ARGENT.legal_moves(state, seat)[0]
    label = ARGENT.label(state, seat, move)
    offered = f"That move is offered now: “{label}”. Play it with `/game play`."
    assert explain(ARGENT, state, seat, move.code()) == offered
    assert explain(ARGENT, state, seat, label.upper()).startswith("That move is offered now")


def test_out_of_turn_and_unreadable_text_get_the_turn_rule_or_the_nearest_moves() -> None:
    state = _errands()
    seat = ARGENT.waiting_on(state)[0]
    other = (seat + 1) % 3
    assert explain(ARGENT, state, other, "place room=guilds") == (
        "Not now. The game is not waiting on you right now (Argent rulebook, Errands Phase)."
        " You have no move to make right now."
    )
    assert explain(ARGENT, state, other, "something else") == (
        "Nothing is offered to you now: the game waits on someone else (Argent rulebook, Errands Phase)."
    )
    unread = explain(ARGENT, state, seat, "fly to the moon zzz")
    assert unread.startswith("None of your moves now fits that. Offered now: “") and "zzz" not in unread
    assert explain(ARGENT, state, seat, "   ").startswith("Say which move")
    # A move the game does not have is not quoted back; leaving is a command, not a move.
    assert explain(ARGENT, state, seat, "teleport where=moon").startswith("None of your moves now fits that.")
    assert explain(ARGENT, state, seat, "resign") == "Leaving is not a move: use `/game leave`."


def test_an_academy_refusal_cites_the_advanced_rules_in_an_advanced_game() -> None:
    """Advanced rules, Take Actions: a move action enters an adjoining room."""
    academy = registry.get("academy")
    state = academy.setup(2, academy.check_options({"scenario": "golem"}), 3)
    while state["step"] != "actions":
        seat = academy.waiting_on(state)[0]
        state, _ = academy.apply(state, seat, Move.of("ready"))
    seat = academy.waiting_on(state)[0]
    answer = explain(academy, state, seat, "move room=cursed_room")
    assert "(Wizard's Academy rulebook, Take Actions)." in answer, answer


def _answers(rules: Rules, state: State, seat: int, texts: list[str]) -> list[str]:
    return [explain(rules, state, seat, text) for text in texts]


@pytest.mark.parametrize(
    ("kind", "players", "options"),
    [
        ("quadrivium", 3, {"creation": "quick"}),
        ("institute", 2, {}),
        ("academy", 2, {"scenario": "basic"}),
        ("argent", 3, {}),
    ],
)
def test_no_answer_depends_on_what_the_seat_may_not_know(
    kind: str, players: int, options: dict[str, str]
) -> None:
    """Re-draw everything the asking seat may not know: every answer must stay word for word the same."""
    rules = registry.get(kind)
    state = rules.setup(players, rules.check_options(options), 5)
    rand = random.Random(5)
    seen: list[str] = []
    asked = 0
    for step in range(160):
        if rules.is_over(state):
            break
        waiting = rules.waiting_on(state)
        for seat in range(players):
            legal = rules.legal_moves(state, seat)
            seen += [m.code() for m in legal[:6]]
        if step % 8 == 0:
            texts = [*rand.sample(seen[-120:], min(8, len(seen))), "take", "cast", "place"]
            for seat in range(players):
                hidden = rules.scramble(state, seat, random.Random(step))
                same = _answers(rules, hidden, seat, texts) == _answers(rules, state, seat, texts)
                assert same, (kind, step, seat)
                asked += len(texts)
        seat = waiting[0]
        state, _ = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))
    assert asked > 100


@pytest.fixture
def table_seed() -> int:
    """The seed of the Quadrivium table below."""
    return 4


async def test_game_why_through_discord_is_private_and_never_names_a_secret_card(
    simcord_env: simcord.Env,
) -> None:
    table = await faults.open_table(simcord_env, "quadrivium", 2, "creation=quick")
    state = await table.state()
    quad = registry.get("quadrivium")
    seat = quad.waiting_on(state)[0]
    other = 1 - seat
    secret = state["hands"][other][0]
    unseen = state["deck"][0]
    asker = table.members[seat]
    about_secret = await asker.slash(table.thread, "game why", move=f"place card={secret}")
    about_unseen = await asker.slash(table.thread, "game why", move=f"place card={unseen}")
    assert about_secret.ephemeral and about_secret.response is not None
    said = about_secret.response.content
    assert said.startswith("Not now. That move does not answer what the table asks of you now: ")
    assert "(Quadrivium design posts, " in said
    # A card in the other hand and a card in the deck get the same answer, which names neither.
    assert about_unseen.response is not None and about_unseen.response.content == said
    assert secret not in said and unseen not in said
    # Nothing reached the thread, and the outsider (no seat) is refused briefly.
    assert not any("Not now" in m.content for m in table.public())
    outside = await table.outsider.slash(table.thread, "game why", move="place card=QH")
    assert outside.ephemeral and outside.response is not None
    assert outside.response.content == "You have no seat at this table."
