"""Every worked example of the Argent rulebook, as a scenario through the real rules."""

from __future__ import annotations

from rules.argent.agenda import push_effects
from rules.argent.engine import advance
from rules.argent.views import view
from tests.argent_helpers import R, act, at, give_mage, labels, pick, round_one, seat_now, to_resolution


def rivals(state: dict) -> tuple[int, int]:
    """Return the seat on turn and the next seat."""
    me = seat_now(state)
    return me, (me + 1) % state["players"]


def test_jens_blue_mage_at_the_guilds() -> None:
    """Rulebook, 1. Place a Mage: Jen's Blue Mage in the Guilds will gain 6 Gold or 3 Mana at resolution."""
    state = round_one(3)
    jen, _ = rivals(state)
    give_mage(state, jen, "divinity")
    state = act(state, jen, "place", room="guilds")
    state = pick(state, "Place a Divinity mage in Guilds, slot 2")
    assert at(state, "guilds/r2")["owner"] == jen
    state = to_resolution(state)
    mana, gold = state["seats"][jen]["mana"], state["seats"][jen]["gold"]
    assert seat_now(state) == jen
    # One choice, asked once: each reward is a claim of its own.
    assert {"Claim: gain 6 Gold", "Claim: gain 3 Mana"} <= set(labels(state))
    state = pick(state, "Claim: gain 3 Mana")
    assert state["seats"][jen]["mana"] == mana + 3
    assert state["seats"][jen]["gold"] == gold
    assert all(m["loc"] in ("office", "supply") for m in state["mages"] if m["owner"] == jen)


def test_treys_red_mage_wounds_and_takes_the_slot() -> None:
    """Rulebook, 1. Place a Mage: Trey's Red Mage pays 1 Mana to wound Jen's Mage and take its slot."""
    state = round_one(3)
    trey, jen = rivals(state)
    jens = give_mage(state, jen, "divinity", "guilds/r2")
    give_mage(state, trey, "sorcery")
    mana = state["seats"][trey]["mana"]
    state = act(state, trey, "place", room="guilds")
    state = pick(state, "Pay 1 Mana: your Sorcery mage wounds")
    assert at(state, "guilds/r2")["owner"] == trey
    assert state["mages"][jens["id"]]["loc"].startswith("infirmary/")
    assert state["seats"][trey]["mana"] == mana - 1
    # Jen was wounded by an opponent: the Infirmary's sympathy bonus is hers to take now.
    assert seat_now(state) == jen
    assert "Gain 2 Gold" in labels(state)


def test_treys_wave_banishes_a_mage_and_exhausts_the_spell() -> None:
    """Rulebook, 2. Cast a Spell: Trey casts Wave (level 1 only), pays its Mana and banishes a mage."""
    state = round_one(3)
    trey, jen = rivals(state)
    state["seats"][trey]["spells"].append({"id": "book_of_one_hundred_seas", "level": 1, "exhausted": False})
    jens = give_mage(state, jen, "sorcery", "courtyard/r2")
    casts = [
        m
        for m in R.legal_moves(state, trey)
        if m.action == "cast" and m.get("spell") == "book_of_one_hundred_seas"
    ]
    assert [m.get("level") for m in casts] == [1]  # the higher levels are not researched
    mana = state["seats"][trey]["mana"]
    state = act(state, trey, "cast", spell="book_of_one_hundred_seas", level=1)
    state = pick(state, "Banish")
    assert state["mages"][jens["id"]]["loc"] == "office"
    assert state["seats"][trey]["mana"] == mana - 1
    assert state["seats"][trey]["spells"][0]["exhausted"]


