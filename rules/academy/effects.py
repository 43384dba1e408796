"""Spell and disaster effects: one handler per effect op of data/academy (see cards.OPS).

Every op that acts for a wizard carries ``by`` (the caster, or the current player for a
disaster). Questions go to that seat: the Helpful Hand of Fate lets the players choose, and in
chat the current player decides.
"""

from __future__ import annotations

from typing import Any

from rules import rng
from rules.academy.cards import CREATURES, spells
from rules.academy.casting import spell_ops
from rules.academy.events import AcademyEvent
from rules.academy.flow import Op, ask, ask_glyph, draw, handler, push
from rules.academy.items import give_item, item_choices
from rules.academy.state import (
    CRYSTAL,
    CURSED,
    DIRS,
    TOUGHNESS,
    State,
    adjoining,
    adjoining_dir,
    count_all,
    distances,
    doors_text,
    end,
    give_glyph,
    heading,
    in_academy,
    lose_mana,
    neighbour,
    room_name,
    rotate,
    say,
    slot_level,
    spell_name,
    swap,
    who,
    wizards_in,
)
from rules.academy.threats import NAMES, ORDER, activation_ops, move_creature, place, toward_cursed

MAX_MANA = 8
"""The box holds eight mana tokens: the crystal never holds more (ruling)."""


def here(s: State, op: Op) -> str:
    """Return the room of the wizard the op acts for."""
    return s["wizards"][op["by"]]["room"]


def rooms_named(s: State, op: Op, where: str, why: str, fit: Any = None) -> list[str]:
    """Resolve a place word of the data (here, random, near, any...) to rooms, asking when it is a choice."""
    room = here(s, op)
    near = [room, *adjoining(s, room)] if in_academy(s, room) else [room]
    fit = fit or (lambda r: True)
    if where == "here":
        return [room]
    if where == "here_and_adjoining":
        return near
    if where in ("adjoining_all",):
        return near[1:]
    if where == "academy":
        return list(s["board"])
    if where == "cursed":
        return [CURSED] if in_academy(s, CURSED) else []
    if where == "random":
        return [draw(s, op)["room"]]
    if where == "last_adjoining":
        last = s.get("last") or room
        return adjoining(s, last) if in_academy(s, last) else []
    if where == "lowest_source":
        held = [r for r in s["board"] if s["rooms"][r]["source"] is not None]
        return [min(held, key=lambda r: s["rooms"][r]["source"])] if held else []
    pool = {"near": near, "adjoining": near[1:], "any": list(s["board"])}[where]
    pool = [r for r in pool if fit(r)]
    pick = ask(s, op, op["by"], why, [(r, room_name(r)) for r in pool])
    return [] if pick is None else [pick]


# --------------------------------------------------------------------------- threats


@handler("place")
def _place(s: State, op: Op) -> None:
    """Place threats (or guardians) in rooms; interactions follow."""
    what = op["what"]
    kind = op.get("type")
    check = op.get("unless_threatening")
    if check and _threatening(s, check):
        say(s, AcademyEvent.SKIP,
            f"{NAMES[check].capitalize()} already threatens the Mana Crystal: nothing is placed.")
        return
    targets: list[str] = []
    for _ in range(op.get("times", 1)):
        targets += rooms_named(s, op, op["where"], f"Where does {NAMES.get(what, 'the portal')} go?")
    if op.get("unless"):
        targets = [r for r in targets if not s["rooms"][r][op["unless"]]]
    if targets:
        s["last"] = targets[0]
    label = f"{kind} portal" if what == "portal" else what
    for room in targets:
        say(s, AcademyEvent.PLACE,
            f"{op.get('n', 1)} {label} placed in the {room_name(room)}.", room=room, what=label)
        place(s, room, what, op.get("n", 1), kind)


def _threatening(s: State, what: str) -> bool:
    reach = distances(s, CRYSTAL)
    return any(s["rooms"][r][what] for r in reach)


def _present(s: State, room: str, kinds: list[str]) -> list[str]:
    c = s["rooms"][room]
    return [k for k in kinds if (c["portals"] if k == "portal" else c[k])]


