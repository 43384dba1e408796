"""Named reads of a Wizard's Academy view (rules/academy/VIEW.md) for code outside the rules.

The bots' policy plays on a seat's view, also inside the search's playouts on sampled states' views;
it asks these instead of reaching into the view's keys, so the view's shape stays the rules' business.
Each is a plain read (the policy is timed: a read costs one call, nothing is built); none decides a
rule. Records are the view's own parts: a ROOM (``rooms``, ``grid``, ``outside``), a WIZARD
(``wizards``, ``wizard``), a SLOT of the spell grid (``slots``), a CHOICE and its options.

The last section reads a full state, for the search (its evaluator, and the memory it carries through
a sampled state: ``bots/games/academy.py``) and the setup look-ahead (``academy_layout.py``): the
board, a room's contents, the spell grid's entries, the reveal. A state's CHOICE has the view's shape.
"""

from __future__ import annotations

from typing import Any

from rules.academy import cards

View = dict[str, Any]
Record = dict[str, Any]


# --------------------------------------------------------------------------- the table


def viewer(view: View) -> int | None:
    """Return whose view this is (None: a spectator's)."""
    return view["seat"]


def basic(view: View) -> bool:
    """Whether the table plays the basic game."""
    return view["basic"]


def scenario(view: View) -> str:
    """Return the scenario's key ("basic", "golem", "unstable", "gates", "demon")."""
    return view["scenario"]["key"]


def step(view: View) -> str:
    """Return the turn's step ("shifts", "actions", "choice", "consent", "share", "over")."""
    return view["step"]


def turn(view: View) -> int:
    """Return the count of turns taken (0 during the setup shifts)."""
    return view["turn"]


def shuffles(view: View) -> list[int]:
    """Return how often each spell level was shuffled (the view counts them)."""
    return view["shuffles"]


def current(view: View) -> int:
    """Return the seat whose turn it is."""
    return view["current"]


def choice(view: View) -> Record | None:
    """Return the decision the current effect needs (a CHOICE), or None."""
    return view["choice"]


def request(view: View) -> Record | None:
    """Return the glyph request awaiting consent, or None."""
    return view["request"]


def actions_left(view: View) -> int:
    """Return the current player's actions left (advanced: its unused slots)."""
    return view["actions"]["left"]


def extra_actions(view: View) -> int:
    """Return the current player's extra actions (Haste), usable as any action."""
    return view["actions"]["extra"]


def free_slots(view: View) -> dict[str, bool] | None:
    """Return the advanced turn's action slots, True for an unused one (None in the basic game)."""
    return view["actions"]["slots"]


# --------------------------------------------------------------------------- wizards


def wizards(view: View) -> list[Record]:
    """Return every seat's WIZARD, in seat order."""
    return view["wizards"]


def wizard(view: View, seat: int) -> Record:
    """Return a seat's WIZARD."""
    return view["wizards"][seat]


def seat(w: Record) -> int:
    """Return a wizard's seat."""
    return w["seat"]


def standing_in(w: Record) -> str | None:
    """Return the room a wizard stands in (None once its player left)."""
    return w["room"]


def glyphs(w: Record) -> list[int]:
    """Return a wizard's glyphs, sorted."""
    return w["glyphs"]


def shared(w: Record) -> int | None:
    """Return the glyph in a wizard's shared box (advanced), or None."""
    return w["shared"]


def wand(w: Record) -> int | None:
    """Return the glyph on a wizard's wand (advanced), or None."""
    return w["wand"]


def room_of(view: View, seat: int) -> str | None:
    """Return the room a seat's wizard stands in."""
    return view["wizards"][seat]["room"]


def here(view: View) -> str | None:
    """Return the room the viewer's own wizard stands in."""
    return view["wizards"][view["seat"]]["room"]


def team_glyphs(view: View) -> list[int]:
    """Return every glyph the table holds, wizard by wizard."""
    return [g for w in view["wizards"] for g in w["glyphs"]]


# --------------------------------------------------------------------------- rooms


def grid(view: View) -> list[Record]:
    """Return the 16 ROOMs of the board, row-major."""
    return view["grid"]


def outside(view: View) -> Record | None:
    """Return the ROOM beside the board, or None."""
    return view["outside"]


def rooms(view: View) -> dict[str, Record]:
    """Return every ROOM of the view (the grid and the one outside) by its key."""
    out = {r["key"]: r for r in view["grid"]}
    if view["outside"]:
        out[view["outside"]["key"]] = view["outside"]
    return out


