"""What a move tells whom: the thread's board, each seat's private note, the pings (worker thread).

``Composer`` is the service's ``composer``; its methods are pure over a loaded table (they run
in ``asyncio.to_thread``), and the module's functions read a seat's view, the public view and a
seat's choices from one snapshot. Public texts name each seat's player beside the game's tag.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import render
from rules.contract import Event, Move, Prompt, Result, Rules, State
from service import notify, reading
from service.drawings import Drawings, board_picture, seat_picture
from service.loaded import MAX_CHOICES, _clip, _Table, move_value, offered_value
from service.replies import (
    Board,
    Choice,
    PrivateNote,
    PublicView,
    Reply,
    SeatLine,
    SeatView,
    alt_of,
    alt_text,
    tag_namer,
    told_in_order,
    waiting_sentence,
)

if TYPE_CHECKING:
    from service.catalogue import Catalogue
    from service.tablecache import TableCache
    from store import TableRecord


class Composer:
    """Build replies from a loaded table (``svc.composer``): the board, private notes, alt text."""

    def __init__(
        self,
        drawings: Drawings,
        catalogue: Catalogue,
        cache: TableCache,
        thread_name: Callable[[TableRecord], str],
    ) -> None:
        self.drawings = drawings
        """The service's one drawing cache: boards and notes carry pictures drawn through it."""
        self.catalogue = catalogue
        self.cache = cache
        """The kept tables: a move's views are worked out once and kept with its table."""
        self.thread_name = thread_name
        """Names a table's thread (``TableService.thread_name``): a private note's title."""

    def describe(self, kind: str, view: dict) -> str:
        """Return the alt text of a drawing of a view: the view as the game's text, within Discord's limit.

        The caller passes the view it drew (the public view for what anyone sees, a seat's own
        view only for that seat), so the description never tells more than the drawing.
        """
        return alt_text(self.catalogue.rules_for(kind).view_text(view))

    def compose(
        self,
        table: _Table,
        before: State | None,
        events: list[Event],
        mover: int | None,
        *,
        result: Result | None = None,
        opening: bool = False,
        status: bool = False,
        automatic: tuple[str, ...] = (),
        automatic_at: tuple[int, ...] = (),
        shown_before: dict | None = None,
    ) -> Reply:
        """Build the board, the private notes and the pings after a move (or at start).

        The public view and each noted seat's view are worked out here, under the table's lock,
        and kept with the table's version (``public_view_of``, ``seat_view_of``): the cogs that
        present the reply read them back and work nothing out again. ``shown_before``: the public
        view of ``before`` when it was worked out already (the last board's), not worked out twice.
        """
        rules, state = table.rules, table.state
        prompts = rules.pending(state)
        old = rules.pending(before) if before is not None else []
        fresh = notify.fresh_seats(prompts, old)
        over = rules.is_over(state)
        if result is None and over:
            result = rules.result(state)
        public_events = tuple(e for e in events if e.public)
        lines: list[str] = []
        if opening:
            lines.append(f"The game begins. {self._legend(table)}")
        # Public texts name each seat's player beside the game's tag: "bob (P2) places...".
        named = name_seats(table.rules, table.names())
        # Each move played automatically is told just before what it did.
        lines.extend(told_in_order([named(e.text) for e in public_events], automatic, automatic_at, named))
        closed = table.record.status == "abandoned"
        if result is not None:
            lines.append(self._result_text(table, result))
        elif closed:
            lines.append("This table was abandoned.")
        else:
            lines.append(self._waiting_text(table, prompts))
        if status or not opening:
            lines.append(self._legend(table))
        # A move that tells the thread nothing new (a die assigned in secret, one of several
        # simultaneous steps) is quiet: the kit posts no board, so the thread is not flooded.
        # The prompts must be exactly those of the last board: a prompt that ended or changed
        # must reach the thread, which always shows whose decision the game waits for.
        quiet = (
            mover is not None
            and not opening
            and not status
            and not public_events
            and not automatic
            and not fresh
            and set(prompts) == set(old)
            and not over
            and not closed
        )
        # A turn's start pings in the thread; a decision inside another's turn comes by DM.
        closed_dms = [n for n, s in table.seats.items() if s.dm_ok is False]
        pinged = set() if status else notify.told_in_thread(prompts, old, mover, closed_dms, public_events)
        public = public_view_of(self.cache, table).view
        if shown_before is None and before is not None:
            shown_before = rules.view(before, None)
        # The drawing names the players and marks the last move: public texts and views only.
        caption = render.Caption(
            names={n: s.name for n, s in sorted(table.seats.items())},
            last=tuple(named(e.text) for e in events if e.public),
            before=shown_before,
        )
        # Drawn only when shown (``TableService.image``): a quiet board never is.
        record = table.record
        picture = board_picture(self.drawings, rules.kind, record.id, record.version, public, caption)
        # A drawn board carries only the alt text: the start of the view's text (``alt_of``).
        public_text = None if picture else rules.view_text(public)
        board = Board(
            table_id=table.record.id,
            version=table.record.version,
            text="\n".join(lines),
            picture=picture,
            view_text=public_text,
            alt=alt_of(rules.view_lines(public)) if picture else None,
            ping=_people(table, pinged),
            finished=over or closed,
            in_play=not (over or closed),
            kind=rules.kind,
            quiet=quiet,
            events=public_events,
            waiting=() if over or closed else tuple(prompts),
            legend=self._legend_lines(table),
            result=result,
            automatic=automatic,
            automatic_at=automatic_at,
            opening=opening,
            round=rules.round_of(public),
            fresh=status
            or notify.starts_message(
                pinged=pinged, opening=opening, over=over, closed=closed, events=public_events
            ),
        )
        notes: list[PrivateNote] = []
        active = table.record.status == "active"
        if not status:
            for number in sorted(table.seats):
                if table.seats[number].bot:
                    continue  # a bot reads its own view when it moves: no DM
                secret = [e for e in events if not e.public and e.visible_to(number)]
                # The mover's follow-up decisions come back on the answer to its click (its legal
                # moves: the seat view's, worked out once, while the table is in play).
                moving = number == mover and bool(
                    seat_view_of(self.cache, table, number).moves
                    if active
                    else rules.legal_moves(state, number)
                )
                if opening or secret or number in fresh or moving:
                    notes.append(self.private(table, number, secret, mover=number == mover))
        answer = "Done." if mover is not None else "The game has begun."
        return Reply(table.record, answer, board, tuple(notes))

    def private(self, table: _Table, seat: int, secret: list[Event], *, mover: bool = False) -> PrivateNote:
        """Build a seat's private note: its private events, its view, its legal moves."""
        rules = table.rules
        worked = seat_view_of(self.cache, table, seat)
        view = worked.view
        # Drawn only when shown, and once: the Institute's panel draws the same picture.
        picture = seat_picture(self.drawings, rules.kind, table.record.id, table.record.version, seat, view)
        own_text = None if picture else rules.view_text(view)
        title = self.thread_name(table.record)
        tag = rules.seat_tag(seat)
        named = name_seats(rules, table.names())
        lines = [f"{title}: you are {tag}."]
        lines.extend(named(e.text) for e in secret)
        asked = tuple(p for p in rules.pending(table.state) if p.seat == seat)
        if asked:
            lines.append("Your decision: " + " ".join(_asked(p.text, tag) for p in asked))
        record = table.seats[seat]
        return PrivateNote(
            table_id=table.record.id,
            version=table.record.version,
            user_id=record.user_id,
            seat=seat,
            text="\n".join(lines),
            picture=picture,
            view_text=own_text,
            alt=alt_of(rules.view_lines(view)) if picture else None,
            # The first of the seat view's moves: what ``_choices`` gives for nothing typed.
            choices=worked.moves[:MAX_CHOICES] if table.record.status == "active" else (),
            dm_ok=record.dm_ok,
            kind=rules.kind,
            title=title,
            events=tuple(secret),
            waiting=asked if table.record.status == "active" else (),
            mover=mover,
        )

    @staticmethod
    def mark(table: _Table, seat: int) -> str:
        """Return a seat's name in the game's own terms: a colour, or P1, P2... (``Rules.seat_tag``)."""
        return table.rules.seat_tag(seat)

    def _legend_lines(self, table: _Table) -> tuple[SeatLine, ...]:
        return tuple(
            SeatLine(n, self.mark(table, n), table.seats[n].name, table.seats[n].user_id)
            for n in sorted(table.seats)
        )

    @staticmethod
    def _legend(table: _Table) -> str:
        # A game whose board names its seats (Red, Blue...) says so here, so players know theirs.
        tag = table.rules.seat_tag
        parts = [f"{tag(n)} {table.seats[n].name}" for n in sorted(table.seats)]
        return "Seats: " + ", ".join(parts) + "."

    @staticmethod
    def _waiting_text(table: _Table, prompts: Iterable[Prompt]) -> str:
        marks = {n: table.rules.seat_tag(n) for n in table.seats}
        return waiting_sentence(prompts, {n: s.name for n, s in table.seats.items()}, marks)

    @staticmethod
    def _result_text(table: _Table, result: Result) -> str:
        known = table.names()
        names = [known[n] for n in result.winners]
        name = name_seats(table.rules, known)
        reason = name(result.reason.rstrip().rstrip("."))
        if table.rules.cooperative:
            # The table wins or loses together: naming every seat or a score of 0 each says nothing.
            head = "Game over: the table wins together" if names else "Game over: the table loses"
            return f"{head} ({reason})."
        said = [f"{known[w]} wins" for w in result.winners[:1]] + [
            f"{name(table.rules.seat_tag(w))} wins" for w in result.winners[:1]
        ]
        if len(names) == 1 and any(reason.casefold().startswith(s.casefold()) for s in said):
            # The reason already says who won ("alice wins with 20 VP to 8"): never say it twice.
            return f"Game over: {reason}.{_scores_tail(known, result)}"
        if not names:
            head = "Game over: nobody wins"
        elif len(names) == 1:
            head = f"Game over: {names[0]} wins"
        else:
            head = "Game over: " + " and ".join(names) + " share the win"
        # A reason written as a sentence ends with a full stop; the parentheses must not double it.
        return f"{head} ({reason}).{_scores_tail(known, result)}"



