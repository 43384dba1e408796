"""Game End (rulebook): every voter's criterion, each tie-break settled each way, and the final count."""

from __future__ import annotations

import pytest

from rules.argent import content, scoring
from rules.argent.state import DEPARTMENTS
from tests.argent_helpers import R, round_one

VOTERS = [v["id"] for v in content.voters()]
MOST = [v["id"] for v in content.voters() if v["criterion"].startswith("most:")]


def supporters_of_department(dept: str) -> list[str]:
    """Return the supporter ids of a department."""
    return [s["id"] for s in content.supporter_cards() if s["department"] == dept]


def book_of(dept: str) -> list[str]:
    """Return regular spell books of a department."""
    return [b["id"] for b in content.spell_books() if b["department"] == dept and not b.get("legendary")]


def blank(players: int = 3) -> dict:
    """Return a game with every counted thing at zero, IP equal and no marks."""
    state = round_one(players)
    for office in state["seats"]:
        office.update(gold=0, mana=0, int=0, wis=0, ip=0, spells=[], vaults=[], supporters=[], discard=[])
    for seat, office in enumerate(state["seats"]):
        office["ip_time"] = seat
    for v in state["voters"]:
        v["marks"] = []
    return state


def give(state: dict, seat: int, criterion: str, n: int) -> None:
    """Give a seat exactly ``n`` of what a criterion counts."""
    office = state["seats"][seat]
    kind = criterion.split(":", 1)[1]
    if kind in ("ip", "gold", "mana", "int", "wis"):
        office[kind] = n
    elif kind == "supporters":
        office["supporters"] = supporters_of_department("sorcery")[:n]
    elif kind == "marks":
        for v in state["voters"][1 : n + 1]:
            v["marks"].append(seat)
    elif kind == "research":
        office["spells"] = [{"id": b, "level": 1, "exhausted": False} for b in book_of("sorcery")[:n]]
    elif kind == "diversity":
        office["supporters"] = [supporters_of_department(d)[0] for d in DEPARTMENTS[:n]]
    elif kind.startswith("vault_type:"):
        wanted = kind.split(":")[1]
        ids = [v["id"] for v in content.vault_cards() if v["type"] == wanted]
        office["vaults"] = [{"id": ids[i % len(ids)], "exhausted": False} for i in range(n)]
    elif kind.startswith("department:"):
        office["supporters"] = supporters_of_department(kind.split(":")[1])[:n]
    else:
        raise AssertionError(kind)


def seat_voter(state: dict, vid: str) -> None:
    """Put the voter under test at position 0."""
    state["voters"][0] = {"id": vid, "face_up": True, "marks": []}


def crit(vid: str) -> str:
    """Return a voter's criterion."""
    return content.voter(vid)["criterion"]


def most(vid: str) -> str:
    """Return the "most" form of a voter's criterion."""
    return "most:" + crit(vid).split(":", 1)[1]


def winner(state: dict) -> int | None:
    """Return who wins the voter at position 0."""
    return scoring.voter_winner(state, 0, {})


@pytest.mark.parametrize("vid", VOTERS)
def test_more_of_the_counted_thing_wins(vid: str) -> None:
    """Each voter votes for the player with the most of its criterion (second-most: the runner-up)."""
    state = blank()
    seat_voter(state, vid)
    for seat, n in ((0, 3), (1, 2), (2, 1)):
        give(state, seat, most(vid), n)
    assert winner(state) == (1 if crit(vid).startswith("second_most") else 0)


@pytest.mark.parametrize("vid", MOST)
def test_a_mark_breaks_a_tie(vid: str) -> None:
    """Game End: on a tie the player with a Mark on that voter wins (either way round)."""
    for marked in (0, 1):
        state = blank()
        seat_voter(state, vid)
        give(state, 0, most(vid), 2)
        give(state, 1, most(vid), 2)
        state["voters"][0]["marks"] = [marked]
        assert winner(state) == marked


