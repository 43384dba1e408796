"""Issue 13, the independent review: one test per defect, each citing the rulebook or the card text.

Rulebook quotes are from shared/rules/argent-the-consortium.txt; card texts are the sheet's facts in
shared/cards/argent.md (our words in data/argent/).
"""

from __future__ import annotations

from rules.argent import views
from rules.argent.agenda import push_effects
from rules.argent.engine import advance
from tests.argent_helpers import (
    R,
    act,
    at,
    board_with,
    give_mage,
    labels,
    pick,
    round_one,
    run,
    seat_now,
    set_turn,
    to_resolution,
)


def three() -> tuple[dict, int, int, int]:
    """A 3-player game at its first turn: (state, me, first rival, second rival)."""
    state = round_one(3)
    me = seat_now(state)
    return state, me, (me + 1) % 3, (me + 2) % 3


def status(state: dict, seat: int, name: str) -> None:
    """Give a seat a status, as its spell would."""
    state["statuses"].append({"name": name, "seat": seat, "duration": "this_round", "amount": 0})


def texts(state: dict, seat: int | None = None) -> str:
    """All the labels of the waiting seat, as one string."""
    return " | ".join(labels(state, seat))


# --------------------------------------------------------------------------- protection, items 1-5


def test_1_a_rivals_heal_spell_does_not_reach_a_blue_mage() -> None:
    """Rulebook, Blue (Divinity): "never affected by Spells cast by rival candidates (they are still
    susceptible to ... Vault Cards, and Supporters)". Heal is a spell; the same heal from a vault card
    reaches the mage."""
    state, me, foe, _ = three()
    blue = give_mage(state, foe, "divinity", "infirmary/general/0")
    give_mage(state, foe, "sorcery", "infirmary/general/1")
    state = run(state, me, [{"heal": {}}])
    assert "Sorcery" in texts(state) and "Divinity" not in texts(state)
    state["agenda"] = []
    state = run(state, me, [{"heal": {}}], via="vault")
    state = pick(state, "Divinity")
    assert state["mages"][blue["id"]]["loc"] == "office"


def test_2_possession_respects_every_protection_and_the_colour_limit() -> None:
    """Possession (The Darkness Within L3): "swap the loyalty badges of two mages on the board". Rulebook:
    Blue mages ignore rivals' spells; Locking protects a room's occupants "from all Spells and effects";
    a shadowing mage "may not be moved or harmed" except by cards naming shadows; Spell Shield and Wall
    (Tome of Protection). FAQ: "No effect can allow you to have more than 2 Mages of a single type"."""
    state, me, foe, other = three()
    mine = give_mage(state, me, "mysticism", "guilds/m1")
    open_target = give_mage(state, foe, "mysticism", "guilds/r2")
    blue = give_mage(state, foe, "divinity", "guilds/r3")
    locked_in = give_mage(state, other, "mysticism", "vault/r2")
    state["board"]["rooms"]["vault"]["locked"] = True
    shadowing = give_mage(state, other, "sorcery", "library/r3s")
    shielded = give_mage(state, other, "natural_magick", "library/m1")
    status(state, other, "own_ignore_spells")
    state = run(state, me, [{"hook": {"name": "possession"}}])
    offered = {o["args"]["mage"] for o in state["agenda"][0]["options"]}
    assert {mine["id"], open_target["id"]} <= offered
    assert not offered & {blue["id"], locked_in["id"], shadowing["id"], shielded["id"]}
    # Two Sorcery mages at home: taking a rival's Sorcery mage would make a third.
    red = give_mage(state, foe, "sorcery", "courtyard/r2")
    for m in state["mages"]:
        if m["owner"] == me and m["loc"] == "office":
            m["type"] = "neutral"
    give_mage(state, me, "sorcery")
    give_mage(state, me, "sorcery")
    assert red["owner"] == foe
    state = pick(state, f"Choose P{me + 1}'s Mysticism mage")
    second = {o["args"]["mage"] for o in state["agenda"][0]["options"]}
    assert open_target["id"] in second and red["id"] not in second