def _scores_tail(known: dict[int, str], result: Result) -> str:
    """Return " Scores: alice 20, bob 8." (empty when the result has no scores)."""
    scores = ", ".join(f"{known[n]} {_number(v)}" for n, v in sorted(result.scores.items()))
    return f" Scores: {scores}." if scores else ""


def name_seats(rules: Rules, names: dict[int, str]) -> Callable[[str], str]:
    """Return a function that puts each player's name on the game's seat tags in a text.

    Games name seats by ``Rules.seat_tag`` ("Red", "P2"); the thread names people:
    "P2 places a mage" becomes "bob (P2) places a mage". A tag already in brackets is left alone.
    """
    return tag_namer({rules.seat_tag(n): name for n, name in names.items()})


def _asked(text: str, tag: str) -> str:
    """Return a prompt's text without its leading seat tag ("Red: roll..." -> "roll...")."""
    return text.removeprefix(f"{tag}: ")


def _people(table: _Table, seats: Iterable[int]) -> tuple[int, ...]:
    """Return the user ids of those seats that a person plays (bots are never pinged)."""
    return tuple(table.seats[n].user_id for n in sorted(seats) if not table.seats[n].bot)


def seat_view_of(cache: TableCache, table: _Table, seat: int) -> SeatView:
    """Return a seat's view of a table, worked out once per version while the table is kept."""
    # Read beside the version's public view when it is kept: the game takes its public pieces from it.
    return cache.memo(table, ("seat", seat), lambda: _seat_view(table, seat, cache.recall(table, "public")))


