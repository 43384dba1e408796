"""Every card of the base game runs through the interpreter on a busy board and changes the game.

One parametrised test per kind of card (every spell level, starter spell, vault card, supporter,
Bell Tower offering and room slot): the card's effects are queued for the seat on turn, every
decision it raises is answered (never by passing, when there is another choice), and the state
must come out different: a card that silently did nothing would fail here.
"""

from __future__ import annotations

import json

import pytest

from rules.argent import content
from rules.argent.agenda import push_effects
from rules.argent.engine import advance, options_for, resolve, to_move
from tests.argent_helpers import give_mage, round_one, seat_now

_BUSY: list[tuple[dict, int, int]] = []


def busy_board() -> tuple[dict, int, int]:
    """Return a fresh copy of one busy 4-player board (built once: setup takes a few dozen moves)."""
    if not _BUSY:
        _BUSY.append(build_busy_board())
    state, me, foe = _BUSY[0]
    return json.loads(json.dumps(state)), me, foe


def build_busy_board() -> tuple[dict, int, int]:
    """Return a 4-player round with mages everywhere, full purses, learned spells and exhausted cards."""
    state = round_one(4, seed=5)
    me = seat_now(state)
    foe = (me + 1) % 4
    for office in state["seats"]:
        office.update(gold=30, mana=30, int=3, wis=3, ip=9)
    state["seats"][foe]["int"] = 6
    state["seats"][foe]["wis"] = 6
    state["seats"][foe]["ip"] = 12
    spots = {
        foe: ["guilds/r2", "courtyard/r2", "training_fields/r2", "chapel/r2", "infirmary/general/0"],
        (me + 2) % 4: ["catacombs/r2", "library/r3"],
    }
    for seat, locs in spots.items():
        for loc in locs:
            give_mage(state, seat, "mysticism" if seat == foe else "planar_studies", loc)
    # The seat on turn keeps its own five mages: three out on errands, two at home.
    mine = [m for m in state["mages"] if m["owner"] == me]
    for m, loc in zip(mine, ["guilds/r3", "vault/r2", "infirmary/general/1"], strict=False):
        m["loc"] = loc
    state["seats"][me]["spells"] = [
        {"id": "the_gift_of_fire", "level": 1, "exhausted": True},
        {"id": "book_of_one_hundred_seas", "level": 2, "exhausted": False},
        {"id": "the_darkness_within", "level": 1, "exhausted": False},
        {"id": "rites_of_renewal", "level": 1, "exhausted": False},
        {"id": "parallel_synchronicity", "level": 1, "exhausted": False},
    ]
    state["seats"][me]["vaults"] = [{"id": "gilded_chalice", "exhausted": True}]
    state["seats"][foe]["spells"] = [{"id": "lightning_and_you", "level": 1, "exhausted": False}]
    return state, me, foe


def play_out(state: dict, limit: int = 60) -> dict:
    """Answer every pending decision, preferring anything but passing, until the agenda is empty."""
    for _ in range(limit):
        if not state["agenda"] or state["agenda"][0]["op"] != "ask":
            break
        seat = state["agenda"][0]["seat"]
        opts = options_for(state, seat)
        chosen = next((o for o in opts if o["action"] != "pass"), opts[0])
        resolve(state, seat, to_move(chosen))
    return state


def run_card(effects: list[dict], via: str, trigger: bool = False, card: str = "test") -> tuple[dict, dict]:
    """Run a card's effects for the seat on turn; return the states before and after."""
    state, me, foe = busy_board()
    ctx: dict = {"via": via, "card": {"kind": via, "id": card}}
    if via == "spell" and card != "test" and all(s["id"] != card for s in state["seats"][me]["spells"]):
        state["seats"][me]["spells"].append({"id": card, "level": 3, "exhausted": True})
    if trigger:
        mine = next(m for m in state["mages"] if m["owner"] == me and m["loc"] == "infirmary/general/1")
        ctx["trigger"] = {
            "on": "wounded",
            "mage": mine["id"],
            "owner": me,
            "by": foe,
            "via": "spell",
            "from": "catacombs/r3",
            "cost": 2,
        }
    before = json.loads(json.dumps(state))
    push_effects(state, me, effects, ctx)
    advance(state, [])
    return before, play_out(state)


