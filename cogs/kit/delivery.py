"""The kit's delivery: posting replies to a table's thread, private notes by DM, and the bots' turns.

Part of the kit (``cogs.kit`` re-exports it). One delivery at a time per table (``delivery_turn``);
the living board is edited, at most once per ``EDIT_SPACING``; after each delivery the game's
hooks run and the bots move while the game waits on one; a table that ended closes its thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import traceback
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from cogs.kit import messages
from cogs.kit.controls import ClickActions, _add_undo, board_message, on_click, private_message, undo_offer
from cogs.kit.messages import (
    CLOSING_LINE,
    CONTENT_LIMIT,
    CONTINUE_HINT,
    DM_CLOSED,
    NOT_A_PANEL,
    SAVED,
    THREAD_ARCHIVE_MINUTES,
    answer,
    clip,
    fit_message,
    guarded,
    service_of,
    table_here,
)
from rules.contract import Event, Move
from service import (
    MILESTONE,
    Board,
    Offer,
    PrivateNote,
    Reply,
    TableError,
    TableRecord,
    showing,
)

log = logging.getLogger("conclave.cogs")



async def thread_of(client: discord.Client, table: TableRecord) -> discord.abc.Messageable | None:
    """Return the table's thread, fetching it when it is not cached."""
    if table.thread_id is None:
        return None
    channel = client.get_channel(table.thread_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(table.thread_id)
        except discord.NotFound:
            # A moderator deleted the thread: the game lives on in a new one.
            return await reopen_thread(client, table)
        except discord.HTTPException:
            log.warning("table %s: its thread cannot be reached", table.id)
            return None
    closing = table.id in _deliveries(client).closed
    if isinstance(channel, discord.Thread) and channel.archived and not closing:
        # Discord archives a quiet thread; posting needs it open again.
        try:
            await channel.edit(archived=False)
        except discord.HTTPException as exc:
            log.info("table %s: its thread stays archived (status %s)", table.id, exc.status)
    return channel  # type: ignore[return-value]


async def reopen_thread(client: discord.Client, table: TableRecord) -> discord.Thread | None:
    """Open a new thread for a table whose thread was deleted, record it and say so there."""
    svc = service_of(client)
    parent = client.get_channel(table.channel_id)
    try:
        if parent is None:
            parent = await client.fetch_channel(table.channel_id)
        if not isinstance(parent, discord.TextChannel):
            return None
        thread = await parent.create_thread(
            name=svc.thread_name(table),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.HTTPException as exc:
        log.warning("table %s: no new thread could be opened (status %s)", table.id, exc.status)
        return None
    await svc.attach_thread(table.id, thread.id)
    log.info("table %s: its thread was gone, moved to a new one", table.id)
    with contextlib.suppress(discord.HTTPException):
        await thread.send(f"This table's thread was deleted; the game goes on here. {CONTINUE_HINT}")
    return thread


@dataclass
class _Deliveries:
    """What one bot remembers of its posting, by table id (lost on restart, which is harmless)."""

    locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    posted: dict[int, int] = field(default_factory=dict)
    """The version of the newest board posted in each table's thread."""
    boards: dict[int, int] = field(default_factory=dict)
    """The id of the last board message posted with buttons in each table's thread."""
    closed: set[int] = field(default_factory=set)
    """Tables whose thread was already closed (a second close would repeat the closing line)."""
    bots_running: set[int] = field(default_factory=set)
    """Tables whose bots are playing now (one runner per table)."""
    bots_again: set[int] = field(default_factory=set)
    """Tables that got a move while their runner was busy: it looks once more before it stops."""
    pacing: showing.EditPacing = field(default_factory=showing.EditPacing)
    """Each table's living-board edits: the one waiting, when the last went out (event loop time)."""
    headings: dict[int, str] = field(default_factory=dict)
    """The heading (a round's summary) each table's living board opened with."""
    shown: dict[int, tuple[Event, ...]] = field(default_factory=dict)
    """The public events each table's living board shows (the turn so far)."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    """Edits waiting for their turn (kept so they are not garbage-collected)."""


def _deliveries(client: discord.Client) -> _Deliveries:
    found = getattr(client, "_conclave_deliveries", None)
    if found is None:
        found = _Deliveries()
        client._conclave_deliveries = found  # type: ignore[attr-defined]
    return found


@contextlib.asynccontextmanager
async def delivery_turn(client: discord.Client, table_id: int) -> AsyncIterator[None]:
    """Hold a table's delivery lock: its boards are posted one at a time, in version order.

    The lock is fair (first come, first served) and a move takes it as soon as the store has
    accepted it, so two moves landing together post their boards in the order they were made
    even when the first board is slower to build.
    """
    locks = _deliveries(client).locks
    lock = locks.get(table_id)
    if lock is None:
        lock = locks[table_id] = asyncio.Lock()
    async with lock:
        yield


async def deliver(client: discord.Client, reply: Reply, *, mover: int | None = None) -> bool:
    """Deliver a reply: the one path every game's moves take to Discord.

    Under the table's delivery lock: the board (a new thread message when the turn passes, else
    an edit of the turn's living board), then each private note by DM (never the ``mover``'s:
    the caller answers that player's click with it). Then the game's after-delivery hook, and
    the thread closes when the game ended. Discord refusing the board (403/50013) or a DM never
    stops the rest; return False when the thread refused the board (the move is saved anyway).
    """
    async with delivery_turn(client, reply.table.id):
        posted = await post(client, reply, mover=mover)
    await after_delivery(client, reply)
    return posted


EDIT_SPACING = showing.EDIT_SPACING
"""Seconds between two edits of one living board: Discord's rate limit is about 5 per 5 s."""


async def post(client: discord.Client, reply: Reply, *, mover: int | None = None) -> bool:
    """Show the board in the thread (unless quiet or older than one already shown) and send the DMs.

    Call it while holding ``delivery_turn(client, reply.table.id)``; ``deliver`` does. Return
    False when Discord refused the board; the DMs are sent either way.
    """
    thread = await thread_of(client, reply.table)
    board = reply.board
    posted = True
    notes = showing.dm_notes(reply, mover)
    reads = service_of(client).reads
    for note in notes:
        reads.start_drawing(note)  # drawn side by side with the board; each DM awaits its own
    if board is not None and thread is not None and showing.board_shown(board):
        heading = await _before_board(client, reply)
        if heading:
            board = replace(board, fresh=True)  # the heading opens a new message
        if _drawn_now(client, thread, board):
            reads.start_drawing(board)
        posted = await _show_board(client, thread, board, heading)
    for note in notes:
        message = await private_send_args(client, reply.table, note)
        # Delivered again after a failure or a kill (the DM sent, the delivery not marked done),
        # the same note is the same message to Discord, which keeps the first.
        message["nonce"] = nonce_of(f"note:{note.table_id}:{note.version}:{note.user_id}")
        await send_private(client, reply.table, note.user_id, message, thread)
    # Only now is the move's delivery done: a failure or a kill before here leaves it open in
    # the store, and the scheduler (or the next start) delivers it (``deliver_pending``).
    await service_of(client).delivered(reply)
    return posted


def _drawn_now(client: discord.Client, thread: discord.abc.Messageable, board: Board) -> bool:
    """Whether ``_show_board`` draws this board now: a new message, or an edit due at once.

    A board that is skipped, or whose edit waits out its spacing (merged, or drawn later in
    the background), is not drawn now and must not be started.
    """
    memory = _deliveries(client)
    step = showing.board_step(board, memory.boards.get(board.table_id), memory.posted.get(board.table_id, -1))
    if step == showing.SKIP:
        return False
    if step == showing.EDIT and isinstance(thread, discord.Thread):
        now = asyncio.get_running_loop().time()
        return memory.pacing.due_now(board.table_id, now, EDIT_SPACING)
    return True


async def deliver_pending(client: discord.Client, table_id: int) -> None:
    """Deliver what a table's undelivered moves owe its thread (the board now, pings and DMs).

    Under the delivery lock, so a move's own delivery still under way finishes first and this
    one finds nothing left to do.
    """
    svc = service_of(client)
    async with delivery_turn(client, table_id):
        reply = await svc.catch_up(table_id)
        if reply is None:
            return
        log.info("table %s: delivering v%s, left undelivered", table_id, reply.table.version)
        await post(client, reply)
    await after_delivery(client, reply)


def remember_board(client: discord.Client, table_id: int, message_id: int) -> None:
    """Make a message the table's living board (the lobby's opening message, for one)."""
    memory = _deliveries(client)
    memory.boards[table_id] = message_id
    memory.shown[table_id] = ()
    memory.headings[table_id] = ""


async def _before_board(client: discord.Client, reply: Reply) -> str | None:
    """Run the kind's before-board hook; return the heading it gives the board, if any."""
    hook = messages._BEFORE_BOARD.get(reply.table.kind)
    if hook is None:
        return None
    try:
        return await hook(client, reply)
    except Exception as exc:
        _log_failure(reply.table.id, f"the {reply.table.kind} before-board hook", exc)
        return None


async def _show_board(
    client: discord.Client, thread: discord.abc.Messageable, board: Board, heading: str | None = None
) -> bool:
    """Post a fresh board, or edit the turn's living board in place; False when Discord refused."""
    memory = _deliveries(client)
    newest = memory.posted.get(board.table_id, -1)
    living = memory.boards.get(board.table_id)
    step = showing.board_step(board, living, newest)
    if step == showing.SKIP:
        log.info("table %s: board v%s skipped, v%s already shown", board.table_id, board.version, newest)
        return True
    if step == showing.EDIT and living is not None and isinstance(thread, discord.Thread):
        memory.posted[board.table_id] = board.version
        return await _edit_board(client, thread, living, _with_turn_events(memory, board))
    if board.table_id in memory.pacing.pending and isinstance(thread, discord.Thread):
        # An edit still waiting out its spacing shows steps no other message holds: draw it
        # before the new message, or a quick run of moves (a bot's) loses them.
        await _flush_edit(client, thread, board.table_id)
    message = await board_send_args(client, board)
    try:
        if heading:
            joined = f"{heading}\n{message.get('content', '')}"
            if len(joined) <= CONTENT_LIMIT:
                message["content"] = joined
            else:
                await thread.send(fit_message(heading), allowed_mentions=discord.AllowedMentions.none())
        sent = await thread.send(**message)
    except discord.HTTPException as exc:
        # The move is saved: the players still get their DMs, /game status shows the board.
        log.warning("table %s: board v%s not posted (status %s)", board.table_id, board.version, exc.status)
        return False
    memory.posted[board.table_id] = board.version
    memory.pacing.drop(board.table_id)
    memory.shown[board.table_id] = _trim(board.events)
    memory.headings[board.table_id] = heading or ""
    if board.in_play:
        memory.boards[board.table_id] = sent.id
    return True


TURN_TEXT = 1300
"""The living board keeps the turn's events within about this many characters (a message holds
2000): the oldest lines drop off first, a milestone (a reveal) never."""


def _trim(events: tuple[Event, ...]) -> tuple[Event, ...]:
    """Drop the oldest non-milestone events until the turn's lines fit ``TURN_TEXT``."""
    kept = list(events)
    while sum(len(e.text) + 1 for e in kept) > TURN_TEXT:
        oldest = next((k for k, e in enumerate(kept) if not e.data.get(MILESTONE)), None)
        if oldest is None:
            break
        del kept[oldest]
    return tuple(kept)


def _with_turn_events(memory: _Deliveries, board: Board) -> Board:
    """Return the board with the events its living message already shows before its own.

    The living board tells the whole turn so far, not only the last step.
    """
    shown = memory.shown.get(board.table_id, ())
    events = _trim((*shown, *board.events))
    memory.shown[board.table_id] = events
    mine = set(map(id, board.events))
    earlier = [e for e in events if id(e) not in mine]
    if not earlier:
        return replace(board, events=events)
    # The service's text starts with this step's events: the earlier ones go above them.
    text = "\n".join([*(board.named(e.text) for e in earlier), board.text])
    return replace(board, events=events, text=text)


async def _edit_board(client: discord.Client, thread: discord.Thread, message_id: int, board: Board) -> bool:
    """Edit the living board, at most once per ``EDIT_SPACING`` per table (later edits coalesce).

    An edit due now is made at once (the mover's answer says whether Discord took it). An edit
    due sooner waits in the background, and is drawn outside the delivery lock so the table's
    next move does not wait behind it; the newest board is drawn then, so a burst of steps
    costs one edit, and every board drawn is shown (``EditPacing.edit_in_turn``).
    """
    memory = _deliveries(client)
    wait = memory.pacing.offer(message_id, board, asyncio.get_running_loop().time(), EDIT_SPACING)
    if wait is None:
        return True  # an edit is already scheduled: it will show this board
    if wait <= 0:
        return await _flush_edit(client, thread, board.table_id)

    async def show(entry: tuple[int, Board]) -> None:
        async with delivery_turn(client, board.table_id):
            if memory.pacing.take_drawn(board.table_id, entry):
                await _flush_edit(client, thread, board.table_id, entry)

    async def later() -> None:
        await asyncio.sleep(wait)
        await memory.pacing.edit_in_turn(board.table_id, service_of(client).reads.image, show, EDIT_SPACING)

    task = asyncio.create_task(later())
    memory.tasks.add(task)
    task.add_done_callback(memory.tasks.discard)
    return True


async def _flush_edit(
    client: discord.Client, thread: discord.Thread, table_id: int, drawn: tuple[int, Board] | None = None
) -> bool:
    """Apply the newest pending edit of a table's living board (or ``drawn``, one that
    ``EditPacing.take_drawn`` let go out); False when Discord refused it."""
    memory = _deliveries(client)
    pending = drawn or memory.pacing.take(table_id)
    if pending is None:
        return True
    message_id, board = pending
    if memory.boards.get(table_id) != message_id:
        return True  # a fresh board was posted meanwhile
    message = await board_send_args(client, board)
    message.pop("allowed_mentions", None)
    heading = memory.headings.get(table_id)
    if heading and len(heading) + len(message.get("content", "")) < CONTENT_LIMIT:
        message["content"] = f"{heading}\n{message.get('content', '')}"  # the living board keeps it
    files = message.pop("files", [])
    message.setdefault("view", None)
    memory.pacing.mark(table_id, asyncio.get_running_loop().time())
    try:
        await thread.get_partial_message(message_id).edit(attachments=files, **message)
    except discord.NotFound:
        # The living board was deleted: the next board starts a new message.
        memory.boards.pop(table_id, None)
        try:
            sent = await thread.send(**await board_send_args(client, board))
        except discord.HTTPException as exc:
            log.warning("table %s: board v%s not posted (status %s)", table_id, board.version, exc.status)
            return False
        memory.boards[table_id] = sent.id
    except discord.HTTPException as exc:
        log.warning("table %s: board v%s not edited (status %s)", table_id, board.version, exc.status)
        return False
    return True


async def after_delivery(client: discord.Client, reply: Reply) -> None:
    """Run the kind's after-delivery hook and the bots' turns, then close the thread of a table that ended."""
    hook = messages._AFTER_DELIVER.get(reply.table.kind)
    if hook is not None:
        try:
            await hook(client, reply)
        except Exception as exc:
            _log_failure(reply.table.id, f"the {reply.table.kind} after-delivery hook", exc)
    if reply.board is not None and reply.board.finished:
        for finish in list(messages._ON_FINISH.values()):
            try:
                await finish(client, reply)
            except Exception as exc:
                _log_failure(reply.table.id, "a game-end hook", exc)
        await close_thread(client, reply.table)
        return
    await run_bots(client, reply.table.id)


async def run_bots(client: discord.Client, table_id: int) -> None:
    """Play the bots' moves while the game waits on a bot, each posted like anyone's move.

    One runner per table: a delivery that lands while it runs only asks it to look once more, so
    a chain of bot moves never nests and no bot turn is missed.
    """
    memory = _deliveries(client)
    if table_id in memory.bots_running:
        memory.bots_again.add(table_id)
        return
    memory.bots_running.add(table_id)
    svc = service_of(client)
    try:
        while True:
            memory.bots_again.discard(table_id)
            try:
                reply = await svc.bots.next_bot_move(table_id)
            except TableError as exc:
                log.info("table %s: a bot could not move (%s)", table_id, type(exc).__name__)
                reply = None
            if reply is None:
                if table_id in memory.bots_again:
                    continue
                return
            async with delivery_turn(client, table_id):
                await post(client, reply)
            await after_delivery(client, reply)
    finally:
        memory.bots_running.discard(table_id)


async def close_thread(client: discord.Client, table: TableRecord) -> None:
    """Say the table is closed, take the buttons off its last board and archive its thread.

    The thread is archived, not locked: players may still talk about the game (a message
    reopens it), while every old button answers that the table is closed.
    """
    memory = _deliveries(client)
    if table.id in memory.closed:
        return
    thread = await thread_of(client, table)
    if not isinstance(thread, discord.Thread):
        return
    memory.closed.add(table.id)
    with contextlib.suppress(discord.HTTPException):
        await thread.send(CLOSING_LINE)
    message_id = memory.boards.pop(table.id, None)
    if message_id is not None:
        try:
            await thread.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.info("table %s: its last board keeps its buttons (status %s)", table.id, exc.status)
    try:
        await thread.edit(archived=True)
    except discord.HTTPException as exc:
        log.info("table %s: its thread stays open (status %s)", table.id, exc.status)


async def board_send_args(client: discord.Client, board: Board) -> dict[str, Any]:
    """Return the send() arguments of a board: the game's panel when it has one, else the kit's."""
    build = messages._BOARD_PANELS.get(board.kind)
    if build is not None:
        try:
            return await build(client, board)
        except Exception as exc:
            _log_failure(board.table_id, f"the {board.kind} board panel", exc)
    await service_of(client).reads.image(board)  # drawn off the event loop, only now that it is shown
    return board_message(board)


async def private_send_args(client: discord.Client, table: TableRecord, note: PrivateNote) -> dict[str, Any]:
    """Return the send() arguments of a private note: the game's panel when it has one, else the kit's."""
    build = messages._PRIVATE_PANELS.get(note.kind)
    if build is not None:
        try:
            return await build(client, table, note)
        except TableError:
            pass
        except Exception as exc:
            _log_failure(table.id, f"the {note.kind} private panel", exc)
    await service_of(client).reads.image(note)  # drawn off the event loop, only now that it is shown
    return private_message(note)


def _log_failure(table_id: int, what: str, exc: BaseException) -> None:
    """Log a game hook's failure by its type and frames only: its text may quote a secret."""
    frames = "\n".join(
        f"  {f.filename}:{f.lineno} in {f.name}" for f in traceback.extract_tb(exc.__traceback__)
    )
    log.error("table %s: %s failed with %s\n%s", table_id, what, type(exc).__name__, frames)


def nonce_of(key: str) -> int:
    """Return the Discord nonce of a keyed message: a second send with it within minutes is dropped.

    Due work runs at least once; a run again after a kill (the message sent, its record not)
    sends with the same nonce, and Discord (``enforce_nonce``) keeps the first message only.
    """
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:7], "big")