def kept_seat_view(cache: TableCache, table: _Table, seat: int) -> SeatView | None:
    """Return the seat's view kept with the table's version, or None when it was not worked out yet.

    A caller on the event loop reads a kept view at once: the hop to a worker thread and back
    (``asyncio.to_thread``) costs the loop more than the look-up it would run there.
    """
    kept = cache.recall(table, ("seat", seat))
    return kept if isinstance(kept, SeatView) else None


def kept_public_view(cache: TableCache, table: _Table) -> PublicView | None:
    """Return the public view kept with the table's version, or None (as ``kept_seat_view``)."""
    kept = cache.recall(table, "public")
    return kept if isinstance(kept, PublicView) else None


def _kept_labels(cache: TableCache, table: _Table, seat: int) -> tuple[tuple[Move, str], ...] | None:
    """Return the seat's labelled moves kept with the table's version (its own, or its seat
    view's), or None when neither was worked out yet."""
    kept = cache.recall(table, ("labelled", seat))
    if kept is not None:
        return kept  # type: ignore[return-value]
    view = cache.recall(table, ("seat", seat))
    if isinstance(view, SeatView) and table.record.status == "active":
        return view.labelled
    return None


def legal_moves_of(cache: TableCache, table: _Table, seat: int) -> list[Move]:
    """Return a seat's legal moves at a table's version, listed once per version while it is kept."""
    labelled = _kept_labels(cache, table, seat)
    if labelled is not None:  # already labelled: the moves are there, in the same order
        return [move for move, _ in labelled]
    return cache.memo(table, ("legal", seat), lambda: table.rules.legal_moves(table.state, seat))


