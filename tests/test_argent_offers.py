"""Properties of every offer over random games of every player count (issue 13).

1. No offered move targets a mage the rulebook protects from that source. The check is an
   independent, simpler restatement of the rulebook's protections (``shielded`` below), not a call
   into ``rules/argent/protection.py``: Green mages are never wounded; a rival's spell never touches a
   Blue mage (Mage powers); Spell Shield, Wall and Diamondskin, Oakskin and Stoneskin, Sanctification and
   Protective Aura; a locked room protects its occupants from everything (Locking); a shadowing mage
   is off limits (Shadowing, FAQ).
2. No offered move is a no-op that costs something (a card that can do nothing is not offered): a
   spell, vault card, supporter or reaction whose use changes nothing but its own cost.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from rules.argent import content
from rules.contract import Move
from tests.argent_helpers import R

SEEDS = {2: (3, 11), 3: (5, 13), 4: (7, 17), 5: (2, 19)}
OPTIONS = (
    {"candidates": "B", "mage_powers": "A"},
    {"candidates": "A", "mage_powers": "B", "rooms": "random"},
)
PLAYABLE = ("cast", "use", "support", "react", "place")


def walk(players: int, seed: int, options: dict[str, str], limit: int = 900) -> Iterator[tuple[dict, int]]:
    """Yield (state, waiting seat) at every decision of a random game; plays lean toward cards."""
    rand = random.Random(seed)
    state = R.setup(players, options, seed)
    for _ in range(limit):
        if R.is_over(state):
            return
        seat = R.pending(state)[0].seat
        yield state, seat
        moves = R.legal_moves(state, seat)
        cards = [m for m in moves if m.action in PLAYABLE]
        move = rand.choice(cards if cards and rand.random() < 0.7 else moves)
        state, _ = R.apply(state, seat, move)


# --------------------------------------------------------------------------- 1. protection


def slot_kind(state: dict, loc: str) -> str:
    """Return the kind of the slot at a board location, read from the card data."""
    room, slot_id = loc.split("/")[:2]
    side = content.room_side(room, state["board"]["rooms"][room]["side"])
    return next(s["kind"] for s in side["slots"] if s["id"] == slot_id)


def own_status(state: dict, seat: int | None, name: str) -> bool:
    return any(s["name"] == name and s["seat"] == seat for s in state["statuses"])


def power_card(state: dict, m: dict, dept: str) -> bool:
    """Whether a mage has its department's A-side power now (the Apprentice has every department's)."""
    if m["type"] not in (dept, "apprentice") or state["mage_powers"].get(dept, "A") != "A":
        return False
    if own_status(state, m["owner"], "own_no_mage_powers"):
        return False
    return dept == "divinity" or not any(s["name"] == "no_mage_powers" for s in state["statuses"])


def shielded(state: dict, actor: int, m: dict, act: str, via: str | None) -> bool:
    """The rulebook's protections, restated on their own (see the module docstring)."""
    loc, owner = m["loc"], m["owner"]
    room = loc.split("/")[0] if "/" in loc else None
    if room and room != "infirmary" and state["board"]["rooms"][room]["locked"]:
        return True
    shadow = bool(room) and room != "infirmary" and slot_kind(state, loc).startswith("shadow")
    if shadow:
        return True
    rival = owner is not None and owner != actor
    spell_proof = power_card(state, m, "divinity") or own_status(state, owner, "own_ignore_spells")
    if rival and via == "spell" and spell_proof:
        return True
    walled = own_status(state, owner, "own_ignore_harm")
    if rival and act != "heal" and via in ("spell", "vault", "mage") and walled:
        return True
    if act == "wound" and (
        power_card(state, m, "natural_magick")
        or own_status(state, owner, "own_unwoundable")
        or own_status(state, owner, "own_unwoundable_unmovable")
    ):
        return True
    return act in ("move", "push_shadow") and own_status(state, owner, "own_unwoundable_unmovable")


def frame_via(state: dict, fid: int | None) -> str | None:
    """Return the source of the effect list a decision belongs to."""
    for task in state["agenda"]:
        if task.get("op") == "effects" and task.get("fid") == fid:
            return task["ctx"].get("via")
    return None


def at(state: dict, loc: str) -> dict | None:
    return next((m for m in state["mages"] if m["loc"] == loc), None)