@pytest.mark.parametrize("vid", [v for v in MOST if not crit(v).endswith(":ip")])
def test_several_marks_then_influence(vid: str) -> None:
    """Game End: if several tied players marked the voter, Influence breaks the tie (each way)."""
    for richer in (0, 1):
        state = blank()
        seat_voter(state, vid)
        give(state, 0, most(vid), 2)
        give(state, 1, most(vid), 2)
        state["voters"][0]["marks"] = [0, 1]
        state["seats"][richer]["ip"] = 9
        assert winner(state) == richer


@pytest.mark.parametrize("vid", MOST)
def test_equal_influence_goes_to_who_reached_it_first(vid: str) -> None:
    """Game End: tied on Influence too, the disc at the bottom of the stack wins."""
    for first in (0, 1):
        state = blank()
        seat_voter(state, vid)
        give(state, 0, most(vid), 2)
        give(state, 1, most(vid), 2)
        state["seats"][0]["ip"] = state["seats"][1]["ip"] = max(state["seats"][0]["ip"], 6)
        state["seats"][first]["ip_time"] = -1
        assert winner(state) == first


@pytest.mark.parametrize("vid", VOTERS)
def test_nobody_gets_a_vote_for_nothing(vid: str) -> None:
    """Game End: if no player has any of the counted thing, no one wins that voter."""
    state = blank()
    seat_voter(state, vid)
    if crit(vid) != "most:marks":
        state["voters"][0]["marks"] = [0]  # a Mark alone wins nothing
    assert winner(state) is None


def test_second_most_goes_to_the_tied_player_who_lost_most() -> None:
    """FAQ: with a tie for Most Influence, the tied player who did not win Most wins Second-most."""
    state = blank()
    second = next(v for v in VOTERS if crit(v) == "second_most:ip")
    seat_voter(state, second)
    state["seats"][0]["ip"] = state["seats"][1]["ip"] = 12
    state["seats"][1]["ip_time"] = -5  # seat 1 reached 12 first: it wins Most
    assert scoring.best(state, [0, 1, 2], "most:ip", []) == 1
    assert winner(state) == 0


def test_marked_tied_players_on_influence_go_by_stack() -> None:
    """FAQ: among players who marked the Most Influence voter and tie, the earlier disc wins."""
    state = blank()
    seat_voter(state, "nostros_calahaan")
    for seat in (0, 1, 2):
        state["seats"][seat]["ip"] = 10
    state["voters"][0]["marks"] = [1, 2]
    state["seats"][2]["ip_time"] = -1
    state["seats"][0]["ip_time"] = -9  # earliest, but has no Mark
    assert winner(state) == 2


def test_int_and_wis_on_spells_count() -> None:
    """FAQ: INT and WIS placed on spells still count for the Intelligence and Wisdom voters."""
    state = blank()
    state["seats"][0]["spells"] = [{"id": book_of("divinity")[0], "level": 3, "exhausted": False}]
    assert scoring.measure(state, 0, "most:int") == 1
    assert scoring.measure(state, 0, "most:wis") == 2
    assert scoring.measure(state, 0, "most:research") == 3


def test_departmental_control_counts_spell_levels_and_discarded_supporters_not_starters() -> None:
    """Game End: a level-3 spell is 3 icons; discarded supporters count; the starter spell does not."""
    state = blank()
    office = state["seats"][0]
    office["spells"] = [{"id": book_of("sorcery")[0], "level": 3, "exhausted": False}]
    office["discard"] = [{"kind": "supporter", "id": supporters_of_department("sorcery")[0], "secret": True}]
    office["starter"] = {"id": "flash_of_light", "exhausted": False}
    assert scoring.measure(state, 0, "most:department:sorcery") == 4
    assert scoring.measure(state, 0, "most:supporters") == 1