@handler("remove")
def _remove(s: State, op: Op) -> None:
    """Remove threats: all of them from some rooms, or one of them from a chosen room."""
    kinds = op["what"] if isinstance(op["what"], list) else [op["what"]]
    rooms = rooms_named(
        s,
        op,
        op["where"],
        f"Remove {'/'.join(kinds)} from which room?",
        fit=lambda r: bool(_present(s, r, kinds)),
    )
    for room in rooms:
        present = _present(s, room, kinds)
        if not present:
            continue
        c = s["rooms"][room]
        if op.get("n") == "all":
            for k in present:
                if k == "portal":
                    c["portals"] = []
                else:
                    c[k] = 0
            say(s, AcademyEvent.REMOVE, f"All {', '.join(present)} removed from the {room_name(room)}.")
            continue
        k = ask(s, op, op["by"], "Remove which?", [(k, k) for k in present])
        if k == "portal":
            t = ask(s, op, op["by"], "Close which portal?", [(t, f"{t} portal") for t in c["portals"]])
            c["portals"].remove(t)
        else:
            c[k] -= 1
        say(s, AcademyEvent.REMOVE,
            f"{NAMES.get(k, 'A portal').capitalize()} removed from the {room_name(room)}.")
        if op.get("bind") and k == "demon":
            s["bound_demon"] = True


def _range(s: State, op: Op, reach: str) -> list[str]:
    room = here(s, op)
    adj = adjoining(s, room) if in_academy(s, room) else []
    return {"here": [room], "near": [room, *adj], "adjoining": adj, "any": list(s["board"])}[reach]


def _extra(s: State, op: Op) -> int:
    """Magda's ability: each damaging effect of her spells deals one more (advanced game)."""
    return 1 if not s["basic"] and op.get("spell") and s["wizards"][op["by"]]["char"] == "magda" else 0


def hurt(s: State, room: str, kind: str, n: int, each: bool = False) -> None:
    """Deal damage to one creature (the most wounded) or to each creature of a kind, summed in the turn."""
    c = s["rooms"][room]
    wounds = s["damage"].setdefault(room, {}).setdefault(kind, [])
    del wounds[c[kind] :]
    wounds += [0] * (c[kind] - len(wounds))
    wounds.sort(reverse=True)
    hit = range(len(wounds)) if each else range(1 if wounds else 0)
    for i in hit:
        wounds[i] += n
    dead = [w for w in wounds if w >= TOUGHNESS[kind]]
    if dead:
        c[kind] -= len(dead)
        say(s, AcademyEvent.KILL,
            f"{len(dead)} {kind}{'' if len(dead) == 1 else 's'} killed in the {room_name(room)}.")
    s["damage"][room][kind] = [w for w in wounds if 0 < w < TOUGHNESS[kind]]
    if not s["damage"][room][kind]:
        del s["damage"][room][kind]
    if not s["damage"][room]:
        del s["damage"][room]


@handler("damage")
def _damage(s: State, op: Op) -> None:
    """Deal damage to one creature within range."""
    targets = [
        (f"{r}:{k}", f"{k} in the {room_name(r)}")
        for r in _range(s, op, op["range"])
        for k in CREATURES
        if s["rooms"][r][k]
    ]
    pick = ask(s, op, op["by"], f"Deal {op['n']} damage to which creature?", targets, {"n": op["n"]})
    if pick is None:
        return
    room, kind = pick.split(":")
    hurt(s, room, kind, op["n"] + _extra(s, op))


@handler("damage_each")
def _damage_each(s: State, op: Op) -> None:
    """Deal damage to every creature in range (guardians too)."""
    for room in _range(s, op, op["range"]):
        for kind in CREATURES:
            if s["rooms"][room][kind]:
                hurt(s, room, kind, op["n"] + _extra(s, op), each=True)


# --------------------------------------------------------------------------- wizards


def _go(s: State, seat: int, room: str) -> None:
    s["wizards"][seat]["room"] = room
    say(s, AcademyEvent.MOVE, f"{who(s, seat)} moves to the {room_name(room)}.", seat=seat, room=room)


@handler("move_self")
def _move_self(s: State, op: Op) -> None:
    """Move up to ``steps`` rooms through adjoining rooms (water does not slow a spell's movement)."""
    w = s["wizards"][op["by"]]
    start = w["room"]
    reach = {start: 0}
    frontier = [start]
    for step in range(op["steps"]):
        nxt = []
        for room in frontier:
            for other in adjoining(s, room, w) if in_academy(s, room) else []:
                if other not in reach:
                    reach[other] = step + 1
                    nxt.append(other)
        frontier = nxt
    options = [(start, "Stay")] + [(r, room_name(r)) for r in reach if r != start]
    dest = ask(s, op, op["by"], "Move where?", options)
    if dest != start:
        _go(s, op["by"], dest)


