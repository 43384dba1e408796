"""The moves a seat may make now, what each does, and the sentence that names it."""

from __future__ import annotations

from typing import Any

from rules.academy import turn
from rules.academy.cards import rooms, spells
from rules.academy.casting import begin, boosted, cast_slot, pairs
from rules.academy.effects import rotate, swap, wild_shuffle
from rules.academy.flow import ask, draw, handler, push, run
from rules.academy.items import ITEM_ROOM, LAST_RESORTS, ROOM_OPS, item_cost
from rules.academy.state import (
    CRYSTAL,
    DIRS,
    LIBRARY,
    SLOTS,
    State,
    adjoining,
    adjoining_dir,
    doors_text,
    empowered,
    in_academy,
    lose_mana,
    neighbour,
    room_name,
    say,
    slot_level,
    spell_name,
    who,
)
from rules.academy.threats import ignores, toward_cursed
from rules.contract import Move

STAFF_LIMIT = 101
"""A staff may not be used more than one hundred and one times in a turn (rulebook: Staves)."""


# --------------------------------------------------------------------------- what is legal


def legal(s: State, seat: int) -> list[Move]:
    """Return every legal move for a seat now."""
    if s["over"]:
        return []
    if s["choice"] is not None:
        c = s["choice"]
        return [Move.of("choose", value=o["value"]) for o in c["options"]] if seat == c["seat"] else []
    if s["request"] is not None:
        return (
            [Move.of("consent", ok=True), Move.of("consent", ok=False)]
            if seat == s["request"]["helper"]
            else []
        )
    if s["step"] == "shifts":
        return _shift_moves(s) if seat == s["current"] else []
    if seat != s["current"]:
        return []
    if s["step"] == "share":
        return _share_moves(s, seat)
    if s["step"] != "actions":
        return []
    if s["binding"]:
        return [*_bind_moves(s), Move.of("stop")]
    return _action_moves(s, seat)


def _shift_moves(s: State) -> list[Move]:
    out = [Move.of("ready")]
    if s["shifts_left"]:
        out += [Move.of("shift", rotate=p) for p in range(16)]
        for p in range(16):
            for d in ("e", "s"):
                other = neighbour(s, s["board"][p], d)
                if other is not None:
                    out.append(Move.of("shift", swap=[p, s["board"].index(other)]))
    return out


def _share_moves(s: State, seat: int) -> list[Move]:
    w = s["wizards"][seat]
    if w["shared"] is not None:
        return [Move.of("share", back=True), Move.of("done")]
    return [Move.of("share", glyph=g) for g in sorted(set(w["glyphs"]))] + [Move.of("done")]


def room_usable(s: State, room: str) -> bool:
    """Whether a room action can be taken here (advanced: empowered, no troll)."""
    if s["basic"]:
        return True
    return in_academy(s, room) and empowered(s, room) and not s["rooms"][room]["troll"]


def _bind_moves(s: State) -> list[Move]:
    """Name a face-down spell: any spell of the slot's level that is not already bound (public facts only)."""
    bound = {v["spell"] for v in s["slots"].values() if v["bound"]}
    out = []
    for slot in SLOTS:
        entry = s["slots"][slot]
        if not entry["spell"] or entry["bound"]:
            continue
        level = slot_level(slot)
        for key, spell in spells().items():
            if spell["level"] == level and key not in bound and (not s["basic"] or spell["basic"]):
                out.append(Move.of("bind", slot=slot, spell=key))
    return out


def _action_moves(s: State, seat: int) -> list[Move]:
    w = s["wizards"][seat]
    room = w["room"]
    out: list[Move] = []
    if turn.can_pay(s, "move") and in_academy(s, room):
        out += [Move.of("move", room=r) for r in adjoining(s, room, w)]
    c = s["rooms"][room]
    if turn.can_pay(s, "room") and room_usable(s, room):
        if c["source"] is not None and not c["guardian"]:
            out.append(Move.of("take"))
        if room == LIBRARY:
            out += _bind_moves(s)
        if not s["basic"]:
            out += _room_acts(s, seat)
    if turn.can_pay(s, "magic"):
        out += _cast_moves(s, seat)
    if not s["basic"]:
        staff = w["staff"]
        if (
            staff
            and turn.can_pay(s, "move")
            and s["staff_uses"] < STAFF_LIMIT
            and s["slots"][f"{staff[0]}-{staff[1]}"]["spell"]
        ):
            out.append(Move.of("staff"))
        if room != CRYSTAL:
            out.append(Move.of("recall"))
    out.append(Move.of("end"))
    return out