def open_sources(view: View) -> set[int]:
    """Return the glyphs a wizard may take on the board: sources on the grid with no guardian."""
    return {
        r["source"]
        for r in view["grid"]
        if r["source"] is not None and not r["guardian"] and r["pos"] is not None
    }


def key(r: Record) -> str:
    """Return a room's key."""
    return r["key"]


def pos(r: Record) -> int | None:
    """Return a room's place on the grid (row * 4 + col), None beside the board."""
    return r["pos"]


def adjoining(r: Record) -> list[str]:
    """Return the rooms a room adjoins now."""
    return r["adjoining"]


def source(r: Record) -> int | None:
    """Return the glyph source on a room, or None."""
    return r["source"]


def portals(r: Record) -> list[str]:
    """Return the portal types in a room."""
    return r["portals"]


def fire(r: Record) -> int:
    """Return the fire in a room."""
    return r["fire"]


def water(r: Record) -> int:
    """Return the water in a room."""
    return r["water"]


def imp(r: Record) -> int:
    """Return the imps in a room."""
    return r["imp"]


def guardian(r: Record) -> int:
    """Return the guardians in a room."""
    return r["guardian"]


def troll(r: Record) -> int:
    """Return the trolls in a room."""
    return r["troll"]


def demon(r: Record) -> int:
    """Return the demons in a room."""
    return r["demon"]


def tokens(r: Record, kind: str) -> int:
    """Return how many of a threat or creature ("fire", "ice", "imp", ...) lie in a room."""
    return r[kind]


def wizards_in(r: Record) -> list[int]:
    """Return the seats whose wizards stand in a room."""
    return r["wizards"]


def damage(view: View, room: str, kind: str) -> int:
    """Return the damage dealt this turn to a room's creatures of a kind that has not killed yet."""
    return view["damage"].get(room, {}).get(kind, 0)


# --------------------------------------------------------------------------- the spell grid


def slots(view: View) -> list[Record]:
    """Return the 28 SLOTs of the spell grid, by (high glyph, low glyph)."""
    return view["spells"]


def slot(view: View, slot_id: str) -> Record:
    """Return the SLOT of the spell grid with this id (the policy asks it for every cast it weighs)."""
    return next(x for x in view["spells"] if x["id"] == slot_id)


def slot_id(x: Record) -> str:
    """Return a slot's id ("2-3")."""
    return x["id"]


def pair(x: Record) -> list[int]:
    """Return the two glyphs that cast a slot."""
    return x["pair"]


def level(x: Record) -> int:
    """Return a slot's level."""
    return x["level"]


def used(x: Record) -> bool:
    """Whether a spell lies on a slot in this game."""
    return x["used"]


def bound(x: Record) -> bool:
    """Whether a slot's spell is bound (face up for good)."""
    return x["bound"]


def shown(x: Record) -> str | None:
    """Return the key of the spell face up on a slot (bound, or revealed this turn), or None."""
    spell = x["spell"]
    return spell["key"] if spell else None


def revealed(view: View) -> tuple[str, str] | None:
    """Return the slot and key of the spell revealed this turn, or None (none, or its level shuffled)."""
    reveal = view.get("reveal")
    if reveal and reveal.get("slot"):
        return reveal["slot"], reveal["spell"]["key"]
    return None


# --------------------------------------------------------------------------- a choice


def chooser(c: Record) -> int:
    """Return the seat a choice waits on."""
    return c["seat"]


def why(c: Record) -> str:
    """Return what a choice is for, in words."""
    return c["why"]


def values(c: Record) -> list[Any]:
    """Return the values a choice offers."""
    return [o["value"] for o in c["options"]]


def about(c: Record) -> Record:
    """Return what a choice is about (its operation and facts), empty if it says nothing."""
    return c.get("about") or {}


def op(about_: Record) -> str | None:
    """Return the operation a choice is about ("in_order", "recall_window", ...), or None."""
    return about_.get("op")


def way(about_: Record) -> str | None:
    """Return how a threat the choice places may go ("go", "spread", ...), or None."""
    return about_.get("way")


def what(about_: Record) -> str:
    """Return the threat a choice places ("fire", "water", ...)."""
    return about_["what"]