@handler("blink")
def _blink(s: State, op: Op) -> None:
    """Step into an adjacent room, walls or not."""
    room = here(s, op)
    options = [(r, room_name(r)) for d in DIRS if (r := neighbour(s, room, d)) is not None]
    dest = ask(s, op, op["by"], "Blink into which room?", options)
    if dest is not None:
        _go(s, op["by"], dest)


@handler("teleport")
def _teleport(s: State, op: Op) -> None:
    """Move to any room, the one beside the board included (ruling: it is how glyph 7 is reached)."""
    room = here(s, op)
    pool = [*s["board"], *([s["outside"]] if s["outside"] else [])]
    dest = ask(s, op, op["by"], "Teleport where?", [(r, room_name(r)) for r in pool if r != room])
    s["last_from"] = room
    _go(s, op["by"], dest)


@handler("bring")
def _bring(s: State, op: Op) -> None:
    """Another wizard from the room you left may come with you."""
    left = s.get("last_from")
    others = [i for i in wizards_in(s, left) if i != op["by"]] if left else []
    if not others:
        return
    pick = ask(s, op, op["by"], "Bring a wizard along?", [(-1, "Nobody")] + [(i, who(s, i)) for i in others])
    if pick != -1:
        _go(s, pick, here(s, op))


@handler("take_source")
def _take_source(s: State, op: Op) -> None:
    """Take the glyph of a source in range, even past a guardian."""
    rooms = [r for r in _range(s, op, op["range"]) if s["rooms"][r]["source"] is not None]
    room = ask(s, op, op["by"], "Take the glyph of which source?", [(r, room_name(r)) for r in rooms])
    if room is None:
        return
    glyph = s["rooms"][room]["source"]
    give_glyph(s["wizards"][op["by"]], glyph)
    say(s, AcademyEvent.GLYPH,
        f"{who(s, op['by'])} takes glyph {glyph} from the source in the {room_name(room)}.")


@handler("gain")
def _gain(s: State, op: Op) -> None:
    """Wizards gain glyphs of the caster's choice within a range."""
    seats = [op["by"]] if op["who"] == "self" else [i for i in wizards_in(s, here(s, op)) if i != op["by"]]
    picks = [
        ask_glyph(s, op, op["by"], f"Which glyph does {who(s, i)} gain?", range(op["lo"], op["hi"] + 1))
        for i in seats
    ]
    for i, g in zip(seats, picks, strict=True):
        give_glyph(s["wizards"][i], g)
        say(s, AcademyEvent.GLYPH, f"{who(s, i)} gains glyph {g}.")


@handler("lose")
def _lose(s: State, op: Op) -> None:
    """The caster loses a glyph of their choice."""
    w = s["wizards"][op["by"]]
    glyph = ask_glyph(s, op, op["by"], "Lose which glyph?", w["glyphs"])
    if glyph is not None:
        w["glyphs"].remove(glyph)
        say(s, AcademyEvent.GLYPH, f"{who(s, op['by'])} loses glyph {glyph}.")


@handler("duplicate")
def _duplicate(s: State, op: Op) -> None:
    """Gain a copy of a glyph you hold."""
    w = s["wizards"][op["by"]]
    glyph = ask_glyph(s, op, op["by"], "Copy which glyph?", w["glyphs"])
    if glyph is not None:
        give_glyph(w, glyph)
        say(s, AcademyEvent.GLYPH, f"{who(s, op['by'])} gains glyph {glyph}.")


@handler("mana")
def _mana(s: State, op: Op) -> None:
    """The crystal gains (or loses) mana, never above the eight tokens in the box."""
    if op["n"] < 0:
        lose_mana(s, -op["n"], "a disaster")
        return
    s["mana"] = min(MAX_MANA, s["mana"] + op["n"])
    say(s, AcademyEvent.MANA, f"The Mana Crystal now holds {s['mana']} mana.", mana=s["mana"])


@handler("actions")
def _actions(s: State, op: Op) -> None:
    """Take extra actions this turn."""
    s["extra"] += op["n"]
    say(s, AcademyEvent.ACTIONS,
        f"{who(s, op['by'])} gains {op['n']} extra action{'' if op['n'] == 1 else 's'}.")


@handler("shield")
def _shield(s: State, op: Op) -> None:
    """The caster endures nothing at the end of this turn."""
    s["shield"] = op["by"]