def _room_acts(s: State, seat: int) -> list[Move]:
    w = s["wizards"][seat]
    room = w["room"]
    action = rooms()[room]["action"]
    out = []
    for item, where in ITEM_ROOM.items():
        if room == where and len(w["glyphs"]) >= item_cost(s, seat, item):
            out.append(Move.of("room", act=item))
    if action == "last_resort":
        out += [Move.of("room", act=k) for k, lr in LAST_RESORTS.items() if s["mana"] > lr["cost"]]
    elif action in ROOM_OPS:
        c = s["rooms"][room]
        useful = {"ward": c["imp"] > 0, "study": len(w["glyphs"]) >= 2}.get(action, True)
        if useful:
            out.append(Move.of("room", act=action))
    return out


def _cast_moves(s: State, seat: int) -> list[Move]:
    w = s["wizards"][seat]
    used = {slot for slot, v in s["slots"].items() if v["spell"]}
    out: list[Move] = []
    for a, b, wand in pairs(w, not s["basic"]):
        if f"{a}-{b}" in used:
            out.append(Move.of("cast", a=a, b=b) if wand is None else Move.of("cast", a=a, b=b, wand=wand))
    own = sorted(set(w["glyphs"]))
    for other, h in enumerate(s["wizards"]):
        if other in s["resigned"]:
            continue
        if s["basic"]:
            if other == seat:
                continue
            offered = sorted(set(h["glyphs"]))
        else:
            offered = [h["shared"]] if h["shared"] is not None else []
        for b in offered:
            for a in own:
                if f"{min(a, b)}-{max(a, b)}" in used:
                    out.append(Move.of("cast", a=a, b=b, helper=other))
    return out


# --------------------------------------------------------------------------- doing it


def act(s: State, seat: int, move: Move) -> None:
    """Carry out a legal move of the action, share or setup steps, then run the queue."""
    name = move.action
    turn.forget_reveal(s)
    if name == "choose":
        from rules.academy.flow import answer

        answer(s, move.get("value"))
    elif name == "consent":
        _consent(s, move.get("ok"))
    elif name in ("shift", "ready"):
        _shift(s, move)
    elif name in ("share", "done"):
        _share(s, seat, move)
    else:
        _action(s, seat, move)
    run(s)
    _after(s)


def _after(s: State) -> None:
    """Close the action step once no action is left, and keep the turn moving."""
    while not s["over"] and not s["queue"] and s["choice"] is None and s["request"] is None:
        if s["step"] == "actions" and not s["binding"] and turn.actions_left(s) == 0:
            turn.finish_actions(s)
        else:
            return
        run(s)


def _action(s: State, seat: int, move: Move) -> None:
    name = move.action
    w = s["wizards"][seat]
    if name == "end":
        say(s, "end", f"{who(s, seat)} ends their actions.")
        turn.finish_actions(s)
    elif name == "move":
        _move(s, seat, move.get("room"))
    elif name == "take":
        turn.pay(s, "room")
        glyph = s["rooms"][w["room"]]["source"]
        copies = 2 if not s["basic"] and w["char"] == "pip" else 1
        w["glyphs"] = sorted(w["glyphs"] + [glyph] * copies)
        say(s, "take", f"{who(s, seat)} takes glyph {glyph}.", seat=seat, glyph=glyph)
    elif name == "bind":
        _bind(s, seat, move.get("slot"), move.get("spell"))
    elif name == "stop":
        s["binding"] = False
        say(s, "bind", f"{who(s, seat)} stops binding.")
    elif name == "cast":
        helper = move.get("helper")
        if helper is not None and s["basic"]:
            s["request"] = {"caster": seat, "helper": helper, "glyph": move.get("b"), "mine": move.get("a")}
            s["step_before"] = s["step"]
            s["step"] = "consent"
            say(
                s,
                "request",
                f"{who(s, seat)} asks {who(s, helper)} for a glyph {move.get('b')} to cast with.",
            )
            return
        turn.pay(s, "magic")
        begin(s, seat, move.get("a"), move.get("b"), helper, move.get("wand"))
    elif name == "staff":
        turn.pay(s, "move")
        s["staff_uses"] += 1
        a, b = w["staff"]
        say(s, "staff", f"{who(s, seat)} casts with their staff.")
        cast_slot(s, seat, f"{a}-{b}")
    elif name == "recall":
        free = w["char"] == "quillon" and w["recalls"] == 0
        w["recalls"] += 1
        w["room"] = CRYSTAL
        say(s, "recall", f"{who(s, seat)} makes an emergency recall to the Mana Crystal.")
        if not free:
            lose_mana(s, 1, "an emergency recall")
    elif name == "room":
        _room(s, seat, move.get("act"))


