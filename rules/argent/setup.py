"""Game setup (rulebook: Game Setup, steps 1-11; Options and Extras).

Everything random is drawn from the state's own generator. The two setup steps that are
decisions, the mage draft (step 10) and the starting Marks (step 11), are left pending as
ordinary turns: see ``engine``.
"""

from __future__ import annotations

from typing import Any

from rules import rng
from rules.argent import build, content, vocab
from rules.argent.copying import own
from rules.argent.state import (
    CENTRAL,
    DEPARTMENTS,
    NEUTRAL,
    ROOM_COUNT,
    ROW_WIDTH,
    START,
    START_IP,
    SUPPLY_COUNTS,
    State,
    order_from,
    supply_mage,
)

SPELL_TABLEAU = 3
VAULT_TABLEAU = 3
SUPPORTER_TABLEAU = 5
FACE_DOWN_VOTERS = 10


def new_office(seat: int) -> dict[str, Any]:
    """Return an empty office for a seat."""
    return {
        "seat": seat,
        "candidate": None,
        "department": None,
        **START,
        "ip": START_IP,
        "ip_time": 0,
        "merit_bonus": 0,
        "merit_spent": 0,
        "starter": None,
        "spells": [],
        "vaults": [],
        "supporters": [],
        "discard": [],
        "bell": [],
        "white_ash": None,
        "left": False,
    }


def build_mages(state: State) -> None:
    """Put every mage pawn of the box into the supply."""
    mages = []
    for mage_type, count in SUPPLY_COUNTS.items():
        for _ in range(count):
            mages.append({"id": len(mages), "owner": None, "type": mage_type, "temp": False, "loc": "supply"})
    mages.append({"id": len(mages), "owner": None, "type": "apprentice", "temp": True, "loc": "supply"})
    state["mages"] = mages


def give_mage(state: State, seat: int, mage_type: str, temp: bool = False) -> dict[str, Any] | None:
    """Move a mage of that type from the supply to a seat's office; None when the supply has none."""
    m = supply_mage(state, mage_type)
    if m is None:
        return None
    m["owner"], m["loc"], m["temp"] = seat, "office", temp or m["type"] == "apprentice"
    return m


def deal_candidates(state: State, side_option: str) -> None:
    """Deal each player a candidate sheet in player order, on side A, B or a random side."""
    sheets = content.candidate_sheets()
    rng.shuffle(state, sheets)
    for i, seat in enumerate(order_from(state, state["first"])):
        sheet = sheets[i]
        side = side_option if side_option in ("A", "B") else ("A" if rng.randbelow(state, 2) == 0 else "B")
        take_candidate(state, seat, sheet[side])


def take_candidate(state: State, seat: int, cid: str) -> None:
    """Seat a candidate in an office: department, starter spell, starting resources and badge."""
    cand = content.candidate(cid)
    office = state["seats"][seat]
    office["candidate"] = cand["id"]
    office["department"] = cand["department"]
    office["starter"] = {"id": cand["starter"], "exhausted": False}
    start = cand.get("start", {})
    for key in ("gold", "mana", "int", "wis"):
        office[key] = start.get(key, office[key])
    office["merit_bonus"] = start.get("merit", 1 if cand["department"] == "student_body" else 0)


def starting_mages(state: State, diversity: bool) -> None:
    """Give each player two mages of its department, or one of each under the Diversity Requirement."""
    for seat in order_from(state, state["first"]):
        seat_mages(state, seat, diversity)


def seat_mages(state: State, seat: int, diversity: bool) -> None:
    """Give one player its starting mages."""
    office = state["seats"][seat]
    if diversity:
        for mage_type in DEPARTMENTS:
            give_mage(state, seat, mage_type)
        return
    start = content.candidate(office["candidate"]).get("start", {}).get("mages")
    if not start:
        # Student Body candidates have no department mages: they start with neutral ones.
        dept = office["department"]
        start = {dept if dept in DEPARTMENTS else NEUTRAL: 2}
    for mage_type, count in start.items():
        for _ in range(count):
            give_mage(state, seat, mage_type)


