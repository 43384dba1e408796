"""The interpreter for Institute Card effects.

A power in use is a *frame* in ``state["frames"][str(seat)]``: the card, the effects still to run and
the one in progress. Effects that need a choice (a Location, a die, whether to spend a Reroll Cube)
wait in the frame; the owner's next move answers them. Rules never wait. Every power may be used
partially (``done``), and no power ever touches the Portal or the Ethereal Realm: targets are only
Institute Cards at Locations.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rules import rng
from rules.contract import Event, Move
from rules.institute.state import (
    ACTION_NAMES,
    DICE,
    MAX_REROLLS,
    SEATS,
    State,
    card,
    card_slots,
    counted,
    other,
    player,
    say,
    take_from_supply,
    who,
)

INTERACTIVE = {
    "place",
    "move_own",
    "move_opponent",
    "remove_opponent",
    "clear_card",
    "set_die",
    "reroll_dice",
    "swap_actions",
}


def frame(state: State, seat: int) -> dict[str, Any] | None:
    """Return the power a seat is resolving, or None."""
    return state["frames"].get(str(seat))


def start(state: State, seat: int, card_id: int, events: list[Event]) -> None:
    """Begin resolving a card's power for its owner (costs and bookkeeping are the caller's)."""
    state["frames"][str(seat)] = {"card": card_id, "effects": list(card(card_id).effects), "cur": None}
    run(state, seat, events)


def run(state: State, seat: int, events: list[Event]) -> None:
    """Carry the frame forward until it needs a choice or is finished."""
    f = frame(state, seat)
    while f is not None:
        if f["cur"] is not None:
            if choices(state, seat):
                return
            f["cur"] = None  # nothing left to choose: this effect is spent
            continue
        if not f["effects"]:
            del state["frames"][str(seat)]
            return
        effect = f["effects"].pop(0)
        _begin(state, seat, f, effect, events)


def _key(effect: dict[str, Any]) -> str:
    return next(k for k in effect if k not in ("at", "if", "from"))


def _begin(state: State, seat: int, f: dict[str, Any], effect: dict[str, Any], events: list[Event]) -> None:
    key = _key(effect)
    amount = effect[key]
    me = player(state, seat)
    name = card(f["card"]).name
    if key == "gain_stones":
        got = take_from_supply(state, seat, int(amount))
        me["stones"] += got
        say(state, events, "power", f"{who(seat)} takes {counted(got, 'Power Stone')} with {name}.")
    elif key == "gain_charms":
        me["charms"] += int(amount)
        me["score"] += int(amount)
        say(state, events, "power", f"{who(seat)} gains {counted(amount, 'Charm')} with {name}.")
    elif key == "refill_rerolls":
        me["rerolls"] = MAX_REROLLS
        say(state, events, "power", f"{who(seat)} refills their Reroll Cubes with {name}.")
    elif key == "steal_charm":
        foe = player(state, other(seat))
        got = min(int(amount), foe["charms"])
        foe["charms"] -= got
        foe["score"] -= got
        me["charms"] += got
        me["score"] += got
        taken = f"{who(seat)} takes {counted(got, 'Charm')} from {who(other(seat))} with {name}."
        say(state, events, "power", taken)
    elif (
        key == "clear_card"
        and effect.get("if") == "behind"
        and me["score"] >= player(state, other(seat))["score"]
    ):
        say(state, events, "power", f"{who(seat)} is not behind, so {name} does nothing.")
    elif effect.get("at") == "roll":
        f["cur"] = {"key": key, "left": int(amount), "at": "roll", "die": rng.roll(state)}
        if effect.get("from") == "personal":
            f["cur"]["from"] = "personal"
        say(state, events, "roll", f"{who(seat)} rolls a {f['cur']['die']} for {name}.")
        if me["rerolls"] == 0:
            _resolve_rolled(state, seat, f, events)
    else:
        f["cur"] = {"key": key, "left": int(amount)}
        if effect.get("from") == "personal":
            f["cur"]["from"] = "personal"


def _stones_for(state: State, seat: int, cur: dict[str, Any]) -> int:
    """Take the stones a placing power puts down: from the general supply, or the personal one."""
    if cur.get("from") == "personal":
        me = player(state, seat)
        got = min(cur["left"], me["stones"])
        me["stones"] -= got
        return got
    return take_from_supply(state, seat, cur["left"])


def _resolve_rolled(state: State, seat: int, f: dict[str, Any], events: list[Event]) -> None:
    """Carry out a rolled power where the die points, if an Institute Card is there."""
    cur = f["cur"]
    slot = state["slots"][cur["die"] - 1]
    if slot["kind"] == "card" and cur["key"] == "remove_opponent":
        foe = other(seat)
        gone = min(cur["left"], slot["stones"][foe])
        slot["stones"][foe] -= gone
        state["supply"][foe] += gone
        say(
            state,
            events,
            "power",
            f"{who(seat)} removes {counted(gone, who(foe) + ' stone')} from {card(slot['card']).name} "
            f"at Location {cur['die']}.",
        )
    elif slot["kind"] == "card":
        got = _stones_for(state, seat, cur)
        slot["stones"][seat] += got
        say(
            state,
            events,
            "power",
            f"{who(seat)} puts {counted(got, 'stone')} on {card(slot['card']).name}"
            f" at Location {cur['die']}.",
        )
    else:
        # The rulebook: a power aimed at an empty Location (or the Portal) is ignored.
        say(state, events, "power", f"Location {cur['die']} holds no Institute Card, so nothing happens.")
    f["cur"] = None


def choices(state: State, seat: int) -> list[Move]:
    """Return the moves that answer the effect in progress (empty when none is waiting)."""
    f = frame(state, seat)
    if f is None or f["cur"] is None:
        return []
    cur = f["cur"]
    key = cur["key"]
    me = player(state, seat)
    cards = card_slots(state)
    if cur.get("at") == "roll":
        return [Move.of("accept"), Move.of("roll_again")] if me["rerolls"] > 0 else []
    if key == "place":
        source = me["stones"] if cur.get("from") == "personal" else state["supply"][seat]
        if cur["left"] <= 0 or source == 0:
            return []
        return [Move.of("place", at=i + 1) for i in cards] + [Move.of("done")]
    if key in ("move_own", "move_opponent"):
        colour = seat if key == "move_own" else other(seat)
        if cur["left"] <= 0:
            return []
        pairs = [
            Move.of("move", **{"from": a + 1, "to": b + 1})
            for a in cards
            if state["slots"][a]["stones"][colour] > 0
            for b in cards
            if b != a
        ]
        return [*pairs, Move.of("done")] if pairs else []
    if key == "remove_opponent":
        foe = other(seat)
        spots = [Move.of("remove", at=i + 1) for i in cards if state["slots"][i]["stones"][foe] > 0]
        return [*spots, Move.of("done")] if spots and cur["left"] > 0 else []
    if key == "clear_card":
        spots = [Move.of("clear", at=i + 1) for i in cards if sum(state["slots"][i]["stones"]) > 0]
        return [*spots, Move.of("done")] if spots and cur["left"] > 0 else []
    if key == "set_die":
        if cur["left"] <= 0:
            return []
        faces = [
            Move.of("set", die=d + 1, face=v) for d in range(DICE) for v in range(1, 7) if me["dice"][d] != v
        ]
        return [*faces, Move.of("done")]
    if key == "reroll_dice":
        if cur["left"] <= 0:
            return []
        return [Move.of("reroll", dice=list(c)) for c in _subsets()] + [Move.of("done")]
    if key == "swap_actions":
        if cur["left"] <= 0:
            return []
        a = me["assign"]
        pairs = [
            Move.of("swap", dice=[i + 1, j + 1]) for i, j in combinations(range(DICE), 2) if a[i] != a[j]
        ]
        return [*pairs, Move.of("done")] if pairs else []
    raise AssertionError(f"no choices for {key}")


def _subsets() -> list[tuple[int, ...]]:
    return [c for n in range(1, DICE + 1) for c in combinations(range(1, DICE + 1), n)]


def answer(state: State, seat: int, move: Move, events: list[Event]) -> None:
    """Apply the owner's answer to the effect in progress, then carry the frame on."""
    f = frame(state, seat)
    assert f is not None and f["cur"] is not None
    cur = f["cur"]
    me = player(state, seat)
    name = card(f["card"]).name
    slots = state["slots"]
    act = move.action
    if act == "done":
        f["cur"] = None
    elif act == "roll_again":
        me["rerolls"] -= 1
        cur["die"] = rng.roll(state)
        say(state, events, "roll", f"{who(seat)} spends a Reroll Cube and rolls a {cur['die']} for {name}.")
        if me["rerolls"] == 0:
            _resolve_rolled(state, seat, f, events)
    elif act == "accept":
        _resolve_rolled(state, seat, f, events)
    elif act == "place":
        slot = slots[move.get("at") - 1]
        got = _stones_for(state, seat, cur)
        slot["stones"][seat] += got
        cur["left"] = 0
        say(
            state,
            events,
            "power",
            f"{who(seat)} puts {counted(got, 'stone')} on {card(slot['card']).name} with {name}.",
        )
    elif act == "move":
        colour = seat if cur["key"] == "move_own" else other(seat)
        src, dst = slots[move.get("from") - 1], slots[move.get("to") - 1]
        src["stones"][colour] -= 1
        dst["stones"][colour] += 1
        cur["left"] -= 1
        say(
            state,
            events,
            "power",
            f"{who(seat)} moves a {'' if colour == seat else 'rival '}stone from {card(src['card']).name} "
            f"to {card(dst['card']).name} with {name}.",
        )
    elif act == "remove":
        slot = slots[move.get("at") - 1]
        slot["stones"][other(seat)] -= 1
        state["supply"][other(seat)] += 1
        cur["left"] -= 1
        say(
            state,
            events,
            "power",
            f"{who(seat)} removes a {who(other(seat))} stone from {card(slot['card']).name}.",
        )
    elif act == "clear":
        slot = slots[move.get("at") - 1]
        for s in SEATS:
            state["supply"][s] += slot["stones"][s]
            slot["stones"][s] = 0
        cur["left"] = 0
        say(
            state,
            events,
            "power",
            f"{who(seat)} clears every stone from {card(slot['card']).name} with {name}.",
        )
    elif act == "set":
        d = move.get("die") - 1
        me["dice"][d] = move.get("face")
        cur["left"] -= 1
        say(state, events, "power", f"{who(seat)} turns die {d + 1} to {me['dice'][d]} with {name}.")
    elif act == "reroll":
        for d in move.get("dice"):
            me["dice"][d - 1] = rng.roll(state)
        cur["left"] = 0
        say(state, events, "roll", f"{who(seat)} rerolls with {name}: dice now {_dice(me['dice'])}.")
    elif act == "swap":
        i, j = (d - 1 for d in move.get("dice"))
        a = me["assign"]
        a[i], a[j] = a[j], a[i]
        cur["left"] = 0
        say(
            state,
            events,
            "power",
            f"{who(seat)} swaps the Action Cards of dice {i + 1} and {j + 1} with {name}: "
            f"{ACTION_NAMES[a[i]]} now under the {me['dice'][i]}, "
            f"{ACTION_NAMES[a[j]]} under the {me['dice'][j]}.",
        )
    else:
        raise AssertionError(f"unexpected answer {move}")
    run(state, seat, events)


