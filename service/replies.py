"""What the table service hands back to a cog: plain data, no Discord types.

A cog turns a ``Reply`` into one thread message (``Board``), a DM per ``PrivateNote`` and a
short ephemeral answer (``Reply.answer``) for the player who asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.contract import Event, Move, Prompt, Result, RuleRef, Rules, RulesError
from store import TableRecord

if TYPE_CHECKING:
    from service.drawings import Picture


class TableError(Exception):
    """A request the table cannot carry out; ``sentence`` is what the user reads."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class StaleOffer(TableError):
    """A move offered against a version or a panel stamp that no longer holds (checked under the lock)."""


LOBBY_HINT = "Join with `/game join` here; the host starts with `/game start`."
DAMAGED = (
    "This table's saved game is damaged, so it was closed. Its data is kept: the server's operator "
    "can check it with `python -m store check`."
)


def cited(rules: Rules, sentence: str, rule: RuleRef | None) -> str:
    """Return a refusal's sentence naming the rule it applies: "… (Argent rulebook, Locking)."."""
    if rule is None:
        return sentence
    body = sentence.rstrip()
    body = body[:-1] if body.endswith(".") else body
    return f"{body} ({rules.cite(rule)})."


def refusal(rules: Rules, exc: RulesError) -> str:
    """Return what a player reads for a move the game refused: its sentence and, cited, its rule."""
    return cited(rules, exc.sentence, exc.rule)


@dataclass(frozen=True)
class Choice:
    """One legal move offered to a seat: a readable label and the value to send back.

    ``move`` is the move itself when the service offers it (``seat_view``), so a cog can sort
    or filter its choices by action without reading the rules; it never takes part in equality.
    """

    label: str
    value: str
    move: Move | None = field(default=None, compare=False, repr=False)


def tag_namer(tags: dict[str, str]) -> Callable[[str], str]:
    """Return a function that replaces each seat tag in a text ("P2", "Red") by its player's name.

    ``tags`` maps a tag to what replaces it, e.g. ``{"P2": "bob (P2)"}``. Whole words only; a tag
    already in brackets (a text named before) is left alone.
    """
    if not tags:
        return lambda text: text
    alternatives = "|".join(re.escape(t) for t in sorted(tags, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w(])({alternatives})(?![\w)])")
    return lambda text: pattern.sub(lambda m: tags[m[1]], text)


def waiting_sentence(
    prompts: Iterable[Prompt], names: dict[int, str], marks: dict[int, str] | None = None
) -> str:
    """Say whom the game waits on and for what, e.g. "Waiting on bob (P2): take your turn.".

    ``marks`` are the seats' tags in the game ("Red", "P2"): each player is named beside theirs,
    and a prompt that opens with its seat's tag ("P2: take your turn.") does not repeat it.
    """
    marks = marks or {}

    def who(seat: int) -> str:
        name = str(names.get(seat, seat))
        return f"{name} ({marks[seat]})" if marks.get(seat) else name

    # Another seat's tag inside a prompt ("P1 asks for your glyph") names its player too.
    named = tag_namer({mark: who(seat) for seat, mark in marks.items() if seat in names})
    asks: dict[int, list[str]] = {}
    for prompt in prompts:
        mark = marks.get(prompt.seat)
        text = prompt.text.removeprefix(f"{mark}: ") if mark else prompt.text
        asks.setdefault(prompt.seat, []).append(named(text))
    if not asks:
        return "Waiting on nobody."

    parts = [f"{who(n)}: {' '.join(asks[n]).rstrip('.')}" for n in sorted(asks)]
    return "Waiting on " + "; ".join(parts) + "."


def told_in_order(
    texts: Sequence[str], automatic: Sequence[str], at: Sequence[int], named: Callable[[str], str]
) -> list[str]:
    """Return the public texts with each "Played automatically: …" line just before its own results.

    ``at`` gives, for each automatic label, how many public texts come before its move's; without
    it (an older board) the lines come after every text, as they used to.
    """
    if len(at) != len(automatic):
        at = [len(texts)] * len(automatic)
    lines: list[str] = []
    for n in range(len(texts) + 1):
        lines += [f"Played automatically: {named(a)}." for a, k in zip(automatic, at, strict=True) if k == n]
        if n < len(texts):
            lines.append(texts[n])
    return lines


@dataclass(frozen=True)
class SeatTime:
    """An awaited seat's clock as boards show it: when its bank runs out, and its state."""

    user_id: int
    name: str
    deadline: float
    out_of_time: bool
    absent: str | None
    """How the seat is played for its absent player (``skip`` or ``bot``), or None."""


