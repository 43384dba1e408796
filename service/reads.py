"""Reading a table without changing it: boards, seat and public views, logs, choices, preferences.

``TableReads`` is the service's ``reads``. Nothing here takes the table's lock: every read
comes from one snapshot, and the values it offers carry the version they were read at.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import render
from rules.contract import Event
from service.compose import (
    _asked,
    _choices,
    _kept_labels,
    kept_public_view,
    kept_seat_view,
    name_seats,
    public_view_of,
    seat_view_of,
)
from service.drawings import Picture, board_picture, drawing, drawn, seat_picture, sheet_picture
from service.loaded import _known_id, _Table
from service.part import ServicePart
from service.replies import Board, Choice, PrivateNote, PublicView, SeatView, TableError, WaitingTable
from store import StoreError, TableRecord

if TYPE_CHECKING:
    from service.tables import TableService

log = logging.getLogger("conclave.service")

PREF_VALUE_LIMIT = 200
"""Seat preferences are small settings (a mode, a flag), never documents."""
_PREF_KEY = re.compile(r"[\w.:-]{1,64}")

STARTED_LIMIT = 512
"""Started drawings kept for their show at most (a show takes its own at once; these are the
leftovers of deliveries that failed before showing)."""


class TableReads(ServicePart):
    """Read-only calls on a table (``svc.reads``): boards, views, drawings, logs, choices, preferences."""

    def __init__(self, svc: TableService) -> None:
        super().__init__(svc)
        self._drawing: dict[Picture, asyncio.Future[bytes | None]] = {}
        """Drawings started (``start_drawing``) and not shown yet, by picture: its show takes it."""

    async def status(self, table_id: int) -> Board:
        """Return the public board of a table (the lobby's seats before it starts)."""
        table = await self.svc.table(table_id)
        rules = self.svc.catalogue.rules_for(table.kind)
        if table.status == "lobby":
            seats = await self.store.seats(table_id)
            lobby = self.svc._lobby_line(rules, seats)
            text = f"{self.svc.thread_name(table)}: waiting in the lobby. {lobby}"
            return Board(table.id, table.version, text)
        if table.seed is None:
            return Board(table.id, table.version, "This table was closed before its game started.")
        loaded = await self.svc._load(table_id)
        reply = await asyncio.to_thread(self.svc.composer.compose, loaded, None, [], None, status=True)
        reply = await self.svc.time.decorate(reply, status=True)
        assert reply.board is not None
        return reply.board

    async def hand(self, table_id: int, user_id: int) -> PrivateNote:
        """Return a seat's private view (refusing users without a seat)."""
        loaded, seat = await self.load_seat(table_id, user_id)
        return await asyncio.to_thread(self.svc.composer.private, loaded, seat, [])

    async def seat_view(self, table_id: int, user_id: int) -> SeatView:
        """Return a seat's own view, EVERY legal move (uncapped) and the pending prompts.

        For a game's own panel (a select per die, a button per offer...). Refuses exactly as
        ``hand`` does; a closed table offers no moves. Read-only: no lock is taken, and the
        values carry the version they were read at.
        """
        loaded, seat = await self.load_seat(table_id, user_id)
        # Worked out once per version (a panel asks again after each delivery): the kept table's memo.
        kept = kept_seat_view(self.svc.cache, loaded, seat)
        if kept is not None:
            return kept  # no hop to a worker thread for a look-up
        return await asyncio.to_thread(seat_view_of, self.svc.cache, loaded, seat)

    async def seat_views(self, table_id: int, user_ids: Iterable[int]) -> dict[int, SeatView]:
        """Return the seat view of each seated user among ``user_ids``, all from one snapshot.

        For a cog that DMs several players after one move: every panel shows the same moment.
        Users without a seat are left out; a lobby or a never-started table is refused.
        """
        loaded = await self._load_started(table_id)
        seats = {user: seat for user in user_ids if (seat := loaded.seat_of(user)) is not None}

        def read() -> dict[int, SeatView]:
            return {user: seat_view_of(self.svc.cache, loaded, seat) for user, seat in seats.items()}

        return await asyncio.to_thread(read)

    async def public_view(self, table_id: int) -> PublicView:
        """Return what anyone may know of a started table: public view, pending prompts, seats.

        For a game's own thread messages (its board text, its buttons, a reveal at the end).
        Read-only, no lock; a closed table has no prompts. Refuses a lobby like ``seat_view``.
        """
        loaded = await self._load_started(table_id)
        # Kept since the move's board was composed: read at once, no hop to a worker thread.
        kept = kept_public_view(self.svc.cache, loaded)
        if kept is not None:
            return kept
        return await asyncio.to_thread(public_view_of, self.svc.cache, loaded)

    async def public_drawing(self, public: PublicView, sheet: str | None = None) -> bytes | None:
        """Return the PNG of a public view: its board naming the players, or a named sheet (None: no drawing).

        Drawn off the event loop, once per version (``drawings``); a cog posts it and never draws
        (``sheet`` names one the game registered, such as Quadrivium's ``covenant``).
        """
        table, drawings = public.table, self.svc.drawings
        if sheet is not None:
            picture = sheet_picture(drawings, table.kind, table.id, public.version, sheet, public.view)
        else:
            caption = render.Caption(names=dict(public.names))
            picture = board_picture(drawings, table.kind, table.id, public.version, public.view, caption)
        return await _shown(picture)

    async def seat_drawing(self, table: TableRecord, seat: int, view: dict[str, Any]) -> bytes | None:
        """Return the PNG of a seat's own view (its private sheet), for that seat's eyes only (None: none).

        ``view`` is the seat's view of ``table`` at its version: the same picture as that
        version's private note, drawn once for both.
        """
        return await _shown(seat_picture(self.svc.drawings, table.kind, table.id, table.version, seat, view))

    async def image(self, shown: Board | PrivateNote) -> bytes | None:
        """Return the PNG a board or a private note shows, drawn off the event loop when first shown.

        A drawing already started for it (``start_drawing``) is awaited, not asked for again:
        under load, asking again would queue a cache hit behind every other table's drawing.
        """
        picture = shown.picture
        under_way = None if picture is None else self._drawing.pop(picture, None)
        if under_way is not None:
            return await asyncio.shield(under_way)
        return await _shown(picture)

    def start_drawing(self, shown: Board | PrivateNote) -> None:
        """Start drawing what a delivery is about to show, so a move's drawings overlap.

        The delivery posts its messages one after another, in order; started together, the
        board and the notes are drawn side by side on the drawing threads, and each message
        then awaits its own. Only for what will be shown: a quiet board or a merged edit is
        never started. A failure is left to the show that awaits it (it raises there).
        """
        picture = shown.picture
        if picture is None or picture in self._drawing:
            return
        under_way = drawing(picture)
        # Kept, done or not, until its show takes it (``image``): a drawing done before its show
        # (a note drawn while the board goes out) is then handed over, not asked again.
        self._drawing[picture] = under_way
        under_way.add_done_callback(_retrieved)
        while len(self._drawing) > STARTED_LIMIT:
            # A show that never came (its delivery failed first, and is redelivered with pictures
            # of its own): forgotten, oldest first. A late show would draw it again (a cache hit).
            del self._drawing[next(iter(self._drawing))]

    async def public_events(
        self, table_id: int, *, since_version: int | None = None, back: int | None = None
    ) -> list[str]:
        """Return the texts of the public events of the moves after a version, oldest first.

        ``since_version`` = v gives the events of moves v+1 onwards; ``back`` = n those of the
        last n moves; neither gives every move. Private events never appear.
        """
        table = await self.svc.table(table_id)
        if since_version is None:
            since_version = 0 if back is None else max(0, table.version - back)
        records = await self.store.moves(table_id, since_version=since_version)

        def read() -> list[str]:
            return [
                event.text
                for record in records
                for event in map(Event.from_json, record.events)
                if event.public
            ]

        return await asyncio.to_thread(read)

    async def public_event_log(self, table_id: int, *, back: int | None = None) -> list[Event]:
        """Return the public events (with their ``data``) of the last ``back`` moves, or of all.

        For a cog that summarises a stretch of play (a round) from data, never from sentences.
        """
        table = await self.svc.table(table_id)
        since = 0 if back is None else max(0, table.version - back)
        records = await self.store.moves(table_id, since_version=since)
        return [event for r in records for event in map(Event.from_json, r.events) if event.public]

    async def _load_started(self, table_id: int) -> _Table:
        """Load a table whose game has started, refusing a lobby or a table closed in its lobby."""
        table = await self.svc.table(table_id)
        if table.seed is None:
            raise TableError(
                "The game has not started yet." if table.status == "lobby" else "This table is closed."
            )
        return await self.svc._load(table_id)

    async def load_seat(self, table_id: int, user_id: int) -> tuple[_Table, int]:
        """Load a started table and the user's seat, refusing a lobby, a closed lobby or no seat."""
        loaded = await self._load_started(table_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise TableError("You have no seat at this table.")
        return loaded, seat

    # ------------------------------------------------------------------ seat preferences

    async def seat_pref(self, table_id: int, user_id: int, key: str) -> str | None:
        """Return a seated user's preference at a table (e.g. ``argent.react``), or None."""
        return await self.store.seat_pref(table_id, user_id, _pref_key(key))

    async def seat_prefs(self, table_id: int, key: str) -> dict[int, str]:
        """Return one preference for every seated user of a table who set it, by user id."""
        return await self.store.seat_prefs(table_id, _pref_key(key))

    async def set_seat_pref(self, table_id: int, user_id: int, key: str, value: str | None) -> None:
        """Set (or clear, with None) a seated user's preference at a table; refuse other users."""
        key = _pref_key(key)
        if value is not None and len(value) > PREF_VALUE_LIMIT:
            raise TableError("That setting is too long.")
        await self.svc.table(table_id)
        try:
            await self.store.set_seat_pref(table_id, user_id, key, value)
        except StoreError:
            raise TableError("You have no seat at this table.") from None
        # The key names the setting, never its value (a value may be a choice worth keeping quiet).
        log.info(
            "table %s: a seat preference %s was %s", table_id, key, "cleared" if value is None else "set"
        )

    async def log_lines(self, table_id: int, limit: int = 15) -> list[str]:
        """Return the texts of the most recent public events, oldest first."""
        table = await self.svc.table(table_id)
        since = max(0, table.version - limit)
        rules = self.svc.catalogue.rules_for(table.kind)
        seats = {s.seat: s for s in await self.store.seats(table_id) if s.seat is not None}
        named = name_seats(rules, {n: f"{s.name} ({rules.seat_tag(n)})" for n, s in seats.items()})
        lines: list[str] = []
        for record in await self.store.moves(table_id, since_version=since):
            for data in record.events:
                event = Event.from_json(data)
                if event.public:
                    lines.append(named(event.text))
        return lines[-limit:]

    async def choices(
        self, table_id: int, user_id: int, typed: str = "", *, stamped: bool = False
    ) -> list[Choice]:
        """Return up to 25 legal moves of the user's own seat whose label or code match the text.

        ``stamped`` values are ``#version.index`` tokens (for autocomplete: a value sent twice
        applies once); otherwise a value is the move's code when it fits in 100 characters.
        """
        cached = self.svc.cache.get(table_id) if _known_id(table_id) else None
        table = cached.record if cached is not None else (
            await self.store.table(table_id) if _known_id(table_id) else None
        )
        if table is None or table.status != "active":
            return []
        loaded = await self.svc._load(table_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            return []
        if _kept_labels(self.svc.cache, loaded, seat) is not None:
            # The version's labels are kept: what is left is a short filter, cheaper than a hop
            # to a worker thread and back (autocomplete asks on every keystroke).
            return _choices(self.svc.cache, loaded, seat, typed, stamped)
        return await asyncio.to_thread(_choices, self.svc.cache, loaded, seat, typed, stamped)

    async def waiting_on(self, user_id: int, guild_id: int | None = None) -> list[WaitingTable]:
        """Return the active tables waiting on a user (in one server, if given), oldest wait first."""
        found = []
        for table, since in await self.store.waiting_on(user_id, guild_id):
            title = self.svc.thread_name(table)
            try:
                loaded = await self.svc._load(table.id)
            except TableError:
                found.append(WaitingTable(table, since, title))
                continue
            seat = loaded.seat_of(user_id)
            tag = loaded.rules.seat_tag
            prompts = loaded.rules.pending(loaded.state)
            asked = [_asked(p.text, tag(p.seat)) for p in prompts if p.seat == seat]
            found.append(WaitingTable(table, since, title, " ".join(asked)))
        return found


def _pref_key(key: str) -> str:
    """Check a preference key: letters, digits and ``_.:-``, at most 64 characters."""
    if not _PREF_KEY.fullmatch(key):
        raise TableError("That is not a setting I know.")
    return key


def _retrieved(future: asyncio.Future[bytes | None]) -> None:
    """Mark a started drawing's failure as seen: the show that awaits it raises it again."""
    if not future.cancelled():
        future.exception()


async def _shown(picture: Picture | None) -> bytes | None:
    """Draw a picture on the drawing threads (once: later calls read the cache), or None without one."""
    return await drawn(picture)
