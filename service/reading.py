"""Reading what people type: a move by its label (loosely), a game kind, table options.

A player types "Guilds" and means "Place a mage in Guilds"; types "take stones die 1" and means
the one move whose label holds those words. Matching is on words, in any order and case: every
typed word must be a word of the label or the start of one (numbers match whole). Small words
("a", "the", "on"...) are ignored. The answers never quote a fragment of the typed text back:
they say what the legal moves look like instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rules.contract import MOVE_TEXT_LIMIT, MalformedMove, Move, RulesError

# A word is letters and digits; a symbol beyond ASCII (a suit ♦, an arrow) is a word of its own,
# so "7♦" tells the seven of diamonds from the seven of clubs; ASCII punctuation is no word.
_WORD = re.compile(r"[^\W_]+|[^\w\s\x00-\x7f]", re.UNICODE)
_SMALL = frozenset(
    {"a", "an", "the", "on", "in", "to", "with", "of", "for", "at", "my", "and", "from", "into"}
)
SHOWN = 5
"""How many moves an answer lists at most (a reply stays short)."""


class ReadingError(RulesError):
    """Typed text that fits no move, or several; ``sentence`` says what the moves look like."""


def words(text: str) -> list[str]:
    """Split text into case-folded words, without punctuation and small words."""
    return [w for w in _WORD.findall(text.casefold()) if w not in _SMALL]


def _fits(typed: str, word: str) -> bool:
    # A number must match whole: "die 1" is not "die 12".
    if typed.isdigit() or word.isdigit():
        return typed == word
    return word.startswith(typed)


def _words_fit(wanted: Sequence[str], label: str) -> bool:
    """Whether every typed word is a word of the label or the start of one (numbers whole)."""
    have = words(label)
    return all(any(_fits(t, w) for w in have) for t in wanted)


def fits(typed: str, label: str, code: str = "") -> bool:
    """Whether a move belongs in the list offered for the typed text: the one matcher that
    autocomplete and the move lists share with ``matches`` (nothing typed: every move).

    A move fits by the words of its label (as ``matches`` reads them) or by the start of its code.
    """
    folded = " ".join(typed.casefold().split())
    if not folded:
        return True
    if code and code.casefold().startswith(folded):
        return True
    wanted = words(typed)
    return bool(wanted) and _words_fit(wanted, label)


def matches(typed: str, labels: Sequence[str]) -> list[int]:
    """Return the indices of the labels that the typed text fits (exact label first, alone)."""
    folded = " ".join(typed.casefold().split())
    exact = [i for i, label in enumerate(labels) if " ".join(label.casefold().split()) == folded]
    if exact:
        return exact[:1]
    wanted = words(typed)
    if not wanted:
        return []
    return [index for index, label in enumerate(labels) if _words_fit(wanted, label)]


def _listed(labels: Sequence[str]) -> str:
    shown = ", ".join(f"“{label}”" for label in labels[:SHOWN])
    more = len(labels) - SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def several(labels: Sequence[str]) -> str:
    """Return the sentence for typed text that fits several moves, listing them."""
    return f"That fits {len(labels)} of your moves: {_listed(labels)}. Type more of the one you mean."


def no_match(labels: Sequence[str]) -> str:
    """Return the sentence for typed text that fits none of the legal moves."""
    if not labels:
        return "You have no move to make right now."
    return f"None of your moves fits that. They look like {_listed(labels)}; the move list shows them all."


def pick(typed: str, labels: Sequence[str]) -> int:
    """Return the index of the one label the typed text fits, or raise ReadingError."""
    found = matches(typed, labels)
    if len(found) == 1:
        return found[0]
    if found:
        raise ReadingError(several([labels[i] for i in found]))
    raise ReadingError(no_match(labels))


def read_move(
    typed: str, legal: Sequence[Move], labels: Sequence[str], actions: frozenset[str] = frozenset()
) -> Move:
    """Read a typed move: a move's code or label (any case), loosely by its words, else its code form.

    A code with arguments (``place room=guilds``) that is not legal is returned as read, so the
    game can say why it is not allowed; anything else must fit exactly one legal move.
    """
    wanted = " ".join(typed.split())
    if not wanted:
        raise MalformedMove("Type a move, or pick one from the list.")
    if len(wanted) > MOVE_TEXT_LIMIT:
        # Said first: a long text (an intent written out) fits no move because of its length.
        raise MalformedMove(f"That is too long ({len(wanted)} characters, at most {MOVE_TEXT_LIMIT}).")
    folded = wanted.casefold()
    for move in legal:
        if move.code().casefold() == folded:
            return move
    found = matches(wanted, labels)
    if len(found) == 1:
        return legal[found[0]]
    if not found and "=" in wanted:
        try:
            move = Move.parse(wanted)
        except MalformedMove:
            move = None
        if move is not None and (not actions or move.action in actions):
            return move
    if found:
        raise ReadingError(several([labels[i] for i in found]))
    raise ReadingError(no_match(labels))


def kind_of(typed: str, kinds: Sequence[str], titles: Sequence[str]) -> str | None:
    """Return the kind a typed game name means (kind or title, any case), or None."""
    folded = typed.strip().casefold()
    for kind, title in zip(kinds, titles, strict=True):
        if folded in (kind.casefold(), title.casefold()):
            return kind
    return None
