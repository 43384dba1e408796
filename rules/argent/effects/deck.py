"""Card effects: research, draft, draw, look, buy, discard, refresh, retire, and room cards."""

from __future__ import annotations

import re
from typing import Any

from rules.argent import content, vocab
from rules.argent.agenda import Task, ask, option, push, push_effects
from rules.argent.copying import own
from rules.argent.effects.base import RES_NAMES, cap, describe, push_times, say, who
from rules.argent.events import ArgentEvent
from rules.argent.state import (
    DEPARTMENTS,
    DEPT_NAMES,
    INFIRMARY,
    State,
    gain,
    order_from,
    room_name,
    room_side,
)
from rules.contract import Event


def spell_department(book_id: str) -> str:
    """Return a spell book's department."""
    return content.book(book_id)["department"]


def research_options(state: State, seat: int, department: str | None) -> list[dict[str, Any]]:
    """Return the ways a seat may spend one Research (learn from the tableau, or upgrade)."""
    office = state["seats"][seat]
    opts = []
    if office["int"] > 0:
        for book_id in state["tableau"]["spell"]:
            if department in (None, spell_department(book_id)):
                opts.append(option("research", f"Learn {content.book(book_id)['name']}", learn=book_id))
    if office["wis"] > 0:
        for spell in office["spells"]:
            if spell["level"] < 3 and department in (None, spell_department(spell["id"])):
                nxt = content.book(spell["id"])["levels"][spell["level"]]["name"]
                opts.append(
                    option(
                        "research",
                        f"Upgrade {content.book(spell['id'])['name']} to {nxt}",
                        upgrade=spell["id"],
                    )
                )
    if opts:
        opts.append(option("pass", "Let this Research go"))
    return opts


def run_research(state: State, task: Task, events: list[Event]) -> None:
    """Ask how to spend the next of several Research."""
    if task["count"] <= 0:
        return
    rest = dict(task, count=task["count"] - 1)
    if rest["count"] > 0:
        push(state, rest)
    opts = research_options(state, task["seat"], task.get("department"))
    if not opts:
        say(events, f"{who(state, task['seat'])} cannot use a Research; it is lost.")
        return
    ask(state, task["seat"], "research", opts, "spend a Research")