@handler("item")
def _item(s: State, op: Op) -> None:
    """Gain a magic item of a kind the caster picks (a second one replaces the first)."""
    value = ask(s, op, op["by"], f"Which {op['item']}?", item_choices(s, op["item"]), {"item": op["item"]})
    give_item(s, op["by"], op["item"], value)


# --------------------------------------------------------------------------- the academy


@handler("rotate")
def _rotate(s: State, op: Op) -> None:
    """Rotate a room by a chosen number of quarter turns."""
    room = (
        here(s, op)
        if op["where"] == "here"
        else ask(s, op, op["by"], "Rotate which room?", [(r, room_name(r)) for r in s["board"]])
    )
    if not in_academy(s, room):
        return
    # Turns that leave the same doors are one outcome: a symmetric room is not asked twice (line 65).
    ways = {doors_text(s, room, n): n for n in (3, 2, 1)}
    turns = ask(
        s,
        op,
        op["by"],
        f"Turn the {room_name(room)} how far clockwise?",
        [(n, f"{n * 90} degrees ({text})") for text, n in sorted(ways.items(), key=lambda x: x[1])],
    )
    rotate(s, room, turns)


@handler("swap")
def _swap(s: State, op: Op) -> None:
    """Swap two adjacent rooms (or, for Rend Dimension, any two rooms)."""
    pairs = []
    for _pos, room in enumerate(s["board"]):
        for d in ("e", "s"):
            other = neighbour(s, room, d)
            if other is not None:
                pairs.append((f"{room}|{other}", f"{room_name(room)} and {room_name(other)}"))
    if op.get("any"):
        first = ask(s, op, op["by"], "Swap which room?", [(r, room_name(r)) for r in s["board"]])
        second = ask(
            s, op, op["by"], "With which room?", [(r, room_name(r)) for r in s["board"] if r != first]
        )
        swap(s, first, second)
        return
    pick = ask(s, op, op["by"], "Swap which two adjacent rooms?", pairs)
    a, b = pick.split("|")
    swap(s, a, b)


@handler("move_source")
def _move_source(s: State, op: Op) -> None:
    """Deface: the glyph source here moves to a random room; with none here an imp appears."""
    room = here(s, op)
    source = s["rooms"][room]["source"]
    if source is None:
        say(s, AcademyEvent.PLACE, f"No glyph source here: an imp appears in the {room_name(room)}.")
        place(s, room, "imp")
        return
    dest = draw(s, op)["room"]
    other = s["rooms"][dest]["source"]
    s["rooms"][room]["source"], s["rooms"][dest]["source"] = other, source
    say(s, AcademyEvent.SOURCE,
        f"Glyph source {source} moves from the {room_name(room)} to the {room_name(dest)}.")


@handler("twist")
def _twist(s: State, op: Op) -> None:
    """A room card's room turns a quarter turn clockwise."""
    room = draw(s, op)["room"]
    if in_academy(s, room):
        rotate(s, room, 1)


@handler("rumble")
def _rumble(s: State, op: Op) -> None:
    """A room card's room swaps with its neighbour in direction 1 (or towards the Cursed Room)."""
    card = draw(s, op)
    room = card["room"]
    if not in_academy(s, room):
        return
    if card["cursed"]:
        dirs = toward_cursed(s, room)
        d = ask(
            s, op, s["current"], "Swap towards the Cursed Room, which way?", [(x, x.upper()) for x in dirs]
        )
    else:
        d = next((x for x in card["arrows"] if neighbour(s, room, x) is not None), None)
    if d is not None:
        swap(s, room, neighbour(s, room, d))


@handler("gather")
def _gather(s: State, op: Op) -> None:
    """Every imp moves one room towards the Cursed Room (forced movement)."""
    push(
        s,
        [
            {"op": "gather_imp", "room": r, "by": op["by"]}
            for r in s["board"]
            for _ in range(s["rooms"][r]["imp"])
        ],
    )


@handler("gather_imp")
def _gather_imp(s: State, op: Op) -> None:
    """One imp steps towards the Cursed Room; the players pick between equal routes."""
    room = op["room"]
    if not s["rooms"][room]["imp"] or room == CURSED:
        return
    dirs = toward_cursed(s, room)
    d = ask(
        s,
        op,
        s["current"],
        f"Which way does the imp in the {room_name(room)} go?",
        [(x, x.upper()) for x in dirs],
        heading(s, room, "imp", "go", dirs),
    )
    if d is not None:
        move_creature(s, room, adjoining_dir(s, room, d), "imp")


