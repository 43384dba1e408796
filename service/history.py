"""A table's record for players: its public log by pages, its history file, its replay.

``TableHistory`` is the service's ``history``. Everything here reads the stored move log; only
public events and public labels reach what it returns (a seat's own full labels only in its own
copy of the history file).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from rules.contract import Event, Move
from service.bots import BOT_MOVE
from service.clock import game_options, iso_time
from service.naming import own_or_public
from service.part import ServicePart
from service.replay import replay_gif
from service.replies import alt_text, tag_namer
from service.undo import UNDO, effective, replay

LOG_PAGE = 15
"""Log lines on one page of /game log."""


@dataclass(frozen=True)
class LogPage:
    """One page of a table's public log: lines oldest first, the page number (0 = newest)."""

    table_id: int
    lines: tuple[str, ...]
    page: int
    pages: int



class TableHistory(ServicePart):
    """A table's public log, history file, replay and replay check (``svc.history``)."""

    async def log_page(self, table_id: int, page: int = 0, size: int = LOG_PAGE) -> LogPage:
        """Return one page of the whole public log; page 0 is the newest, higher pages are older."""
        lines = await self._public_lines(table_id)
        pages = max(1, -(-len(lines) // size))
        page = min(max(0, page), pages - 1)
        end = len(lines) - page * size
        return LogPage(table_id, tuple(lines[max(0, end - size) : end]), page, pages)

    async def _public_lines(self, table_id: int) -> list[str]:
        await self.svc.table(table_id)
        records = await self.store.moves(table_id)
        return [
            event.text for r in records for event in map(Event.from_json, r.events) if event.public
        ]

    async def history(self, table_id: int, viewer: int | None = None) -> tuple[str, str]:
        """Return the log as text and as JSON (moves by seat and name, public events, times).

        Each move is named as everyone may know it (``Rules.public_label``) beside its public
        events; ``viewer``, a seated user asking for their own copy, also reads the full labels
        of their own moves (what they chose in secret). Nobody else's secret is ever in it.
        """
        table = await self.svc.table(table_id)
        rules = self.svc.catalogue.rules_for(table.kind)
        records = await self.store.moves(table_id)
        seated = [s for s in await self.store.seats(table_id) if s.seat is not None]
        seats = {s.seat: s.name for s in seated}
        own = next((s.seat for s in seated if viewer is not None and s.user_id == viewer), None)
        from_start = {s.seat for s in seated if s.filled_by_bot}
        in_force = {r.version for r in effective(records)}
        # Seat tags ("P2", "Red") in the public texts name their players, as the thread does.
        named = tag_namer({rules.seat_tag(n): f"{name} ({rules.seat_tag(n)})" for n, name in seats.items()})

        def player(r: Any) -> str:
            """Name who made a move: its player, or the bot that played the seat (always, or for them)."""
            name = seats.get(r.seat, "?")
            if r.seat in from_start:
                return f"{name} (a bot)"
            return f"a bot for {name}" if r.move.get("by") == BOT_MOVE else name

        def build() -> tuple[str, str]:
            state = None
            if table.seed is not None:
                state = rules.setup(len(seats), game_options(table.options), table.seed)
            entries, lines = [], [f"{self.svc.thread_name(table)} ({table.status})"]
            for r in records:
                move = Move.from_json(r.move)
                public = [named(e["text"]) for e in r.events if e.get("seats") is None]
                undone = r.version not in in_force and move.action != UNDO
                label = "Take back" if move.action == UNDO else "(taken back)" if undone else ""
                if state is not None and not label:
                    # Named from the state the move was made on: the mover's own words, or the public's.
                    label = named(own_or_public(rules, state, r.seat, move, own))
                    state, _ = rules.apply(state, r.seat, move)
                label = label or move.action
                entries.append({
                    "version": r.version, "seat": r.seat, "player": player(r),
                    "move": label, "events": public, "at": iso_time(r.created_at), "undone": undone,
                })
                lines.append(f"#{r.version} {iso_time(r.created_at)} {player(r)}: {label}")
                lines.extend(f"    {text}" for text in public)
            data = {"table": table.id, "kind": table.kind, "status": table.status,
                    "players": seats, "result": table.result, "moves": entries}
            return "\n".join(lines) + "\n", json.dumps(data, indent=1, ensure_ascii=False)

        return await asyncio.to_thread(build)

    async def replay_image(self, table_id: int) -> bytes | None:
        """Return an animated GIF of the public board, a frame per turn up to a cap (None: no drawing)."""
        table = await self.svc.table(table_id)
        if table.seed is None:
            return None
        rules = self.svc.catalogue.rules_for(table.kind)
        records = effective(await self.store.moves(table_id))
        names = {s.seat: s.name for s in await self.store.seats(table_id) if s.seat is not None}
        moves = [(r.seat, Move.from_json(r.move)) for r in records]
        # Drawn in a worker thread: the event loop answers other players meanwhile.
        return await asyncio.to_thread(
            replay_gif, rules, len(names), game_options(table.options), table.seed, moves, None, names
        )

    async def replay_alt(self, table_id: int) -> str:
        """Return the replay's alt text: what it shows, and the final public position as text."""
        table = await self.svc.table(table_id)
        public = await self.svc.reads.public_view(table_id)
        head = f"An animated replay of {self.svc.thread_name(table)}, turn by turn. The final position: "
        return alt_text(head + self.svc.catalogue.rules_for(table.kind).view_text(public.view))

    async def effective_moves(self, table_id: int) -> list[tuple[int, Move]]:
        """Return (seat, move) of every move in force, oldest first (undone moves left out)."""
        return [(r.seat, Move.from_json(r.move)) for r in effective(await self.store.moves(table_id))]

    async def rebuild_check(self, table_id: int) -> bool:
        """Whether the snapshot equals the moves in force replayed from the seed (undo included)."""
        loaded = await self.svc._load(table_id)
        records = await self.store.moves(table_id)
        players = len(loaded.seats)
        state = await asyncio.to_thread(replay, loaded.rules, loaded.record, players, records)
        return state == loaded.state
