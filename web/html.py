"""The pages as HTML, rendered on the server from what the service composed (never from a state).

Semantic HTML, one small stylesheet (light and dark by ``prefers-color-scheme``) and one small
script (the history slider, live updates); every value is escaped here, in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from service.pages import Step, TablePage
from service.replies import PrivateNote
from service.servers import ServerTable


def _page(title: str, body: str, *, script: bool = False) -> str:
    """Wrap a page's body in the shared head, with the script only where a page needs one."""
    js = '<script src="/static/page.js" defer></script>' if script else ""
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<meta name='color-scheme' content='light dark'>"
        f"<title>{escape(title)} · Conclave</title>"
        f"<link rel='stylesheet' href='/static/page.css'>{js}</head>\n"
        f"<body>{body}</body></html>\n"
    )


def refusal(title: str, sentence: str) -> str:
    """Return a plain page that refuses (a forged or expired link, a table that is not there)."""
    return _page(title, f"<main class='refusal'><h1>{escape(title)}</h1><p>{escape(sentence)}</p></main>")


def _events(events: Iterable[str]) -> str:
    items = "".join(f"<li>{escape(e)}</li>" for e in events)
    return f"<ul class='events' id='events'>{items}</ul>"


def step_heading(step: Step) -> str:
    """Say which version a step is and the move that made it, publicly named."""
    if step.version == 0:
        return "Version 0: the game begins."
    return f"Version {step.version}: {step.player}, {step.move}."


def table_page(
    page: TablePage, base: str, step: Step | None, steps: Sequence[Step], alt: str, view_text: str,
    query: str = "", thread_url: str | None = None,
) -> str:
    """Return a table's page: board at a version, slider, seats, waiting, searchable log, links."""
    head = (f"<header><h1>{escape(page.title)}</h1>"
            f"<p class='status' id='status'>{escape(status_line(page))}</p></header>")
    if step is None:  # a lobby: nothing drawn yet
        return _page(page.title, f"{head}<main><p>{escape(page.lobby)}</p></main>")
    index = next(i for i, s in enumerate(steps) if s.version == step.version)
    versions = ",".join(str(s.version) for s in steps)
    board = (
        "<section aria-labelledby='board-h' class='board'><h2 id='board-h'>Board</h2>"
        # The board links to its full-size drawing: on a phone, a tap opens it to zoom.
        f"<figure><a id='board-link' href='{base}/board/{step.version}.png'>"
        f"<img id='board' src='{base}/board/{step.version}.png' alt='{escape(alt)}'></a>"
        f"<figcaption><p id='caption'>{escape(step_heading(step))}</p>{_events(step.events)}"
        "</figcaption></figure>"
        "<details><summary>The board as text</summary>"
        f"<pre id='board-text'>{escape(view_text)}</pre></details>"
        "<div class='slider'><label for='slider'>History</label>"
        f"<input type='range' id='slider' min='0' max='{len(steps) - 1}' step='1' value='{index}'"
        f" data-versions='{versions}' aria-describedby='caption'>"
        f"<output id='shown' for='slider'>{step.version}</output>"
        f" <a id='permalink' href='{base}?v={step.version}'>Link to this version</a>"
        " <button type='button' id='latest'>Latest</button></div>"
        "<p class='hint'>Arrow keys step through the versions once the slider has focus.</p></section>"
    )
    return _page(page.title, (
        f"{head}<main id='table' data-base='{base}' data-version='{page.version}'"
        f" data-live='{'yes' if page.status == 'active' else 'no'}'>"
        f"{board}{_seats(page)}{_log(steps, base, query)}{_links(base, thread_url)}</main>"
    ), script=True)


def status_line(page: TablePage) -> str:
    """Say where the table stands: in the lobby, its result, or whom it waits on."""
    if page.status == "lobby":
        return "Waiting in the lobby."
    if page.result:
        return page.result
    return page.waiting or page.status.capitalize() + "."