@handler("activate")
def _activate(s: State, op: Op) -> None:
    """Every threat of a kind activates (once in this paragraph)."""
    kinds = ORDER if op["what"] == "all" else (op["what"],)
    push(s, activation_ops(s, None, kinds))


@handler("activate_in")
def _activate_in(s: State, op: Op) -> None:
    """Every threat in some rooms activates (once in this paragraph)."""
    if op.get("rooms"):
        # The basic game lays no Lost Room: a card naming it activates (and names) only the rooms laid.
        rooms = [r for r in op["rooms"] if in_academy(s, r) or not s["basic"]]
    else:
        room = here(s, op)
        rooms = [room, *adjoining(s, room)] if op["where"] == "here_and_adjoining" else [room]
    say(s, AcademyEvent.ACTIVATE, f"Threats activate in: {', '.join(room_name(r) for r in rooms)}.")
    push(s, activation_ops(s, rooms))


@handler("unrest")
def _unrest(s: State, op: Op) -> None:
    """Activate the threats of rooms drawn from the room deck: one, plus one per rebuilt disaster deck."""
    rooms = [draw(s, op)["room"] for _ in range(1 + s["refills"])]
    say(s, AcademyEvent.ACTIVATE, f"Threats activate in: {', '.join(room_name(r) for r in rooms)}.")
    push(s, activation_ops(s, rooms))


@handler("wild")
def _wild(s: State, op: Op) -> None:
    """Wild Magic: shuffle the unbound spells of a level (0: every level) and deal them back."""
    levels = [op["level"]] if op["level"] else [1, 2, 3, 4]
    for level in levels:
        wild_shuffle(s, level)
    which = "every level" if len(levels) > 1 else f"level {levels[0]}"
    say(s, AcademyEvent.WILD, f"Wild magic: the unbound spells of {which} are shuffled back.", levels=levels)


def wild_shuffle(s: State, level: int) -> None:
    """Shuffle the unbound, unrevealed spells of one level among their slots."""
    reveal = s.get("reveal") or {}
    shown = reveal.get("slot") if reveal.get("turn") == s["turn"] else None
    if reveal.get("slot") and shown is None and slot_level(reveal["slot"]) == level:
        reveal["slot"] = None  # an earlier turn's reveal: its spell may now lie anywhere
    slots = [
        k
        for k, v in s["slots"].items()
        if slot_level(k) == level and v["spell"] and not v["bound"] and k != shown
    ]
    keys = [s["slots"][k]["spell"] for k in slots]
    # Public: everyone sees a level shuffled, so a player (or a bot's memory) forgets what lay there.
    count = list(s.get("shuffles") or [0, 0, 0, 0])
    count[level - 1] += 1
    s["shuffles"] = count
    rng.shuffle(s, keys)
    for k, key in zip(slots, keys, strict=True):
        s["slots"][k]["spell"] = key


@handler("backfire")
def _backfire(s: State, op: Op) -> None:
    """The current player casts the highest-level bound botch, if there is one."""
    bound = [(k, v["spell"]) for k, v in s["slots"].items() if v["bound"] and spells()[v["spell"]]["botch"]]
    if not bound:
        say(s, AcademyEvent.SKIP, "No botch is bound: Backfire does nothing.")
        return
    top = max(spells()[key]["level"] for _, key in bound)
    pick = ask(
        s,
        op,
        s["current"],
        "Which bound botch is cast?",
        [(k, spell_name(key)) for k, key in bound if spells()[key]["level"] == top],
    )
    key = s["slots"][pick]["spell"]
    say(s, AcademyEvent.CAST, f"Backfire: {who(s, s['current'])} casts {spell_name(key)}.")
    push(s, spell_ops(s, key, s["current"]))


@handler("collapse")
def _collapse(s: State, op: Op) -> None:
    """The scenario's last card: the academy crumbles."""
    end(s, False, "The Collapse card is played: the academy crumbles.")


@handler("boost_here")
def _boost_marker(s: State, op: Op) -> None:
    """Marks where a spell's boost box resolves; the cast puts the boost ops here, so it does nothing."""


@handler("win_if")
def _win_if(s: State, op: Op) -> None:
    """Basic game: Abjure cast in the Mana Crystal with no fire anywhere wins."""
    if s["basic"] and here(s, op) == op["room"] and count_all(s, op["none"]) == 0:
        end(
            s,
            True,
            f"{who(s, op['by'])} casts Abjure in the Mana Crystal with no fire anywhere: "
            "the academy is saved!",
        )

