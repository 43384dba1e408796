"""The ordinary turn: what a seat may do (place, cast, use a vault or supporter, take a bell) and doing it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.argent import content, effects, offers, vocab
from rules.argent.agenda import as_fast, ask, option, push, push_effects
from rules.argent.casting import can_cast, pay_for_spell, spell_cost
from rules.argent.effects import has_status, say
from rules.argent.engine.placement import turn_place
from rules.argent.state import (
    State,
    office_mages,
    room_name,
)
from rules.contract import Event

# --------------------------------------------------------------------------- the turn: options


def allowance(state: State) -> dict[str, Any] | None:
    """Return the action the current turn may take next, if any."""
    turn = state["turn"]
    return turn["allow"][0] if turn and turn["allow"] else None


def kind_ok(state: State, kind: str) -> bool:
    """Whether the next action may be of this kind (extra actions may be limited, or distinct)."""
    allow = allowance(state)
    if allow is None:
        return False
    if "any" not in allow["kinds"] and kind not in allow["kinds"]:
        return False
    if kind == "bell" and "any" not in allow["kinds"]:
        return False
    group = allow.get("group")
    return not (group is not None and kind in state["turn"]["used_kinds"].get(str(group), []))


def castable(state: State, seat: int, timing: str) -> list[tuple[str, str, int, dict[str, Any]]]:
    """Return (kind, id, level, record) for every spell level the seat may cast with that timing now."""
    if has_status(state, None, "no_casting"):
        return []
    office = state["seats"][seat]
    out = []
    starter = office["starter"]
    if starter and not starter["exhausted"]:
        rec = content.starter(starter["id"])
        if rec["timing"] == timing:
            out.append(("starter", starter["id"], 1, rec))
    for spell in office["spells"]:
        if spell["exhausted"]:
            continue
        for lvl in content.book(spell["id"])["levels"][: spell["level"]]:
            if lvl["timing"] == timing:
                out.append(("spell", spell["id"], lvl["level"], lvl))
    return [
        c
        for c in out
        if can_cast(state, seat, c[3])
        and offers.can_act(state, seat, c[3]["effects"], {"via": "spell", "card": {"kind": c[0], "id": c[1]}})
    ]


def vault_ready(state: State, seat: int, index: int) -> bool:
    """Whether a vault card in the office can do anything now (a card that can do nothing is not offered)."""
    v = state["seats"][seat]["vaults"][index]
    card = {"kind": "vault", "id": v["id"], "index": index}
    return offers.can_act(state, seat, content.vault(v["id"])["effects"], {"via": "vault", "card": card})


def supporter_ready(state: State, seat: int, sid: str) -> bool:
    """Whether a supporter can do anything now (familiars, which do nothing by design, always can)."""
    card = {"kind": "supporter", "id": sid}
    return offers.can_act(state, seat, content.supporter(sid)["effects"], {"via": "supporter", "card": card})


def usable_vaults(office: dict[str, Any], timing: str) -> list[tuple[int, dict[str, Any]]]:
    """Return the ready vault cards of a timing, one per name (copies are alike)."""
    seen: set[str] = set()
    out = []
    for i, v in enumerate(office["vaults"]):
        if v["id"] in seen or v["exhausted"] or content.vault(v["id"])["timing"] != timing:
            continue
        seen.add(v["id"])
        out.append((i, v))
    return out


def turn_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the moves of an ordinary turn in the errands phase, each with its label."""
    return list(iter_turn_options(state, seat))


def has_turn_option(state: State, seat: int) -> bool:
    """Whether the turn offers anything, found without building the whole list.

    The cheapest moves to find are looked for first: a Bell Tower offering (one is left through
    most of the errands phase), then a placement; only then the fast spells and cards the list
    shows before them. Each search builds only its action's moves, a part of the whole list.
    """
    for action in ("bell", "place", None):
        if next(iter_turn_options(state, seat, action), None) is not None:
            return True
    return False