def labelled_of(cache: TableCache, table: _Table, seat: int) -> tuple[tuple[Move, str], ...]:
    """Return a seat's legal moves with their labels, in ``legal_moves`` order, once per kept version.

    The seat's view (its panel, its note), the typed-move choices and the played move's label all
    read these: labelling every option is most of what a seat's view costs (Argent words each one).
    """
    kept = _kept_labels(cache, table, seat)
    if kept is not None:
        return kept
    return cache.memo(table, ("labelled", seat), lambda: tuple(table.rules.labelled_moves(table.state, seat)))


def label_of(cache: TableCache, table: _Table, seat: int, move: Move) -> str:
    """Return a legal move's label at a table's version: from the seat's labelled moves when
    they were built already (the panel's or the note's), else as ``rules.label`` says."""
    labelled = _kept_labels(cache, table, seat)
    if labelled is not None:
        found = next((text for known, text in labelled if known == move), None)
        if found is not None:
            return found
    return table.rules.label(table.state, seat, move)


def public_view_of(cache: TableCache, table: _Table) -> PublicView:
    """Return the public view of a table, worked out once per version while the table is kept."""
    return cache.memo(table, "public", lambda: _public_view(table))


def _seat_view(table: _Table, seat: int, public: object = None) -> SeatView:
    """Read one seat's view, every legal move and the pending prompts from one snapshot.

    ``public``: the public view of the same table and version, when worked out already; the seat's
    typed record then takes the pieces the two views show alike from it (``Rules.typed_seat_view``).
    """
    rules, state, version = table.rules, table.state, table.record.version
    active = table.record.status == "active"
    labelled = tuple(rules.labelled_moves(state, seat)) if active else ()
    moves = tuple(
        Choice(_clip(label), move_value(version, index, move), move)
        for index, (move, label) in enumerate(labelled)
    )
    prompts = tuple(rules.pending(state)) if active else ()
    others = [p for p in prompts if p.seat != seat]
    marks = {n: rules.seat_tag(n) for n in table.seats}
    names = {n: s.name for n, s in table.seats.items()}
    waiting = waiting_sentence(others, names, marks) if others else ""
    if isinstance(public, PublicView) and public.version == version:
        # Kept with this very table (``cache.recall``): the public view is of ``state`` itself.
        view = rules.view_beside(state, seat, public.view)
        typed = rules.typed_seat_view(view, public.view, public.typed)
    else:
        view = rules.view(state, seat)
        typed = rules.typed_view(view)
    return SeatView(table.record, version, seat, view, moves, prompts, waiting, typed, labelled=labelled)


def _public_view(table: _Table) -> PublicView:
    """Read the public view, the pending prompts and the seats from one snapshot."""
    rules, state, record = table.rules, table.state, table.record
    prompts = tuple(rules.pending(state)) if record.status == "active" else ()
    names = {n: s.name for n, s in sorted(table.seats.items())}
    users = {n: s.user_id for n, s in sorted(table.seats.items())}
    view = rules.view(state, None)
    return PublicView(record, record.version, view, prompts, names, users, rules.typed_view(view))


def _choices(cache: TableCache, table: _Table, seat: int, typed: str, stamped: bool = False) -> list[Choice]:
    """List the seat's legal moves that the typed text fits, as typed moves read it (``reading.fits``).

    The labels are the version's one build (``labelled_of``): autocomplete asks on every keystroke.
    """
    found: list[Choice] = []
    for index, (move, label) in enumerate(labelled_of(cache, table, seat)):
        if not reading.fits(typed, label, move.code()):
            continue
        version = table.record.version
        value = offered_value(version, index) if stamped else move_value(version, index, move)
        found.append(Choice(_clip(label), value))
        if len(found) == MAX_CHOICES:
            break
    return found


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
