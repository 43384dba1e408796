"""``/game why``: why a move a player has in mind is not offered now, and the rule that rules it out.

The answer is the game's own check: the move is read as ``/game play`` reads it, applied to the
table's state (``Rules.apply`` never changes its input, and the result is thrown away), and the
refusal's sentence and rule are reported, with the seat's nearest legal moves. Nothing else is
consulted, so the answer says no more than typing the move would: it depends only on the seat's
own legal moves and the game's refusal, which depend only on what the seat may know (the test
re-draws every hidden thing and asks again). Typed text is never quoted back.
"""

from __future__ import annotations

import asyncio

from rules.contract import RESIGN, IllegalMove, MalformedMove, Move, Rules, RulesError, State
from service import reading
from service.reads import TableReads
from service.replies import cited, refusal

NEAREST = 3
"""How many of the seat's legal moves an answer names."""
NOTHING_OFFERED = "Nothing is offered to you now: the game waits on someone else."


class WhyReads:
    """The ``/game why`` call (``svc.why``): reads the seat's table through ``reads``."""

    def __init__(self, reads: TableReads) -> None:
        self.reads = reads

    async def ask(self, table_id: int, user_id: int, text: str) -> str:
        """Explain to a seated player why the move they describe is not offered now (read-only)."""
        loaded, seat = await self.reads.load_seat(table_id, user_id)
        return await asyncio.to_thread(explain, loaded.rules, loaded.state, seat, text)


def explain(rules: Rules, state: State, seat: int, text: str) -> str:
    """Return why the typed move is not offered to the seat now, the rule, and the nearest legal moves."""
    wanted = " ".join(text.split())
    if not wanted:
        return "Say which move you have in mind, as you would type it for `/game play`."
    if rules.is_over(state):
        return cited(rules, "The game is over: no move is offered any more.", rules.end_rule)
    labelled = rules.labelled_moves(state, seat)
    legal = [move for move, _label in labelled]
    labels = [label for _move, label in labelled]
    offered = [i for i, move in enumerate(legal) if move.code().casefold() == wanted.casefold()]
    offered = offered or reading.matches(wanted, labels)
    if len(offered) == 1:
        return f"That move is offered now: “{labels[offered[0]]}”. Play it with `/game play`."
    if offered:
        shown = ", ".join(f"“{labels[i]}”" for i in offered[: reading.SHOWN])
        return f"That fits {len(offered)} of your moves, all offered now: {shown}."
    if wanted.split()[0] == RESIGN:
        return "Leaving is not a move: use `/game leave`."
    move = _as_code(rules, wanted)
    if move is None:
        if not legal:
            return cited(rules, NOTHING_OFFERED, rules.turn_rule_at(state))
        nearest = _nearest(wanted, None, legal, labels)
        return "None of your moves now fits that." + _nearest_line(nearest, labels)
    try:
        rules.apply(state, seat, move)
    except IllegalMove as exc:
        reason = refusal(rules, exc)
    except RulesError as exc:
        reason = exc.sentence
    else:
        return "That move is offered now: play it with `/game play`."
    return f"Not now. {reason}" + _nearest_line(_nearest(wanted, move, legal, labels), labels)


def _as_code(rules: Rules, wanted: str) -> Move | None:
    """Read the text as a move's code ("cast", "place room=guilds"), else None."""
    if wanted.split()[0] not in rules.actions or wanted.split()[0] == RESIGN:
        return None
    try:
        return Move.parse(wanted)
    except MalformedMove:
        return None


def _nearest(wanted: str, move: Move | None, legal: list[Move], labels: list[str]) -> list[int]:
    """Return the legal moves closest to what was typed: the same action first, then shared words."""
    words = reading.words(wanted)

    def score(index: int) -> tuple[int, int]:
        same = int(move is not None and legal[index].action == move.action)
        shared = sum(1 for word in words if reading.matches(word, [labels[index]]))
        return (-same, -shared)

    return sorted(range(len(legal)), key=score)[:NEAREST]


def _nearest_line(nearest: list[int], labels: list[str]) -> str:
    if not nearest:
        return " You have no move to make right now."
    return " Offered now: " + ", ".join(f"“{labels[i]}”" for i in nearest) + "."