def iter_turn_options(
    state: State, seat: int, action: str | None = None, room: Any = None
) -> Iterator[dict[str, Any]]:
    """Yield the moves of an ordinary turn one by one, in the order the list shows them.

    Given an ``action``, only that action's moves (a search for one move builds no other kind);
    "End your turn" depends on every other move, so asking for it builds them all. Given a
    ``room``, the only placement looked at is the one in that room (legality of a chosen room).
    """
    wanted = None if action == "done" else action
    turn = state["turn"]
    allow = allowance(state)
    if allow is None:
        return
    offered = False
    office = state["seats"][seat]
    can_place = not has_status(state, None, "no_placing")
    home = office_mages(state, seat) if wanted in (None, "place") else []
    if turn["main"] and not turn["fast"]:
        fast = wanted in (None, "place") and can_place
        fast = fast and any(vocab.has_power(state, m, "fast_place") for m in home)
        if fast and effects.can_place_somewhere(state, seat):
            # One move for the fast placement; the room comes next (keeps the turn's list short).
            offered = True
            yield as_fast(option("place", "Fast action: place a Planar Studies mage", fast=1))
        for _kind, cid, lvl, rec in castable(state, seat, "fast") if wanted in (None, "cast") else ():
            offered = True
            yield as_fast(
                option(
                    "cast",
                    f"Fast action: cast {rec['name']} ({spell_cost(state, seat, rec)} Mana)",
                    spell=cid,
                    level=lvl,
                )
            )
        for i, v in usable_vaults(office, "fast") if wanted in (None, "use") else ():
            if not vault_ready(state, seat, i):
                continue
            offered = True
            yield as_fast(option("use", f"Fast action: use {content.vault(v['id'])['name']}", vault=i))
        for sid in dict.fromkeys(office["supporters"]) if wanted in (None, "support") else ():
            rec = content.supporter(sid)
            if rec["timing"] == "fast" and supporter_ready(state, seat, sid):
                offered = True
                yield as_fast(option("support", f"Fast action: use {rec['name']}", card=sid))
    if wanted in (None, "place") and can_place and kind_ok(state, "place") and home:
        # Rooms are found one at a time: "has a move" stops at the first (``has_turn_option``).
        for where in effects.iter_placeable_rooms(state, seat, room):
            offered = True
            yield option("place", f"Place a mage in {room_name(where)}", room=where)
    if wanted in (None, "cast") and kind_ok(state, "cast"):
        for _kind, cid, lvl, rec in castable(state, seat, "act"):
            offered = True
            yield option(
                "cast", f"Cast {rec['name']} ({spell_cost(state, seat, rec)} Mana)", spell=cid, level=lvl
            )
    if wanted in (None, "use") and kind_ok(state, "vault"):
        for i, v in usable_vaults(office, "act"):
            if not vault_ready(state, seat, i):
                continue
            offered = True
            yield option("use", f"Use {content.vault(v['id'])['name']}", vault=i)
    if wanted in (None, "support") and kind_ok(state, "supporter"):
        for sid in dict.fromkeys(office["supporters"]):
            rec = content.supporter(sid)
            if rec["timing"] == "act" and supporter_ready(state, seat, sid):
                offered = True
                yield option("support", f"Use {rec['name']}", card=sid)
    if wanted in (None, "bell") and kind_ok(state, "bell"):
        for bid in state["bell"]:
            offered = True
            yield option("bell", f"Take the Bell Tower offering {content.bell(bid)['name']}", card=bid)
    if wanted is None and (allow.get("optional") or (not turn["main"] and offered)):
        yield option("done", "End your turn")


# --------------------------------------------------------------------------- the turn: doing


def spend_allowance(state: State, kind: str) -> dict[str, Any]:
    """Use up the next action of the turn; return it."""
    turn = state["turn"]
    allow = turn["allow"].pop(0)
    turn["main"] = False
    if allow.get("group") is not None:
        turn["used_kinds"].setdefault(str(allow["group"]), []).append(kind)
    return allow


def do_turn(state: State, seat: int, opt: dict[str, Any], events: list[Event]) -> None:
    """Carry out an ordinary turn move."""
    action, args = opt["action"], opt["args"]
    turn = state["turn"]
    fast = False
    if action == "done":
        turn["allow"] = []
        return
    if action == "place":
        fast = bool(args.get("fast"))
    elif action == "cast":
        fast = spell_record(state, seat, args["spell"], args["level"])["timing"] == "fast"
    elif action == "use":
        fast = content.vault(state["seats"][seat]["vaults"][args["vault"]]["id"])["timing"] == "fast"
    elif action == "support":
        fast = content.supporter(args["card"])["timing"] == "fast"
    if fast:
        turn["fast"] = True
        allow = {"no_powers": False}
    else:
        allow = spend_allowance(state, {"use": "vault", "support": "supporter"}.get(action, action))
    state["harms"] = []
    state["instants"] = []
    follow: dict[str, Any] = {"op": "after_action", "seat": seat, "mystic": False}
    if action == "place":
        push(state, follow)
        if args.get("room") is None:
            rooms = effects.placeable_rooms(state, seat)
            opts = [option("room", f"Place it in {room_name(r)}", room=r) for r in rooms]
            ask(state, seat, "fast_room", opts, "choose the room for your fast placement")
            return
        turn_place(state, seat, args["room"], fast, allow.get("no_powers", False), events)
        return
    if action == "cast":
        rec = spell_record(state, seat, args["spell"], args["level"])
        follow["mystic"] = rec["timing"] == "act"
        push(state, follow)
        cast(state, seat, args["spell"], args["level"], events)
        return
    if action == "use":
        push(state, follow)
        use_vault(state, seat, args["vault"], events)
        return
    if action == "support":
        push(state, follow)
        use_supporter(state, seat, args["card"], events)
        return
    if action == "bell":
        take_bell(state, seat, args["card"], events)