async def send_private(
    client: discord.Client,
    table: TableRecord,
    user_id: int,
    message: dict[str, Any],
    thread: discord.abc.Messageable | None = None,
    *,
    strict: bool = False,
) -> bool:
    """DM a seated user; when DMs are closed, say so in the thread and record it. Return success.

    Never raises for Discord's refusals: a closed DM (50007) and a thread refusing the fallback
    line (403/50013) are logged, and the caller goes on with the others' DMs and the answer.
    ``strict`` (due work that is retried): any other failure (an outage) is raised.
    """
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        await user.send(**message)
    except discord.HTTPException as exc:
        if not isinstance(exc, discord.Forbidden) and exc.code != DM_CLOSED:
            # A Discord outage is not a closed DM: keep trying next time.
            log.warning("table %s: DM failed with status %s", table.id, exc.status)
            if strict:
                raise
            return False
        await service_of(client).set_dm_ok(table.id, user_id, False)
        thread = thread or await thread_of(client, table)
        if thread is not None:
            try:
                await thread.send(
                    f"<@{user_id}>, I can't DM you: use /game hand (or the My private view button).",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                )
            except discord.HTTPException as refused:
                log.warning("table %s: closed-DM notice refused (status %s)", table.id, refused.status)
        return False
    return True


async def greet(
    client: discord.Client, table: TableRecord, user_id: int, thread: discord.abc.Messageable | None = None
) -> bool:
    """DM a newly seated player, which also checks that DMs reach them, and record the answer."""
    svc = service_of(client)
    hello = (
        f"You sit at {svc.thread_name(table)}. Your private view will arrive here; "
        "you can also use /game hand in the table's thread."
    )
    if await send_private(client, table, user_id, {"content": hello}, thread):
        await svc.set_dm_ok(table.id, user_id, True)
        return True
    return False


