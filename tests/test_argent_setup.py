"""Argent setup (rulebook: Game Setup steps 1-11, First-Game Setups, Argent for Two, options)."""

from __future__ import annotations

import pytest

from rules.argent import content
from rules.argent.setup import draft_order
from rules.argent.state import merit_total, turn_order
from tests.argent_helpers import R, act, labels, opening, round_one, seat_now


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_offices_start_with_the_candidate_sheet_resources(players: int) -> None:
    """Setup 1: 6 Gold, 2 Mana, 2 INT, 2 WIS, the starter spell and two department mages."""
    state = opening(players)
    for seat, office in enumerate(state["seats"]):
        cand = content.candidate(office["candidate"])
        assert (office["gold"], office["mana"], office["int"], office["wis"]) == (6, 2, 2, 2)
        assert office["starter"]["id"] == cand["starter"]
        mine = [m for m in state["mages"] if m["owner"] == seat]
        assert len(mine) == 2
        assert {m["type"] for m in mine} == set(cand["start"]["mages"])
    assert len({o["candidate"] for o in state["seats"]}) == players


def test_candidates_come_from_distinct_sheets_on_the_chosen_side() -> None:
    """Setup 1: one sheet per player, on side B when asked."""
    state = opening(5, candidates="B")
    sheets = [content.candidate(o["candidate"])["sheet"] for o in state["seats"]]
    assert len(set(sheets)) == 5
    assert {content.candidate(o["candidate"])["side"] for o in state["seats"]} == {"B"}


def test_random_candidate_sides_are_drawn_per_player_from_the_seed() -> None:
    """Setup 1 (option candidates=random): distinct sheets, each on a side the seed draws; both occur."""
    sides = set()
    for seed in range(6):
        state = opening(5, seed, candidates="random")
        cands = [content.candidate(o["candidate"]) for o in state["seats"]]
        assert len({c["sheet"] for c in cands}) == 5
        assert [o["candidate"] for o in opening(5, seed, candidates="random")["seats"]] == [
            c["id"] for c in cands
        ]
        sides |= {c["side"] for c in cands}
    assert sides == {"A", "B"}


def test_student_body_candidate_starts_with_an_extra_merit_badge() -> None:
    """Setup 1: Student Body candidates begin with one more Merit Badge."""
    for seed in range(40):
        state = opening(5, seed)
        for seat, office in enumerate(state["seats"]):
            extra = 1 if office["department"] == "student_body" else 0
            assert merit_total(state, seat) == extra
        if any(o["department"] == "student_body" for o in state["seats"]):
            return
    raise AssertionError("no seed dealt a Student Body candidate")


def test_influence_stack_is_at_five_with_the_first_player_on_top() -> None:
    """Setup 2: discs at 5 IP, stacked from the last player up, the first player's on top."""
    state = opening(4, seed=3)
    order = turn_order(state)
    assert all(o["ip"] == 5 for o in state["seats"])
    heights = [state["seats"][s]["ip_time"] for s in order]
    assert heights == sorted(heights, reverse=True)  # first player highest (reached last)


@pytest.mark.parametrize(("players", "rooms", "bells"), [(2, 9, 2), (3, 8, 3), (4, 10, 4), (5, 12, 5)])
def test_board_voters_bell_tower_and_tableaus(players: int, rooms: int, bells: int) -> None:
    """Setup 2-9: 2 white voters face up + 10 face down, the rooms, Bell Tower cards, 3/3/5 tableaus."""
    state = opening(players)
    voters = state["voters"]
    assert len(voters) == 12
    assert [v["face_up"] for v in voters].count(True) == 2
    assert {content.voter(v["id"])["criterion"] for v in voters if v["face_up"]} == {
        "most:ip",
        "most:supporters",
    }
    assert len(state["board"]["rooms"]) == rooms
    assert {"council_chamber", "library", "infirmary"} <= set(state["board"]["rooms"])
    assert len(state["bell"]) == bells
    assert [len(state["tableau"][k]) for k in ("spell", "vault", "supporter")] == [3, 3, 5]
    assert not any(
        content.book(b).get("legendary") for b in state["decks"]["spell"] + state["tableau"]["spell"]
    )
    assert len(state["legendary"]) == 5
    assert state["rounds"] == 5


