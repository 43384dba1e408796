"""What the web pages read: a table's public timeline, its boards by version, a seat's own view.

The web layer presents; this module composes. Everything here comes from the public view
(``rules.view(state, None)``) and the public events of the move log, except ``seat_page``,
which is the seated user's own ``hand``. Each version's board is drawn at most once per process
(cached by table and version, with a drawing in flight shared by every request that wants it),
however many people watch.

What a page shows is kept per table and version (the page, the public steps, the texts, the
boards), so a page at a version already seen reads no database. Which version is current comes
from the table's row: while a live watcher (``web.live``) looks at a table, it reads that row once
a poll for every page (``refresh``), and the pages trust it (``current``); a page of a table no one
watches reads it once per request.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import render
from rules.contract import Event, Move, Rules, State
from service.clock import game_options
from service.drawings import board_picture
from service.naming import own_or_public
from service.replies import PrivateNote, SeatTime, TableError, alt_text, tag_namer, waiting_sentence
from service.undo import effective
from service.weblinks import SEAT_LINK_SECONDS, WebLinks

if TYPE_CHECKING:
    from service.tables import TableService
    from store import MoveRecord, TableRecord

IMAGE_CACHE = 512
"""Board drawings kept in memory (a PNG is 50-200 KB): recent versions of the watched tables."""
SHEET_CACHE = 64
TABLE_CACHE = 1024
"""Tables whose rows, pages and timelines are kept (the least recently asked go first)."""
COOPERATIVE = "A cooperative game: the players win or lose together, so no one scores apart."


@dataclass(frozen=True)
class Step:
    """One version of a table's public history: the move that made it and what everyone saw."""

    version: int
    player: str
    move: str
    events: tuple[str, ...]
    view: dict[str, Any]
    before: dict[str, Any] | None


@dataclass(frozen=True)
class SeatLineOut:
    """A seat as the page lists it: tag (colour or P1), player, score so far, time left."""

    seat: int
    tag: str
    name: str
    time_left: str
    score: str = ""
    """The game's public score of the seat ("3 VP", ``Rules.public_scores``), "" when it keeps none."""


@dataclass(frozen=True)
class TablePage:
    """What a table's page shows, all of it public."""

    table: TableRecord
    title: str
    status: str
    version: int
    seats: tuple[SeatLineOut, ...]
    waiting: str
    result: str
    thread_id: int | None
    guild_id: int | None
    versions: tuple[int, ...]
    lobby: str = ""
    scoring: str = ""
    """A word on scores where the seats list has none to show (a cooperative game)."""


@dataclass
class _Timeline:
    """A table's public steps, and the state after the last one (extended as moves land)."""

    versions: tuple[int, ...]
    steps: list[Step]
    state: State
    names: dict[int, str]
    """Each seat's player, read with the moves (the boards' captions name them)."""
    at: int = -1
    """The table version it was read at: the same version needs no read of the log."""