def targets(state: dict) -> Iterator[tuple[int, dict, str, str | None, str]]:
    """Yield (actor, mage, act, source, label) for every mage the decision in front offers to touch."""
    task = state["agenda"][0] if state["agenda"] and state["agenda"][0]["op"] == "ask" else None
    if task is None:
        return
    seat, kind, data = task["seat"], task["kind"], task["data"]
    for opt in task["options"]:
        args, label = opt["args"], opt["label"]
        if kind == "select" and "mage" in args:
            yield seat, state["mages"][args["mage"]], data["key"], frame_via(state, data["fid"]), label
        elif kind == "hook_possession":
            yield seat, state["mages"][args["mage"]], "swap", data.get("via", "spell"), label
        elif kind == "rearrange" and "mage" in args:
            yield seat, state["mages"][args["mage"]], "move", data.get("via"), label
        elif kind == "place_slot" and args.get("wound"):
            victim = at(state, f"{data['room']}/{args['slot']}")
            yield seat, victim, "wound", data.get("via"), label
        elif kind == "turn_place" and args.get("power"):
            loc = f"{data['room']}/{args['slot']}"
            act = {"wound": "wound", "shift": "move"}.get(args["power"], "shadow")
            via = "mage" if args["power"] in ("wound", "shift", "shadow") else "spell"
            if act == "shadow":
                side = content.room_side(data["room"], state["board"]["rooms"][data["room"]]["side"])
                host = next(s["of"] for s in side["slots"] if s["id"] == args["slot"])
                loc = f"{data['room']}/{host}"
            victim = at(state, loc)
            if victim is not None and victim["owner"] != seat:
                yield seat, victim, act, via, label
        elif kind == "shadow" and "slot" in args:
            side = content.room_side(args["room"], state["board"]["rooms"][args["room"]]["side"])
            of = next(s["of"] for s in side["slots"] if s["id"] == args["slot"])
            host = at(state, f"{args['room']}/{of}")
            if host is not None and host["owner"] != seat:
                yield seat, host, "shadow", data.get("via"), label
        elif kind == "dest_slot" and "slot" in args:
            occ = at(state, f"{data['room']}/{args['slot']}")
            if occ is not None:
                yield seat, occ, "wound", data.get("via"), label


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_offer_targets_a_protected_mage(players: int) -> None:
    """Over random games, every offered target is one the rulebook lets that source touch."""
    seen = 0
    for seed in SEEDS[players]:
        for options in OPTIONS:
            for state, _seat in walk(players, seed, options):
                for actor, m, act, via, label in targets(state):
                    seen += 1
                    assert not shielded(state, actor, m, act, via), (
                        f"{label!r} offers a mage protected from {act} by {via} (seed {seed}, {options})"
                    )
    assert seen > 20, "the random games offered too few targets to test anything"


# --------------------------------------------------------------------------- 2. no-op offers


def fingerprint(state: dict, seat: int) -> str:
    """The state without the seat's payments and card wear, the turn's bookkeeping and the log."""
    copy = json.loads(json.dumps(state))
    office = copy["seats"][seat]
    for key in ("gold", "mana", "vaults", "supporters", "discard"):
        office.pop(key, None)
    for spell in office["spells"]:
        spell.pop("exhausted", None)
    if office["starter"]:
        office["starter"].pop("exhausted", None)
    for key in ("turn", "harms", "instants", "fid", "rng", "last_cost", "agenda"):
        copy.pop(key, None)
    return json.dumps(copy, sort_keys=True)


def worn(before: dict, after: dict, seat: int) -> bool:
    """Whether the seat paid something: Gold, Mana, or a card used up or exhausted."""
    a, b = before["seats"][seat], after["seats"][seat]
    if b["gold"] < a["gold"] or b["mana"] < a["mana"]:
        return True
    if len(b["vaults"]) < len(a["vaults"]) or len(b["supporters"]) < len(a["supporters"]):
        return True
    return exhausted(b) > exhausted(a)


def exhausted(office: dict) -> int:
    """Count an office's exhausted cards."""
    starter = bool(office["starter"] and office["starter"]["exhausted"])
    cards = [*office["spells"], *office["vaults"]]
    return sum(c["exhausted"] for c in cards) + starter


def did_something(before: dict, after: dict, seat: int, move: Move, fast: bool) -> bool:
    """Whether a move changed anything beyond its cost: the board, a gain, a decision, an action."""
    if fingerprint(before, seat) != fingerprint(after, seat):
        return True
    a, b = before["seats"][seat], after["seats"][seat]
    if b["gold"] > a["gold"] or b["mana"] > a["mana"] or len(b["vaults"]) > len(a["vaults"]):
        return True
    if len(b["discard"]) > len(a["discard"]) + (len(a["supporters"]) - len(b["supporters"])) + (
        len(a["vaults"]) - len(b["vaults"])
    ):
        return True
    if any(t["op"] == "ask" and t["seat"] == seat for t in after["agenda"]):
        return True  # a choice follows: the card offers something
    t0, t1 = before["turn"], after["turn"]
    if t0 and t1 and t1["seat"] == seat == t0["seat"]:
        return len(t1["allow"]) > len(t0["allow"]) - (0 if fast else 1)  # an action granted
    return False


def better_than_passing(before: dict, after: dict, seat: int) -> bool:
    """For a reaction, whether playing it leaves the seat better off than passing (Auric Catalyst saves
    the Gold it answers): a reaction is judged against the pass beside it."""
    passes = [m for m in R.legal_moves(before, seat) if m.action == "pass"]
    if not passes:
        return False
    passed, _ = R.apply(before, seat, passes[0])
    a, b = passed["seats"][seat], after["seats"][seat]
    richer = b["gold"] > a["gold"] or b["mana"] > a["mana"]
    return richer or fingerprint(passed, seat) != fingerprint(after, seat)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_offered_move_is_a_noop_that_costs_something(players: int) -> None:
    """Over random games, no spell, vault card, supporter or reaction is offered that only costs."""
    tried = 0
    for seed in SEEDS[players]:
        for options in OPTIONS:
            for state, seat in walk(players, seed, options, limit=500):
                for move in R.legal_moves(state, seat):
                    if move.action not in ("cast", "use", "support", "react"):
                        continue
                    label = R.label(state, seat, move)
                    after, _ = R.apply(state, seat, move)
                    tried += 1
                    if worn(state, after, seat) and not better_than_passing(state, after, seat):
                        assert did_something(state, after, seat, move, label.startswith("Fast action")), (
                            f"{label!r} only costs (P{seat + 1}, seed {seed}, {options})"
                        )
    assert tried > 50