def test_first_game_layout_for_four_players_matches_the_rulebook() -> None:
    """First-Game Setups: 4 players use these ten rooms, all on side A."""
    state = opening(4)
    assert set(state["board"]["rooms"]) == {
        "training_fields",
        "courtyard",
        "chapel",
        "catacombs",
        "guilds",
        "vault",
        "student_stores",
        "council_chamber",
        "library",
        "infirmary",
    }
    assert {r["side"] for r in state["board"]["rooms"].values()} == {"A"}


@pytest.mark.parametrize("seed", range(6))
def test_two_player_rules(seed: int) -> None:
    """Argent for Two: 3x3, Infirmary B, no Great Hall A or Dormitory, no 2nd-most voters, 7 mages."""
    state = opening(2, seed, layout="random", rooms="random")
    grid = state["board"]["grid"]
    assert [len(row) for row in grid] == [3, 3, 3]
    rooms = state["board"]["rooms"]
    assert rooms["infirmary"]["side"] == "B"
    assert "dormitory" not in rooms
    assert rooms.get("great_hall", {"side": "B"})["side"] == "B"
    ids = [v["id"] for v in state["voters"]] + state["voter_deck"]
    assert all(content.voter(v)["two_player"] for v in ids)
    state = through_setup_all(state)
    for seat in range(2):
        assert sum(1 for m in state["mages"] if m["owner"] == seat) == 7


def through_setup_all(state: dict) -> dict:
    """Play the draft and marks with the first legal move."""
    while state["phase"] in ("draft", "marks"):
        seat = seat_now(state)
        state, _ = R.apply(state, seat, R.legal_moves(state, seat)[0])
    return state


def test_mage_draft_is_a_snake_from_the_last_player() -> None:
    """Setup 10: last player first counter-clockwise, then clockwise from the first, then back again."""
    state = opening(3, seed=2)
    order = turn_order(state)
    assert draft_order(state) == list(reversed(order)) + order + list(reversed(order))
    assert seat_now(state) == order[-1]


def test_draft_never_offers_a_third_mage_of_a_type() -> None:
    """Setup 10: you can never draft a mage if you already have two of its type."""
    state = opening(3, seed=2)
    seat = seat_now(state)
    dept = state["seats"][seat]["department"]
    offered = [m.get("type") for m in R.legal_moves(state, seat)]
    if dept in offered:
        raise AssertionError("a third department mage was offered")
    assert "neutral" in offered  # FAQ: neutral mages may be drafted
    assert "apprentice" not in offered  # FAQ: never the Archmage's Apprentice


def test_each_player_ends_the_draft_with_five_mages() -> None:
    """Setup 10: each player has 5 mages after three picks."""
    state = through_setup_all(opening(4, seed=5))
    for seat in range(4):
        assert sum(1 for m in state["mages"] if m["owner"] == seat) == 5


def test_starting_marks_go_on_distinct_face_down_voters_in_turn_order() -> None:
    """Setup 11: in turn order, each marks a face-down voter nobody has marked."""
    state = opening(3, seed=4)
    while state["phase"] == "draft":
        seat = seat_now(state)
        state, _ = R.apply(state, seat, R.legal_moves(state, seat)[0])
    order = turn_order(state)
    marked = []
    for seat in order:
        assert seat_now(state) == seat
        moves = R.legal_moves(state, seat)
        assert all(not state["voters"][m.get("voter")]["face_up"] for m in moves)
        assert all(m.get("voter") not in marked for m in moves)
        state = act(state, seat, "mark", voter=moves[0].get("voter"))
        marked.append(moves[0].get("voter"))
    assert state["phase"] == "errands"
    assert seat_now(state) == state["first"]


def test_diversity_requirement_gives_one_mage_of_each_department() -> None:
    """Options: the Diversity Requirement replaces the draft and the department mages."""
    state = opening(3, diversity="on")
    assert state["phase"] == "marks"
    for seat in range(3):
        kinds = sorted(m["type"] for m in state["mages"] if m["owner"] == seat)
        assert kinds == sorted(["sorcery", "mysticism", "natural_magick", "planar_studies", "divinity"])