def _dice(dice: list[int]) -> str:
    return ", ".join(str(d) for d in dice)


def prompt_text(state: State, seat: int) -> str:
    """Return the public sentence for the choice a power is waiting on."""
    f = frame(state, seat)
    assert f is not None and f["cur"] is not None
    name = card(f["card"]).name
    what = {
        "place": "choose where to put stones",
        "move_own": "move your stones",
        "move_opponent": "move rival stones",
        "remove_opponent": "remove rival stones",
        "clear_card": "choose a card to clear",
        "set_die": "set a die",
        "reroll_dice": "reroll dice",
        "swap_actions": "swap two Action Cards",
    }[f["cur"]["key"]]
    if f["cur"].get("at") == "roll":
        what = f"keep the roll of {f['cur']['die']} or spend a Reroll Cube"
    return f"{who(seat)}: {name}: {what}."


def label(state: State, seat: int, move: Move) -> str:
    """Return a sentence for an answer to a power."""
    slots = state["slots"]

    def at(n: int) -> str:
        slot = slots[n - 1]
        return f"{card(slot['card']).name} (Location {n})" if slot["kind"] == "card" else f"Location {n}"

    act = move.action
    f = frame(state, seat)
    left = f["cur"]["left"] if f and f["cur"] else 0
    if act == "done":
        return "Stop using this power"
    if act == "accept":
        return f"Keep the roll of {f['cur']['die']}" if f and f["cur"] else "Keep the roll"
    if act == "roll_again":
        return "Spend a Reroll Cube to roll again"
    if act == "place":
        return f"Put {counted(left, 'stone')} on {at(move.get('at'))}"
    if act == "move":
        return f"Move a stone from {at(move.get('from'))} to {at(move.get('to'))}"
    if act == "remove":
        return f"Remove a rival stone from {at(move.get('at'))}"
    if act == "clear":
        return f"Clear every stone from {at(move.get('at'))}"
    if act == "set":
        return f"Turn die {move.get('die')} to {move.get('face')}"
    if act == "reroll":
        dice = move.get("dice")
        return "Reroll all dice" if len(dice) == DICE else "Reroll " + ", ".join(f"die {d}" for d in dice)
    if act == "swap":
        i, j = move.get("dice")
        return f"Swap the Action Cards of dice {i} and {j}"
    return move.code()
