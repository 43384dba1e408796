"""Refusing the same unstamped request sent twice at once (typed moves, /game undo).

A button, a select or an autocompleted move carries the version it was offered at, so the
store applies it once. Text typed into ``/game play`` and a bare ``/game undo`` carry nothing
the player saw (a slash command sits under no board message), so the same text sent twice at
once would otherwise apply twice. The service remembers, per table and user, when each such
request last went through, and refuses an identical one within ``REPEAT_WINDOW`` seconds while
nothing else happened at the table, saying why: sent again later, it is read as meant.
"""

from __future__ import annotations

from service.replies import StaleOffer

REPEAT_WINDOW = 3.0
"""Seconds in which an identical unstamped request is taken for a double send (a double press,
a retry of a slow network), and refused."""
REPEATED_MOVE = (
    "You sent that same move a moment ago and it was played once. To play it again, send it "
    "again in a few seconds."
)
REPEATED_UNDO = (
    "You asked to take a move back a moment ago, and it was done once. To take back another, "
    "ask again in a few seconds."
)


def typed_key(text: str) -> str:
    """Return what makes two typed moves the same request: the words, in any case and spacing."""
    return "move:" + " ".join(text.casefold().split())


class Repeats:
    """When each unstamped request of a user at a table last went through, and the table version
    it left (in memory).

    A request is refused only while both hold: it came within the window, and nothing at all
    happened at the table since the same request (the version it left is still the table's), so
    the same text typed again after anyone moved is read as meant. Called under the table's lock,
    so the check and the note of two requests never interleave. A restart forgets it, which loses
    nothing: a request from before a restart is long answered.
    """

    def __init__(self) -> None:
        self._last: dict[tuple[int, int, str], tuple[float, int]] = {}

    def check(self, table_id: int, user_id: int, key: str, now: float, version: int, sentence: str) -> None:
        """Refuse (``StaleOffer``) the request when the same one just left the table at this version."""
        last = self._last.get((table_id, user_id, key))
        if last is not None and 0 <= now - last[0] < REPEAT_WINDOW and last[1] == version:
            raise StaleOffer(sentence)

    def note(self, table_id: int, user_id: int, key: str, now: float, version: int) -> None:
        """Remember that a request went through now, leaving the table at ``version``."""
        stale = [k for k, (when, _) in self._last.items() if now - when >= REPEAT_WINDOW]
        for k in stale:
            del self._last[k]
        self._last[(table_id, user_id, key)] = (now, version)