def destination(about_: Record, value: Any) -> str | None:
    """Return the room an option of a choice sends its threat to, or None."""
    return about_["to"].get(value)


def item(about_: Record) -> str | None:
    """Return the item a choice is about ("wand", ...), or None."""
    return about_.get("item")


def strength(about_: Record) -> int:
    """Return the damage a choice of targets deals."""
    return about_["n"]


def orders(about_: Record) -> list[Record]:
    """Return the Helpful Hand of Fate's orders a choice offers."""
    return about_["orders"]


def order_value(o: Record) -> Any:
    """Return the value that picks an order of the Helpful Hand of Fate."""
    return o["value"]


def order_keeps(o: Record) -> tuple[int, int]:
    """Return what an order of the Helpful Hand of Fate leaves: the crystal's mana and the glyphs."""
    return o["mana"], o["glyphs"]


# --------------------------------------------------------------------------- a full state (a search's sample)


def state_step(s: Record) -> str:
    """Return a state's step (the names the view's ``step`` shows)."""
    return s["step"]


def state_choice(s: Record) -> Record | None:
    """Return the CHOICE a state's current effect waits on, or None."""
    return s["choice"]


def state_request(s: Record) -> Record | None:
    """Return the glyph request a state waits on for consent, or None."""
    return s["request"]


def won(s: Record) -> bool:
    """Whether a finished state's table won."""
    return s["won"]


def state_current(s: Record) -> int:
    """Return the seat whose turn it is in a state."""
    return s["current"]


def state_turn(s: Record) -> int:
    """Return a state's count of turns taken (0 during the setup shifts)."""
    return s["turn"]


def state_scenario(s: Record) -> str:
    """Return a state's scenario key ("basic", "golem", "unstable", "gates", "demon")."""
    return s["scenario"]


def shifts_left(s: Record) -> int:
    """Return the setup shifts a state has left."""
    return s["shifts_left"]


def mana(s: Record) -> int:
    """Return the crystal's mana in a state."""
    return s["mana"]


def hands(s: Record) -> list[list[int]]:
    """Return each wizard's glyphs in a state, in seat order."""
    return [w["glyphs"] for w in s["wizards"]]


def board(s: Record) -> list[str]:
    """Return the rooms on a state's 16 board places, row-major."""
    return s["board"]


def turns(s: Record) -> dict[str, int]:
    """Return each room's quarter turns in a state."""
    return s["rot"]


def contents(s: Record, room: str) -> Record:
    """Return what lies in a state's room (its threats, creatures, portals and source)."""
    return s["rooms"][room]


def on_board(s: Record) -> list[Record]:
    """Return the contents of the rooms on a state's board, by place."""
    return [s["rooms"][r] for r in s["board"]]


def count(inside: Record, kind: str) -> int:
    """Return how many of a threat or creature ("fire", "ice", "imp", ...) lie in a room's contents."""
    return inside[kind]


def portals_in(inside: Record) -> list[str]:
    """Return the portal types in a room's contents."""
    return inside["portals"]


def source_in(inside: Record) -> int | None:
    """Return the glyph source in a room's contents, or None."""
    return inside["source"]


def printed_doors(room: str) -> list[bool]:
    """Return a room tile's printed doors n, e, s, w (unturned)."""
    return cards.rooms()[room]["doors"]


def spell_grid(s: Record) -> dict[str, Record]:
    """Return a state's spell grid, slot id to its entry (read with ``laid`` and ``fixed``)."""
    return s["slots"]


def laid(entry: Record) -> str | None:
    """Return the spell lying on a state's slot entry, or None."""
    return entry["spell"]


def fixed(entry: Record) -> bool:
    """Whether the spell on a state's slot entry is bound."""
    return entry["bound"]


def bound_slots(s: Record) -> set[str]:
    """Return the slots of a state whose spells are bound."""
    return {k for k, v in s["slots"].items() if v["bound"]}


def state_reveal(s: Record) -> tuple[str | None, str | None]:
    """Return the slot and spell a state's last reveal showed, each None if there is none."""
    reveal = s["reveal"] or {}
    return reveal.get("slot"), reveal.get("spell")


def state_shuffles(s: Record) -> list[int]:
    """Return how often each spell level was shuffled in a state."""
    return s.get("shuffles") or [0, 0, 0, 0]



def spell_level(spell: str) -> int:
    """Return the level printed on a spell card."""
    return cards.spells()[spell]["level"]