def time_sentence(times: Iterable[SeatTime]) -> str:
    """Say each awaited seat's time left as Discord relative timestamps ("" without a clock)."""
    parts = []
    for t in times:
        if t.absent:
            parts.append(f"{t.name} is played for (absent; `/game rejoin` to come back)")
        elif t.out_of_time:
            parts.append(f"{t.name} is OUT OF TIME (the others vote)")
        else:
            parts.append(f"{t.name} <t:{int(t.deadline)}:R>")
    return "Time left: " + ", ".join(parts) + "." if parts else ""


@dataclass(frozen=True)
class SeatLine:
    """One entry of a table's seat legend: the seat, its name in the game (a colour or its
    number), the player's display name and user id."""

    seat: int
    mark: str
    name: str
    user_id: int


ALT_LIMIT = 1024
"""Discord's longest description (alt text) of an attachment."""


def alt_text(view_text: str) -> str:
    """Return an image's alt text: the text of the view it draws, cut to Discord's limit."""
    text = " ".join(line.strip() for line in view_text.splitlines() if line.strip())
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


def alt_of(lines: Iterable[str]) -> str:
    """Return ``alt_text("\\n".join(lines))``, reading no line past those the limit keeps.

    The lines come from ``Rules.view_lines``; a game that yields them lazily writes only the
    start of its text when the rest would be cut (Argent's text is several times the limit).
    """
    kept: list[str] = []
    size = -1  # the joined length: one space between parts
    for line in lines:
        for part in line.splitlines():  # as ``alt_text`` splits the joined text
            part = part.strip()
            if part:
                kept.append(part)
                size += len(part) + 1
        if size > ALT_LIMIT:
            break
    text = " ".join(kept)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


@dataclass(frozen=True)
class Board:
    """What the table's thread shows: public text, the board, and whom to ping.

    ``image`` is the PNG of the public view (drawn when first shown, once per version: ``picture``),
    or None when the game has no drawing yet; then
    ``view_text`` holds the public view as text. Neither ever carries a secret. ``in_play``
    marks the board of a running game (it gets the "My private view" button).

    The same content comes as data for a cog that words its own message (no cog parses
    ``text``): ``events`` (the public events, with their ``data``), ``waiting`` (the pending
    prompts: whom the game waits on and for what), ``legend`` (the seats), ``result``,
    ``automatic`` (the moves the service played by itself, e.g. "P2: Pass", named as everyone may
    know them: ``service.naming.automatic_label``) and ``automatic_at`` (for each, how many public
    events come before its own: where it is told).
    ``fresh`` says whether this board starts a new thread message (the turn passed to another
    seat, the game began or ended); otherwise it updates the turn's living board in place.
    """

    table_id: int
    version: int
    text: str
    picture: Picture | None = None
    """The public board to draw when shown (``image``), or None when the game has no drawing."""
    view_text: str | None = None
    ping: tuple[int, ...] = ()
    finished: bool = False
    in_play: bool = False
    kind: str = ""
    quiet: bool = False
    """A move nobody else needs to see: no public event, no fresh prompt, not the end.
    The kit then posts nothing in the thread (the mover is answered ephemerally)."""
    events: tuple[Event, ...] = ()
    waiting: tuple[Prompt, ...] = ()
    legend: tuple[SeatLine, ...] = ()
    result: Result | None = None
    automatic: tuple[str, ...] = ()
    automatic_at: tuple[int, ...] = ()
    fresh: bool = True
    opening: bool = False
    """The first board of a game."""
    times: tuple[SeatTime, ...] = ()
    """Each awaited seat's clock (a table with a clock); ``time_sentence`` words it."""
    round: int | None = None
    """The round the board shows (``Rules.round_of``; None: the game counts none)."""
    alt: str | None = None
    """The image's alt text (a screen reader reads it): the public view as text, within Discord's limit."""

    @property
    def image(self) -> bytes | None:
        """Return the PNG, drawn now unless already drawn (a cog awaits ``TableService.image``)."""
        return None if self.picture is None else self.picture.png()

    @property
    def names(self) -> dict[int, str]:
        """Return each seat's player name, from the legend."""
        return {line.seat: line.name for line in self.legend}

    def named(self, text: str) -> str:
        """Return a game text with each seat's player named beside its tag: "bob (P2) places..."."""
        return tag_namer({line.mark: f"{line.name} ({line.mark})" for line in self.legend if line.mark})(text)

    def waiting_sentence(self) -> str:
        """Say whom the game waits on and for what (the prompts' public text)."""
        return waiting_sentence(self.waiting, self.names, {line.seat: line.mark for line in self.legend})

    def time_sentence(self) -> str:
        """Say each awaited seat's time left ("" for a table without a clock)."""
        return time_sentence(self.times)