class TablePages:
    """The web's read side over one ``TableService``: pages, boards by version, seat sheets."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self._timelines: OrderedDict[int, _Timeline] = OrderedDict()
        self._images: OrderedDict[tuple[int, int], bytes | None] = OrderedDict()
        self._sheets: OrderedDict[tuple[int, int, int], PrivateNote] = OrderedDict()
        self._drawing: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self._pages: OrderedDict[int, TablePage] = OrderedDict()
        self._texts: OrderedDict[tuple[int, int], str] = OrderedDict()
        self._rows: OrderedDict[int, TableRecord] = OrderedDict()
        self._watched: dict[int, int] = {}
        self.drawings = 0
        """Board drawings made (the bench reports it: one per version however many watch)."""
        self.reads = 0
        """Table rows read for the pages (the bench reports it: a few per version, not per viewer)."""

    # ------------------------------------------------------------------ which version is current

    def watch(self, table_id: int, watching: bool) -> None:
        """Count a live watcher of a table on or off: while one runs, its reads keep the row fresh."""
        count = self._watched.get(table_id, 0) + (1 if watching else -1)
        if count > 0:
            self._watched[table_id] = count
        else:
            self._watched.pop(table_id, None)

    async def refresh(self, table_id: int) -> TableRecord:
        """Read a table's row now (one read however many ask at once) and keep it for the pages."""

        async def read() -> TableRecord:
            self.reads += 1
            return await self.svc.table(table_id, fresh=True)  # the row says whether a page is current

        table = await self._once(("row", table_id), read)
        _keep(self._rows, table_id, table, TABLE_CACHE)
        return table

    async def current(self, table_id: int, at_least: int | None = None) -> TableRecord:
        """Return a table's row: the live watcher's while one watches (at most a poll old), else read.

        ``at_least``: a version the caller knows exists (a step it was told of); an older row is
        read again.
        """
        known = self._rows.get(table_id)
        fresh = known is not None and table_id in self._watched
        if fresh and known is not None and (at_least is None or known.version >= at_least):
            self._rows.move_to_end(table_id)
            return known
        return await self.refresh(table_id)

    # ------------------------------------------------------------------ pages

    async def table_page(self, table_id: int, table: TableRecord | None = None) -> TablePage:
        """Return a table's page: seats, scores, whom it waits on, result, its versions (public only).

        ``table``: its row as the caller just got it from ``current`` (else read here).
        """
        table = table or await self.current(table_id)
        known = self._pages.get(table_id)
        if known is not None and known.version == table.version and known.status == table.status:
            return known  # a page changes with its table's version (a deadline is set by a move)
        page = await self._table_page(table)
        _keep(self._pages, table_id, page, TABLE_CACHE)
        return page

    async def _table_page(self, table: TableRecord) -> TablePage:
        svc, table_id = self.svc, table.id
        rules = svc.catalogue.rules_for(table.kind)
        seats = sorted((s for s in await svc.seats(table_id) if s.seat is not None), key=lambda s: s.seat)
        title = svc.thread_name(table)
        if table.seed is None:
            lobby = svc._lobby_line(rules, await svc.seats(table_id))
            return TablePage(table, title, table.status, table.version, (), "", "", table.thread_id,
                             table.guild_id, (), lobby)
        timeline = await self._timeline(table)
        times = {t.user_id: t for t in await svc.time.seat_times(table_id, table=table)}
        # Scores from the public view of the latest step, as the game words them: never the state.
        scores = rules.public_scores(timeline.steps[-1].view)
        lines = tuple(
            SeatLineOut(s.seat, rules.seat_tag(s.seat), s.name, _time_left(times.get(s.user_id)),
                        scores.get(s.seat, ""))
            for s in seats
        )
        names = {s.seat: s.name for s in seats}
        waiting = ""
        if table.status == "active":
            prompts = rules.pending(timeline.state)
            marks = {n: rules.seat_tag(n) for n in names}
            waiting = waiting_sentence(prompts, names, marks)
        return TablePage(table, title, table.status, table.version, lines, waiting,
                         _result_line(table, names, scored=not rules.cooperative), table.thread_id,
                         table.guild_id, timeline.versions, scoring=COOPERATIVE if rules.cooperative else "")

    async def steps(self, table_id: int, table: TableRecord | None = None) -> list[Step]:
        """Return every public step of a started table, oldest first (version 0: the setup)."""
        table = table or await self.current(table_id)
        if table.seed is None:
            raise TableError("The game has not started yet.")
        return list((await self._timeline(table)).steps)

    async def step(self, table_id: int, version: int | None = None, table: TableRecord | None = None) -> Step:
        """Return one public step (the latest when ``version`` is None); refuse a version not shown."""
        table = table or await self.current(table_id, at_least=version)
        steps = await self.steps(table_id, table)
        if version is None:
            return steps[-1]
        for step in steps:
            if step.version == version:
                return step
        if steps[-1].version < version <= table.version:
            # Versions past the last move in force are undo rows: the table then is that move's.
            return steps[-1]
        raise TableError("That version is not part of this table's history.")

    def view_text(self, table_id: int, kind: str, step: Step) -> str:
        """Return a step's public view as text (the board's text form), worded once per version."""
        key = (table_id, step.version)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = self.svc.catalogue.rules_for(kind).view_text(step.view)
            while len(self._texts) > IMAGE_CACHE:
                self._texts.popitem(last=False)
        return text

    def describe(self, table_id: int, kind: str, step: Step) -> str:
        """Return a step's alt text: the public view as text, cut to the alt text's limit."""
        return alt_text(self.view_text(table_id, kind, step))

    async def board_image(self, table_id: int, version: int | None = None) -> bytes | None:
        """Return the public board PNG at a version (None: the kind has no drawing), drawn once."""
        table = await self.current(table_id, at_least=version)
        step = await self.step(table_id, version, table)
        key = (table_id, step.version)
        if key in self._images:
            self._images.move_to_end(key)
            return self._images[key]
        # The step's own timeline names the players (no await between this look and the drawing's claim).
        timeline = self._timelines.get(table_id)
        names = dict(timeline.names) if timeline is not None else {}
        caption = render.Caption(names=names, last=step.events, before=step.before)

        def draw() -> bytes | None:
            self.drawings += 1
            # The service's one cache: the thread's board of the same view is this drawing.
            picture = board_picture(self.svc.drawings, table.kind, table_id, step.version, step.view, caption)
            return None if picture is None else picture.png()

        image = await self._once(("board", *key), lambda: asyncio.to_thread(draw))
        self._images[key] = image
        while len(self._images) > IMAGE_CACHE:
            self._images.popitem(last=False)
        return image

    async def seat_page(self, table_id: int, user_id: int) -> PrivateNote:
        """Return a seated user's own private view now (refusing anyone without a seat)."""
        table = await self.svc.table(table_id, fresh=True)  # another process may have moved it
        key = (table_id, table.version, user_id)
        if key in self._sheets:
            return self._sheets[key]
        note = await self._once(("seat", *key), lambda: self.svc.reads.hand(table_id, user_id))
        self._sheets[key] = note
        while len(self._sheets) > SHEET_CACHE:
            self._sheets.popitem(last=False)
        return note

    async def _once(self, key: tuple[Any, ...], work: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``work`` once for every caller asking for ``key`` at the same time."""
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            result = await work()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a failure nobody else awaited is not logged as lost
            raise
        finally:
            self._drawing.pop(key, None)
        future.set_result(result)
        return result

    # ------------------------------------------------------------------ the timeline

    async def _timeline(self, table: TableRecord) -> _Timeline:
        """Return the table's public steps, replaying only the moves not yet seen."""
        known = self._timelines.get(table.id)
        if known is not None and known.at == table.version:
            self._timelines.move_to_end(table.id)
            return known
        records = effective(await self.svc.store.moves(table.id))
        versions = (0, *(r.version for r in records))
        if known is not None and versions[: len(known.versions)] == known.versions:
            if len(versions) == len(known.versions):
                known.at = table.version
                return known
            start = known
        else:
            start = None
        rules = self.svc.catalogue.rules_for(table.kind)
        seats = {s.seat: s.name for s in await self.svc.seats(table.id) if s.seat is not None}
        timeline = await asyncio.to_thread(_extend, rules, table, seats, records, start)
        timeline.at = table.version
        _keep(self._timelines, table.id, timeline, TABLE_CACHE)
        return timeline


def _keep(cache: OrderedDict[Any, Any], key: Any, value: Any, most: int) -> None:
    """Keep a value as the most recent in a bounded cache, dropping the least recently kept."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > most:
        cache.popitem(last=False)


def _extend(
    rules: Rules,
    table: TableRecord,
    seats: dict[int, str],
    records: list[MoveRecord],
    start: _Timeline | None,
) -> _Timeline:
    """Replay the moves after ``start`` (or all from the seed) into public steps."""
    assert table.seed is not None
    named = tag_namer({rules.seat_tag(n): f"{name} ({rules.seat_tag(n)})" for n, name in seats.items()})
    if start is None:
        state = rules.setup(len(seats), game_options(table.options), table.seed)
        steps = [Step(0, "", "The game begins", (), rules.view(state, None), None)]
        done = 0
    else:
        state, steps, done = start.state, list(start.steps), len(start.versions) - 1
    for record in records[done:]:
        move = Move.from_json(record.move)
        label = named(own_or_public(rules, state, record.seat, move, None))
        before = steps[-1].view
        state, _ = rules.apply(state, record.seat, move)
        events = tuple(named(e.text) for e in map(Event.from_json, record.events) if e.public)
        steps.append(Step(record.version, seats.get(record.seat, "?"), label, events,
                          rules.view(state, None), before))
    return _Timeline(tuple(s.version for s in steps), steps, state, dict(seats))


def _time_left(time: SeatTime | None) -> str:
    """Return an awaited seat's clock in words ("" when it has none)."""
    if time is None:
        return ""
    if time.absent:
        return "played for (absent)"
    if time.out_of_time:
        return "out of time"
    return f"until {_utc(time.deadline)}"


def _utc(moment: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(moment, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _result_line(table: TableRecord, names: dict[int, str], *, scored: bool = True) -> str:
    """Return the finished game's winners and scores in words ("" while it runs; no scores: cooperative)."""
    result = table.result
    if table.status == "abandoned":
        return "This table was abandoned."
    if not result:
        return ""
    winners = ", ".join(names.get(int(w), "?") for w in result.get("winners", []))
    scores = (result.get("scores") or {}) if scored else {}
    told = "; ".join(f"{names.get(int(s), '?')} {v}" for s, v in scores.items())
    return f"Won by {winners or 'nobody'}." + (f" Scores: {told}." if told else "")


async def web_answer(svc: TableService, links: WebLinks | None, table_id: int, user_id: int) -> str:
    """Return ``/game web``'s private answer: the table's link, and a seated person's own signed link.

    The seat link is made only for the asker's own seat and said only to them (ephemeral).
    """
    if links is None:
        raise TableError("This bot serves no web pages (its operator has not set CONCLAVE_WEB).")
    table = await svc.table(table_id)
    lines = [f"The page of {svc.thread_name(table)}: {links.table_url(table_id)}"]
    seat = next((s for s in await svc.seats(table_id) if s.user_id == user_id and s.seat is not None), None)
    if seat is not None and table.seed is not None and table.status == "active":
        hours = SEAT_LINK_SECONDS // 3600
        lines.append(
            f"Your private view, for you alone (it works for {hours} hours; never share it): "
            f"{links.seat_url(table_id, user_id, svc.clock.now())}"
        )
    if table.guild_id is not None and (await svc.servers.server_settings(table.guild_id)).get("web") == "on":
        lines.append(f"This server's tables: {links.server_url(table.guild_id)}")
    return "\n".join(lines)