def test_3_zero_hour_and_inversion_cannot_shadow_a_mage_protected_from_spells() -> None:
    """Rulebook, Shadowing: "You may not use a Spell to Shadow Mages protected from Spells (such as Blue
    Mages)." Zero Hour and Inversion are spells; Spell Shield protects as a Blue mage is protected."""
    for name in ("shadow_on_place", "shadow_only_place"):
        state, me, foe, other = three()
        give_mage(state, foe, "divinity", "guilds/m1")
        give_mage(state, other, "sorcery", "guilds/r2")
        status(state, other, "own_ignore_spells")
        give_mage(state, foe, "sorcery", "guilds/r3")
        status(state, me, name)
        state = act(state, me, "place", room="guilds")
        shadows = [t for t in labels(state, me) if "shadow" in t]
        assert shadows and all("slot 3" in t for t in shadows), (name, shadows)


def test_4_innervation_wounds_only_to_make_room_for_your_own_mage() -> None:
    """Innervation (Of Mortal Form L3): "move a mage from the Infirmary to any slot. You may wound an
    opponent's mage to make room for yours": moving a rival's mage wounds nobody."""
    innervation = [{"move": {"scope": "infirmary", "to": "any_slot", "displace": "wound_opponent"}}]
    state, me, foe, other = three()
    give_mage(state, other, "sorcery", "guilds/m1")
    theirs = give_mage(state, foe, "sorcery", "infirmary/general/0")
    state = run(state, me, innervation)
    state = pick(state, "Sorcery mage in the Infirmary")
    state = pick(state, "Move it to Guilds")
    assert not any("slot 1" in t for t in labels(state, me))
    state["agenda"] = []
    state["mages"][theirs["id"]]["owner"] = me
    state = run(state, me, innervation)
    state = pick(state, "Sorcery mage in the Infirmary")
    state = pick(state, "Move it to Guilds")
    assert any("slot 1" in t for t in labels(state, me))


def test_5_wall_and_diamondskin_stop_a_mage_being_shadowed() -> None:
    """Wall (Tome of Protection L2), Diamondskin (Heart of the Mountain L3): your mages ignore every
    negative effect of spells, vault cards and other mages. Being shadowed is such an effect (Justice
    answers it like a move); ruling in docs/rulings.md. A supporter still reaches them (Wall names
    spells, vault cards and mages only)."""
    from rules.argent import content

    assert {"status": {"name": "own_ignore_harm", "duration": "this_round"}} in content.book(
        "heart_of_the_mountain"
    )["levels"][2]["effects"]
    for via in ("spell", "vault", "mage", "supporter"):
        state, me, foe, _ = three()
        give_mage(state, foe, "sorcery", "guilds/r2")
        status(state, foe, "own_ignore_harm")
        state = run(state, me, [{"shadow": {"target": "opponent_mage"}}], via=via)
        offered = any("Guilds, slot 2" in t for t in labels(state, me))
        assert offered == (via == "supporter"), via


# --------------------------------------------------------------------------- defects 6-15


def test_6_secret_supporters_stay_secret_after_the_game() -> None:
    """FAQ: "Secret Supporters may never be looked at or counted"; a face-down pile cannot be checked
    by opponents. At the end they count only inside the scoring totals."""
    state, me, foe, _ = three()
    state["seats"][me]["discard"].append({"kind": "supporter", "id": "rixia_van_sorrel", "secret": True})
    state["over"] = True
    for seat in (foe, None):
        view = views.view(state, seat)
        assert view["offices"][me]["discard"] is None and view["offices"][me]["discard_count"] is None
        assert "Rixia" not in views.view_text(view)
    assert views.view(state, me)["offices"][me]["discard"][-1]["id"] == "rixia_van_sorrel"