def stack_influence(state: State) -> None:
    """Stack the IP discs at 5 in reverse turn order, the first player's disc on top."""
    order = order_from(state, state["first"])
    for height, seat in enumerate(reversed(order)):
        state["seats"][seat]["ip_time"] = height
    state["ip_clock"] = len(order)


def deal_voters(state: State) -> None:
    """Lay the white voters face up and deal ten more face down; two players drop the 2nd-most voters."""
    white = [v["id"] for v in content.voters() if v["always_in_play"]]
    pool = [
        v["id"]
        for v in content.voters()
        if not v["always_in_play"] and (state["players"] > 2 or v.get("two_player", True))
    ]
    rng.shuffle(state, pool)
    seats = [{"id": vid, "face_up": True, "marks": []} for vid in white]
    seats += [{"id": vid, "face_up": False, "marks": []} for vid in pool[:FACE_DOWN_VOTERS]]
    state["voters"] = seats
    state["voter_deck"] = pool[FACE_DOWN_VOTERS:]


def first_game_layout(players: int) -> dict[str, Any]:
    """Return the prepared first-game layout for a player count."""
    return next(lay for lay in content.layouts() if lay["players"] == players)


def random_board(state: State, sides: str) -> tuple[list[list[str | None]], dict[str, str]]:
    """Deal the rooms at random: University Central plus others, each on its chosen or a random side."""
    players = state["players"]
    chosen: dict[str, str] = {}
    others = [r for r in content.room_ids() if r not in CENTRAL]
    rng.shuffle(state, others)
    pool = list(CENTRAL) + others
    for room in pool:
        if len(chosen) >= ROOM_COUNT[players]:
            break
        side = sides if sides in ("A", "B") else ("A" if rng.randbelow(state, 2) == 0 else "B")
        if players == 2:
            side = vocab.two_player_side(room, side)
            if side is None:
                continue
        chosen[room] = side
    rooms = list(chosen)
    rng.shuffle(state, rooms)
    width = ROW_WIDTH[players]
    grid: list[list[str | None]] = [rooms[i : i + width] for i in range(0, len(rooms), width)]
    return grid, chosen


def lay_board(state: State, layout: str, sides: str) -> None:
    """Lay out the University: a first-game layout, or random rooms on chosen or random sides."""
    if layout == "first_game":
        lay = first_game_layout(state["players"])
        grid = [list(row) for row in lay["grid"]]
        chosen = {}
        for room in (r for row in grid for r in row if r):
            side = lay.get("sides", {}).get(room, "A")
            if sides in ("B", "random"):
                # The first-game rooms, flipped to B (or at random) for experienced tables.
                side = sides if sides == "B" else ("A" if rng.randbelow(state, 2) == 0 else "B")
                if state["players"] == 2:
                    side = vocab.two_player_side(room, side) or side
            chosen[room] = side
    else:
        grid, chosen = random_board(state, sides)
    state["board"] = {
        "grid": grid,
        "rooms": {r: {"side": s, "locked": False, "marker": 0, "cards": []} for r, s in chosen.items()},
    }


def build_decks(state: State) -> None:
    """Shuffle the spell, vault and supporter decks; set the legendary spells apart."""
    spells = [s["id"] for s in content.spell_books() if not s.get("legendary")]
    legendary = sorted(s["id"] for s in content.spell_books() if s.get("legendary"))
    vaults = [v["id"] for v in content.vault_cards() for _ in range(v.get("copies", 1))]
    supporters = [s["id"] for s in content.supporter_cards()]
    for deck in (spells, vaults, supporters):
        rng.shuffle(state, deck)
    state["decks"] = {"spell": spells, "vault": vaults, "supporter": supporters}
    state["legendary"] = legendary
    state["tableau"] = {"spell": [], "vault": [], "supporter": []}


