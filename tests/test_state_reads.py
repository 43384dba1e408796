"""The named state reads the bots use (issue 27): a bot on a sampled state asks the rules, not the keys."""

from __future__ import annotations

from rules.institute import reads as institute
from rules.quadrivium import reads as quadrivium
from rules.quadrivium.ranks import card_rank, total
from tests.institute_helpers import fresh, put, put_portal
from tests.quadrivium_helpers import even_mage, play_cards, quick, to_trick


def test_institute_reads_name_what_lies_at_each_location_and_each_players_supplies() -> None:
    s = fresh()
    put_portal(s, 5, red=1)
    cid = put(s, 2, "ring_of_influence", red=3, blue=1)
    assert institute.card_at(s, 1) is not None and institute.card_at(s, 1).key == "ring_of_influence"
    assert s["slots"][1]["card"] == cid
    assert institute.kind_at(s, 4) == "portal" and institute.card_at(s, 4) is None
    assert (institute.stones_at(s, 1, 0), institute.stones_at(s, 1, 1)) == (3, 1)
    starting = s["players"][1]["active"]
    assert starting and institute.holdings(s, 1) == starting  # the starting card, nothing used yet
    assert institute.cards_face_down(s)  # a fresh round waits on Phase I's secret cards
    assert list(institute.locations(s)) == list(range(6))


def test_institute_assignment_is_the_players_own_list_so_a_sample_can_relay_it() -> None:
    s = fresh()
    institute.assignment(s, 1)[2] = "cast2"
    assert s["players"][1]["assign"][2] == "cast2"


def test_a_cards_rank_in_the_conflict_is_what_the_trick_counts() -> None:
    """Conflict post: +2 per matching conflict type, less the Corruption of the card's Trait."""
    s = quick(2, 3)
    for seat in (0, 1):
        even_mage(s, seat)
    s = to_trick(s, types=("vigor", "vigor"))
    s["mages"][0]["corruption"]["vigor"] = 1
    assert card_rank(s, 0, "9C") == 9 + 4 - 1 and card_rank(s, 1, "9C") == 9 + 4
    assert card_rank(s, 1, "9H") == 9
    s = play_cards(s, "9C", "8H")
    assert total(s, 0) == card_rank(s, 0, "9C") and total(s, 1) == card_rank(s, 1, "8H")
    assert quadrivium.trick_card(s, 0) == "9C" and quadrivium.side(s, 1) == 1 and quadrivium.side(s, 0) == 0


def test_quadrivium_reads_follow_the_conflict_to_its_end() -> None:
    s = quick(2, 3)
    assert quadrivium.side(s, 0) is None and quadrivium.settled(s)  # no conflict runs
    s = to_trick(s, tricks=1)
    assert not quadrivium.settled(s) and quadrivium.target(s) == 1
    assert quadrivium.tricks_needed(s, 0) == 1 and quadrivium.decisive(s, 0) and quadrivium.decisive(s, 1)
    assert quadrivium.side_seat(s, 1) == 1 and quadrivium.conflict_winner(s) is None
    assert not quadrivium.harm_set_for(s, "win") and not quadrivium.harm_set_for(s, "lose")