def test_brads_spellblade_wounds_then_places_and_exhausts() -> None:
    """Rulebook, 3. Use a Vault Item: Spellblade wounds a mage, Brad's takes its slot; a Treasure exhausts."""
    state = round_one(3)
    brad, foe = rivals(state)
    state["seats"][brad]["vaults"].append({"id": "spellblade", "exhausted": False})
    victim = give_mage(state, foe, "mysticism", "guilds/r3")
    give_mage(state, brad, "planar_studies")
    state = act(state, brad, "use", vault=0)
    state = pick(state, "Wound")
    state = pick(state, "Put your Planar Studies mage there")
    assert at(state, "guilds/r3")["owner"] == brad
    assert state["mages"][victim["id"]]["loc"].startswith("infirmary/")
    assert state["seats"][brad]["vaults"] == [{"id": "spellblade", "exhausted": True}]
    assert state["seats"][brad]["discard"] == []


def test_a_consumable_goes_to_the_discard_instead() -> None:
    """Rulebook, 3. Use a Vault Item: a Consumable is discarded to the personal discard pile."""
    state = round_one(3)
    brad, foe = rivals(state)
    state["seats"][brad]["vaults"].append({"id": "bottled_rage", "exhausted": False})
    give_mage(state, foe, "mysticism", "guilds/r3")
    state = act(state, brad, "use", vault=0)
    assert state["seats"][brad]["vaults"] == []
    assert state["seats"][brad]["discard"] == [{"kind": "vault", "id": "bottled_rage", "secret": False}]


def test_eunices_alumis_marks_two_voters_and_goes_face_down() -> None:
    """Rulebook, 4. Use a Supporter: Alumis marks 2 voters, then lies face down in Eunice's discard."""
    state = round_one(3)
    eunice, other = rivals(state)
    state["seats"][eunice]["supporters"].append("alumis")
    before = sum(eunice in v["marks"] for v in state["voters"])
    state = act(state, eunice, "support", card="alumis")
    state = pick(state, "Mark voter")
    state = pick(state, "Mark voter")
    assert sum(eunice in v["marks"] for v in state["voters"]) == before + 2
    assert state["seats"][eunice]["supporters"] == []
    assert state["seats"][eunice]["discard"] == [{"kind": "supporter", "id": "alumis", "secret": False}]
    assert view(state, other)["offices"][eunice]["discard"] is None
    assert view(state, eunice)["offices"][eunice]["discard"][0]["id"] == "alumis"


def test_treys_popularity_gains_one_ip_and_the_last_offering_ends_the_round() -> None:
    """Rulebook, 5. Take a Bell Tower Card: Popularity gives 1 IP; the last offering ends the round."""
    state = round_one(3)
    trey, _ = rivals(state)
    ip = state["seats"][trey]["ip"]
    state = act(state, trey, "bell", card="popularity")
    # FAQ, "Benefits are never mandatory": the IP is offered, and taken.
    state = pick(state, "Gain 1 IP")
    assert state["seats"][trey]["ip"] == ip + 1
    assert state["phase"] == "errands" and seat_now(state) != trey  # the turn ended
    state["bell"] = ["initiative"]
    nxt = seat_now(state)
    state = act(state, nxt, "bell", card="initiative")
    assert state["phase"] == "resolution" or state["round"] == 2


def test_brads_research_learns_then_upgrades() -> None:
    """Rulebook, Research Example: one Research learns a spell with INT, the next upgrades it with WIS."""
    state = round_one(3)
    brad, _ = rivals(state)
    state["tableau"]["spell"][0] = "the_darkness_within"
    push_effects(state, brad, [{"gain": {"research": 2}}])
    advance(state, [])
    state = pick(state, "Learn The Darkness Within")
    state = pick(state, "Upgrade The Darkness Within to Haunt")
    office = state["seats"][brad]
    assert office["spells"] == [{"id": "the_darkness_within", "level": 2, "exhausted": False}]
    assert (office["int"], office["wis"]) == (1, 1)
    # The tableau refilled at once.
    assert len(state["tableau"]["spell"]) == 3 and "the_darkness_within" not in state["tableau"]["spell"]
    # Now he can use either Malaise (an action) or Haunt (a reaction).
    assert any("Cast Malaise" in text for text in labels(state))
