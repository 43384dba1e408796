"""The moves a seat may make now, what each does, and the sentence that names it."""

from __future__ import annotations

from typing import Any

from rules.academy import turn
from rules.academy.cards import rooms, spells
from rules.academy.casting import begin, boosted, cast_slot, pairs
from rules.academy.effects import wild_shuffle
from rules.academy.events import AcademyEvent
from rules.academy.flow import answer, ask, draw, handler, push, run
from rules.academy.items import ITEM_ROOM, LAST_RESORTS, ROOM_OPS, item_cost
from rules.academy.state import (
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
    rotate,
    say,
    slot_level,
    slot_of,
    spell_name,
    swap,
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
        for p, room in enumerate(s["board"]):
            # Line 175: "rotate a room by 90 degrees", either way; one move when both give the same doors.
            out.append(Move.of("shift", rotate=p))
            if doors_text(s, room, 3) != doors_text(s, room, 1):
                out.append(Move.of("shift", rotate=p, turns=3))
        for p in range(16):
            for d in ("e", "s"):
                other = neighbour(s, s["board"][p], d)
                if other is not None:
                    out.append(Move.of("shift", swap=[p, s["board"].index(other)]))
    return out


def _share_moves(s: State, seat: int) -> list[Move]:
    w = s["wizards"][seat]
    # The share step is still the wizard's turn: an emergency recall may be made (rulebook line 217).
    recall = [Move.of("recall")] if turn.can_recall(s, seat) else []
    if w["shared"] is not None:
        return [Move.of("share", back=True), *recall, Move.of("done")]
    return [Move.of("share", glyph=g) for g in sorted(set(w["glyphs"]))] + recall + [Move.of("done")]


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
        if turn.can_recall(s, seat):
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
            out += _wand_on_shared(s, w, b, other, used)
    return out


def _wand_on_shared(s: State, w: dict[str, Any], b: int, other: int, used: set[str]) -> list[Move]:
    """Casts where the wand makes a glyph stand for its type with a shared glyph in the pair.

    Rulebook line 236: the wand "extends to glyphs they receive from other wizards via shared glyph":
    either one of the caster's own glyphs or the shared glyph itself may stand for the wand's type."""
    wand = w.get("wand")
    if s["basic"] or wand is None:
        return []
    out = []
    for x in sorted(set(w["glyphs"])):
        if x != wand and slot_of(wand, b) in used:  # an own glyph as the wand's type, with the shared one
            out.append(Move.of("cast", a=wand, b=b, helper=other, wand=x))
        if b != wand and slot_of(x, wand) in used:  # the shared glyph as the wand's type
            out.append(Move.of("cast", a=x, b=wand, helper=other, wand_shared=b))
    return out


# --------------------------------------------------------------------------- doing it


def act(s: State, seat: int, move: Move) -> None:
    """Carry out a legal move of the action, share or setup steps, then run the queue."""
    name = move.action
    turn.forget_reveal(s)
    if name == "choose":
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
            turn.finish_actions(s, ran_out=True)
        else:
            return
        run(s)


def _action(s: State, seat: int, move: Move) -> None:
    name = move.action
    w = s["wizards"][seat]
    if name == "end":
        say(s, AcademyEvent.END, f"{who(s, seat)} ends their actions.")
        turn.finish_actions(s)
    elif name == "move":
        _move(s, seat, move.get("room"))
    elif name == "take":
        turn.pay(s, "room")
        glyph = s["rooms"][w["room"]]["source"]
        copies = 2 if not s["basic"] and w["char"] == "pip" else 1
        w["glyphs"] = sorted(w["glyphs"] + [glyph] * copies)
        say(s, AcademyEvent.TAKE, f"{who(s, seat)} takes glyph {glyph}.", seat=seat, glyph=glyph)
    elif name == "bind":
        _bind(s, seat, move.get("slot"), move.get("spell"))
    elif name == "stop":
        s["binding"] = False
        say(s, AcademyEvent.BIND, f"{who(s, seat)} stops binding.")
    elif name == "cast":
        helper = move.get("helper")
        if helper is not None and s["basic"]:
            s["request"] = {"caster": seat, "helper": helper, "glyph": move.get("b"), "mine": move.get("a")}
            s["step_before"] = s["step"]
            s["step"] = "consent"
            say(
                s,
                AcademyEvent.REQUEST,
                f"{who(s, seat)} asks {who(s, helper)} for a glyph {move.get('b')} to cast with.",
            )
            return
        turn.pay(s, "magic")
        begin(s, seat, move.get("a"), move.get("b"), helper, move.get("wand"))
    elif name == "staff":
        turn.pay(s, "move")
        s["staff_uses"] += 1
        a, b = w["staff"]
        say(s, AcademyEvent.STAFF, f"{who(s, seat)} casts with their staff.")
        cast_slot(s, seat, f"{a}-{b}")
    elif name == "recall":
        turn.recall(s, seat)
    elif name == "room":
        _room(s, seat, move.get("act"))


def _move(s: State, seat: int, dest: str) -> None:
    """Move into an adjoining room: water costs an extra action; darkness, haunt and ice interfere."""
    w = s["wizards"][seat]
    start = w["room"]
    slow = _slowed_by(s, seat, dest)
    turn.pay(s, "move")
    for why in slow:
        if not turn.pay(s, "move"):
            say(
                s,
                AcademyEvent.WASTED,
                f"{who(s, seat)} cannot wade into the {room_name(dest)} ({why}): the move is wasted.",
            )
            return
    if not s["basic"] and s["rooms"][start]["haunt"] and not ignores(w, "haunt"):
        op = {"op": "haunted_move", "by": seat, "from": start}
        push(s, [op])
        return
    _arrive(s, seat, start, dest)


def _slowed_by(s: State, seat: int, dest: str) -> list[str]:
    """Return what makes a move cost more: water in the room entered, darkness in the room left."""
    w = s["wizards"][seat]
    slow = []
    wades = s["basic"] or w["char"] != "myrrin"  # Myrrin's ability: water does not slow her
    if s["rooms"][dest]["water"] and not ignores(w, "water") and wades:
        slow.append("water")
    if not s["basic"] and s["rooms"][w["room"]]["darkness"] and not ignores(w, "darkness"):
        slow.append("darkness")
    return slow


def _can_pay_slow(s: State, extra: int) -> bool:
    """Whether, after the move itself is paid, ``extra`` more move actions can be paid (on a copy)."""
    trial = {k: s[k] for k in ("basic", "left", "extra")}
    trial["slots_left"] = dict(s["slots_left"]) if s.get("slots_left") is not None else None
    return all(turn.pay(trial, "move") for _ in range(extra + 1))


def _arrive(s: State, seat: int, start: str, dest: str) -> None:
    w = s["wizards"][seat]
    w["room"] = dest
    say(s, AcademyEvent.MOVE, f"{who(s, seat)} moves to the {room_name(dest)}.", seat=seat, room=dest)
    if s["basic"] or s["rooms"][dest]["ice"] != 1 or ignores(w, "ice"):
        return
    d = next(x for x in DIRS if neighbour(s, start, x) == dest)
    slide = adjoining_dir(s, dest, d, w)
    if slide is not None:
        w["room"] = slide
        say(
            s,
            AcademyEvent.SLIDE,
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
        say(s, AcademyEvent.HAUNT, f"The haunt holds {who(s, seat)} in the {room_name(start)}.")
        return
    say(s, AcademyEvent.HAUNT, f"The haunt steers {who(s, seat)}.")
    _arrive(s, seat, start, adjoining_dir(s, start, d, w))


def _bind(s: State, seat: int, slot: str, key: str) -> None:
    """Name a face-down spell: right, it stays face-up; wrong, that level is shuffled and a mana lost."""
    if not s["binding"]:
        turn.pay(s, "room")
    entry = s["slots"][slot]
    if entry["spell"] == key:
        entry["bound"] = True
        s["binding"] = True
        say(s, AcademyEvent.BIND,
            f"{who(s, seat)} binds {spell_name(key)} at {slot}.", seat=seat, slot=slot, spell=key)
        if not any(v["spell"] and not v["bound"] for v in s["slots"].values()):
            s["binding"] = False
        return
    s["binding"] = False
    s["reveal"] = {"slot": slot, "spell": entry["spell"], "seat": seat, "turn": s["turn"], "how": "bind"}
    if s["memory"] == "open":
        say(
            s,
            AcademyEvent.BIND,
            f"{who(s, seat)} names {spell_name(key)} at {slot}, but it is {spell_name(entry['spell'])}.",
            seat=seat,
            slot=slot,
            spell=entry["spell"],
            how="bind",
        )
    else:
        text = f"{who(s, seat)} names {spell_name(key)} at {slot}, wrongly."
        say(s, AcademyEvent.BIND, text, seat=seat, slot=slot, how="bind")
    s["reveal"]["slot"] = None
    wild_shuffle(s, slot_level(slot))
    level = slot_level(slot)
    say(s, AcademyEvent.SHUFFLE, f"The unbound level {level} spells are shuffled.", level=level)
    lose_mana(s, 1, "a failed binding")


def _room(s: State, seat: int, act: str) -> None:
    turn.pay(s, "room")
    if act in ITEM_ROOM:
        push(s, [{"op": "buy", "item": act, "by": seat}])
    elif act in LAST_RESORTS:
        push(s, [{"op": "last_resort", "act": act, "by": seat}])
    else:
        push(s, [dict(op, by=seat) for op in ROOM_OPS[act]])
    say(s, AcademyEvent.ROOM, f"{who(s, seat)} uses the {room_name(s['wizards'][seat]['room'])}.")


def _consent(s: State, ok: bool) -> None:
    req = s["request"]
    s["request"] = None
    s["step"] = s.pop("step_before", "actions")
    caster, helper = req["caster"], req["helper"]
    if not ok:
        say(s, AcademyEvent.REQUEST, f"{who(s, helper)} keeps their glyph.")
        return
    turn.pay(s, "magic")
    begin(s, caster, req["mine"], req["glyph"], helper, None)


def _shift(s: State, move: Move) -> None:
    if move.action == "ready":
        s["shifts_left"] = 0
        say(s, AcademyEvent.READY, "The academy is set: the first turn begins.")
        turn.start_turn(s)
        return
    s["shifts_left"] -= 1
    if move.get("rotate") is not None:
        rotate(s, s["board"][move.get("rotate")], move.get("turns") or 1)
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
        say(s, AcademyEvent.SHARE, f"{who(s, seat)} takes back their shared glyph.")
    elif move.action == "share":
        w["glyphs"].remove(move.get("glyph"))
        w["shared"] = move.get("glyph")
        say(s, AcademyEvent.SHARE, f"{who(s, seat)} shares glyph {move.get('glyph')}.")
    turn.next_turn(s)


# --------------------------------------------------------------------------- labels


def label(s: State, seat: int, move: Move) -> str:
    """Return a sentence naming a move; it never names an unbound spell."""
    a = move.params
    name = move.action
    if name == "move":
        slow = _slowed_by(s, seat, a["room"])
        if not slow:
            return f"Move to the {room_name(a['room'])}"
        why = " and ".join(slow)
        if not _can_pay_slow(s, len(slow)):
            return f"Move to the {room_name(a['room'])} ({why}: no action left for it, the move is wasted)"
        extra = "an extra action" if len(slow) == 1 else f"{len(slow)} extra actions"
        return f"Move to the {room_name(a['room'])} ({why}: {extra})"
    if name == "take":
        return f"Take glyph {s['rooms'][s['wizards'][seat]['room']]['source']}"
    if name == "bind":
        return f"Bind: name the spell at {a['slot']} {spell_name(a['spell'])}"
    if name == "cast":
        slot = f"{min(a['a'], a['b'])}-{max(a['a'], a['b'])}"
        entry = s["slots"][slot]
        what = f"{spell_name(entry['spell'])} ({slot})" if entry["bound"] else f"the spell at {slot}"
        text = f"Cast {what}"
        if "wand_shared" in a:
            text += f", glyph {a['wand_shared']} from {who(s, a['helper'])} as your wand's glyph {a['b']}"
        elif "helper" in a:
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
            turns = a.get("turns") or 1
            way = "anticlockwise" if turns == 3 else "clockwise"
            return f"Shift: rotate the {room_name(room)} {way} ({doors_text(s, room, turns)})"
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