def test_7_auric_catalyst_answers_gold_costs_but_never_a_swap() -> None:
    """Auric Catalyst: "One Gold cost you would pay (not a swap) becomes 0." Card sheet: "Swap X for Y"
    means pay X to get Y (Arec Russel Zane, Catacombs B, Dormitory A). The Astronomy Tower's per-space
    Gold and a vault card's price are Gold costs."""
    state, me, _, _ = three()
    state["seats"][me]["vaults"].append({"id": "auric_catalyst", "exhausted": False})
    gold = state["seats"][me]["gold"]
    state = run(state, me, [{"pay": {"gold": 3, "swap": True}}, {"gain": {"mana": 1}}], via="supporter")
    assert state["seats"][me]["gold"] == gold - 3 and not state["agenda"]
    # The Astronomy Tower A's per-space Gold.
    state = board_with(state, "astronomy_tower")
    tower = {"astronomy": {"pay": "gold", "per_space": 2}}
    push_effects(state, me, [tower], {"via": "room", "room": "astronomy_tower"})
    advance(state, [])
    state = pick(state, "Move 1 space for 2 Gold")
    assert "React with Auric Catalyst" in texts(state)
    gold = state["seats"][me]["gold"]
    state = pick(state, "React with Auric Catalyst")
    assert state["seats"][me]["gold"] == gold
    # A vault card's price.
    state["agenda"] = []
    state["seats"][me]["vaults"].append({"id": "auric_catalyst", "exhausted": False})
    state["seats"][me]["gold"] = 20
    state = run(state, me, [{"buy": {}}], via="supporter")
    state = pick(state, "Buy ")
    assert "React with Auric Catalyst" in texts(state)
    state = pick(state, "React with Auric Catalyst")
    assert state["seats"][me]["gold"] == 20


def test_8_council_chamber_a_holds_one_mage_of_each_player() -> None:
    """Council Chamber A: "At most 1 of your mages in this room". Slow Time ("place up to 2 of your
    mages" in a room), Consecration and Immolation may not put a second one there."""
    state, me, _, _ = three()
    state = run(state, me, [{"place": {"count": 2, "up_to": True, "scope": "room"}}])
    state = pick(state, "Place in Council Chamber")
    state = pick(state, "Council Chamber, slot 2")
    assert sum(1 for m in state["mages"] if m["owner"] == me and m["loc"].startswith("council_chamber")) == 1
    assert not state["agenda"] or state["agenda"][0]["kind"] != "place_slot"
    state["agenda"] = []
    state = run(state, me, [{"place": {"slot": "any", "displace": "wound"}}])
    assert "Council Chamber" not in texts(state)


def test_9_tap_the_well_casts_any_level_one_spell_of_the_tableau() -> None:
    """Tap the Well (Thirteen Greater Mysteries L2): "cast a level-1 spell straight from the Spell
    tableau, paying its cost": a fast level-1 spell (Celerity, Illuminate, Concentration) counts."""
    state, me, _, _ = three()
    state["tableau"]["spell"] = ["everyday_paralocation", "the_light_that_leads", "will_of_the_divines"]
    state["seats"][me]["mana"] = 9
    state = run(state, me, [{"cast": {"from": "tableau", "level": 1}}])
    for name in ("Celerity", "Illuminate", "Concentration"):
        assert f"Cast {name}" in texts(state)


def test_10_a_first_part_without_a_target_leaves_that_room_alone() -> None:
    """Flamespout ("wound a mage, then lock the room it was in"), Hurricane ("wound a mage, then
    rearrange the others in that room"), Meteor and Consecration (place, then lock that room): with no
    first target there is no "that room", so nothing is locked or rearranged (FAQ: "do X to do Y")."""
    for second in ({"lock": {"room": "same"}}, {"rearrange": {"room": "same"}}):
        state, me, _, _ = three()
        state = run(state, me, [{"wound": {"whose": "opponent"}}, second])
        assert not state["agenda"], second
        assert not any(info["locked"] for info in state["board"]["rooms"].values())
    state, me, _, _ = three()
    for m in state["mages"]:
        if m["owner"] == me:
            m["loc"] = "infirmary/general/9"
    state = run(state, me, [{"place": {}}, {"lock": {"room": "same"}}])
    assert not state["agenda"] and not any(info["locked"] for info in state["board"]["rooms"].values())


def test_11_a_swap_for_a_mage_takes_no_gold_without_a_mage() -> None:
    """Arec Russel Zane: "Pay 3 Gold for a Sorcery mage from the supply"; FAQ: with no mage of that
    colour and no neutral one to receive, "you cannot receive a mage from this Supporter", so no Gold
    goes and the card is not offered."""
    state, me, _, _ = three()
    for m in state["mages"]:
        if m["owner"] is None and m["type"] in ("sorcery", "neutral"):
            m["loc"] = "gone"
    state["seats"][me]["supporters"].append("arec_russel_zane")
    assert "Use Arec Russel Zane" not in texts(state)
    gold = state["seats"][me]["gold"]
    state = run(state, me, [{"pay": {"gold": 3, "swap": True}}, {"gain_mage": {"department": "sorcery"}}])
    assert state["seats"][me]["gold"] == gold


