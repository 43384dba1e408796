"""The table service: lobby, seats, turn flow, locking and what each move tells whom.

Pure asyncio: no Discord types cross this boundary. Rules and rendering run in worker threads
(``asyncio.to_thread``) so a slow drawing never stalls the gateway heartbeat; each table has
one ``asyncio.Lock`` so its moves are applied one at a time, and the store's version check
catches a second process writing the same table.

Log lines name the table, the seat and the action only: never a move's arguments, a view or an
event's text, any of which may hold a secret.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace

import render
from rules import registry, rng
from rules.contract import RESIGN, Event, Move, Prompt, PromptKind, Result, Rules, RulesError, State
from service import guide, notify, reading
from service.asyncplay import AsyncPlay, Outlet
from service.bots import BotSeats, shown_name
from service.clock import Clock, SystemClock, game_options, split_options
from service.replies import (
    Board,
    Choice,
    PrivateNote,
    PublicView,
    Reply,
    SeatLine,
    SeatView,
    StaleOffer,
    TableError,
    WaitingTable,
    tag_namer,
    waiting_sentence,
)
from service.scheduler import Scheduler
from service.timekeeper import Timekeeper
from store import (
    CorruptTable,
    DamagedSnapshot,
    DueWork,
    SeatRecord,
    StaleVersion,
    Store,
    StoreError,
    TableRecord,
)

log = logging.getLogger("conclave.service")

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices or select options."""
VALUE_LIMIT = 100
"""Discord's limit on a choice value, an option value and a custom id."""
THREAD_NAME_LIMIT = 100
PREF_VALUE_LIMIT = 200
"""Seat preferences are small settings (a mode, a flag), never documents."""
LOBBY_HINT = "Join with `/game join` here; the host starts with `/game start`."
AUTO_PREF = "auto"
"""Seat setting: "off" stops the service playing that seat's forced decisions for it."""
REACTIONS_PREF = "reactions"
"""Seat setting: "pass" has the service decline every reaction window of that seat."""
AUTO_LIMIT = 60
"""At most this many automatic moves after one move (a round's forced steps are far fewer)."""
_PREF_KEY = re.compile(r"[\w.:-]{1,64}")
_INDEX_TOKEN = re.compile(r"#(?P<version>[0-9]{1,18})\.(?P<index>[0-9]{1,6})")
TABLE_ID_MAX = 2**63 - 1
"""SQLite's largest integer: a bigger id (a forged custom id) names no table."""
MOVED_ON = "The game moved on since that was offered: look at the latest board."
DAMAGED = (
    "This table's saved game is damaged, so it was closed. Its data is kept: the server's operator "
    "can check it with `python -m store check`."
)
_OPTION = re.compile(r"(?P<name>[\w-]+)\s*=\s*(?P<value>\"[^\"]*\"|'[^']*'|\S+)")


def parse_options(text: str | None) -> dict[str, str]:
    """Read table options typed as ``name=value name=value`` (values may be quoted)."""
    if not text or not text.strip():
        return {}
    options: dict[str, str] = {}
    end = 0
    for match in _OPTION.finditer(text):
        if text[end : match.start()].strip():
            break
        name = match["name"].casefold()
        if name in options:
            raise TableError(f"Option {name} is given twice: give each option once.")
        options[name] = match["value"].strip("\"'")
        end = match.end()
    if text[end:].strip():
        raise TableError("Write options as name=value, separated by spaces (e.g. `hand=4`).")
    return options


def move_value(version: int, index: int, move: Move) -> str:
    """Return what a choice sends back for a move: its code, or ``#version.index`` if too long."""
    code = move.code()
    return code if len(code) <= VALUE_LIMIT else f"#{version}.{index}"


def offered_value(version: int, index: int) -> str:
    """Return what an autocompleted move sends back: ``#version.index``, read once under the lock.

    Unlike a move code, the token cannot apply twice: a second copy names a version that is gone.
    """
    return f"#{version}.{index}"


def offered_token(value: str) -> tuple[int, int] | None:
    """Return the (version, index) of a ``#version.index`` token, or None for other text."""
    token = _INDEX_TOKEN.fullmatch(value.strip())
    return None if token is None else (int(token["version"]), int(token["index"]))


@dataclass(frozen=True)
class Offer:
    """What a panel offered its moves against: a stamp, and how to stamp the seat's view now.

    ``act`` recomputes ``stamp_of(seat_view)`` under the table's lock and refuses the move with
    ``StaleOffer`` when it differs, so two clicks of one panel cannot both apply.
    """

    stamp: str
    stamp_of: Callable[[SeatView], str]


def _known_id(table_id: int) -> bool:
    """Whether an id can name a stored table (ids from custom ids may be forged)."""
    return 0 < table_id <= TABLE_ID_MAX