def _move(s: State, seat: int, dest: str) -> None:
    """Move into an adjoining room: water costs an extra action; darkness, haunt and ice interfere."""
    w = s["wizards"][seat]
    start = w["room"]
    turn.pay(s, "move")
    slow = []
    if (
        s["rooms"][dest]["water"]
        and not ignores(w, "water")
        and not (not s["basic"] and w["char"] == "myrrin")
    ):
        slow.append("water")
    if not s["basic"] and s["rooms"][start]["darkness"] and not ignores(w, "darkness"):
        slow.append("darkness")
    for why in slow:
        if not turn.pay(s, "move"):
            say(
                s,
                "wasted",
                f"{who(s, seat)} cannot wade into the {room_name(dest)} ({why}): the move is wasted.",
            )
            return
    if not s["basic"] and s["rooms"][start]["haunt"] and not ignores(w, "haunt"):
        op = {"op": "haunted_move", "by": seat, "from": start}
        push(s, [op])
        return
    _arrive(s, seat, start, dest)


def _arrive(s: State, seat: int, start: str, dest: str) -> None:
    w = s["wizards"][seat]
    w["room"] = dest
    say(s, "move", f"{who(s, seat)} moves to the {room_name(dest)}.", seat=seat, room=dest)
    if s["basic"] or s["rooms"][dest]["ice"] != 1 or ignores(w, "ice"):
        return
    d = next(x for x in DIRS if neighbour(s, start, x) == dest)
    slide = adjoining_dir(s, dest, d, w)
    if slide is not None:
        w["room"] = slide
        say(
            s,
            "slide",
            f"{who(s, seat)} slides on the ice into the {room_name(slide)}.",
            seat=seat,
            room=slide,
        )


@handler("haunted_move")
def _haunted(s: State, op: dict[str, Any]) -> None:
    """Leaving a haunted room, a room card decides where the wizard goes (designed)."""
    seat, start = op["by"], op["from"]
    w = s["wizards"][seat]
    card = draw(s, op)
    if card["cursed"]:
        dirs = toward_cursed(s, start)
        d = ask(
            s,
            op,
            s["current"],
            "The haunt drags you towards the Cursed Room: which way?",
            [(x, x.upper()) for x in dirs],
        )
    else:
        d = next((x for x in card["arrows"] if adjoining_dir(s, start, x, w) is not None), None)
    if d is None:
        say(s, "haunt", f"The haunt holds {who(s, seat)} in the {room_name(start)}.")
        return
    say(s, "haunt", f"The haunt steers {who(s, seat)}.")
    _arrive(s, seat, start, adjoining_dir(s, start, d, w))


def _bind(s: State, seat: int, slot: str, key: str) -> None:
    """Name a face-down spell: right, it stays face-up; wrong, that level is shuffled and a mana lost."""
    if not s["binding"]:
        turn.pay(s, "room")
    entry = s["slots"][slot]
    if entry["spell"] == key:
        entry["bound"] = True
        s["binding"] = True
        say(s, "bind", f"{who(s, seat)} binds {spell_name(key)} at {slot}.", seat=seat, slot=slot, spell=key)
        if not any(v["spell"] and not v["bound"] for v in s["slots"].values()):
            s["binding"] = False
        return
    s["binding"] = False
    s["reveal"] = {"slot": slot, "spell": entry["spell"], "seat": seat, "turn": s["turn"], "how": "bind"}
    if s["memory"] == "open":
        say(
            s,
            "bind",
            f"{who(s, seat)} names {spell_name(key)} at {slot}, but it is {spell_name(entry['spell'])}.",
            seat=seat,
            slot=slot,
            spell=entry["spell"],
            how="bind",
        )
    else:
        text = f"{who(s, seat)} names {spell_name(key)} at {slot}, wrongly."
        say(s, "bind", text, seat=seat, slot=slot, how="bind")
    s["reveal"]["slot"] = None
    wild_shuffle(s, slot_level(slot))
    say(s, "shuffle", f"The unbound level {slot_level(slot)} spells are shuffled.")
    lose_mana(s, 1, "a failed binding")


