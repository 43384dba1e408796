"""Getting started: a game's how-to-play summary and the guide file that ``/game rules`` attaches.

The summaries live in ``data/<kind>/howto.md``, written in our own words. The publishers'
rulebooks are not part of the repository (they are not ours to ship), so the attached file is our
guide: the summary, the players and every table option. A game whose ``Rules.rulebook`` names a
file that IS in the repository (a test game's module, say) gets that file attached as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rules.contract import Rules

ROOT = Path(__file__).resolve().parent.parent
"""The repository's root folder: ``data/`` and any in-repository rulebook are found from here."""


@dataclass(frozen=True)
class Attachment:
    """A text file to attach to an answer."""

    name: str
    text: str


@dataclass(frozen=True)
class RulesGuide:
    """What ``/game rules`` shows: a short summary and the files to attach."""

    summary: str
    files: tuple[Attachment, ...]


def how_to_play(kind: str) -> str:
    """Return the game's how-to-play summary from ``data/<kind>/howto.md``, or '' when it has none."""
    path = ROOT / "data" / kind / "howto.md"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def players_line(rules: Rules) -> str:
    """Return the number of players, e.g. ``Players: 2-5.``."""
    if rules.min_players == rules.max_players:
        players = f"{rules.min_players}"
    else:
        players = f"{rules.min_players}-{rules.max_players}"
    return f"Players: {players}{' (cooperative)' if rules.cooperative else ''}."


def option_lines(rules: Rules) -> list[str]:
    """Return one line per table option: its name, what it does, its values and its default."""
    return [
        f"`{o.name}`: {o.description} ({', '.join(o.choices)}; default {o.default})."
        for o in rules.options
    ]


def guide(rules: Rules) -> RulesGuide:
    """Return a game's summary for the chat and its guide file (plus an in-repository rulebook)."""
    howto = how_to_play(rules.kind)
    head = f"**{rules.title}** (`{rules.kind}`). {players_line(rules)}"
    body = howto or _first_doc_line(rules)
    summary = "\n".join(x for x in (head, body) if x)
    summary += (
        f"\nThe attached `{_file_name(rules)}` adds the table options."
        f" Start a table with `/game new kind:{rules.kind}`."
    )
    text_lines = [f"{rules.title} — how to play with Conclave", "", players_line(rules), ""]
    text_lines += [_plain(line) for line in body.splitlines()]
    if rules.options:
        text_lines += ["", "Table options (/game new options:name=value ...):"]
        text_lines += [_plain(line) for line in option_lines(rules)]
    text_lines += ["", _rulebook_note(rules)]
    files = [Attachment(_file_name(rules), "\n".join(text_lines) + "\n")]
    shipped = _rulebook_in_repo(rules)
    if shipped is not None:
        files.append(Attachment(shipped.name, shipped.read_text(encoding="utf-8")))
    return RulesGuide(summary, tuple(files))


def _file_name(rules: Rules) -> str:
    return f"{rules.kind}-how-to-play.txt"


def _first_doc_line(rules: Rules) -> str:
    lines = (type(rules).__doc__ or "").strip().splitlines()
    return getattr(rules, "summary", "") or (lines[0] if lines else "")


def _plain(line: str) -> str:
    """Drop Discord's bold and code marks for the text file."""
    return line.replace("**", "").replace("`", "")


def _rulebook_in_repo(rules: Rules) -> Path | None:
    """Return the rulebook file when it is part of the repository, else None."""
    if not rules.rulebook:
        return None
    path = (ROOT / rules.rulebook).resolve()
    return path if path.is_file() and ROOT in path.parents else None


def _rulebook_note(rules: Rules) -> str:
    if _rulebook_in_repo(rules) is not None:
        return f"The full rules are attached as {Path(rules.rulebook).name}."
    return (
        "The full rulebook is the publisher's and is not shipped with Conclave; this guide and the "
        "bot's prompts are written in our own words. Rulings where the rulebook is silent are in "
        "docs/rulings.md."
    )