@dataclass(frozen=True)
class PrivateNote:
    """What one seat alone may read: its private events and its own view.

    ``choices`` are that seat's legal moves now (for a select in a DM or an ephemeral answer);
    ``dm_ok`` is the reachability the store last saw (False: do not try a DM). As data:
    ``title`` (the table's name), ``events`` (this seat's private events, with their ``data``)
    and ``waiting`` (this seat's own prompts). ``mover`` marks the note of the seat that just
    moved: it answers that player's click and is never sent as a DM.
    """

    table_id: int
    version: int
    user_id: int
    seat: int
    text: str
    picture: Picture | None = None
    """This seat's own sheet to draw when shown (``image``), or None when the game has none."""
    view_text: str | None = None
    choices: tuple[Choice, ...] = ()
    dm_ok: bool | None = None
    kind: str = ""
    title: str = ""
    events: tuple[Event, ...] = ()
    waiting: tuple[Prompt, ...] = ()
    mover: bool = False
    alt: str | None = None
    """The image's alt text: this seat's own view as text, within Discord's limit."""

    @property
    def image(self) -> bytes | None:
        """Return the PNG, drawn now unless already drawn (a cog awaits ``TableService.image``)."""
        return None if self.picture is None else self.picture.png()


@dataclass(frozen=True)
class SeatView:
    """Everything a game's own panel needs for one seat, read from one snapshot.

    ``view`` is ``rules.view(state, seat)`` (that seat's secrets only); ``moves`` holds EVERY
    legal move of the seat, uncapped, in ``legal_moves`` order (value: the move's code or a
    ``#version.index`` token); ``prompts`` holds every pending prompt (their text is public).
    """

    table: TableRecord
    version: int
    seat: int
    view: dict[str, Any]
    moves: tuple[Choice, ...]
    prompts: tuple[Prompt, ...]
    waiting: str = ""
    """Whom else the game waits on, players named ("Waiting on bob (P2): draft a mage."), or ""."""
    typed: Any = None
    """``rules.typed_view(view)``: the typed view a game's panel reads (None: the game has none yet)."""
    labelled: tuple[tuple[Move, str], ...] = field(default=(), compare=False, repr=False)
    """Every legal move with its whole label, as ``moves`` (whose labels are clipped for Discord):
    the typed-move choices match the whole label (``compose.labelled_of`` reads it)."""

    @property
    def asked(self) -> tuple[Prompt, ...]:
        """Return the prompts waiting on this seat."""
        return tuple(p for p in self.prompts if p.seat == self.seat)


@dataclass(frozen=True)
class PublicView:
    """What anyone at the table may know, read from one snapshot: for a game's own thread messages.

    ``view`` is ``rules.view(state, None)`` (no seat's secrets); ``prompts`` holds every pending
    prompt (none once the table is closed); ``names`` and ``users`` give each seat's player name
    and user id.
    """

    table: TableRecord
    version: int
    view: dict[str, Any]
    prompts: tuple[Prompt, ...]
    names: dict[int, str]
    users: dict[int, int]
    typed: Any = None
    """``rules.typed_view(view)``: the typed view a game's thread messages read (None: none yet)."""

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat of a user, or None when not seated."""
        return next((seat for seat, user in self.users.items() if user == user_id), None)


@dataclass(frozen=True)
class Reply:
    """The outcome of a lobby or game action: what to post, to whom, and the answer."""

    table: TableRecord
    answer: str
    board: Board | None = None
    private: tuple[PrivateNote, ...] = ()


@dataclass(frozen=True)
class WaitingTable:
    """A table waiting on a user, with the time it started waiting."""

    table: TableRecord
    since: float
    title: str
    decision: str = ""
    """What the game asks of this user there, e.g. "draft a mage" (its prompts' public text)."""
    deadline: float | None = None
    """When this user's time bank runs out there (None: the table has no clock)."""
    out_of_time: bool = False

    @property
    def link(self) -> str | None:
        """Return a jump link to the table's thread, when it has one."""
        if self.table.thread_id is None:
            return None
        guild = self.table.guild_id if self.table.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{self.table.thread_id}"