def test_12_tardy_is_not_offered_with_no_mage_to_place() -> None:
    """Tardy (Jion Erjon): "after another player takes the last Bell Tower card, take one more
    place-a-mage action": with every mage out, it could do nothing, so it is not offered (and no Mana
    is spent)."""
    state, me, foe, _ = three()
    state["seats"][me]["starter"] = {"id": "tardy", "exhausted": False}
    state["seats"][me]["mana"] = 2
    for k, m in enumerate(x for x in state["mages"] if x["owner"] == me):
        m["loc"] = f"infirmary/general/{k}"
    state["bell"] = state["bell"][:1]
    state = set_turn(state, foe)
    state = act(state, foe, "bell", card=state["bell"][0])
    assert not any("Tardy" in t for t in labels(state, me))
    assert state["seats"][me]["mana"] == 2


def test_13_a_banished_living_image_goes_to_its_owners_office() -> None:
    """Rulebook, Banishing: "Banished Mages are sent back to the office of their Candidate." Living
    Image's neutral stays its owner's, temporary, until the round ends."""
    state, me, foe, _ = three()
    state = run(state, me, [{"place": {"mage": "temporary_neutral"}}])
    state = pick(state, "Place in Guilds")
    state = pick(state, "Guilds, slot 2")
    image = at(state, "guilds/r2")
    state = run(state, foe, [{"banish": {}}])
    state = pick(state, "Guilds, slot 2", seat=foe)
    m = state["mages"][image["id"]]
    assert (m["owner"], m["loc"], m["temp"]) == (me, "office", True)


def test_14_an_errand_is_performed_before_its_mage_goes_home() -> None:
    """Rulebook, Resolving Errands: "perform the effect or gain the resources listed on the slot, then
    remove the Mage in the errand slot, returning it to your office"."""
    state = board_with(round_one(3), "adventuring", "A")
    me = seat_now(state)
    mage = give_mage(state, me, "sorcery", "adventuring/r3")
    state = to_resolution(state)
    for _ in range(200):
        if state["agenda"] and state["agenda"][0].get("kind") == "errand" and seat_now(state) == me:
            break
        state = pick(state, "")
    state = pick(state, "Claim: draw 1 spell", seat=me)
    # The drawn spell asks what to do with it: the mage still stands in its slot while it is chosen.
    assert state["agenda"][0]["seat"] == me and state["mages"][mage["id"]]["loc"] == "adventuring/r3"
    state = pick(state, "Put ", seat=me)
    assert state["mages"][mage["id"]]["loc"] == "office"


def test_15_vault_a_reveals_nothing_with_nobody_in_the_room() -> None:
    """Room Clarifications, Vault (A): "Three Vault cards are revealed and drafted" by the mages in the
    room; with nobody there, the deck is left as it is."""
    state, _, _, _ = three()
    said = []
    while state["round"] == 1:
        # Everyone takes Bell Tower offerings (or the first choice of a question): nobody is placed.
        seat = seat_now(state)
        moves = R.legal_moves(state, seat)
        bells = [m for m in moves if m.action == "bell"]
        state, events = R.apply(state, seat, (bells or moves)[0])
        said += [e.text for e in events]
    assert not any("reveals" in text for text in said)
    assert not any(m["loc"].startswith("vault/") for m in state["mages"])


# --------------------------------------------------------------------------- rulings revisited


def test_ruling_an_ip_gain_may_be_declined_where_declining_can_matter() -> None:
    """FAQ: "Benefits are never mandatory". With 3+ players the Second-most Influence voter may be
    dealt face down, so more IP can cost a vote: the IP is offered ("Take none of the IP"); with two
    players (that voter removed, rulebook Argent for Two) it is simply gained."""
    state, me, _, _ = three()
    ip, gold = state["seats"][me]["ip"], state["seats"][me]["gold"]
    state = run(state, me, [{"gain": {"gold": 2, "ip": 1}}], via="bell")
    assert state["seats"][me]["gold"] == gold + 2, "Gold cannot hurt: it is gained at once"
    state = pick(state, "Take none of the IP")
    assert state["seats"][me]["ip"] == ip
    two = round_one(2)
    me = seat_now(two)
    ip = two["seats"][me]["ip"]
    two = run(two, me, [{"gain": {"ip": 1}}], via="bell")
    assert two["seats"][me]["ip"] == ip + 1 and not two["agenda"]