def answer_research(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    args = opt["args"]
    seat = task["seat"]
    office = state["seats"][seat]
    if "learn" in args:
        book_id = args["learn"]
        own(state, "tableau")["spell"].remove(book_id)
        refill(state, "spell")
        learn(state, seat, book_id, events)
    elif "upgrade" in args:
        for spell in office["spells"]:
            if spell["id"] == args["upgrade"]:
                office["wis"] -= 1
                spell["level"] += 1
                say(
                    events,
                    f"{who(state, seat)} upgrades {content.book(spell['id'])['name']} to level "
                    f"{spell['level']}.",
                )
    else:
        # A drawn spell that is not researched goes to the bottom of the Spell deck.
        held = task["data"].get("held")
        if held:
            own(state, "decks")["spell"].append(held)
            say(events, f"{who(state, seat)} puts {content.book(held)['name']} back under the Spell deck.")


def learn(state: State, seat: int, book_id: str, events: list[Event]) -> None:
    """Put an INT on a spell: the seat learns it at level 1."""
    office = state["seats"][seat]
    office["int"] -= 1
    office["spells"].append({"id": book_id, "level": 1, "exhausted": False})
    say(
        events,
        # A book's name may end on its own full stop ("6th Ed."): one stop ends the sentence.
        f"{who(state, seat)} learns {content.book(book_id)['name'].removesuffix('.')}.",
        kind=ArgentEvent.LEARN,
        seat=seat,
        card=content.book(book_id)["name"],
    )


def offer_held_spell(state: State, seat: int, book_id: str, events: list[Event]) -> None:
    """A drawn or drafted spell: research it at once, or it goes under the Spell deck."""
    if state["seats"][seat]["int"] <= 0:
        own(state, "decks")["spell"].append(book_id)
        say(
            events,
            f"{who(state, seat)} cannot research {content.book(book_id)['name']}; it goes under the deck.",
        )
        return
    name = content.book(book_id)["name"]
    opts = [option("research", f"Learn {name}", keep=book_id), option("pass", f"Put {name} under the deck")]
    ask(state, seat, "held_spell", opts, f"research {name} or let it go", data={"held": book_id})


def answer_held_spell(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    book_id = task["data"]["held"]
    if opt["action"] == "research":
        learn(state, task["seat"], book_id, events)
    else:
        own(state, "decks")["spell"].append(book_id)


def do_research(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    dept = arg.get("department")
    if dept == "named":
        opts = [option("choose", f"Name {DEPT_NAMES[d]}", department=d) for d in DEPARTMENTS]
        ask(
            state,
            task["seat"],
            "name_department",
            opts,
            "name a department for the Research",
            data={"amount": arg["amount"]},
        )
        return
    push(state, {"op": "research", "seat": task["seat"], "count": arg["amount"], "department": dept})


def answer_name_department(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    push(
        state,
        {
            "op": "research",
            "seat": task["seat"],
            "count": task["data"]["amount"],
            "department": opt["args"]["department"],
        },
    )


def do_research_legendary(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    seat = task["seat"]
    if state["seats"][seat]["int"] <= 0:
        say(events, f"{who(state, seat)} has no INT to learn a Legendary spell.")
        return
    opts = [option("research", f"Learn {content.book(b)['name']}", learn=b) for b in state["legendary"]]
    ask(state, seat, "legendary", opts, "learn a Legendary spell")


def answer_legendary(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    book_id = opt["args"]["learn"]
    own(state, "legendary").remove(book_id)
    learn(state, task["seat"], book_id, events)


# --------------------------------------------------------------------------- cards


def refill(state: State, kind: str) -> None:
    """Fill the spell or vault tableau back up from its deck."""
    size = 5 if kind == "supporter" else 3
    deck, tableau = own(state, "decks")[kind], own(state, "tableau")[kind]
    while len(tableau) < size and deck:
        tableau.append(deck.pop(0))


def gain_card(state: State, seat: int, kind: str, card_id: str, events: list[Event]) -> None:
    """Put a vault card or supporter into a seat's office (a spell is offered for research)."""
    office = state["seats"][seat]
    if kind == "spell":
        offer_held_spell(state, seat, card_id, events)
        return
    if kind == "vault":
        office["vaults"].append({"id": card_id, "exhausted": False})
    else:
        office["supporters"].append(card_id)
    name = content.card_name(kind, card_id)
    say(events, f"{who(state, seat)} gains {name}.", kind=ArgentEvent.CARD, seat=seat, card=name)


def do_draft(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    kind = arg["tableau"]
    for _ in range(arg.get("count", 1)):
        push(state, {"op": "draft", "seat": task["seat"], "kind": kind})


def fit_label(text: str, limit: int = 100) -> str:
    """Fit a choice's label to Discord's limit: drop bracketed asides first, then cut at a word."""
    if len(text) <= limit:
        return text
    text = re.sub(r" \([^)]*\)", "", text)
    if len(text) <= limit:
        return text
    first = text.split("; ")[0]
    if len(first) <= limit:
        return first
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def card_label(head: str, kind: str, card_id: str) -> str:
    """Return a choice that picks a card and says what it does: "Draft Phase Steppers: When one..."."""
    if kind == "spell":
        book = content.book(card_id)
        first = book["levels"][0]
        gist = f"{DEPT_NAMES.get(book['department'], 'Legendary')} book, L1 {first['name']}: {first['text']}"
    else:
        record = content.vault(card_id) if kind == "vault" else content.supporter(card_id)
        gist = record.get("text", "")
    return fit_label(f"{head}: {gist}" if gist else head)


def run_draft(state: State, task: Task, events: list[Event]) -> None:
    """Ask which card to draft from a tableau."""
    kind = task["kind"]
    opts = [
        option("draft", card_label(f"Draft {content.card_name(kind, c)}", kind, c), card=c)
        for c in dict.fromkeys(state["tableau"][kind])
    ]
    if opts:
        opts.append(option("pass", "Draft nothing"))
    ask(state, task["seat"], "draft", opts, f"draft a {kind}", data={"kind": kind})


def answer_draft(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "draft":
        return
    kind, card = task["data"]["kind"], opt["args"]["card"]
    own(state, "tableau")[kind].remove(card)
    if kind != "supporter":
        refill(state, kind)
    gain_card(state, task["seat"], kind, card, events)


def do_draw(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    kind = arg["deck"]
    for _ in range(arg.get("count", 1)):
        deck = own(state, "decks")[kind]
        if not deck:
            say(events, f"The {kind} deck is empty.")
            return
        card = deck.pop(0)
        if kind == "spell":
            say(events, f"{who(state, task['seat'])} draws {content.book(card)['name']}.")
        gain_card(state, task["seat"], kind, card, events)


def secret_supporter(state: State, seat: int, events: list[Event], card: str | None = None) -> None:
    """Put a supporter face down into a seat's discard (only that seat learns which)."""
    deck = own(state, "decks")["supporter"]
    if card is None:
        if not deck:
            return
        card = deck.pop(0)
    state["seats"][seat]["discard"].append({"kind": "supporter", "id": card, "secret": True})
    say(
        events,
        f"{who(state, seat)} gains a Secret Supporter.",
        kind=ArgentEvent.CARD,
        seat=seat,
        card="a Secret Supporter",
    )
    say(events, f"Your Secret Supporter is {content.supporter(card)['name']}.", (seat,))


def do_secret_supporter(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    for _ in range(arg.get("count", 1)):
        secret_supporter(state, task["seat"], events)


def do_look(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    kind = arg["deck"]
    deck = own(state, "decks")[kind]
    seen = deck[: arg["count"]]
    del deck[: arg["count"]]
    opts = [option("keep", f"Keep {content.card_name(kind, c)}", card=c) for c in dict.fromkeys(seen)]
    ask(
        state,
        task["seat"],
        "look",
        opts,
        f"keep one of the {kind}s you looked at",
        secret=True,
        data={"kind": kind, "seen": seen, "as": arg.get("as", "secret")},
    )


def answer_look(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = task["data"]
    seen = list(data["seen"])
    card = opt["args"]["card"]
    seen.remove(card)
    own(state, "decks")[data["kind"]].extend(seen)
    if data["as"] == "secret" and data["kind"] == "supporter":
        secret_supporter(state, task["seat"], events, card)
    else:
        gain_card(state, task["seat"], data["kind"], card, events)


def do_buy(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    ctx = task["ctx"]
    room = ctx.get("room")
    here = room is not None and room != INFIRMARY and room in state["board"]["rooms"]
    push(
        state,
        {
            "op": "buy",
            "seat": task["seat"],
            "count": arg.get("count", 1),
            "discount": arg.get("discount", 0),
            "stats": here and vocab.room_has(state, room, "buy_stat_for_4_gold"),
            "cycle": here
            and vocab.room_has(state, room, "cycle_vault_once_for_1_gold")
            and not ctx.get("cycled"),
        },
    )


def run_buy(state: State, task: Task, events: list[Event]) -> None:
    """Offer the next Buy: a vault card from the tableau (or, at Student Stores A, a stat)."""
    if task["count"] <= 0:
        return
    seat = task["seat"]
    gold = state["seats"][seat]["gold"]
    opts = []
    for card in dict.fromkeys(state["tableau"]["vault"]):
        price = max(0, content.vault(card)["cost"] - task["discount"])
        if price <= gold:
            head = f"Buy {content.vault(card)['name']} for {price} Gold"
            opts.append(option("buy", card_label(head, "vault", card), card=card))
    if task["stats"] and gold >= 4:
        for stat in ("int", "wis", "research"):
            opts.append(option("buy", f"Buy 1 {RES_NAMES[stat]} for 4 Gold", stat=stat))
    if task["cycle"] and gold >= 1:
        opts.append(option("cycle", "Pay 1 Gold to clear and refill the Vault tableau"))
    if opts:
        opts.append(option("pass", "Stop buying"))
    ask(state, seat, "buy", opts, "buy from the Vault tableau", data=task)


def answer_buy(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = dict(task["data"])
    seat = task["seat"]
    if opt["action"] == "pass":
        return
    if opt["action"] == "cycle":
        own(state, "decks")["vault"].extend(state["tableau"]["vault"])
        own(state, "tableau")["vault"] = []
        refill(state, "vault")
        say(events, f"{who(state, seat)} refreshes the Vault tableau.")
        data["cycle"] = False
        push(state, data)
        pay_gold(state, seat, 1)
        return
    data["count"] -= 1
    push(state, data)
    if "stat" in opt["args"]:
        pay_gold(state, seat, 4)
        stat = opt["args"]["stat"]
        if stat == "research":
            push(state, {"op": "research", "seat": seat, "count": 1, "department": None})
        else:
            gain(state, seat, stat, 1)
        say(events, f"{who(state, seat)} buys 1 {RES_NAMES[stat]}.")
        return
    card = opt["args"]["card"]
    price = max(0, content.vault(card)["cost"] - data["discount"])
    own(state, "tableau")["vault"].remove(card)
    refill(state, "vault")
    gain_card(state, seat, "vault", card, events)
    pay_gold(state, seat, price)


def pay_gold(state: State, seat: int, price: int) -> None:
    """Pay a price in Gold as a cost (a purchase, not a swap): a pay_gold reaction may answer it."""
    if price > 0:
        push_effects(state, seat, [{"pay": {"gold": price}}], {"via": "room"})


def do_discard(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    seat = task["seat"]
    exclude = set(arg.get("exclude", []))
    opts = []
    for victim in order_from(state, seat)[1:]:
        for spell in state["seats"][victim]["spells"]:
            book = content.book(spell["id"])
            if spell["level"] > arg.get("max_level", 3) or ("legendary" in exclude and book.get("legendary")):
                continue
            opts.append(
                option(
                    "target",
                    f"Send P{victim + 1}'s {book['name']} under the deck",
                    player=victim,
                    spell=spell["id"],
                )
            )
    ask(state, seat, "discard_spell", opts, "choose an opponent's spell to discard")


def answer_discard_spell(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    victim, book_id = opt["args"]["player"], opt["args"]["spell"]
    office = state["seats"][victim]
    for spell in office["spells"]:
        if spell["id"] == book_id:
            office["spells"].remove(spell)
            office["int"] += 1
            office["wis"] += spell["level"] - 1
            legendary = content.book(book_id).get("legendary")
            (own(state, "legendary") if legendary else own(state, "decks")["spell"]).append(book_id)
            say(events, f"P{victim + 1}'s {content.book(book_id)['name']} goes back under the deck.")
            return


def do_refresh(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    push_times(
        state,
        arg,
        {
            "op": "refresh",
            "seat": task["seat"],
            "what": arg.get("what", "spell"),
            "source": task["ctx"].get("card"),
        },
    )


def run_refresh(state: State, task: Task, events: list[Event]) -> None:
    """Ask which exhausted card to refresh (never the card doing the refreshing, FAQ)."""
    office = state["seats"][task["seat"]]
    source = task.get("source") or {}
    opts = []
    for spell in office["spells"]:
        if spell["exhausted"] and not (source.get("kind") == "spell" and source.get("id") == spell["id"]):
            opts.append(option("refresh", f"Refresh {content.book(spell['id'])['name']}", spell=spell["id"]))
    starter = office["starter"]
    if starter and starter["exhausted"] and source.get("kind") != "starter":
        opts.append(
            option("refresh", f"Refresh {content.starter(starter['id'])['name']}", starter=starter["id"])
        )
    if task["what"] == "spell_or_treasure":
        for i, v in enumerate(office["vaults"]):
            is_source = source.get("kind") == "vault" and source.get("index") == i
            if v["exhausted"] and content.vault(v["id"])["type"] == "treasure" and not is_source:
                opts.append(option("refresh", f"Refresh {content.vault(v['id'])['name']}", vault=i))
    if opts:
        opts.append(option("pass", "Refresh nothing"))
    ask(state, task["seat"], "refresh", opts, "refresh an exhausted card")


def answer_refresh(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    office = state["seats"][task["seat"]]
    args = opt["args"]
    if "spell" in args:
        for spell in office["spells"]:
            if spell["id"] == args["spell"]:
                spell["exhausted"] = False
    elif "starter" in args:
        office["starter"]["exhausted"] = False
    elif "vault" in args:
        office["vaults"][args["vault"]]["exhausted"] = False
    if opt["action"] == "refresh":
        say(events, f"{who(state, task['seat'])} refreshes a card.")


def do_retire(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    card = task["ctx"].get("card") or {}
    office = state["seats"][task["seat"]]
    if (
        card.get("kind") == "vault"
        and card.get("index") is not None
        and card["index"] < len(office["vaults"])
    ):
        v = office["vaults"].pop(card["index"])
        office["discard"].append({"kind": "vault", "id": v["id"], "secret": False})
        task["ctx"]["card"] = {}


# --------------------------------------------------------------------------- room-only keys


def do_astronomy(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    room = task["ctx"].get("room")
    side = room_side(state, room)
    track = side["track"]
    marker = state["board"]["rooms"][room]["marker"]
    seat = task["seat"]
    have = state["seats"][seat][arg["pay"]]
    opts = []
    if not side.get("wrap") and marker >= len(track) - 1:
        opts.append(option("choose", f"Take the last space for free: {describe(track[-1])}", spaces=0))
    limit = len(track) - 1 if side.get("wrap") else len(track) - 1 - marker
    for k in range(1, limit + 1):
        price = arg["per_space"] * (k - 1 if arg.get("first_space_free") else k)
        if price <= have:
            dest = (marker + k) % len(track)
            opts.append(
                option(
                    "choose",
                    f"Move {k} space{'' if k == 1 else 's'} for {price} {RES_NAMES[arg['pay']]}:"
                    f" {describe(track[dest])}",
                    spaces=k,
                )
            )
    ask(state, seat, "astronomy", opts, "move the Astronomy Tower marker", data={"arg": arg, "room": room})


def answer_astronomy(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    arg, room = task["data"]["arg"], task["data"]["room"]
    side = room_side(state, room)
    track = side["track"]
    k = opt["args"]["spaces"]
    marker = state["board"]["rooms"][room]["marker"]
    cost: list[dict[str, Any]] = []
    if k:
        price = arg["per_space"] * (k - 1 if arg.get("first_space_free") else k)
        cost = [{"pay": {arg["pay"]: price}}] if price else []
        marker = (marker + k) % len(track)
        own(state, "board")["rooms"][room]["marker"] = marker
    say(events, f"{who(state, task['seat'])} moves the Astronomy Tower marker to space {marker + 1}.")
    # The per-space price is a cost (Auric Catalyst may answer a Gold one), paid before the reward.
    push_effects(state, task["seat"], [*cost, *track[marker]], {"room": room, "space": marker, "via": "room"})


def do_astronomy_any_earlier(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    room = task["ctx"].get("room")
    track = room_side(state, room)["track"]
    here = task["ctx"].get("space", len(track) - 1)
    opts = [option("choose", cap(describe(track[i])), option=i) for i in range(here) if track[i]]
    ask(state, task["seat"], "choose", opts, "choose an earlier reward", data={"branches": track, "ctx": {}})


def do_take_revealed(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    room = task["ctx"].get("room")
    cards_here = state["board"]["rooms"][room]["cards"]
    opts = [
        option("draft", card_label(f"Take {content.vault(c)['name']}", "vault", c), card=c)
        for c in dict.fromkeys(c["id"] for c in cards_here)
    ]
    ask(state, task["seat"], "room_card", opts, "take one of the revealed cards", data={"room": room})


def do_add_room_card(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    room = task["ctx"].get("room")
    here = state["board"]["rooms"][room]["cards"]
    opts = []
    for kind in ("spell", "vault", "supporter"):
        if state["decks"][kind] and sum(1 for c in here if c["kind"] == kind) < arg.get("max_per_type", 3):
            opts.append(option("draw", f"Lay the top {kind} card in {room_name(room)}", deck=kind))
    if opts:
        opts.append(option("pass", "Lay no card"))
    ask(state, task["seat"], "add_room_card", opts, "lay a card in the room", data={"room": room})


def answer_add_room_card(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "draw":
        return
    kind = opt["args"]["deck"]
    card = own(state, "decks")[kind].pop(0)
    own(state, "board")["rooms"][task["data"]["room"]]["cards"].append({"kind": kind, "id": card})
    say(
        events,
        f"{who(state, task['seat'])} lays {content.card_name(kind, card)} in "
        f"{room_name(task['data']['room'])}.",
    )


def do_draft_room_card(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    room = task["ctx"].get("room")
    here = state["board"]["rooms"][room]["cards"]
    unique = list(dict.fromkeys((c["kind"], c["id"]) for c in here))
    opts = [
        option("draft", card_label(f"Draft {content.card_name(k, c)}", k, c), card=c, kind=k)
        for k, c in unique
    ]
    ask(state, task["seat"], "room_card", opts, "draft a card from the room", data={"room": room})


def answer_room_card(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    room = task["data"]["room"]
    here = own(state, "board")["rooms"][room]["cards"]
    kind = opt["args"].get("kind", "vault")
    for c in here:
        if c["id"] == opt["args"]["card"] and c["kind"] == kind:
            here.remove(c)
            break
    gain_card(state, task["seat"], kind, opt["args"]["card"], events)