def _room(s: State, seat: int, act: str) -> None:
    turn.pay(s, "room")
    if act in ITEM_ROOM:
        push(s, [{"op": "buy", "item": act, "by": seat}])
    elif act in LAST_RESORTS:
        push(s, [{"op": "last_resort", "act": act, "by": seat}])
    else:
        push(s, [dict(op, by=seat) for op in ROOM_OPS[act]])
    say(s, "room", f"{who(s, seat)} uses the {room_name(s['wizards'][seat]['room'])}.")


def _consent(s: State, ok: bool) -> None:
    req = s["request"]
    s["request"] = None
    s["step"] = s.pop("step_before", "actions")
    caster, helper = req["caster"], req["helper"]
    if not ok:
        say(s, "request", f"{who(s, helper)} keeps their glyph.")
        return
    turn.pay(s, "magic")
    begin(s, caster, req["mine"], req["glyph"], helper, None)


def _shift(s: State, move: Move) -> None:
    if move.action == "ready":
        s["shifts_left"] = 0
        say(s, "ready", "The academy is set: the first turn begins.")
        turn.start_turn(s)
        return
    s["shifts_left"] -= 1
    if move.get("rotate") is not None:
        rotate(s, s["board"][move.get("rotate")], 1)
    else:
        p, q = move.get("swap")
        swap(s, s["board"][p], s["board"][q])
    if not s["shifts_left"]:
        _shift(s, Move.of("ready"))


def _share(s: State, seat: int, move: Move) -> None:
    w = s["wizards"][seat]
    if move.action == "share" and move.get("back"):
        w["glyphs"] = sorted([*w["glyphs"], w["shared"]])
        w["shared"] = None
        say(s, "share", f"{who(s, seat)} takes back their shared glyph.")
    elif move.action == "share":
        w["glyphs"].remove(move.get("glyph"))
        w["shared"] = move.get("glyph")
        say(s, "share", f"{who(s, seat)} shares glyph {move.get('glyph')}.")
    turn.next_turn(s)


# --------------------------------------------------------------------------- labels


def label(s: State, seat: int, move: Move) -> str:
    """Return a sentence naming a move; it never names an unbound spell."""
    a = move.params
    name = move.action
    if name == "move":
        extra = " (water: an extra action)" if s["rooms"][a["room"]]["water"] else ""
        return f"Move to the {room_name(a['room'])}{extra}"
    if name == "take":
        return f"Take glyph {s['rooms'][s['wizards'][seat]['room']]['source']}"
    if name == "bind":
        return f"Bind: name the spell at {a['slot']} {spell_name(a['spell'])}"
    if name == "cast":
        slot = f"{min(a['a'], a['b'])}-{max(a['a'], a['b'])}"
        entry = s["slots"][slot]
        what = f"{spell_name(entry['spell'])} ({slot})" if entry["bound"] else f"the spell at {slot}"
        text = f"Cast {what}"
        if "helper" in a:
            text += f", glyph {a['b']} from {who(s, a['helper'])}"
        if "wand" in a:
            text += f", glyph {a['wand']} as your wand"
        if entry["bound"] and boosted(s, entry["spell"], seat):
            text += " (boosted)"
        return text
    if name == "choose":
        for o in (s["choice"] or {}).get("options", []):
            if o["value"] == a["value"]:
                return str(o["label"])
        return f"Choose {a['value']}"
    if name == "consent":
        return "Give the glyph" if a["ok"] else "Keep the glyph"
    if name == "room":
        act = a["act"]
        if act in LAST_RESORTS:
            return LAST_RESORTS[act]["text"]
        if act in ITEM_ROOM:
            return f"Buy a {act} for {item_cost(s, seat, act)} glyphs"
        return rooms()[s["wizards"][seat]["room"]]["text"].split(": ", 1)[-1]
    if name == "shift":
        if "rotate" in a:
            room = s["board"][a["rotate"]]
            return f"Shift: rotate the {room_name(room)} ({doors_text(s, room, 1)})"
        p, q = a["swap"]
        return f"Shift: swap the {room_name(s['board'][p])} and the {room_name(s['board'][q])}"
    if name == "share":
        return "Take back your shared glyph" if a.get("back") else f"Share glyph {a['glyph']}"
    fixed: dict[str, Any] = {
        "end": "End your actions",
        "stop": "Stop binding",
        "staff": "Cast with your staff",
        "recall": "Emergency recall to the Mana Crystal (1 mana)",
        "ready": "Start the game",
        "done": "Share nothing",
    }
    return fixed.get(name, move.code())