def test_ruling_designed_parts_are_labelled_with_a_note() -> None:
    """Our decisions are not printed facts: shadow slots, the 3/4/5-player grids, the candidate sheet
    pairings and Recompense's and Retribution's `by: opponent` carry `designed` and a note."""
    from rules.argent import cards

    for room in cards.rooms():
        kinds = [s["kind"] for side in room["sides"].values() for s in side["slots"]]
        shadows = any(k.startswith("shadow") for k in kinds)
        assert ("shadow slots" in room.get("designed", [])) == shadows and (not shadows or room["note"])
    for layout in cards.layouts():
        assert layout["source"] == "designed" or "grid" in layout["designed"]
    assert all("sheet pairing" in c["designed"] and c["note"] for c in cards.candidates())
    levels = {lv["name"]: lv for lv in cards.spell_levels().values()}
    for name in ("Recompense", "Retribution"):
        assert levels[name]["designed"] == ["trigger.by"] and levels[name]["note"]


def test_ruling_names_and_titles_follow_the_sheet_unless_the_rulebook_says_otherwise() -> None:
    """The sheet: Nostros Calahan; The "Crystal Witch", The "Mercenary King", The "Sorceror Baron";
    Editor of the Student Newspaper "Seeing Eye", University Drama Troupe Director. The rulebook's
    candidate list gives Director of University Development, Dept. of Planar Studies Senior
    Researcher and Honor Court Chief Justice, which we keep."""
    from rules.argent import cards

    voters = {v["name"]: v["title"] for v in cards.voters()}
    assert "Nostros Calahan" in voters and "Nostros Calahaan" not in voters
    for name, title in (
        ("Adienna Callista", 'The "Crystal Witch"'),
        ("Gerard Matranga", 'The "Mercenary King"'),
        ("Rufus Zane", 'The "Sorceror Baron"'),
    ):
        assert voters[name] == title
    titles = {s["name"]: s["title"] for s in cards.supporters()}
    assert titles["Jance Eylon"] == 'Editor of the Student Newspaper "Seeing Eye"'
    assert titles["Tanis Trilives"] == "University Drama Troupe Director"
    # The rulebook's candidate list (The Candidates): "Mannheim Wildern, Director of University
    # Development", "Xal Ezra, Dept. of Planar Studies Senior Researcher", "Jion Erjon, Honor Court
    # Chief Justice".
    candidates = {c["name"]: c["title"] for c in cards.candidates()}
    assert candidates["Mannheim Wildern"] == "Director of University Development"
    assert candidates["Xal Ezra"] == "Dept. of Planar Studies Senior Researcher"
    assert candidates["Jion Erjon"] == "Honor Court Chief Justice"


def test_auric_catalyst_answers_a_gold_cost_its_holder_could_not_pay() -> None:
    """Auric Catalyst makes the Gold cost 0, so it is offered even when the Gold is lacking, and the
    rest of the list ("do X to do Y", FAQ) then happens."""
    state, me, _, _ = three()
    state["seats"][me]["vaults"].append({"id": "auric_catalyst", "exhausted": False})
    state["seats"][me]["gold"] = 0
    mana = state["seats"][me]["mana"]
    state = run(state, me, [{"pay": {"gold": 3}}, {"gain": {"mana": 2}}], via="supporter")
    state = pick(state, "React with Auric Catalyst")
    assert state["seats"][me]["gold"] == 0 and state["seats"][me]["mana"] == mana + 2


def test_ruling_a_status_covers_only_the_seat_that_started_it() -> None:
    """Zero Hour: "for the rest of the round, your mages may shadow opponents' mages when placed" — the
    caster's, not everyone's; Malaise ("no mages may be placed") covers the whole table."""
    state, me, foe, _ = three()
    give_mage(state, me, "sorcery", "guilds/r2")
    status(state, me, "shadow_on_place")
    state = set_turn(state, foe)
    state = act(state, foe, "place", room="guilds")
    assert not any("shadow" in t for t in labels(state, foe))
    state, me, foe, _ = three()
    status(state, me, "no_placing")
    state = set_turn(state, foe)
    assert not any(t.startswith("Place a mage") for t in labels(state, foe))