async def show_private(interaction: discord.Interaction, table_id: int | None = None) -> None:
    """Answer ephemerally with the user's private view of a table (refusing non-seated users).

    ``table_id`` None: the table of the interaction's thread, looked up after acknowledging.
    """

    async def work() -> None:
        svc = service_of(interaction.client)
        found = table_id if table_id is not None else (await table_here(interaction)).id
        note = await svc.reads.hand(found, interaction.user.id)
        message = await private_send_args(interaction.client, await svc.table(found), note)
        await answer(interaction, message.pop("content"), **message)

    await guarded(interaction, work)


BOARD_REFUSED = "Your move counted, but the thread refused the board: `/game status` shows it."


async def play(
    interaction: discord.Interaction,
    table_id: int | None,
    move: str | Move,
    version: int | None,
    *,
    edit: bool = False,
) -> None:
    """Play a move for the user (guarded: acknowledged first), deliver it and answer truly.

    ``table_id`` None: the table of the interaction's thread, looked up after acknowledging.
    """

    if edit and not on_own_panel(interaction):
        await answer(interaction, NOT_A_PANEL)
        return

    async def work() -> None:
        found = table_id if table_id is not None else (await table_here(interaction)).id
        await play_now(interaction, found, move, version, edit=edit)

    await guarded(interaction, work, update=edit)


