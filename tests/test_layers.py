"""The layers keep to their rooms: rules/ is pure, render/ never touches Discord or the store."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "rules": {
        "discord",
        "aiosqlite",
        "PIL",
        "asyncio",
        "random",
        "sqlite3",
        "service",
        "store",
        "cogs",
        "render",
    },
    "render": {"discord", "aiosqlite", "asyncio", "sqlite3", "service", "store", "cogs"},
    "store": {"discord", "PIL", "cogs", "service", "render"},
    "service": {"discord", "cogs"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports(layer: str) -> None:
    files = sorted((ROOT / layer).rglob("*.py"))
    assert files, f"{layer}/ has no Python files"
    bad = {
        str(f.relative_to(ROOT)): sorted(_imports(f) & FORBIDDEN[layer])
        for f in files
        if _imports(f) & FORBIDDEN[layer]
    }
    assert not bad, f"{layer}/ imports what it must not: {bad}"
