"""Presenters read typed records (issue 27): the game cogs, the web and the bots read no view by key.

A game's JSON view is the stored and compared form; what a cog, a web page or a bot reads is the
game's typed record (``SeatView.typed``, ``Seating.typed``). This test reads the files as text and
fails on any ``x["key"]`` subscript whose receiver is not one of the few non-view dicts each file
is known to read (a regex match's groups, the send() arguments of a Discord message, an event's
data, aiohttp's request parts).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

NOT_VIEWS = {
    "match": "a custom id's regex groups",
    "message": "the send() arguments of a Discord message",
    "kwargs": "the send() arguments of a Discord message",
    "dm": "the send() arguments of a direct message",
    "data": "an event's facts (its data)",
    "event.data": "an event's facts (its data)",
    "e.data": "an event's facts (its data)",
    "request.match_info": "the route's parts (aiohttp)",
    "request.app": "the web application's state (aiohttp)",
    "request.app[STATE]": "the web application's state (aiohttp)",
    "info": "a signed seat link's fields",
    "report": "the health report being built",
    "by": "a bot's legal moves by action",
    "counts[s]": "a bot's own tally of a seat's counts (Argent's evaluator)",
    "trail": "a bot's own memory of the rooms its wizard stood in this turn (the Academy's)",
}
"""Receivers of literal-key reads that are not views, with what they are."""

READERS = (
    "cogs",
    "web",
    "service/pages.py",
    "bots/core.py",
    "bots/levels.py",
    "bots/games/institute.py",
    "bots/games/institute_policy.py",
    "bots/games/quadrivium.py",
    "bots/games/argent.py",
    "bots/games/argent_lookahead.py",
    "bots/games/argent_search.py",
    "bots/games/academy_advanced.py",
    "bots/games/academy_basic.py",
    "bots/games/academy_paths.py",
    "bots/games/academy_policy.py",
    "bots/games/academy_policy_basic.py",
    "bots/games/academy.py",
    "bots/games/academy_layout.py",
)
"""Files (or folders of them) that read only typed records or named reads (a bot on a sampled full
state, or the Academy's policy on a view, asks the game's named reads, ``rules/<game>/reads.py``)."""


def _files(entry: str) -> list[Path]:
    path = ROOT / entry
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def view_reads(source: str, name: str) -> list[str]:
    """Return each literal-key read in a file whose receiver is not a known non-view dict."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)):
            continue
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            receiver = ast.unparse(node.value)
            if receiver not in NOT_VIEWS:
                found.append(f"{name}:{node.lineno}: {receiver}[{key.value!r}]")
    return found


@pytest.mark.parametrize("entry", READERS)
def test_presenters_read_no_view_by_key(entry: str) -> None:
    bad = [read for path in _files(entry) for read in view_reads(path.read_text(), _name(path))]
    assert not bad, "read the typed record instead:\n" + "\n".join(bad)


def test_the_check_catches_a_view_read() -> None:
    source = 'def f(view, match):\n    return view["players"], match["table"]\n'
    assert view_reads(source, "sample.py") == ["sample.py:2: view['players']"]