def on_own_panel(interaction: discord.Interaction) -> bool:
    """Whether the component sits on a private panel this bot made (an ephemeral answer or a DM).

    A panel click replaces the message it came from; a forged click on a public message (the
    board) must never turn it into someone's private panel.
    """
    message = interaction.message
    if message is None or interaction.client.user is None:
        return False
    if message.author.id != interaction.client.user.id:
        return False
    return message.flags.ephemeral or interaction.guild_id is None


async def play_now(
    interaction: discord.Interaction,
    table_id: int,
    move: str | Move,
    version: int | None,
    *,
    edit: bool = False,
    offer: Offer | None = None,
) -> None:
    """Inside ``guarded``: act, deliver on the one path, answer the mover with its panel.

    The answer says what happened (the move counted; the thread refused the board) and carries
    the mover's follow-up decisions (its private panel), so a turn of several steps needs no
    ping and no DM. ``edit`` answers by replacing the panel the click came from; ``offer`` is
    the panel's stamp, checked by the service under the table's lock.
    """
    client = interaction.client
    svc = service_of(client)
    user = interaction.user.id
    reply = await svc.act(table_id, user, move, expected_version=version, offer=offer)
    interaction.extras[SAVED] = True
    mine = showing.answer_note(reply, user)
    if mine is not None:
        svc.reads.start_drawing(mine)  # the answer's panel, drawn while the board and DMs go out
    # The move that the store accepted first takes the delivery lock first (nothing yields
    # between act returning and the lock), so boards go out in version order.
    async with delivery_turn(client, table_id):
        posted = await post(client, reply, mover=user)
    said = reply.answer if posted else f"{reply.answer} {BOARD_REFUSED}"
    try:
        await answer_mover(interaction, reply, said, edit=edit)
    except discord.HTTPException as exc:
        # The interaction expired or Discord refused the panel: the move stands, the board shows it.
        log.warning("table %s: the mover's answer failed (status %s)", table_id, exc.status)
    finally:
        await after_delivery(client, reply)


async def answer_mover(interaction: discord.Interaction, reply: Reply, said: str, *, edit: bool) -> None:
    """Answer the player who moved: the sentence, then its panel when it has more to decide."""
    client = interaction.client
    note = showing.answer_note(reply, interaction.user.id)
    if note is None and edit:
        with contextlib.suppress(TableError):
            note = await service_of(client).reads.hand(reply.table.id, interaction.user.id)
    if note is None:
        await answer(interaction, said, **undo_offer(reply))
        return
    message = await private_send_args(client, reply.table, note)
    _add_undo(message, reply)
    content = f"{said}\n{message.pop('content', '')}".strip()
    if edit:
        files = message.pop("files", [])
        message.setdefault("view", None)
        await interaction.edit_original_response(content=clip(content), attachments=files, **message)
        return
    await answer(interaction, content, **message)


on_click(ClickActions(show_private=show_private, play=play, deliver=deliver))
