"""The chatter bench: whole games through the real cogs in SimCord, counting what Discord shows.

Every seat follows a simple seeded policy (a random legal move, preferring to act over passing)
and plays it the way a player would: ``/game play`` with the value its autocomplete offers. The
bench then reads SimCord's log of REST calls and counts what the players would see: thread posts,
edits of thread messages, pings (user mentions that notify), DMs and the interactions spent. A
spectator follows each table at the default cadence; its digests count as ``spectator_dms``.
``BUDGETS`` holds each game's ceilings for a short seeded run (``over_budget`` checks one);
``whole`` plays one whole game of each kind (``WHOLE``) and reports each game's figures.

``turns`` are runs of consecutive moves of one seat in the stored move log (automatic moves
included). ``rounds`` come from the final public view: its ``round`` where the game counts rounds,
else, for a game that counts only turns (a ``turn`` number, as the cooperative Academy does), one
round per full cycle of the players' turns (``ceil(turn / players)``).

A click on a decision with a single legal move is sorted three ways:

- ``forced_clicks``: the lone move could have been played automatically, because re-dealing all
  the seat's rivals cannot see (``Rules.scramble`` from each other seat, ``SECRET_PROBES`` times)
  never changes it. These are the ones to bring to zero.
- ``forced_secret``: a re-deal changes the seat's legal moves, so whether the seat has a choice
  depends on something hidden; the rules require the seat to be asked (docs/rulings.md,
  "Automatic play of forced decisions") and the click is counted here instead.
- ``written``: the lone move carries words the player writes (``Rules.writes``): not forced.

``forced`` and ``secret`` break the first two down by the prompt's decision name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.settling import settle_poll
from rules import registry

_MENTION = re.compile(r"<@!?(\d+)>")
THINK_SECONDS = 3.0
"""Virtual seconds a player takes per decision (SimCord's clock): edits are spaced by real time."""
SECRET_PROBES = 4
"""Re-deals of the hidden cards tried per lone move to tell a secret-dependent one from a forced one."""
CLOSING = frozenset({"pass", "done", "decline", "keep", "accept"})
"""Answers a keen player avoids while there is anything else to do."""


@dataclass
class Tally:
    """What Discord showed over the games played."""

    turns: int = 0
    rounds: int = 0
    moves: int = 0
    interactions: int = 0
    forced_clicks: int = 0
    forced_secret: int = 0
    written: int = 0
    finished: int = 0
    forced: dict[str, int] = field(default_factory=dict)
    """The decisions the forced clicks answered, by the prompt's decision name."""
    secret: dict[str, int] = field(default_factory=dict)
    """The decisions asked although lone because their being lone depends on a secret."""
    errors: list[str] = field(default_factory=list)
    watchers: set[int] = field(default_factory=set)
    """The spectators' user ids (their DMs are counted as ``spectator_dms``)."""


def _payload(entry: Any) -> dict[str, Any]:
    """Return a REST call's JSON body (multipart bodies carry it as ``payload_json``)."""
    body = entry.json
    if isinstance(body, dict) and isinstance(body.get("payload_json"), dict):
        return body["payload_json"]
    return body if isinstance(body, dict) else {}


def _pinged(body: dict[str, Any]) -> int:
    """Count the users a posted message notifies: mentions the allowed mentions let through."""
    mentioned = {int(u) for u in _MENTION.findall(body.get("content") or "")}
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return len(mentioned)
    if "users" in (allowed.get("parse") or []):
        return len(mentioned)
    return len(mentioned & {int(u) for u in allowed.get("users") or []})


def count_requests(
    requests: list[Any], threads: set[int], dms: set[int], watching: set[int] = frozenset()
) -> dict[str, int]:
    """Count thread posts, thread edits, pings in posts, players' DMs and spectators' DMs (the DM
    channels in ``watching``) in SimCord's request log."""
    posts = edits = pings = sent = watched = 0
    for entry in requests:
        parts = entry.path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "channels" or parts[2] != "messages" or not parts[1].isdigit():
            continue
        channel = int(parts[1])
        if entry.method == "POST" and len(parts) == 3:
            if channel in threads:
                posts += 1
                pings += _pinged(_payload(entry))
            elif channel in watching:
                watched += 1
            elif channel in dms:
                sent += 1
        elif entry.method == "PATCH" and len(parts) == 4 and channel in threads:
            edits += 1
    return {"posts": posts, "edits": edits, "pings": pings, "dms": sent, "spectator_dms": watched}


def _turns(seats: list[int]) -> int:
    """Count runs of consecutive moves by one seat."""
    return sum(1 for k, seat in enumerate(seats) if k == 0 or seats[k - 1] != seat)


def _hangs_on_secret(
    rules: Any, state: Any, seat: int, players: int, legal: list[Any], rand: random.Random
) -> bool:
    """Whether re-dealing what another seat cannot see changes the seat's legal moves."""
    others: list[int | None] = [o for o in range(players) if o != seat] or [None]
    for k in range(SECRET_PROBES):
        seen = rules.scramble(state, others[k % len(others)], random.Random(rand.randrange(2**32)))
        if rules.legal_moves(seen, seat) != legal:
            return True
    return False


def _count_lone(
    tally: Tally, rules: Any, state: Any, seat: int, players: int, asked: list[Any], rand: random.Random
) -> None:
    """Sort a click on a decision with one legal move: written, kept for a secret, or forced."""
    legal = rules.legal_moves(state, seat)
    if len(legal) == 1 and rules.writes(legal[0]):
        tally.written += 1
        return
    decision = ",".join(sorted({p.decision for p in asked})) or "?"
    if _hangs_on_secret(rules, state, seat, players, legal, rand):
        tally.forced_secret += 1
        tally.secret[decision] = tally.secret.get(decision, 0) + 1
        return
    tally.forced_clicks += 1
    tally.forced[decision] = tally.forced.get(decision, 0) + 1


def _rounds(view: dict[str, Any], players: int) -> int:
    """Return the rounds a final public view shows: its round, else full cycles of the turns."""
    if isinstance(view.get("round"), int):
        return view["round"]
    if isinstance(view.get("turn"), int):
        return -(-view["turn"] // max(players, 1))
    return 0


def _policy(rand: random.Random, choices: list[Any]) -> Any:
    """Pick a random legal move, preferring anything over passing or ending."""
    keen = [c for c in choices if c.move is None or c.move.action not in CLOSING]
    return rand.choice(keen or choices)


TEXT_INPUT = 4
"""Discord's component type of a form's text field."""


def words_for(modal: dict[str, Any]) -> dict[str, str]:
    """Fill every text field of a form as a player would: a short line within its bounds."""
    fields: list[dict[str, Any]] = []
    for component in modal.get("components") or []:
        fields += component.get("components") or [component.get("component") or component]
    words = "The reeds bow as the mage passes."
    return {
        f["custom_id"]: words[: f.get("max_length") or len(words)].ljust(f.get("min_length") or 0, ".")
        for f in fields
        if f and f.get("type") == TEXT_INPUT and f.get("custom_id")
    }


async def open_through_cogs(
    env: Any, guild_name: str, kind: str, players: int, rand: random.Random
) -> tuple[Any, Any, list[Any]]:
    """Open, fill and start one table through the cogs in a new guild; return it, its thread, its members."""
    guild = env.create_guild(guild_name)
    channel = guild.create_text_channel("tables")
    names = ["alice", "bob", "carol", "dave", "erin", "frank"][:players]
    members = [guild.add_member(env.create_user(f"{n}{rand.randrange(10**6)}")) for n in names]
    await members[0].slash(channel, "game new", kind=kind)
    thread = channel.threads[-1]
    for member in members[1:]:
        await member.slash(thread, "game join")
    await members[0].slash(thread, "game start")
    return guild, thread, members


async def _play_game(
    env: Any, kind: str, players: int, rand: random.Random, tally: Tally, limit: int, whole: bool
) -> int:
    """Open, fill, start and play one table to its end through the cogs; return its thread id."""
    guild, thread, members = await open_through_cogs(env, f"Chatter {kind}", kind, players, rand)
    # A spectator follows at the default cadence: their DMs are counted apart from the players'.
    watcher = guild.add_member(env.create_user(f"watcher{rand.randrange(10**6)}"))
    await watcher.slash(thread, "game watch")
    tally.watchers.add(watcher.id)
    tally.interactions += players + 1
    bot = env.bot
    svc = bot.service
    record = await bot.store.table_for_thread(thread.id)
    by_id = {m.id: m for m in members}
    moves = 0
    # The secret probes draw from their own generator, so the policy's choices stay as they were.
    probe = random.Random(rand.randrange(2**32))
    while moves < limit:
        record = await svc.table(record.id)
        if record.status != "active":
            break
        public = await svc.reads.public_view(record.id)
        waiting = sorted({p.seat for p in public.prompts})
        if not waiting:
            tally.errors.append(f"table {record.id}: nobody to move")
            break
        seat = rand.choice(waiting)
        user = public.users[seat]
        now = await svc.reads.seat_view(record.id, user)
        if not now.moves:
            tally.errors.append(f"table {record.id}: seat {seat} asked with no move")
            break
        choice = _policy(rand, list(now.moves))
        if len(now.moves) == 1:
            _, state = await bot.store.load(record.id)
            _count_lone(tally, registry.get(kind), state, seat, players, list(now.asked), probe)
        value = choice.value
        answer = await by_id[user].slash(thread, "game play", move=value)
        tally.interactions += 1
        if getattr(answer, "modal", None) is not None:  # a worded move: its form opens first
            await by_id[user].submit_modal(answer, words_for(answer.modal))
            tally.interactions += 1
        moves += 1
        # A player takes a few seconds per decision: the living board's debounced edits fall due.
        await env.advance_time(THINK_SECONDS)
    record = await svc.table(record.id)
    if record.status == "finished":
        tally.finished += 1
    elif record.status == "active" and whole:
        tally.errors.append(f"table {record.id}: no end after {limit} moves")
    stored = await bot.store.moves(record.id)
    tally.moves += len(stored)
    tally.turns += _turns([m.seat for m in stored])
    with contextlib.suppress(Exception):
        tally.rounds += _rounds((await svc.reads.public_view(record.id)).view, players)
    return thread.id


async def chatter(
    kind: str, players: int, games: int, seed: int, *, limit: int = 3000, moves: int | None = None
) -> dict[str, Any]:
    """Play ``games`` games of a kind through the real cogs in SimCord; return the counts.

    ``moves``: stop each game after this many decisions (the budgets' short runs), not an error.
    """
    import simcord

    from bot import create_bot
    from localtable import SETTLE_SECONDS

    logging.getLogger("discord").setLevel(logging.ERROR)
    rand = random.Random(seed)
    tally = Tally()
    began = time.perf_counter()
    # SimCord looks every 5 ms while a command settles: the seconds are the bot's (``settle_poll``).
    with tempfile.TemporaryDirectory() as folder, settle_poll():
        bot = create_bot(str(Path(folder) / "chatter.db"), seed_source=lambda: rand.randrange(2**62))
        threads: set[int] = set()
        # The stand-in's 5 s default is too short where a finished game draws its replay GIF (one
        # board per turn) on a busy machine: the bench counts messages, so it waits like the local table.
        async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_SECONDS) as env:
            for _ in range(games):
                threads.add(await _play_game(env, kind, players, rand, tally, moves or limit, moves is None))
            dms = {cid for cid, c in env.backend.channels.items() if c.recipient_ids}
            watching = {cid for cid in dms if set(env.backend.channels[cid].recipient_ids) & tally.watchers}
            counts = count_requests(env.http_requests, threads, dms, watching)
        await bot.close_store()
    turns = max(tally.turns, 1)
    return {
        "game": kind,
        "players": players,
        "games": games,
        "finished": tally.finished,
        "errors": len(tally.errors),
        "moves": tally.moves,
        "turns": tally.turns,
        "rounds": tally.rounds,
        **counts,
        "interactions": tally.interactions,
        "pings_per_turn": round(counts["pings"] / turns, 3),
        "forced_clicks": tally.forced_clicks,
        "forced": tally.forced,
        "forced_secret": tally.forced_secret,
        "secret": tally.secret,
        "written": tally.written,
        "posts_budget": tally.turns + tally.rounds + 2 * games,
        "seconds": round(time.perf_counter() - began, 3),
    }


@dataclass(frozen=True)
class Budget:
    """The most a game may say in a short run of the bench (one game, ``seed``, ``moves`` decisions)."""

    players: int
    moves: int
    limits: dict[str, int]
    """Ceilings on the summary's figures: posts, pings, dms, spectator_dms, interactions."""
    seed: int = 1


BUDGETS: dict[str, Budget] = {
    # Measured on the branch that set them (README.md, "Chatter budgets"), with ~15% headroom.
    "argent": Budget(3, 80, {"posts": 38, "pings": 34, "dms": 57, "spectator_dms": 3, "interactions": 97}),
    "academy": Budget(2, 40, {"posts": 26, "pings": 25, "dms": 28, "spectator_dms": 12, "interactions": 50}),
    "institute": Budget(2, 40, {"posts": 8, "pings": 8, "dms": 10, "spectator_dms": 3, "interactions": 50}),
    "quadrivium": Budget(
        2, 40, {"posts": 21, "pings": 19, "dms": 27, "spectator_dms": 3, "interactions": 64}
    ),
}
"""Each game's chatter budget: ``python -m bench chatter --budget`` checks a game against its own."""


def over_budget(summary: dict[str, Any], budget: Budget) -> list[str]:
    """Return each figure of a summary above its budget, worded ("posts 41 > 40"); empty: within."""
    return [f"{k} {summary[k]} > {cap}" for k, cap in budget.limits.items() if summary[k] > cap]


def run(kind: str, players: int, games: int, seed: int, moves: int | None = None) -> dict[str, Any]:
    """Run the chatter bench in a fresh event loop."""
    return asyncio.run(chatter(kind, players, games, seed, moves=moves))


WHOLE: tuple[tuple[str, int], ...] = (("argent", 3), ("academy", 2), ("institute", 2), ("quadrivium", 2))
"""The whole-game run: one game of each kind at a usual table size (``bench chatter --whole``)."""
FIGURES = ("posts", "pings", "dms", "spectator_dms", "interactions")
"""What a player or a spectator sees per game, as ``whole`` reports it (interactions: clicks)."""


def whole(seed: int, tables: tuple[tuple[str, int], ...] = WHOLE) -> dict[str, Any]:
    """Play one whole game of each kind in ``tables``; return each game's figures and the errors."""
    found: dict[str, dict[str, Any]] = {}
    errors = 0
    for kind, players in tables:
        summary = run(kind, players, 1, seed)
        errors += summary["errors"]
        keep = ("finished", "moves", "turns", "rounds", *FIGURES, "edits", "seconds")
        found[f"{kind} {players}p"] = {k: summary[k] for k in keep}
    return {"seed": seed, "games": found, "errors": errors}


def whole_table(report: dict[str, Any]) -> list[str]:
    """Return a whole-game report as the lines of a Markdown table, one row per game."""
    lines = [
        "| game | moves | posts | pings | DMs | spectator DMs | clicks |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, figures in report["games"].items():
        counts = " | ".join(str(figures[k]) for k in ("moves", *FIGURES))
        ended = "" if figures["finished"] else " (no end)"
        lines.append(f"| {name}{ended} | {counts} |")
    return lines
