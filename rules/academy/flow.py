"""The effect queue: ops run one by one; a choice suspends the queue until the next move answers it.

An op may ask several questions, but it asks all of them before it changes the state, and every
room card it draws is remembered in the op: when the answer arrives, the op runs again from the
start, gets its earlier answers and cards back, and only then acts. So a choice never repeats a
half-done effect (STYLE 7: a choice is a pending decision in the state, never a wait).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.academy.cards import room_cards
from rules.academy.state import State, draw_room_card

Op = dict[str, Any]
Handler = Callable[[State, Op], None]
HANDLERS: dict[str, Handler] = {}


class Suspend(Exception):
    """Raised by ``ask`` when an op needs an answer that has not arrived yet."""


class Hidden(Exception):
    """Raised by ``draw`` when a copy that works out an order would reshuffle the room deck."""


def handler(name: str) -> Callable[[Handler], Handler]:
    """Register the function that runs an op."""

    def wrap(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return wrap


def ask(
    s: State, op: Op, seat: int, why: str, options: list[tuple[Any, str]], about: dict[str, Any] | None = None
) -> Any:
    """Return the chosen option's value; with one option take it, with none return None.

    The question carries what it is about as data (``about``: the effect's op and public facts such as
    the threat and the room it is in), so a bot reads the choice without parsing ``why``'s words.
    """
    if not options:
        return None
    if len(options) == 1:
        return options[0][0]
    answers = op.setdefault("answers", [])
    i = op.get("_i", 0)
    if i < len(answers):
        op["_i"] = i + 1
        return answers[i]
    s["choice"] = {
        "seat": seat,
        "why": why,
        "options": [{"value": v, "label": label} for v, label in options],
        "about": {"op": op.get("op"), **(about or {})},
    }
    raise Suspend


def ask_glyph(s: State, op: Op, seat: int, why: str, glyphs: Iterable[int]) -> Any:
    """Ask ``seat`` which of these glyphs (each offered once, lowest first) as ``ask`` does."""
    return ask(s, op, seat, why, [(g, f"Glyph {g}") for g in sorted(set(glyphs))])


def draw(s: State, op: Op) -> dict[str, Any]:
    """Draw a room card for this op, or give back the one it drew before it was suspended."""
    draws = op.setdefault("draws", [])
    j = op.get("_d", 0)
    op["_d"] = j + 1
    if j < len(draws):
        return room_cards()[draws[j]]
    if s.get("sim") and not s["room_deck"]:
        raise Hidden  # a copy working out an order must not reshuffle: the shuffle's result is hidden
    card = draw_room_card(s)
    draws.append(card["room"])
    return card


def push(s: State, ops: list[Op]) -> None:
    """Put ops at the front of the queue, to run before what was already waiting."""
    s["queue"][0:0] = [dict(op) for op in ops]


def run(s: State) -> None:
    """Run queued ops until the queue is empty, a choice or a request waits, or the game ends."""
    while s["queue"] and not s["over"] and s["choice"] is None and s["request"] is None:
        op = s["queue"].pop(0)
        op["_i"] = 0
        op["_d"] = 0
        try:
            HANDLERS[op["op"]](s, op)
        except Suspend:
            s["queue"].insert(0, op)
            return


def answer(s: State, value: Any) -> None:
    """Record the answer to the waiting choice on the op that asked it."""
    s["choice"] = None
    op = s["queue"][0]
    op.setdefault("answers", []).append(value)
