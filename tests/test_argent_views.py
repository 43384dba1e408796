"""Hidden information in Argent views: voters through Marks, discards, secret supporters, deck order."""

from __future__ import annotations

import random

from rules.argent.effects import secret_supporter
from rules.argent.views import scramble, view
from tests.argent_helpers import R, labels, round_one


def test_a_face_down_voter_is_seen_only_through_ones_own_mark() -> None:
    """Marks: placing a Mark shows that voter to that player only; white voters are seen by all."""
    state = round_one(3)
    marked = next(i for i, v in enumerate(state["voters"]) if v["marks"])
    owner = state["voters"][marked]["marks"][0]
    other = (owner + 1) % 3
    assert view(state, owner)["voters"][marked]["id"] == state["voters"][marked]["id"]
    assert view(state, other)["voters"][marked]["id"] is None or other in state["voters"][marked]["marks"]
    assert view(state, None)["voters"][marked]["id"] is None
    for seat in (None, 0, 1, 2):
        whites = [v for v in view(state, seat)["voters"] if v["face_up"]]
        assert len(whites) == 2 and all(v["id"] for v in whites)


def test_every_voter_is_shown_at_the_end() -> None:
    """Game End: all voters are revealed."""
    state = round_one(3, seed=3)
    rand = random.Random(3)
    while not R.is_over(state):
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, rand.choice(R.legal_moves(state, seat)))
    assert all(v["id"] for v in view(state, None)["voters"])


def test_secret_supporters_are_hidden_and_never_counted_by_others() -> None:
    """FAQ: Secret Supporters may never be looked at or counted, even with Open Discards."""
    for option in ("closed", "open"):
        state = round_one(3, discards=option)
        secret_supporter(state, 0, [])
        assert view(state, 0)["offices"][0]["discard"][0]["secret"] is True
        other = view(state, 1)["offices"][0]["discard"]
        assert other is None if option == "closed" else other == []


def test_open_discards_show_used_cards_to_everyone() -> None:
    """Optional Open Discards: the face-up part of a discard may be looked through."""
    state = round_one(3, discards="open")
    state["seats"][0]["discard"].append({"kind": "supporter", "id": "alumis", "secret": False})
    assert view(state, 1)["offices"][0]["discard"] == [{"kind": "supporter", "id": "alumis", "secret": False}]
    closed = round_one(3)
    closed["seats"][0]["discard"].append({"kind": "supporter", "id": "alumis", "secret": False})
    assert view(closed, 1)["offices"][0]["discard"] is None


def test_views_hold_no_deck_order_and_survive_a_scramble() -> None:
    """Deck order is hidden from everyone: a view shows sizes only, and re-drawing secrets changes no view."""
    state = round_one(4, seed=9)
    secret_supporter(state, 2, [])
    rand = random.Random(5)
    for seat in (None, 0, 1, 2, 3):
        v = view(state, seat)
        assert "decks" not in v and v["deck_sizes"]["spell"] == len(state["decks"]["spell"])
        for _ in range(3):
            assert view(scramble(state, seat, rand), seat) == v


def test_a_private_choice_shows_its_options_to_its_seat_only() -> None:
    """Mystic Lantern: the supporters looked at are seen by their player alone."""
    state = round_one(3)
    seat = R.pending(state)[0].seat
    state["seats"][seat]["vaults"].append({"id": "mystic_lantern", "exhausted": False})
    state, _ = R.apply(state, seat, next(m for m in R.legal_moves(state, seat) if m.action == "use"))
    mine = view(state, seat)["pending"]
    theirs = view(state, (seat + 1) % 3)["pending"]
    assert mine["options"] and all(text.startswith("Keep ") for text in mine["options"])
    assert "options" not in theirs
    assert "Keep" not in R.pending(state)[0].text


def test_view_text_names_the_board_and_the_choices() -> None:
    """The text view is enough to play: rooms, voters, offices and the numbered choices."""
    state = round_one(3)
    seat = R.pending(state)[0].seat
    text = R.view_text(R.view(state, seat))
    assert "Guilds" in text and "Voters:" in text and f"P{seat + 1} (you)" in text
    assert labels(state)[0]


def test_refusals_say_why() -> None:
    """An illegal move is refused with a sentence a player understands."""
    from rules.contract import IllegalMove, Move

    state = round_one(3)
    me = R.pending(state)[0].seat
    expected = {
        Move.of("place", room="infirmary"): "No mage can be placed in the Infirmary.",
        Move.of("cast", spell="the_gift_of_fire", level=1): "You have not learned that spell.",
        Move.of("bell", card="power"): "That Bell Tower offering has already been taken.",
    }
    for move, sentence in expected.items():
        try:
            R.apply(state, me, move)
        except IllegalMove as exc:
            assert exc.sentence == sentence
        else:
            raise AssertionError(f"{move} was accepted")
    state["seats"][me]["spells"].append({"id": "the_gift_of_fire", "level": 1, "exhausted": True})
    try:
        R.apply(state, me, Move.of("cast", spell="the_gift_of_fire", level=1))
    except IllegalMove as exc:
        assert "exhausted" in exc.sentence


def test_discard_counts_follow_what_a_seat_may_count() -> None:
    """FAQ: a rival's face-down discard may not be counted; Open Discards shows all but Secret Supporters."""
    for option, theirs in (("closed", None), ("open", 1)):
        state = round_one(3, discards=option)
        state["seats"][0]["discard"].append({"kind": "supporter", "id": "alumis", "secret": False})
        secret_supporter(state, 0, [])
        assert view(state, 0)["offices"][0]["discard_count"] == 2
        assert view(state, 1)["offices"][0]["discard_count"] == theirs
        assert view(state, None)["offices"][0]["discard_count"] == theirs
        assert view(state, 1)["offices"][1]["discard_count"] == 0


def test_the_pending_decision_says_publicly_if_it_is_a_reaction_or_secret() -> None:
    """Views: react and secret flags are public; the options stay with their seat."""
    state = round_one(3)
    seat = R.pending(state)[0].seat
    state["seats"][seat]["vaults"].append({"id": "mystic_lantern", "exhausted": False})
    state, _ = R.apply(state, seat, next(m for m in R.legal_moves(state, seat) if m.action == "use"))
    for looker in (None, 0, 1, 2):
        pending = view(state, looker)["pending"]
        assert pending["secret"] is True and pending["react"] is False
        assert ("options" in pending) == (looker == seat)
    plain = round_one(3)
    me = R.pending(plain)[0].seat
    plain, _ = R.apply(plain, me, next(m for m in R.legal_moves(plain, me) if m.action == "bell"))
    if plain["agenda"]:
        assert view(plain, None)["pending"]["secret"] is False


def test_views_name_spell_books_starters_and_voter_titles_only_where_seen() -> None:
    """Views: a held spell shows its book's name, a starter its name; a voter's title shows with its name."""
    state = round_one(3)
    state["seats"][1]["spells"].append({"id": "the_gift_of_fire", "level": 2, "exhausted": False})
    for seat in (None, 0, 1):
        office = view(state, seat)["offices"][1]
        assert office["spells"][-1]["name"] == "The Gift of Fire"
        assert office["starter"]["name"]
    marked = next(i for i, v in enumerate(state["voters"]) if v["marks"] and not v["face_up"])
    owner = state["voters"][marked]["marks"][0]
    other = next(s for s in range(3) if s not in state["voters"][marked]["marks"])
    seen = view(state, owner)["voters"][marked]
    assert seen["title"] and seen["name"]
    assert view(state, other)["voters"][marked]["title"] is None
