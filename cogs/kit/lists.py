"""Long lists in answers: pages that fit a message, and the lines of a user's tables and record."""

from __future__ import annotations

from cogs.kit.messages import CONTENT_LIMIT
from service import WaitingTable
from service.clock import span
from service.servers import Stats

PAGE_ROOM = CONTENT_LIMIT - 200
"""A page's lines leave room for the line that says where the rest is."""


def pages(lines: list[str], room: int = PAGE_ROOM) -> list[list[str]]:
    """Split lines into pages that each fit in one message (a line too long is clipped)."""
    found: list[list[str]] = [[]]
    used = 0
    for line in lines:
        line = line if len(line) <= room else line[: room - 1] + "…"
        if found[-1] and used + len(line) + 1 > room:
            found.append([])
            used = 0
        found[-1].append(line)
        used += len(line) + 1
    return found


def page_of(lines: list[str], page: int, what: str, command: str) -> str:
    """Return one page of a long list, saying which page it is and how many lines the others hold."""
    split = pages(lines)
    number = min(max(page, 1), len(split))
    shown = split[number - 1]
    if len(split) == 1:
        return "\n".join(shown)
    before = sum(len(p) for p in split[: number - 1])
    after = len(lines) - before - len(shown)
    tail = [f"Page {number} of {len(split)} ({len(lines)} {what})."]
    if after:
        tail.append(f"{after} more on later pages: `{command} page:{number + 1}`.")
    if before:
        tail.append(f"{before} on earlier pages.")
    return "\n".join([*shown, " ".join(tail)])


def waiting_lines(waiting: list[WaitingTable], servers: dict[int, str] | None = None) -> list[str]:
    """Word the tables waiting on a user, one line each (``servers``: name each table's server)."""
    lines = []
    for w in waiting:
        # The thread mention already shows the table's name; say what it asks instead.
        where = f"<#{w.table.thread_id}>" if w.table.thread_id else w.title
        if servers is not None:
            where += f" ({servers.get(w.table.guild_id or 0, 'a server I am not in')})"
        what = w.decision.rstrip(".") or "your decision"
        jump = f" · [jump there]({w.link})" if w.link else ""
        time_left = ""
        if w.out_of_time:
            time_left = "; you are out of time: play now or `/game rejoin`"
        elif w.deadline is not None:
            time_left = f"; your time runs out <t:{int(w.deadline)}:R>"
        lines.append(f"{where}: {what} (waiting since <t:{int(w.since)}:R>{time_left}){jump}")
    return lines


APART_WORDS = {"bot": "finished by a bot", "skip": "finished by default moves", "left": "left before the end"}
"""How a finished game a user did not play to the end is shown, by how their seat ended."""


def stats_lines(name: str, stats: Stats, titles: dict[str, str]) -> list[str]:
    """Word a user's record."""
    lines = [f"**{name}**: {stats.open_tables} table(s) in play."]
    for kind, count in sorted(stats.played.items()):
        lines.append(f"{titles.get(kind, kind)}: {count} played, {stats.won.get(kind, 0)} won.")
    if not stats.played:
        lines.append("No games played to the end yet.")
    apart = [f"{n} {APART_WORDS.get(how, how)}" for how, n in sorted(stats.finished_for.items())]
    if apart:
        lines.append("Not counted above (not played to the end by you): " + ", ".join(apart) + ".")
    if stats.played_for:
        lines.append(f"{stats.played_for} finished game(s) had a seat played for an absent player.")
    if stats.median_move_seconds is not None:
        lines.append(f"Median time to move: {span(stats.median_move_seconds)}.")
    return lines