def changed(before: dict, after: dict) -> bool:
    """Whether anything in the game changed (the generator aside)."""
    a, b = dict(before), dict(after)
    a.pop("rng", None)
    b.pop("rng", None)
    a.pop("fid", None)
    b.pop("fid", None)
    return json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True)


LEVELS = [(b["id"], lvl) for b in content.spell_books() for lvl in b["levels"]]


@pytest.mark.parametrize(("book", "level"), LEVELS, ids=[f"{b}-{lv['level']}" for b, lv in LEVELS])
def test_every_spell_level_does_something(book: str, level: dict) -> None:
    """Each of the 90 spell levels (legendary ones included) acts on the board or the offices."""
    before, after = run_card(level["effects"], "spell", trigger=level["timing"] == "react", card=book)
    assert changed(before, after), level["name"]


@pytest.mark.parametrize("starter", [s["id"] for s in content._list("starters")])
def test_every_starter_spell_does_something(starter: str) -> None:
    """Each candidate's starter spell acts."""
    rec = content.starter(starter)
    before, after = run_card(rec["effects"], "spell", trigger=rec["timing"] == "react")
    assert changed(before, after), rec["name"]


@pytest.mark.parametrize(
    "vault", [v["id"] for v in content.vault_cards() if v.get("trigger", {}).get("on") != ["pay_gold"]]
)
def test_every_vault_card_does_something(vault: str) -> None:
    """Each vault card acts (Auric Catalyst answers a Gold cost: tests/test_argent_review.py)."""
    rec = content.vault(vault)
    before, after = run_card(rec["effects"], "vault", trigger=rec["timing"] == "react")
    assert changed(before, after), rec["name"]


@pytest.mark.parametrize(
    "supporter", [s["id"] for s in content.supporter_cards() if s["effects"] and s["timing"] != "endgame"]
)
def test_every_supporter_with_an_effect_does_something(supporter: str) -> None:
    """Each supporter with an effect acts (familiars have none; White Ash acts at the end)."""
    rec = content.supporter(supporter)
    before, after = run_card(rec["effects"], "supporter")
    assert changed(before, after), rec["name"]


@pytest.mark.parametrize("bell", [b["id"] for b in content.bell_tower_cards()])
def test_every_bell_tower_offering_does_something(bell: str) -> None:
    """Each Bell Tower offering gives its bonus."""
    before, after = run_card(content.bell(bell)["effects"], "bell")
    assert changed(before, after)


SLOTS = [
    (room["id"], side, slot["id"])
    for room in content._list("rooms")
    for side in ("A", "B")
    for slot in room["sides"][side]["slots"]
    if slot.get("effects")
]


@pytest.mark.parametrize(("room", "side", "slot"), SLOTS, ids=[f"{r}-{s}-{x}" for r, s, x in SLOTS])
def test_every_room_slot_pays_out(room: str, side: str, slot: str) -> None:
    """Each errand slot of every room side gives something when claimed."""
    state, me, _ = busy_board()
    rooms = state["board"]["rooms"]
    if room not in rooms:
        for row in state["board"]["grid"]:
            if "student_stores" in row:
                row[row.index("student_stores")] = room
        rooms.pop("student_stores")
        rooms[room] = {"side": side, "locked": False, "marker": 0, "cards": []}
    rooms[room]["side"] = side
    if "reveal_vault_3" in content.room_side(room, side).get("rules", []) or (
        side == "B" and room == "adventuring"
    ):
        rooms[room]["cards"] = [{"kind": "vault", "id": state["decks"]["vault"].pop(0)}]
    mage = give_mage(state, me, "divinity", "office")
    effects = next(s for s in content.room_side(room, side)["slots"] if s["id"] == slot)["effects"]
    before = json.loads(json.dumps(state))
    push_effects(
        state, me, effects, {"via": "room", "room": room, "mage": mage["id"], "loc": f"{room}/{slot}"}
    )
    advance(state, [])
    after = play_out(state)
    assert changed(before, after)
