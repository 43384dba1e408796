"""What plays itself: the seat settings that say so, and the one move the service may play for a seat.

After each move ``TableService`` plays, under the table's lock, every decision no seat needs to
make (``forced_move``), each stored as that seat's own move; the settings named here let a
player turn that off or be asked instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from rules.contract import Move, PromptKind
from service.loaded import _Table

AUTO_PREF = "auto"
"""Seat setting: "off" stops the service playing that seat's forced decisions for it."""
REACTIONS_PREF = "reactions"
"""Seat setting: "pass" has the service decline every reaction window of that seat."""
ASK_PREF = "ask"
"""Seat setting: "on" has the service ask that seat the optional questions its game otherwise
answers for it (``Rules.presumed``; Argent: take an IP gain that could be declined)."""
AUTO_LIMIT = 60
"""At most this many automatic moves after one move (a round's forced steps are far fewer)."""


def forced_move(
    table: _Table,
    off: dict[int, str],
    passing: dict[int, str],
    asking: dict[int, str],
    legal_of: Callable[[int], list[Move]] | None = None,
) -> tuple[int, Move] | None:
    """Return a (seat, move) the service may play by itself now, or None.

    A reaction window of a seat that passes every reaction is declined; a decision with one
    legal move is played when the game declares that prompt auto-resolvable and the seat did
    not turn automatic play off; a question the game presumes the answer to is answered so for
    a person who did not ask to be asked (a bot decides for itself). ``legal_of`` gives a seat's
    legal moves (default: the rules'), so moves worked out already for the seat's view are reused.
    """
    rules, state = table.rules, table.state
    if legal_of is None:
        legal_of = functools.partial(rules.legal_moves, state)
    for prompt in rules.pending(state):
        record = table.seats[prompt.seat]
        user = record.user_id
        if prompt.kind is PromptKind.REACTION and passing.get(user) == "pass":
            move = rules.decline(state, prompt.seat, prompt)
            if move is not None and move in legal_of(prompt.seat):
                return prompt.seat, move
            continue
        if off.get(user) == "off":
            continue
        legal = legal_of(prompt.seat)
        if not record.bot and asking.get(user) != "on":
            move = rules.presumed(state, prompt.seat, prompt)
            if move is not None and move in legal:
                return prompt.seat, move
        if len(legal) == 1 and rules.auto_resolvable(state, prompt, legal[0]):
            return prompt.seat, legal[0]
    return None