def _clip(text: str, limit: int = VALUE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class _Table:
    """A loaded active table: its record, snapshot, rules and seats by seat number."""

    record: TableRecord
    state: State
    rules: Rules
    seats: dict[int, SeatRecord]

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat number of a user, or None when not seated."""
        for number, seat in self.seats.items():
            if seat.user_id == user_id:
                return number
        return None

    def names(self) -> dict[int, str]:
        """Return each seat's player as the thread names them: ``alice (Red)``, ``bob (P2)``."""
        return {n: f"{s.name} ({self.rules.seat_tag(n)})" for n, s in sorted(self.seats.items())}


@dataclass(frozen=True)
class _Outcome:
    """A move read and applied, not yet saved."""

    move: Move
    label: str
    state: State
    events: list[Event]
    result: Result | None
    waiting: list[int]


class TableService(BotSeats, AsyncPlay):
    """Own tables: open, join, leave, start, act, abandon, and read them back for players."""

    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] | None = None,
        clock: Clock | None = None,
        outlet: Outlet | None = None,
    ) -> None:
        self.store = store
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._locks: dict[int, asyncio.Lock] = {}
        # One clock for the service and the store: a seat's time is measured on the same scale
        # as the times the store writes.
        self.clock: Clock = clock or SystemClock()
        store.use_clock(self.clock.now)
        self.scheduler = Scheduler(store, self.clock)
        self.outlet = outlet
        self.time = Timekeeper(self)
        self.scheduler.handle("undo-expire", self._undo_expire_work)

    # ------------------------------------------------------------------ games on offer

    def kinds(self) -> list[tuple[str, str]]:
        """Return every registered kind with its title."""
        return [(kind, registry.get(kind).title) for kind in registry.kinds()]

    def rules_for(self, kind: str) -> Rules:
        """Return the rules of a kind (by kind or title, any case), or raise TableError naming the games."""
        kinds = registry.kinds()
        found = reading.kind_of(kind, kinds, [registry.get(k).title for k in kinds])
        try:
            return registry.get(found or kind)
        except RulesError as exc:
            raise TableError(exc.sentence) from None

    def rules_summary(self, kind: str) -> str:
        """Return a short summary of a game: players, options and where its rulebook is."""
        rules = self.rules_for(kind)
        summary = getattr(rules, "summary", "") or (type(rules).__doc__ or "").strip().splitlines()[0]
        lines = [f"**{rules.title}** (`{rules.kind}`)"]
        if summary:
            lines.append(summary)
        if rules.min_players == rules.max_players:
            players = f"{rules.min_players}"
        else:
            players = f"{rules.min_players}-{rules.max_players}"
        lines.append(f"Players: {players}{' (cooperative)' if rules.cooperative else ''}.")
        for option in rules.options:
            choices = ", ".join(option.choices)
            default = option.default
            lines.append(f"Option `{option.name}`: {option.description} ({choices}; default {default}).")
        if rules.rulebook:
            lines.append(f"Rulebook: `{rules.rulebook}`.")
        return "\n".join(lines)

    def rules_guide(self, kind: str) -> guide.RulesGuide:
        """Return a game's how-to-play summary and the guide file(s) to attach."""
        return guide.guide(self.rules_for(kind))

    def option_hints(self, kind: str, typed: str = "") -> list[str]:
        """Suggest option strings for /game new: the typed pairs plus one more ``name=value``."""
        try:
            rules = self.rules_for(kind)
        except TableError:
            return []
        words = typed.split()
        # The last word is still being typed unless it is a whole pair followed by a space.
        done = words if typed.endswith(" ") else words[:-1]
        partial = "" if typed.endswith(" ") or not words else words[-1]
        named = {w.partition("=")[0] for w in done}
        head = " ".join(done)
        hints = [typed.strip()] if typed.strip() else []
        for option in rules.options:
            if option.name in named:
                continue
            for choice in option.choices:
                pair = f"{option.name}={choice}"
                if pair.startswith(partial):
                    hints.append(f"{head} {pair}".strip())
        unique = list(dict.fromkeys(h for h in hints if len(h) <= VALUE_LIMIT))
        return unique[:MAX_CHOICES]

    def card_names(self, typed: str = "", kind: str | None = None) -> list[str]:
        """Return up to 25 card names matching the typed text, from games that expose cards."""
        wanted = typed.strip().casefold()
        names = [name for name, _ in self._card_entries(kind) if wanted in name.casefold()]
        return names[:MAX_CHOICES]

    def card(self, name: str, kind: str | None = None) -> str:
        """Return the lookup text of one card, or a sentence saying there is no such card."""
        entries = self._card_entries(kind)
        if not entries:
            return "No game here has cards to look up yet."
        wanted = name.strip().casefold()
        for entry_name, text in entries:
            if entry_name.casefold() == wanted:
                return text
        close = [n for n, _ in entries if wanted and wanted in n.casefold()]
        if close:
            return "No card by that exact name. Did you mean: " + ", ".join(close[:5]) + "?"
        return f"No card called `{_clip(name, 60)}`."

    def _card_entries(self, kind: str | None) -> list[tuple[str, str]]:
        """Collect (name, text) of every card of the kind (or of every kind) whose rules index cards."""
        kinds = [kind] if kind else registry.kinds()
        entries: list[tuple[str, str]] = []
        for each in kinds:
            rules = self.rules_for(each)
            index = getattr(rules, "card_index", None)
            if index is None:
                continue
            for name, text in index().items():
                shown = name if kind else f"{name} ({rules.title})"
                entries.append((shown, text))
        return entries

    # ------------------------------------------------------------------ the lobby

    async def open_table(
        self,
        kind: str,
        options: str | dict[str, str] | None,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
    ) -> TableRecord:
        """Open a table in the lobby with the host seated; the caller then makes its thread."""
        rules = self.rules_for(kind)
        chosen = parse_options(options) if isinstance(options, str) or options is None else dict(options)
        chosen = _spelled(rules, chosen)
        try:
            table_options, chosen = split_options(chosen)
            full = rules.check_options(chosen) | table_options
        except RulesError as exc:
            raise TableError(exc.sentence) from None
        table = await self.store.create_table(
            rules.kind, f"{host_name}'s table", full, guild_id, channel_id, host_id
        )
        await self.store.add_seat(table.id, host_id, host_name, None)
        log.info("table %s opened (%s)", table.id, kind)
        return table

    def thread_name(self, table: TableRecord) -> str:
        """Return the name of a table's thread, e.g. ``Institute #12 — alice's table``."""
        title = self.rules_for(table.kind).title
        return _clip(f"{title} #{table.id} — {table.name}", THREAD_NAME_LIMIT)

    async def attach_thread(self, table_id: int, thread_id: int) -> None:
        """Record the thread the table plays in."""
        await self.store.set_thread(table_id, thread_id)

    async def table(self, table_id: int) -> TableRecord:
        """Return a table, or raise TableError when it does not exist."""
        table = await self.store.table(table_id) if _known_id(table_id) else None
        if table is None:
            raise TableError("That table does not exist.")
        return table

    async def table_in_thread(self, thread_id: int | None) -> TableRecord:
        """Return the table played in a thread, or raise TableError outside one."""
        table = None if thread_id is None else await self.store.table_for_thread(thread_id)
        if table is None:
            raise TableError("Use this command inside a table's thread.")
        return table

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """Return the seats of a table (by seat number once started, else join order)."""
        return await self.store.seats(table_id)

    async def join(self, table_id: int, user_id: int, name: str) -> Reply:
        """Seat a user at a table in the lobby."""
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._need_lobby(table)
            rules = self.rules_for(table.kind)
            seats = await self.store.seats(table_id)
            if any(s.user_id == user_id for s in seats):
                raise TableError("You already have a seat at this table.")
            if len(seats) >= rules.max_players:
                raise TableError(f"This table is full ({rules.max_players} seats).")
            await self._store_call(self.store.add_seat(table_id, user_id, name, None))
            seats = await self.store.seats(table_id)
        log.info("table %s: a player joined (%d seated)", table_id, len(seats))
        text = f"{name} takes a seat. {self._lobby_line(rules, seats)} {LOBBY_HINT}"
        # The lobby message is a living board too: each seat taken edits it (no post, no ping).
        board = Board(table.id, table.version, text, fresh=False)
        return Reply(table, f"You joined {self.thread_name(table)}.", board)

    async def leave(self, table_id: int, user_id: int) -> Reply:
        """Free a user's seat in the lobby; in a game, leave it as the game's rules allow."""
        if (await self.table(table_id)).status == "active":
            return await self._resign(table_id, user_id)
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._need_lobby(table)
            seats = await self.store.seats(table_id)
            mine = next((s for s in seats if s.user_id == user_id), None)
            if mine is None:
                raise TableError("You have no seat at this table.")
            if user_id == table.host_id:
                raise TableError("You host this table: use /game abandon to close it.")
            await self._store_call(self.store.remove_seat(table_id, user_id))
            seats = await self.store.seats(table_id)
        log.info("table %s: a player left (%d seated)", table_id, len(seats))
        rules = self.rules_for(table.kind)
        text = f"{mine.name} leaves. {self._lobby_line(rules, seats)} {LOBBY_HINT}"
        return Reply(table, "You left the table.", Board(table.id, table.version, text, fresh=False))

    async def _resign(self, table_id: int, user_id: int) -> Reply:
        """Leave a game in progress: the resign move, logged and replayed like any other."""
        try:
            reply = await self.act(table_id, user_id, Move.of(RESIGN))
        except TableError as exc:
            # A game that cannot go on without a player (every two-player game) ends by abandoning.
            raise TableError(f"{exc.sentence} To end the game instead, use /game abandon.") from None
        return replace(reply, answer="You left the game; the others play on without you.")

    async def set_dm_ok(self, table_id: int, user_id: int, ok: bool) -> None:
        """Record whether a DM to this seated user got through."""
        await self.store.set_dm_ok(table_id, user_id, ok)

    async def start(self, table_id: int, user_id: int) -> Reply:
        """Start the game (host only): draw the seed, fix the seat order, deal, post the board."""
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._need_lobby(table)
            if user_id != table.host_id:
                raise TableError("Only the host can start the game.")
            rules = self.rules_for(table.kind)
            seats = await self.store.seats(table_id)
            try:
                rules.check_players(len(seats))
            except RulesError as exc:
                raise TableError(exc.sentence) from None
            self._need_a_person(seats)
            seed = self._seed_source()
            order = seat_order(seed, [s.user_id for s in seats])

            def deal() -> tuple[State, list[int]]:
                state = rules.setup(len(seats), game_options(table.options), seed)
                return state, [order[n] for n in rules.waiting_on(state)]

            state, waiting = await asyncio.to_thread(deal)
            by_user = {s.user_id: s for s in seats}
            try:
                table = await self.store.start(table_id, seed, order, state, waiting)
            except StaleVersion:
                raise TableError("This game has already started.") from None
            seats_now = {n: by_user[u] for n, u in enumerate(order)}
            loaded = _Table(table, state, rules, _renumber(seats_now))
            reply = await asyncio.to_thread(self._compose, loaded, None, [], None, opening=True)
            reply = await self.after_move(reply)
        log.info("table %s started with %d seats", table_id, len(seats))
        return reply

    # ------------------------------------------------------------------ play

    async def act(
        self,
        table_id: int,
        user_id: int,
        move: str | Move,
        *,
        expected_version: int | None = None,
        offer: Offer | None = None,
    ) -> Reply:
        """Apply one move for the user's seat and return what to post, DM and ping.

        ``expected_version`` (from a button or select) refuses a move made on a board that has
        since changed; ``offer`` does the same for a panel stamped with its own fingerprint; a
        ``#version.index`` token carries its version. All three are checked under the table's
        lock (``StaleOffer``). A second process writing the table meanwhile makes the store
        refuse the commit; the move is then read and applied again once on the fresh state,
        never twice.
        """
        async with self._lock(table_id):
            for attempt in (1, 2):
                loaded = await self._load_active(table_id)
                seat = loaded.seat_of(user_id)
                if seat is None:
                    raise TableError("You have no seat at this table.")
                self._check_player(loaded, seat)  # a seat a bot plays takes only the bot's moves
                version = loaded.record.version
                if expected_version is not None and expected_version != version:
                    raise StaleOffer(MOVED_ON)
                await self._check_offer(loaded, seat, offer)
                done = await asyncio.to_thread(self._resolve, loaded, seat, move, version)
                result = done.result
                waiting = [loaded.seats[n].user_id for n in done.waiting]
                try:
                    new_version = await self.store.commit_move(
                        table_id,
                        version,
                        seat,
                        done.move.to_json(),
                        [e.to_json() for e in done.events],
                        done.state,
                        waiting if result is None else [],
                        None if result is None else result.to_json(),
                    )
                except StaleVersion:
                    if attempt == 2:
                        raise TableError("The table changed while you moved: please try again.") from None
                    log.info("table %s: stale version %s, reloading once", table_id, version)
                    continue
                except StoreError:
                    log.exception("table %s: commit failed", table_id)
                    raise TableError("I could not save that move: nothing changed. Try again.") from None
                break
            log.info("table %s seat %s %s -> v%s", table_id, seat, done.move.action, new_version)
            record = replace(
                loaded.record,
                version=new_version,
                status="active" if result is None else "finished",
                result=None if result is None else result.to_json(),
            )
            after = _Table(record, done.state, loaded.rules, loaded.seats)
            after, events, automatic, result = await self._auto_resolve(after, list(done.events), result)
            compose = self._compose
            reply = await asyncio.to_thread(
                compose, after, loaded.state, events, seat, result=result, automatic=tuple(automatic)
            )
            now_waiting = [] if result is not None else [
                after.seats[n].user_id for n in after.rules.waiting_on(after.state)
            ]
            reply = await self.after_move(reply, waiting=now_waiting)
            return replace(reply, answer=f"You played: {done.label}.")

    async def _auto_resolve(
        self, table: _Table, events: list[Event], result: Result | None
    ) -> tuple[_Table, list[Event], list[str], Result | None]:
        """Play what no seat needs to decide (called under the table's lock, after a move).

        A forced decision (one legal move, on a prompt the game declares auto-resolvable) is
        played unless the seat set ``auto`` to "off"; a reaction window is declined for a seat
        that set ``reactions`` to "pass". Each is stored as that seat's own move, logged as
        automatic. Returns the table after them, every event, their labels and the result.
        """
        table_id = table.record.id
        off = await self.store.seat_prefs(table_id, AUTO_PREF)
        passing = await self.store.seat_prefs(table_id, REACTIONS_PREF)
        labels: list[str] = []
        for _ in range(AUTO_LIMIT):
            if result is not None or table.record.status != "active":
                break
            found = await asyncio.to_thread(_forced_move, table, off, passing)
            if found is None:
                break
            seat, move = found
            rules, state = table.rules, table.state
            label = rules.label(state, seat, move)
            try:
                after, more = await asyncio.to_thread(rules.apply, state, seat, move)
            except RulesError:
                break
            result = rules.result(after) if rules.is_over(after) else None
            waiting = [table.seats[n].user_id for n in rules.waiting_on(after)]
            try:
                version = await self.store.commit_move(
                    table_id,
                    table.record.version,
                    seat,
                    move.to_json(),
                    [e.to_json() for e in more],
                    after,
                    waiting if result is None else [],
                    None if result is None else result.to_json(),
                )
            except StoreError:
                log.info("table %s: automatic move not saved (the table changed)", table_id)
                break
            log.info("table %s seat %s %s (automatic) -> v%s", table_id, seat, move.action, version)
            record = replace(
                table.record,
                version=version,
                status="active" if result is None else "finished",
                result=None if result is None else result.to_json(),
            )
            table = _Table(record, after, rules, table.seats)
            events.extend(more)
            labels.append(f"{self._mark(table, seat)} {table.seats[seat].name}: {label}")
        return table, events, labels, result

    async def auto_play(self, table_id: int) -> Reply | None:
        """Play now whatever plays itself (after a seat changed its ``reactions`` or ``auto``
        setting); return what to deliver, or None when nothing was due."""
        async with self._lock(table_id):
            try:
                loaded = await self._load_active(table_id)
            except TableError:
                return None
            after, events, automatic, result = await self._auto_resolve(loaded, [], None)
            if not automatic:
                return None
            compose = self._compose
            reply = await asyncio.to_thread(
                compose, after, loaded.state, events, None, result=result, automatic=tuple(automatic)
            )
            reply = await self.after_move(reply)
            return replace(reply, answer="Played automatically: " + "; ".join(automatic) + ".")

    @staticmethod
    async def _check_offer(loaded: _Table, seat: int, offer: Offer | None) -> None:
        """Refuse a move from a panel whose stamp no longer matches the seat's view (under the lock)."""
        if offer is None:
            return
        now = await asyncio.to_thread(_seat_view, loaded, seat)
        if offer.stamp_of(now) != offer.stamp:
            raise StaleOffer("That panel was out of date (you or the game moved on): look again.")

    def _resolve(self, table: _Table, seat: int, move: str | Move, version: int) -> _Outcome:
        """Read the move (text, token or Move), name it, apply it; rules errors become TableError."""
        rules = table.rules
        try:
            chosen = move if isinstance(move, Move) else self._read_move(table, seat, move, version)
            state, events = rules.apply(table.state, seat, chosen)
        except RulesError as exc:
            raise TableError(exc.sentence) from None
        result = rules.result(state) if rules.is_over(state) else None
        label = rules.label(table.state, seat, chosen)
        return _Outcome(chosen, label, state, events, result, rules.waiting_on(state))

    def _read_move(self, table: _Table, seat: int, text: str, version: int) -> Move:
        """Read typed text: a ``#version.index`` token, a code or a label (any case), else parse it."""
        rules, state = table.rules, table.state
        wanted = text.strip()
        token = _INDEX_TOKEN.fullmatch(wanted)
        legal = rules.legal_moves(state, seat)
        if token:
            if int(token["version"]) != version:
                raise StaleOffer("The game moved on since that was offered: pick again.")
            index = int(token["index"])
            if index >= len(legal):
                raise TableError("That choice is no longer on offer: pick again.")
            return legal[index]
        if seat not in rules.waiting_on(state):
            raise TableError(self._not_your_turn(table))
        labels = [rules.label(state, seat, candidate) for candidate in legal]
        return reading.read_move(wanted, legal, labels, rules.actions)

    @staticmethod
    def _not_your_turn(table: _Table) -> str:
        """Say whom the game waits for, for a seat that typed a move out of turn."""
        waiting = table.rules.waiting_on(table.state)
        if not waiting:
            return "The game is not waiting on anyone right now."
        known = table.names()
        names = " and ".join(known[n] for n in waiting if n in known)
        return f"It is not your decision now: the game waits for {names}."

    # ------------------------------------------------------------------ reading a table

    async def status(self, table_id: int) -> Board:
        """Return the public board of a table (the lobby's seats before it starts)."""
        table = await self.table(table_id)
        rules = self.rules_for(table.kind)
        if table.status == "lobby":
            seats = await self.store.seats(table_id)
            text = f"{self.thread_name(table)}: waiting in the lobby. {self._lobby_line(rules, seats)}"
            return Board(table.id, table.version, text)
        if table.seed is None:
            return Board(table.id, table.version, "This table was closed before its game started.")
        loaded = await self._load(table_id)
        reply = await asyncio.to_thread(self._compose, loaded, None, [], None, status=True)
        reply = await self.time.decorate(reply, status=True)
        assert reply.board is not None
        return reply.board

    async def hand(self, table_id: int, user_id: int) -> PrivateNote:
        """Return a seat's private view (refusing users without a seat)."""
        loaded, seat = await self._load_seat(table_id, user_id)
        return await asyncio.to_thread(self._private, loaded, seat, [])

    async def seat_view(self, table_id: int, user_id: int) -> SeatView:
        """Return a seat's own view, EVERY legal move (uncapped) and the pending prompts.

        For a game's own panel (a select per die, a button per offer...). Refuses exactly as
        ``hand`` does; a closed table offers no moves. Read-only: no lock is taken, and the
        values carry the version they were read at.
        """
        loaded, seat = await self._load_seat(table_id, user_id)
        return await asyncio.to_thread(_seat_view, loaded, seat)

    async def seat_views(self, table_id: int, user_ids: Iterable[int]) -> dict[int, SeatView]:
        """Return the seat view of each seated user among ``user_ids``, all from one snapshot.

        For a cog that DMs several players after one move: every panel shows the same moment.
        Users without a seat are left out; a lobby or a never-started table is refused.
        """
        loaded = await self._load_started(table_id)
        seats = {user: seat for user in user_ids if (seat := loaded.seat_of(user)) is not None}

        def read() -> dict[int, SeatView]:
            return {user: _seat_view(loaded, seat) for user, seat in seats.items()}

        return await asyncio.to_thread(read)

    async def public_view(self, table_id: int) -> PublicView:
        """Return what anyone may know of a started table: public view, pending prompts, seats.

        For a game's own thread messages (its board text, its buttons, a reveal at the end).
        Read-only, no lock; a closed table has no prompts. Refuses a lobby like ``seat_view``.
        """
        loaded = await self._load_started(table_id)
        return await asyncio.to_thread(_public_view, loaded)

    async def public_events(
        self, table_id: int, *, since_version: int | None = None, back: int | None = None
    ) -> list[str]:
        """Return the texts of the public events of the moves after a version, oldest first.

        ``since_version`` = v gives the events of moves v+1 onwards; ``back`` = n those of the
        last n moves; neither gives every move. Private events never appear.
        """
        table = await self.table(table_id)
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
        table = await self.table(table_id)
        since = 0 if back is None else max(0, table.version - back)
        records = await self.store.moves(table_id, since_version=since)
        return [event for r in records for event in map(Event.from_json, r.events) if event.public]

    async def _load_started(self, table_id: int) -> _Table:
        """Load a table whose game has started, refusing a lobby or a table closed in its lobby."""
        table = await self.table(table_id)
        if table.seed is None:
            raise TableError(
                "The game has not started yet." if table.status == "lobby" else "This table is closed."
            )
        return await self._load(table_id)

    async def _load_seat(self, table_id: int, user_id: int) -> tuple[_Table, int]:
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
        await self.table(table_id)
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
        table = await self.table(table_id)
        since = max(0, table.version - limit)
        rules = self.rules_for(table.kind)
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
        table = await self.store.table(table_id) if _known_id(table_id) else None
        if table is None or table.status != "active":
            return []
        loaded = await self._load(table_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            return []
        return await asyncio.to_thread(_choices, loaded, seat, typed, stamped)

    async def waiting_on(self, user_id: int) -> list[WaitingTable]:
        """Return the active tables waiting on a user, oldest wait first."""
        found = []
        for table, since in await self.store.waiting_on(user_id):
            title = self.thread_name(table)
            try:
                loaded = await self._load(table.id)
            except TableError:
                found.append(WaitingTable(table, since, title))
                continue
            seat = loaded.seat_of(user_id)
            tag = loaded.rules.seat_tag
            prompts = loaded.rules.pending(loaded.state)
            asked = [_asked(p.text, tag(p.seat)) for p in prompts if p.seat == seat]
            found.append(WaitingTable(table, since, title, " ".join(asked)))
        return found

    async def replay(self, table_id: int) -> bool:
        """Replay the move log from the seed and say whether it gives the stored snapshot."""
        loaded = await self._load(table_id)
        record = loaded.record
        if record.seed is None:
            return False
        logged = [(m.seat, m.move) for m in await self.store.moves(table_id)]
        args = (record.kind, len(loaded.seats), record.options, record.seed, logged)
        state = await asyncio.to_thread(registry.replay, *args)
        return state == loaded.state

    async def _rebuild(self, table_id: int) -> None:
        """Replay a table's sound move log and store the snapshot it gives (the stored one is damaged)."""
        record = await self.table(table_id)
        seats = [s for s in await self.store.seats(table_id) if s.seat is not None]
        moves = await self.store.moves(table_id)
        assert record.seed is not None
        logged = [(m.seat, m.move) for m in moves]
        state = await asyncio.to_thread(
            registry.replay, record.kind, len(seats), record.options, record.seed, logged
        )
        await self.store.repair_snapshot(table_id, record.version, state)

    # ------------------------------------------------------------------ closing

    async def abandon(self, table_id: int, user_id: int, *, manage_server: bool = False) -> Reply:
        """Close a table: at once for the host or a server manager, else when every player agrees."""
        async with self._lock(table_id):
            table = await self.table(table_id)
            if table.status in ("finished", "abandoned"):
                raise TableError("This table is already closed.")
            seats = await self.store.seats(table_id)
            seated = {s.user_id for s in seats if s.bot is None}  # bots never vote
            if table.status == "active":
                # A player who left the game (resigned) is never needed, nor counted.
                seated &= set(await self.time.active_players(table_id))
            if user_id == table.host_id or manage_server:
                await self.store.set_status(table_id, "abandoned")
                return self._abandoned(table, "The table was closed.")
            if user_id not in seated:
                if any(s.user_id == user_id for s in seats):
                    raise TableError("You left this game: the players still in it decide whether to abandon.")
                raise TableError("Only the host, a server manager or the players can abandon this table.")
            if table.status == "lobby":
                raise TableError("Use /game leave to leave a table in the lobby.")
            voters = await self.store.add_abandon_vote(table_id, user_id)
            if seated <= voters:
                await self.store.set_status(table_id, "abandoned")
                return self._abandoned(table, "Every player agreed: the table was closed.")
        name = next(s.name for s in seats if s.user_id == user_id)
        count = len(voters & seated)
        text = f"{name} votes to abandon ({count} of {len(seated)}); every player must agree."
        return Reply(table, "Your vote to abandon is counted.", Board(table.id, table.version, text))

    def _abandoned(self, table: TableRecord, text: str) -> Reply:
        log.info("table %s abandoned", table.id)
        closed = replace(table, status="abandoned")
        return Reply(closed, "The table is closed.", Board(table.id, table.version, text, finished=True))

    # ------------------------------------------------------------------ helpers

    async def _undo_expire_work(self, work: DueWork) -> None:
        if await self.store.claim(work.id, self.clock.now()):
            await self.undo_expired(work.table_id, work.payload["topic"])

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    @staticmethod
    def _need_lobby(table: TableRecord) -> None:
        if table.status != "lobby":
            started = table.status == "active"
            raise TableError("The game has already started." if started else "This table is closed.")

    @staticmethod
    def _lobby_line(rules: Rules, seats: list[SeatRecord]) -> str:
        names = ", ".join(s.name for s in seats) or "nobody"
        if rules.min_players == rules.max_players:
            need = f"{rules.min_players}"
        else:
            need = f"{rules.min_players}-{rules.max_players}"
        return f"Seated ({len(seats)}/{need}): {names}."

    @staticmethod
    async def _store_call(call: Awaitable[None]) -> None:
        try:
            await call
        except StoreError:
            raise TableError("The table changed meanwhile: look again and retry.") from None

    async def _load(self, table_id: int) -> _Table:
        """Load a started table with its snapshot, rules and seats."""
        if not _known_id(table_id):
            raise TableError("That table does not exist.")
        try:
            record, state = await self._load_sound(table_id)
        except CorruptTable:
            # The log itself is damaged: nothing can be trusted to replay. Keep every row.
            log.error("table %s: its move log fails its checks; the table is closed", table_id)
            await self.store.close_damaged(table_id, "the move log, seed or seats fail their checks")
            raise TableError(DAMAGED) from None
        except StoreError:
            raise TableError("That table does not exist.") from None
        rules = self.rules_for(record.kind)
        # A seat a bot plays for its person goes by the bot's name on every board and line.
        seated = [s for s in await self.store.seats(table_id) if s.seat is not None]
        seats = {s.seat: replace(s, name=shown_name(s)) for s in seated}
        return _Table(record, state, rules, seats)

    async def _load_sound(self, table_id: int) -> tuple[TableRecord, State]:
        """Load a table's snapshot; a damaged one over a sound log is rebuilt from the log first."""
        try:
            return await self.store.load(table_id)
        except DamagedSnapshot:
            log.warning("table %s: its snapshot is damaged; rebuilding it from the move log", table_id)
        try:
            await self._rebuild(table_id)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            # The log replays no more (an engine changed?): the table cannot go on.
            log.error("table %s: the move log does not replay (%s)", table_id, type(exc).__name__)
            raise CorruptTable(f"Table {table_id}: the move log does not replay.") from None
        return await self.store.load(table_id)

    async def _load_active(self, table_id: int) -> _Table:
        table = await self.table(table_id)
        if table.status == "lobby":
            raise TableError("The game has not started yet.")
        if table.status != "active":
            raise TableError(
                "This game is over: the table is closed."
                if table.status == "finished"
                else "This table is closed."
            )
        return await self._load(table_id)

    # ------------------------------------------------------------------ composing replies (worker thread)

    def _compose(
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
    ) -> Reply:
        """Build the board, the private notes and the pings after a move (or at start)."""
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
        lines.extend(named(e.text) for e in public_events)
        if automatic:
            lines.append("Played automatically: " + "; ".join(named(a) for a in automatic) + ".")
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
        pinged = set() if status else notify.pings(prompts, old, mover)
        public = rules.view(state, None)
        # The drawing names the players and marks the last move: public texts and views only.
        caption = render.Caption(
            names={n: s.name for n, s in sorted(table.seats.items())},
            last=tuple(named(e.text) for e in events if e.public),
            before=rules.view(before, None) if before is not None else None,
        )
        # Drawn even when quiet: a cog that posts boards itself must never post an empty one.
        image = render.board(rules.kind, public, caption)
        board = Board(
            table_id=table.record.id,
            version=table.record.version,
            text="\n".join(lines),
            image=image,
            view_text=None if image else rules.view_text(public),
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
            opening=opening,
            fresh=status
            or notify.starts_message(
                pinged=pinged, opening=opening, over=over, closed=closed, events=public_events
            ),
        )
        notes: list[PrivateNote] = []
        if not status:
            for number in sorted(table.seats):
                if table.seats[number].bot:
                    continue  # a bot reads its own view when it moves: no DM
                secret = [e for e in events if not e.public and e.visible_to(number)]
                # The mover's follow-up decisions come back on the answer to its click.
                moving = number == mover and bool(rules.legal_moves(state, number))
                if opening or secret or number in fresh or moving:
                    notes.append(self._private(table, number, secret, mover=number == mover))
        answer = "Done." if mover is not None else "The game has begun."
        return Reply(table.record, answer, board, tuple(notes))

    def _private(self, table: _Table, seat: int, secret: list[Event], *, mover: bool = False) -> PrivateNote:
        """Build a seat's private note: its private events, its view, its legal moves."""
        rules = table.rules
        view = rules.view(table.state, seat)
        image = render.private(rules.kind, view)
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
            image=image,
            view_text=None if image else rules.view_text(view),
            choices=tuple(_choices(table, seat, "")) if table.record.status == "active" else (),
            dm_ok=record.dm_ok,
            kind=rules.kind,
            title=title,
            events=tuple(secret),
            waiting=asked if table.record.status == "active" else (),
            mover=mover,
        )

    @staticmethod
    def _mark(table: _Table, seat: int) -> str:
        """Return a seat's name in the game's own terms: a colour, or P1, P2... (``Rules.seat_tag``)."""
        return table.rules.seat_tag(seat)

    def _legend_lines(self, table: _Table) -> tuple[SeatLine, ...]:
        return tuple(
            SeatLine(n, self._mark(table, n), table.seats[n].name, table.seats[n].user_id)
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
        if not names:
            head = "Game over: nobody wins"
        elif len(names) == 1:
            head = f"Game over: {names[0]} wins"
        else:
            head = "Game over: " + " and ".join(names) + " share the win"
        scores = ", ".join(f"{known[n]} {_number(v)}" for n, v in sorted(result.scores.items()))
        tail = f" Scores: {scores}." if scores else ""
        reason = name_seats(table.rules, known)(result.reason.rstrip().rstrip("."))
        # A reason written as a sentence ends with a full stop; the parentheses must not double it.
        return f"{head} ({reason}).{tail}"


def name_seats(rules: Rules, names: dict[int, str]) -> Callable[[str], str]:
    """Return a function that puts each player's name on the game's seat tags in a text.

    Games name seats by ``Rules.seat_tag`` ("Red", "P2"); the thread names people:
    "P2 places a mage" becomes "bob (P2) places a mage". A tag already in brackets is left alone.
    """
    return tag_namer({rules.seat_tag(n): name for n, name in names.items()})


def _spelled(rules: Rules, chosen: dict[str, str]) -> dict[str, str]:
    """Return options with names and values spelled as the game spells them, whatever the case typed."""
    specs = {o.name.casefold(): o for o in rules.options}
    spelled: dict[str, str] = {}
    for name, value in chosen.items():
        spec = specs.get(name.casefold())
        if spec is None:
            spelled[name] = value
            continue
        value = next((c for c in spec.choices if c.casefold() == value.casefold()), value)
        spelled[spec.name] = value
    return spelled


def _asked(text: str, tag: str) -> str:
    """Return a prompt's text without its leading seat tag ("Red: roll..." -> "roll...")."""
    return text.removeprefix(f"{tag}: ")


def seat_order(seed: int, user_ids: list[int]) -> list[int]:
    """Return the seat order: the join order shuffled by the table's seed (reproducible)."""
    order = list(user_ids)
    position: dict = {}
    rng.seed_state(position, seed)
    rng.shuffle(position, order)
    return order


def _renumber(seats: dict[int, SeatRecord]) -> dict[int, SeatRecord]:
    """Give lobby seat records their seat numbers (the store has them; this saves a read)."""
    return {n: replace(s, seat=n) for n, s in seats.items()}


def _people(table: _Table, seats: Iterable[int]) -> tuple[int, ...]:
    """Return the user ids of those seats that a person plays (bots are never pinged)."""
    return tuple(table.seats[n].user_id for n in sorted(seats) if not table.seats[n].bot)


def _forced_move(
    table: _Table, off: dict[int, str], passing: dict[int, str]
) -> tuple[int, Move] | None:
    """Return a (seat, move) the service may play by itself now, or None.

    A reaction window of a seat that passes every reaction is declined; a decision with one
    legal move is played when the game declares that prompt auto-resolvable and the seat did
    not turn automatic play off.
    """
    rules, state = table.rules, table.state
    for prompt in rules.pending(state):
        user = table.seats[prompt.seat].user_id
        if prompt.kind is PromptKind.REACTION and passing.get(user) == "pass":
            move = rules.decline(state, prompt.seat, prompt)
            if move is not None and move in rules.legal_moves(state, prompt.seat):
                return prompt.seat, move
            continue
        if off.get(user) == "off":
            continue
        legal = rules.legal_moves(state, prompt.seat)
        if len(legal) == 1 and rules.auto_resolvable(state, prompt, legal[0]):
            return prompt.seat, legal[0]
    return None


def _pref_key(key: str) -> str:
    """Check a preference key: letters, digits and ``_.:-``, at most 64 characters."""
    if not _PREF_KEY.fullmatch(key):
        raise TableError("That is not a setting I know.")
    return key


def _seat_view(table: _Table, seat: int) -> SeatView:
    """Read one seat's view, every legal move and the pending prompts from one snapshot."""
    rules, state, version = table.rules, table.state, table.record.version
    active = table.record.status == "active"
    legal = rules.legal_moves(state, seat) if active else []
    moves = tuple(
        Choice(_clip(rules.label(state, seat, move)), move_value(version, index, move), move)
        for index, move in enumerate(legal)
    )
    prompts = tuple(rules.pending(state)) if active else ()
    return SeatView(table.record, version, seat, rules.view(state, seat), moves, prompts)


def _public_view(table: _Table) -> PublicView:
    """Read the public view, the pending prompts and the seats from one snapshot."""
    rules, state, record = table.rules, table.state, table.record
    prompts = tuple(rules.pending(state)) if record.status == "active" else ()
    names = {n: s.name for n, s in sorted(table.seats.items())}
    users = {n: s.user_id for n, s in sorted(table.seats.items())}
    return PublicView(record, record.version, rules.view(state, None), prompts, names, users)


def _choices(table: _Table, seat: int, typed: str, stamped: bool = False) -> list[Choice]:
    """List the seat's legal moves as choices whose label or code contain the typed text."""
    rules, state = table.rules, table.state
    wanted = typed.strip().casefold()
    found: list[Choice] = []
    for index, move in enumerate(rules.legal_moves(state, seat)):
        label = rules.label(state, seat, move)
        if wanted and wanted not in label.casefold() and wanted not in move.code().casefold():
            continue
        version = table.record.version
        value = offered_value(version, index) if stamped else move_value(version, index, move)
        found.append(Choice(_clip(label), value))
        if len(found) == MAX_CHOICES:
            break
    return found


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
