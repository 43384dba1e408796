"""Every example of the local table's help and of the README's local-table block works as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from localtable import LOCAL_HELP
from tests.async_helpers import local_session

ROOT = Path(__file__).resolve().parent.parent
SEED = 2024
_COMMENT = re.compile(r"\s{2,}\(.*\)\s*$")


def example_lines(block: str) -> list[str]:
    """Return the lines an example block asks to type (comments dropped, `a | b` split)."""
    lines: list[str] = []
    for raw in block.splitlines():
        line = _COMMENT.sub("", raw).strip()
        if line:
            lines += [part.strip() for part in line.split(" | ")]
    return lines


def readme_block() -> str:
    """Return the README's local-table example block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## The local table") :]
    return section.split("```text\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize("source", ["help", "readme"])
async def test_every_local_table_example_works(source: str, tmp_path: Path) -> None:
    lines = example_lines(LOCAL_HELP if source == "help" else readme_block())
    assert lines[0].startswith("alice: /game new kind:") and lines[-1] == "quit"
    printed: list[str] = []
    failures = await local_session(
        lines, out_dir=tmp_path / "out", db_path=tmp_path / "local.db", echo=printed.append,
        seed_source=lambda: SEED,
    )
    text = "\n".join(printed)
    assert failures == 0, text
    # Each line was carried out by the bot, not merely typed: no refusal, every move played.
    assert "There is no game called" not in text and "could not" not in text
    assert "[only alice sees] Your table is open" in text and "The game has begun." in text
    assert text.count("You played: ") == 3, text  # play 2, the typed move, the select
    assert "You played: Assign Take Stones to die 1" in text


def test_the_readme_shows_the_same_examples_as_the_local_help() -> None:
    assert example_lines(readme_block()) == example_lines(LOCAL_HELP)
