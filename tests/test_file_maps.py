"""Every game's file map (rules/<game>/README.md) names only files, functions and tests that exist."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.parent.name for p in (ROOT / "rules").glob("*/__init__.py"))
SECTION = "## Rulebook section → code → tests"

CODE = re.compile(r"^(?P<path>[\w/]+\.py)(?::(?P<name>\w+))?$")
TEST = re.compile(r"^(?P<path>tests/[\w/]+\.py)::(?P<name>\w+)$")
FOLDER = re.compile(r"^(?P<path>[\w]+)/$")


@cache
def defined(path: Path) -> frozenset[str]:
    """Return every function and class name a file defines (methods included)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, kinds))


def problems(game: str, text: str) -> list[str]:
    """Return what a map names that does not exist (paths are the package's, tests the repository's)."""
    package = ROOT / "rules" / game
    found: list[str] = []
    for token in re.findall(r"`([^`]+)`", text):
        if match := TEST.match(token):
            path = ROOT / match["path"]
        elif match := CODE.match(token):
            path = package / match["path"]
        elif match := FOLDER.match(token):
            if not (package / match["path"]).is_dir():
                found.append(f"{token}: no such folder")
            continue
        else:
            continue  # a word in code type (a key, a move, an option), not a place
        if not path.is_file():
            found.append(f"{token}: no such file")
        elif match.groupdict().get("name") and match["name"] not in defined(path):
            found.append(f"{token}: no {match['name']} in {path.relative_to(ROOT)}")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_file_map_by_rulebook_section(game: str) -> None:
    readme = ROOT / "rules" / game / "README.md"
    assert readme.is_file(), f"rules/{game} has no file map (README.md)"
    text = readme.read_text()
    assert SECTION in text, f"rules/{game}/README.md maps no rulebook section to its code"
    rows = [line for line in text.split(SECTION, 1)[1].splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) >= 8, f"rules/{game}/README.md maps only {len(rows)} sections"
    assert all(TEST.search(c) for row in rows for c in re.findall(r"`([^`]+)`", row)[-1:]), (
        "every section names the tests that pin it (last in its row)"
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_path_and_name_in_the_map_exists(game: str) -> None:
    assert problems(game, (ROOT / "rules" / game / "README.md").read_text()) == []


def test_the_map_check_catches_what_it_must() -> None:
    text = (
        "`__init__.py:ArgentRules` `state.py:in_infirmary` `effects/` `agenda` "
        "`nowhere.py` `state.py:no_such_function` `ghosts/` "
        "`tests/test_argent_rules.py::test_one_fast_action_then_one_action` "
        "`tests/test_argent_rules.py::test_gone`"
    )
    assert problems("argent", text) == [
        "nowhere.py: no such file",
        "state.py:no_such_function: no no_such_function in rules/argent/state.py",
        "ghosts/: no such folder",
        "tests/test_argent_rules.py::test_gone: no test_gone in tests/test_argent_rules.py",
    ]