def test_diversity_counts_supporter_and_spell_departments_up_to_ten() -> None:
    """Game End, Most Diversity: distinct supporter departments plus distinct spell departments."""
    state = blank()
    office = state["seats"][0]
    office["supporters"] = [supporters_of_department(d)[0] for d in DEPARTMENTS] * 2
    office["spells"] = [{"id": book_of(d)[0], "level": 1, "exhausted": False} for d in DEPARTMENTS]
    assert scoring.measure(state, 0, "most:diversity") == 10


def test_white_ash_counts_for_its_declared_department() -> None:
    """White Ash: declared before the reveal, it counts as a supporter of that department."""
    state = blank()
    state["seats"][0]["discard"] = [{"kind": "supporter", "id": "white_ash", "secret": True}]
    state["seats"][0]["white_ash"] = "planar_studies"
    assert scoring.measure(state, 0, "most:department:planar_studies") == 1
    assert scoring.measure(state, 0, "most:department:sorcery") == 0


def test_votes_decide_then_influence() -> None:
    """Game End: most votes wins; a tie in votes goes to the most Influence."""
    state = blank()
    for i, v in enumerate(state["voters"]):
        v["id"] = ["nostros_calahaan", "gerard_matranga", "adienna_callista"][i % 3] if i < 3 else v["id"]
        v["marks"] = []
    state["voters"] = state["voters"][:3]
    state["seats"][0]["gold"] = 5  # Gerard
    state["seats"][1]["mana"] = 5  # Adienna
    state["seats"][1]["ip"] = 8  # Nostros and the tie-break
    outcome = scoring.count_votes(state)
    assert outcome["votes"][:2] == [1, 2]
    assert outcome["ranking"][0] == 1
    state["seats"][1]["mana"] = 0
    state["seats"][0]["mana"] = 5
    outcome = scoring.count_votes(state)
    assert outcome["votes"][:2] == [2, 1]


def test_a_random_game_ends_with_a_result_naming_the_top_voter() -> None:
    """The end of the fifth round reveals every voter and ranks the players by votes."""
    import random

    state = round_one(3, seed=11)
    rand = random.Random(1)
    while not R.is_over(state):
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, rand.choice(R.legal_moves(state, seat)))
    result = R.result(state)
    assert all(v["face_up"] for v in state["voters"])
    votes = state["outcome"]["votes"]
    assert result.winners == (state["outcome"]["ranking"][0],)
    assert votes[result.winners[0]] == max(votes)
    assert state["round"] == 5


def test_the_outcome_says_why_each_voter_went_where_it_did() -> None:
    """Game End: the outcome carries each voter's counts and the tie-break that settled it."""
    gold = next(v for v in MOST if crit(v) == "most:gold")
    cases = [((3, 1), [], {}, None), ((2, 2), [1], {}, "mark"), ((2, 2), [0, 1], {1: 9}, "ip")]
    cases.append(((2, 2), [], {}, "stack"))
    for (zero, one), marks, ips, tiebreak in cases:
        state = blank()
        seat_voter(state, gold)
        give(state, 0, "most:gold", zero)
        give(state, 1, "most:gold", one)
        state["voters"][0]["marks"] = marks
        for seat, ip in ips.items():
            state["seats"][seat]["ip"] = ip
        outcome = scoring.count_votes(state)
        why = outcome["awarded_why"]["0"]
        assert why["counts"] == {"0": zero, "1": one, "2": 0}
        assert why["tiebreak"] == tiebreak, (marks, ips)
        assert why["criterion"] == "most:gold" and why["first"] is None
        assert outcome["awarded"]["0"] == winner(state)


def test_the_outcome_names_who_a_second_most_voter_passed_over() -> None:
    """FAQ: Second-most weighs the matching count without the Most winner, and says who that was."""
    second = next(v for v in VOTERS if crit(v) == "second_most:ip")
    state = blank()
    seat_voter(state, second)
    for seat, ip in ((0, 9), (1, 5), (2, 3)):
        state["seats"][seat]["ip"] = ip
    why = scoring.count_votes(state)["awarded_why"]["0"]
    assert why == {"criterion": "most:ip", "counts": {"1": 5, "2": 3}, "first": 0, "tiebreak": None}