def _seats(page: TablePage) -> str:
    scored = any(s.score for s in page.seats)
    score_head = "<th scope='col'>Score</th>" if scored else ""
    rows = "".join(
        f"<tr data-seat='{s.seat}'><th scope='row'>{escape(s.tag)}</th><td>{escape(s.name)}</td>"
        + (f"<td class='score'>{escape(s.score)}</td>" if scored else "")
        + f"<td class='time'>{escape(s.time_left)}</td></tr>"
        for s in page.seats
    )
    note = f"<p class='hint' id='scoring'>{escape(page.scoring)}</p>" if page.scoring else ""
    return (
        "<section aria-labelledby='seats-h'><h2 id='seats-h'>Seats</h2><table id='seats'><thead><tr>"
        f"<th scope='col'>Seat</th><th scope='col'>Player</th>{score_head}<th scope='col'>Time left</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>{note}</section>"
    )


def _log(steps: Sequence[Step], base: str, query: str) -> str:
    wanted = query.casefold().strip()
    items = []
    for step in reversed(steps):
        words = " ".join((step.player, step.move, *step.events))
        if wanted and wanted not in words.casefold():
            continue
        events = "".join(f"<li>{escape(e)}</li>" for e in step.events)
        items.append(
            f"<li data-words='{escape(words.casefold())}' data-version='{step.version}'>"
            f"<a href='{base}?v={step.version}'>"
            f"{escape(step_heading(step))}</a><ul>{events}</ul></li>"
        )
    return (
        "<section aria-labelledby='log-h'><h2 id='log-h'>Log</h2>"
        f"<form role='search' method='get' action='{base}'><label for='q'>Search the log</label>"
        f" <input type='search' id='q' name='q' value='{escape(query)}'> <button>Search</button></form>"
        f"<ol reversed class='log' id='log'>{''.join(items)}</ol></section>"
    )


def _links(base: str, thread_url: str | None) -> str:
    thread = f"<li><a href='{escape(thread_url)}'>The table's Discord thread</a></li>" if thread_url else ""
    return (
        "<footer><ul>"
        f"<li><a href='{base}/replay.gif' download>Download the replay (GIF)</a></li>{thread}</ul></footer>"
    )


def seat_page(title: str, note: PrivateNote, sheet_url: str, expires: str, table_url: str) -> str:
    """Return a seat's private page: their own view, the link's expiry, and no one else's."""
    alt = escape(note.alt or note.text)
    image = ""
    if note.picture:
        image = f"<a href='{sheet_url}'><img id='sheet' src='{sheet_url}' alt='{alt}'></a>"
    return _page(f"{title}: your private view", (
        f"<header><h1>{escape(title)}</h1><p>Your private view: only you should open this link."
        f" It works until {escape(expires)}.</p></header>"
        f"<main><section aria-labelledby='mine-h'><h2 id='mine-h'>Yours</h2>{image}"
        f"<pre id='private-text'>{escape(note.text)}</pre></section>"
        f"<p><a href='{table_url}'>The table's public page</a></p></main>"
    ))


def server_page(name: str, tables: Sequence[ServerTable], url_of: dict[int, str]) -> str:
    """Return a server's page: its tables in play and finished, with their links."""
    rows = "".join(
        f"<tr><td><a href='{url_of[t.table.id]}'>{escape(t.title)}</a></td>"
        f"<td>{escape(t.table.status)}</td><td>{escape(', '.join(t.players))}</td></tr>"
        for t in tables
    )
    return _page(name, (
        f"<header><h1>{escape(name)}</h1></header><main><table><thead><tr><th scope='col'>Table</th>"
        f"<th scope='col'>Status</th><th scope='col'>Players</th></tr></thead><tbody>{rows}</tbody></table>"
        "</main>"
    ))


def index_page() -> str:
    """Return the front page: what this is, with no table listed (tables are found by their link)."""
    return _page("Conclave", (
        "<main><h1>Conclave</h1><p>Each table's page opens from its link: ask for it in Discord with"
        " <code>/game web</code>.</p></main>"
    ))
