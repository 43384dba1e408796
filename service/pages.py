"""What the web pages read: a table's public timeline, its boards by version, a seat's own view.

The web layer presents; this module composes. Everything here comes from the public view
(``rules.view(state, None)``) and the public events of the move log, except ``seat_page``,
which is the seated user's own ``hand``. Each version's board is drawn at most once per process
(cached by table and version, with a drawing in flight shared by every request that wants it),
however many people watch.
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
    """A seat as the page lists it: tag (colour or P1), player, time left."""

    seat: int
    tag: str
    name: str
    time_left: str


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


@dataclass
class _Timeline:
    """A table's public steps, and the state after the last one (extended as moves land)."""

    versions: tuple[int, ...]
    steps: list[Step]
    state: State
    at: int = -1
    """The table version it was read at: the same version needs no read of the log."""


class TablePages:
    """The web's read side over one ``TableService``: pages, boards by version, seat sheets."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self._timelines: dict[int, _Timeline] = {}
        self._images: OrderedDict[tuple[int, int], bytes | None] = OrderedDict()
        self._sheets: OrderedDict[tuple[int, int, int], PrivateNote] = OrderedDict()
        self._drawing: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self._pages: dict[int, TablePage] = {}
        self._texts: OrderedDict[tuple[int, int], str] = OrderedDict()
        self.drawings = 0
        """Board drawings made (the bench reports it: one per version however many watch)."""

    # ------------------------------------------------------------------ pages

    async def table_page(self, table_id: int) -> TablePage:
        """Return a table's page: seats, whom it waits on, result, its versions (public only)."""
        svc = self.svc
        table = await svc.table(table_id)
        known = self._pages.get(table_id)
        if known is not None and known.version == table.version and known.status == table.status:
            return known  # a page changes with its table's version (a deadline is set by a move)
        page = await self._table_page(table)
        self._pages[table_id] = page
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
        lines = tuple(
            SeatLineOut(s.seat, rules.seat_tag(s.seat), s.name, _time_left(times.get(s.user_id)))
            for s in seats
        )
        names = {s.seat: s.name for s in seats}
        waiting = ""
        if table.status == "active":
            prompts = rules.pending(timeline.state)
            marks = {n: rules.seat_tag(n) for n in names}
            waiting = waiting_sentence(prompts, names, marks)
        return TablePage(table, title, table.status, table.version, lines, waiting,
                         _result_line(table, names), table.thread_id, table.guild_id, timeline.versions)

    async def steps(self, table_id: int) -> list[Step]:
        """Return every public step of a started table, oldest first (version 0: the setup)."""
        table = await self.svc.table(table_id)
        if table.seed is None:
            raise TableError("The game has not started yet.")
        return list((await self._timeline(table)).steps)

    async def step(self, table_id: int, version: int | None = None) -> Step:
        """Return one public step (the latest when ``version`` is None); refuse a version not shown."""
        steps = await self.steps(table_id)
        if version is None:
            return steps[-1]
        for step in steps:
            if step.version == version:
                return step
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
        table = await self.svc.table(table_id)
        step = await self.step(table_id, version)
        key = (table_id, step.version)
        if key in self._images:
            self._images.move_to_end(key)
            return self._images[key]
        names = {s.seat: s.name for s in await self.svc.seats(table_id) if s.seat is not None}
        if key in self._images:  # drawn meanwhile (no await between this look and the drawing's claim)
            return self._images[key]
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
        table = await self.svc.table(table_id)
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
        self._timelines[table.id] = timeline
        return timeline


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
    return _Timeline(tuple(s.version for s in steps), steps, state)


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


def _result_line(table: TableRecord, names: dict[int, str]) -> str:
    """Return the finished game's winners and scores in words ("" while it runs)."""
    result = table.result
    if table.status == "abandoned":
        return "This table was abandoned."
    if not result:
        return ""
    winners = ", ".join(names.get(int(w), "?") for w in result.get("winners", []))
    scores = result.get("scores") or {}
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