def spell_record(state: State, seat: int, cid: str, level: int) -> dict[str, Any]:
    """Return the record of a starter spell or of one level of a spell book."""
    starter = state["seats"][seat]["starter"]
    if starter and starter["id"] == cid:
        return content.starter(cid)
    return content.book(cid)["levels"][level - 1]


def cast(
    state: State, seat: int, cid: str, level: int, events: list[Event], pay: bool = True, exhaust: bool = True
) -> None:
    """Pay for a spell, exhaust it, and queue its effects."""
    office = state["seats"][seat]
    rec = spell_record(state, seat, cid, level)
    cost = spell_cost(state, seat, rec) if pay else 0
    pay_for_spell(state, seat, cost, events)
    keep = vocab.covers(state, seat, "spell_no_exhaust")
    state["statuses"] = [
        s
        for s in state["statuses"]
        if not (s["seat"] == seat and s["name"] in ("free_spell", "spell_no_exhaust"))
    ]
    if exhaust and not keep:
        if office["starter"] and office["starter"]["id"] == cid:
            office["starter"]["exhausted"] = True
        for spell in office["spells"]:
            if spell["id"] == cid:
                spell["exhausted"] = True
    state["last_cost"] = cost
    say(events, f"P{seat + 1} casts {rec['name']}" + (f" for {cost} Mana." if pay else "."))
    kind = "starter" if office["starter"] and office["starter"]["id"] == cid else "spell"
    push_effects(state, seat, rec["effects"], {"via": "spell", "card": {"kind": kind, "id": cid}})


def use_vault(state: State, seat: int, index: int, events: list[Event]) -> None:
    """Use a vault card: a treasure exhausts, a consumable goes to the personal discard."""
    office = state["seats"][seat]
    v = office["vaults"][index]
    rec = content.vault(v["id"])
    say(events, f"P{seat + 1} uses {rec['name']}.")
    if rec["type"] == "treasure":
        v["exhausted"] = True
        card = {"kind": "vault", "id": v["id"], "index": index}
    else:
        office["vaults"].pop(index)
        office["discard"].append({"kind": "vault", "id": v["id"], "secret": False})
        card = {"kind": "vault", "id": v["id"]}
    push_effects(state, seat, rec["effects"], {"via": "vault", "card": card})


def use_supporter(state: State, seat: int, sid: str, events: list[Event]) -> None:
    """Use a supporter: its effect, then it goes to the personal discard."""
    office = state["seats"][seat]
    office["supporters"].remove(sid)
    office["discard"].append({"kind": "supporter", "id": sid, "secret": False})
    rec = content.supporter(sid)
    say(events, f"P{seat + 1} uses {rec['name']}.")
    push_effects(state, seat, rec["effects"], {"via": "supporter", "card": {"kind": "supporter", "id": sid}})


def take_bell(state: State, seat: int, bid: str, events: list[Event]) -> None:
    """Take a Bell Tower offering: its bonus, the end of the turn, and maybe the end of the round."""
    state["bell"].remove(bid)
    state["seats"][seat]["bell"].append(bid)
    turn = state["turn"]
    turn["allow"] = []
    say(events, f"P{seat + 1} takes the Bell Tower offering {content.bell(bid)['name']}.")
    last = not state["bell"]
    if last:
        turn["round_over"] = True
        state["harms"] = [
            {
                "on": "last_bell_tower",
                "mage": None,
                "owner": None,
                "by": seat,
                "via": None,
                "from": None,
                "cost": 0,
            }
        ]
        push(state, {"op": "after_action", "seat": seat, "mystic": False})
    push_effects(state, seat, content.bell(bid)["effects"], {"via": "bell"})