def deal_tableaus(state: State) -> None:
    """Return the tableaus to the bottoms of their decks and reveal 3 spells, 3 vaults, 5 supporters."""
    for kind, size in (("spell", SPELL_TABLEAU), ("vault", VAULT_TABLEAU), ("supporter", SUPPORTER_TABLEAU)):
        own(state, "decks")[kind].extend(state["tableau"][kind])
        own(state, "tableau")[kind] = []
        refill(state, kind, size)


def refill(state: State, kind: str, size: int | None = None) -> None:
    """Fill a tableau from the top of its deck up to its size."""
    size = size or {"spell": SPELL_TABLEAU, "vault": VAULT_TABLEAU, "supporter": SUPPORTER_TABLEAU}[kind]
    deck, tableau = own(state, "decks")[kind], own(state, "tableau")[kind]
    while len(tableau) < size and deck:
        tableau.append(deck.pop(0))


def bell_cards(players: int) -> list[str]:
    """Return the Bell Tower offerings used at this player count."""
    return [b["id"] for b in content.bell_tower_cards() if b["min_players"] <= players]


def draft_order(state: State) -> list[int]:
    """Return the snake draft of mages: from the last player backwards, then forwards, and so on."""
    order = order_from(state, state["first"])
    picks = 5 if state["players"] == 2 else 3
    out: list[int] = []
    for i in range(picks):
        out += list(reversed(order)) if i % 2 == 0 else order
    return out


def setup_state(players: int, options: dict[str, str], seed: int) -> State:
    """Return the opening state, waiting on the mage draft (or the starting Marks)."""
    state: State = {"kind": "argent", "players": players, "options": dict(options)}
    rng.seed_state(state, seed)
    state["first"] = rng.randbelow(state, players)
    state["seats"] = [new_office(s) for s in range(players)]
    build_mages(state)
    diversity = options.get("diversity") == "on"
    chosen = options.get("candidates") == "chosen"
    if not chosen:
        deal_candidates(state, options.get("candidates", "A"))
        starting_mages(state, diversity)
    stack_influence(state)
    deal_voters(state)
    lay_board(state, options.get("layout", "first_game"), options.get("rooms", "A"))
    state["bell"] = bell_cards(players)
    state["round"] = 1
    state["rounds"] = 6 if options.get("epic") == "on" else 5
    build_decks(state)
    deal_tableaus(state)
    state["agenda"] = []
    state["harms"] = []
    state["effects"] = {}
    state["turn"] = None
    state["next_first"] = None
    state["fid"] = 0
    state["mage_powers"] = mage_power_sides(state, options.get("mage_powers", "A"))
    state["over"] = False
    state["outcome"] = None
    order = order_from(state, state["first"])
    steps: list[dict[str, Any]] = []
    if chosen:
        # Setup 1: in player order each player chooses a candidate sheet and its side.
        steps.append({"phase": "candidates", "queue": list(order)})
    if options.get("mage_powers") == "chosen":
        # Each candidate picks its own department's power side (queued once the candidates are known).
        known = None if chosen else [s for s in order if state["seats"][s]["department"] in DEPARTMENTS]
        steps.append({"phase": "powers", "queue": known})
    if options.get("layout") == "build":
        build.start(state)
        steps.append({"phase": "build", "queue": state["queue"]})
    if not diversity:
        steps.append({"phase": "draft", "queue": draft_order(state)})
    steps.append({"phase": "marks", "queue": list(order)})
    state["phase"], state["queue"] = steps[0]["phase"], steps[0]["queue"]
    state["setup_steps"] = steps[1:]
    return state


def mage_power_sides(state: State, option: str) -> dict[str, str]:
    """Return which side of each mage power card is in use (A, B, or a random mix)."""
    sides = {}
    for dept in DEPARTMENTS:
        if option in ("A", "B"):
            sides[dept] = option
        else:
            sides[dept] = "A" if rng.randbelow(state, 2) == 0 else "B"
    return sides
