"""The named reads the bots use (issue 27): a bot on a sampled state or a view asks the rules, not keys."""

from __future__ import annotations

from rules.academy import reads as academy
from rules.academy.state import swap_spells
from rules.argent import reads as argent
from rules.institute import reads as institute
from rules.quadrivium import reads as quadrivium
from rules.quadrivium.ranks import card_rank, total
from tests.academy_helpers import RULES as ACADEMY
from tests.academy_helpers import game as academy_game
from tests.argent_helpers import round_one as argent_round_one
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


def test_argent_reads_a_shadow_slot_as_the_errand_slot_it_shadows() -> None:
    s = argent_round_one()
    side = s["board"]["rooms"]["council_chamber"]["side"]
    assert side == "A"
    assert argent.slot_kind(s, "council_chamber", "m1s") == "shadow_merit"
    assert argent.slot_effects(s, "council_chamber", "m1s") == argent.slot_effects(s, "council_chamber", "m1")
    assert argent.slot_effects(s, "council_chamber", "m1")  # the merit slot's own reward
    assert argent.slot_kind(s, "council_chamber", "nowhere") is None
    assert argent.slot_effects(s, "council_chamber", "nowhere") is None
    assert not argent.instant(s, "council_chamber")


def test_argent_reads_know_a_voter_only_face_up_or_marked() -> None:
    s = argent_round_one()
    hidden = next(i for i in range(argent.voter_count(s)) if not s["voters"][i]["face_up"])
    seat = next(p for p in range(argent.players(s)) if p not in s["voters"][hidden]["marks"])
    assert not argent.voter_known_to(s, hidden, seat)
    s["voters"][hidden]["marks"].append(seat)
    assert argent.voter_known_to(s, hidden, seat)
    pool = argent.face_down_pool(s)
    assert argent.voter_id(s, hidden) in pool  # a face-down voter is one the pool may hold
    assert not any(v["id"] in pool for v in s["voters"] if v["face_up"])  # the always-in-play voters


def test_argent_follow_up_is_any_agenda_front_but_a_turn() -> None:
    s = argent_round_one()
    s["agenda"][:] = [{"kind": "turn"}]
    assert not argent.follow_up_due(s)
    s["agenda"].insert(0, {"kind": "decision"})
    assert argent.follow_up_due(s)
    s["agenda"].clear()
    assert not argent.follow_up_due(s)


def test_academy_reads_keep_a_face_down_spell_hidden_and_a_shuffled_reveal_unplaced() -> None:
    view = ACADEMY.view(academy_game(2), 0)
    assert all(academy.shown(x) is None for x in academy.slots(view) if not academy.bound(x))
    assert academy.revealed(view) is None
    spell = {"key": "snuff", "name": "Snuff"}
    assert academy.revealed({**view, "reveal": {"slot": "1-2", "spell": spell}}) == ("1-2", "snuff")
    assert academy.revealed({**view, "reveal": {"slot": None, "spell": spell}}) is None  # level shuffled


def test_academy_reads_name_every_room_and_where_each_wizard_stands() -> None:
    view = ACADEMY.view(academy_game(2, "golem"), 1)
    rooms = academy.rooms(view)
    assert len(rooms) == 16 + (academy.outside(view) is not None)
    assert all(academy.key(r) == k for k, r in rooms.items())
    assert academy.here(view) == academy.room_of(view, 1) in rooms
    assert academy.team_glyphs(view) == [g for w in academy.wizards(view) for g in academy.glyphs(w)]
    assert academy.spell_level("abjure") == 2 and academy.scenario(view) == "golem"


def test_academy_state_reads_agree_with_the_view_a_seat_sees() -> None:
    state = academy_game(2, "golem")
    view = ACADEMY.view(state, 0)
    assert academy.state_current(state) == academy.current(view)
    assert academy.state_turn(state) == academy.turn(view)
    assert academy.state_scenario(state) == academy.scenario(view) == "golem"
    assert academy.state_shuffles(state) == academy.shuffles(view)
    assert academy.hands(state) == [academy.glyphs(w) for w in academy.wizards(view)]
    grid = {academy.pos(r): r for r in academy.grid(view)}
    for place, (room, inside) in enumerate(zip(academy.board(state), academy.on_board(state), strict=True)):
        assert academy.key(grid[place]) == room and academy.contents(state, room) is inside
        assert academy.count(inside, "fire") == academy.fire(grid[place])
        assert academy.source_in(inside) == academy.source(grid[place])
    assert academy.bound_slots(state) == {academy.slot_id(x) for x in academy.slots(view) if academy.bound(x)}
    assert all(len(academy.printed_doors(room)) == 4 for room in academy.board(state))


def test_academy_swap_spells_moves_two_face_down_spells_and_nothing_else() -> None:
    state = academy_game(2)
    grid = academy.spell_grid(state)
    face_down = [k for k, v in grid.items() if academy.laid(v) and not academy.fixed(v)]
    a, b = face_down[0], face_down[1]
    before = {k: academy.laid(v) for k, v in grid.items()}
    swap_spells(state, a, b)
    after = {k: academy.laid(v) for k, v in academy.spell_grid(state).items()}
    assert (after[a], after[b]) == (before[b], before[a])
    assert before[a] != before[b]
    assert all(after[k] == before[k] for k in before if k not in (a, b))