def test_epic_variant_plays_six_rounds() -> None:
    """Options: Epic adds the sixth round card."""
    assert opening(3, epic="on")["rounds"] == 6


def test_alternate_mage_powers_option_flips_the_power_cards() -> None:
    """Options: Alternate Mage Powers uses the B sides."""
    assert set(opening(3, mage_powers="B")["mage_powers"].values()) == {"B"}


def test_first_turn_offers_every_action_kind() -> None:
    """Errands Phase: place a mage, cast a spell, take a Bell Tower card are on offer."""
    state = round_one(3)
    text = " | ".join(labels(state))
    assert "Place a mage in" in text
    assert "Take the Bell Tower offering" in text


def test_build_the_university_lays_rooms_by_turns_next_to_the_others() -> None:
    """Build the University: Central in a column, then each player in turn adds a tile, side and place."""
    state = opening(3, layout="build")
    assert state["phase"] == "build"
    assert state["board"]["grid"] == [["council_chamber"], ["library"], ["infirmary"]]
    order = turn_order(state)
    for i in range(5):
        seat = seat_now(state)
        assert seat == order[i % 3]
        tiles = R.legal_moves(state, seat)
        assert len(tiles) <= 25 and all(m.action == "build" for m in tiles)
        state = act(state, seat, "build", room=tiles[2 * i].get("room"), side="B")
        spots = labels(state)
        assert all(text.startswith("Put it ") for text in spots)
        state = act(state, seat, "build", **R.legal_moves(state, seat)[-1].params)
    assert state["phase"] == "draft"
    rooms = [r for row in state["board"]["grid"] for r in row if r]
    assert len(rooms) == 8 and len(state["board"]["rooms"]) == 8
    for room in rooms:
        if room not in ("council_chamber", "library", "infirmary"):
            assert state["board"]["rooms"][room]["side"] == "B"


def test_two_players_build_inside_a_three_by_three_square() -> None:
    """Argent for Two with Build the University: nine rooms in a 3x3 square."""
    state = opening(2, layout="build")
    while state["phase"] == "build":
        seat = seat_now(state)
        state, _ = R.apply(state, seat, R.legal_moves(state, seat)[-1])
    grid = state["board"]["grid"]
    assert [len(row) for row in grid] == [3, 3, 3]
    assert all(all(row) for row in grid)


def test_candidates_may_choose_their_own_mage_power_sides() -> None:
    """Alternate Mage Powers: each candidate decides its department's power; the rest are random."""
    state = opening(3, mage_powers="chosen")
    assert state["phase"] == "powers"
    for seat in turn_order(state):
        dept = state["seats"][seat]["department"]
        if dept == "student_body":
            continue
        assert seat_now(state) == seat
        assert len(R.legal_moves(state, seat)) == 2
        state = act(state, seat, "power", side="B")
        assert state["mage_powers"][dept] == "B"
    assert state["phase"] == "draft"


def test_players_may_choose_their_candidates_in_player_order() -> None:
    """Setup 1: in player order each player chooses an available candidate sheet and its side."""
    state = opening(3, candidates="chosen", mage_powers="chosen")
    assert state["phase"] == "candidates"
    order = turn_order(state)
    sheets = []
    for seat in order:
        assert seat_now(state) == seat
        moves = R.legal_moves(state, seat)
        assert len(moves) == 12 - 2 * len(sheets)
        pick_id = moves[-1].get("id")
        state = act(state, seat, "candidate", id=pick_id)
        office = state["seats"][seat]
        assert (
            office["candidate"] == pick_id
            and office["starter"]["id"] == content.candidate(pick_id)["starter"]
        )
        assert sum(1 for m in state["mages"] if m["owner"] == seat) == 2
        sheets.append(content.candidate(pick_id)["sheet"])
    assert len(set(sheets)) == 3
    expected = [s for s in order if state["seats"][s]["department"] != "student_body"]
    assert state["phase"] == "powers" and state["queue"] == expected
