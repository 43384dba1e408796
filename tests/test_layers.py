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
    # Bots are pure like the rules; each gets its own random.Random, so ``random`` itself is allowed
    # (``test_bots_never_draw_from_the_global_generator`` checks that no module-level draw is made).
    "bots": {"discord", "aiosqlite", "PIL", "asyncio", "sqlite3", "service", "store", "cogs", "render"},
    "store": {"discord", "PIL", "cogs", "service", "render"},
    # The service composes; render draws and encodes (the replay GIF too), so no PIL here.
    "service": {"discord", "cogs", "PIL"},
    # Benchmarks run in an image without tests/ and measure the bot as shipped.
    "bench": {"discord", "cogs", "tests"},
}
# No room of the bot imports the tests (the toy game lives in rules/toy.py for both).
for _forbidden in FORBIDDEN.values():
    _forbidden.add("tests")


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node except those under ``if TYPE_CHECKING:``, which never run."""
    out: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in _runtime_nodes(tree):
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


def test_type_only_imports_are_allowed(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\nimport json\n")
    assert _imports(source) == {"typing", "json"}
    source.write_text("import random\n")
    assert _imports(source) == {"random"}


# ---------------------------------------------------------------------- cogs reach games through the service

GAME_PACKAGES = sorted(p.parent.name for p in (ROOT / "rules").glob("*/__init__.py"))
"""Every game's rules package (rules.argent, rules.institute...): found, so a new game counts."""
COG_FILES = sorted(str(p.relative_to(ROOT / "cogs")) for p in (ROOT / "cogs").rglob("*.py"))
"""Every file of the cogs, the game packages and the kit included (``argent/board.py``)."""


def _module_names(path: Path) -> set[str]:
    """Return the full dotted names a file imports at runtime (``from a import b`` gives a.b too)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            # `from rules import registry` imports the module rules.registry.
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _reaches_past_the_service(name: str) -> bool:
    """Whether a cog importing this module reaches past the service (store, registry, a game's rules)."""
    parts = name.split(".")
    if parts[0] == "store":
        return True
    if parts[0] != "rules" or len(parts) < 2:
        return False
    return parts[1] == "registry" or parts[1] in GAME_PACKAGES


@pytest.mark.parametrize("cog", COG_FILES)
def test_cogs_reach_games_only_through_the_service(cog: str) -> None:
    """A cog imports no store, no rules.registry and no game's rules package (types from rules.contract
    and service are fine): it authorises, parses, calls the service and replies."""
    bad = sorted(n for n in _module_names(ROOT / "cogs" / cog) if _reaches_past_the_service(n))
    assert not bad, f"cogs/{cog} reaches past the service: {bad}"


WORDS_FROM_RENDER = {"render.argent.words"}
"""The one render module a cog may import: Argent's seat marks ("P2 (square)"), words about a seat
number that the board draws as shapes and the cogs write beside a name; no drawing. The standings
and the voter criteria come from the typed view."""


def _drawings_imported(path: Path) -> set[str]:
    """Return the render modules a file imports at runtime (``from render import x`` names render.x)."""
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "render"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "render":
                continue
            for alias in node.names:
                sub = ROOT / node.module.replace(".", "/") / alias.name
                is_module = sub.with_suffix(".py").exists() or (sub / "__init__.py").exists()
                found.add(f"{node.module}.{alias.name}" if is_module else node.module)
    return found


@pytest.mark.parametrize("cog", COG_FILES)
def test_cogs_never_draw(cog: str) -> None:
    """A cog posts what the service drew (``public_drawing``, ``seat_drawing``, the composed board)."""
    bad = sorted(_drawings_imported(ROOT / "cogs" / cog) - WORDS_FROM_RENDER)
    assert not bad, f"cogs/{cog} draws for itself: {bad}"


def test_the_drawing_check_catches_what_it_must(tmp_path: Path) -> None:
    source = tmp_path / "cog.py"
    source.write_text(
        "import render\nfrom render import Caption\nfrom render import argent as words\n"
        "def later():\n    from render import quadrivium as drawing\n"
    )
    assert _drawings_imported(source) == {"render", "render.argent", "render.quadrivium"}


def test_the_cog_check_catches_what_it_must(tmp_path: Path) -> None:
    assert GAME_PACKAGES and "argent" in GAME_PACKAGES and "contract" not in GAME_PACKAGES
    source = tmp_path / "cog.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from rules.contract import Move\n"
        "from service import TableRecord\n"
        "from rules import registry\n"
        "import store.sqlite\n"
        "def later():\n    from rules.argent import content\n"
        "if TYPE_CHECKING:\n    from store import Store\n"
    )
    bad = sorted(n for n in _module_names(source) if _reaches_past_the_service(n))
    assert bad == ["rules.argent", "rules.argent.content", "rules.registry", "store.sqlite"]


_GLOBAL_DRAWS = {"random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "uniform"}


def test_bots_never_draw_from_the_global_generator() -> None:
    """A bot draws only from the generator it is given (``random.Random``), never from ``random.x()``."""
    bad = []
    for path in sorted((ROOT / "bots").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr in _GLOBAL_DRAWS
            ):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} random.{node.attr}")
    assert not bad, f"bots/ draws from the global generator: {bad}"


# ---------------------------------------------------------------------- no import cycles

ROOMS = ("rules", "render", "bots", "cogs", "service", "store", "bench", "web")
TOP_MODULES = ("bot.py", "localtable.py", "logpolicy.py")

KNOWN_CYCLES: set[frozenset[str]] = set()
"""The cycles still held apart by imports inside functions (docs/shape.md): none is left, and a
new one fails the test below."""


def _module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(files: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """Return module -> the project modules it imports at runtime, imports inside functions included."""
    modules = {_module_of(f, root): f for f in files}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_nodes(ast.parse(path.read_text(), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, *([base] if base else [])])
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """Return the groups of modules that import each other (strongly connected, more than one)."""
    reach: dict[str, set[str]] = {}
    for start in graph:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        reach[start] = seen
    groups = {frozenset({a} | {b for b in reach[a] if a in reach[b]}) for a in graph if a in reach[a]}
    return {g for g in groups if len(g) > 1}


def _project_files() -> list[Path]:
    files = [p for room in ROOMS if (ROOT / room).is_dir() for p in sorted((ROOT / room).rglob("*.py"))]
    return files + [ROOT / f for f in TOP_MODULES if (ROOT / f).exists()]


def test_no_new_import_cycle() -> None:
    """No two modules import each other, even through an import inside a function."""
    found = cycles(import_graph(_project_files()))
    new = sorted(sorted(c) for c in found - KNOWN_CYCLES)
    assert not new, f"new import cycles: {new}"
    gone = sorted(sorted(c) for c in KNOWN_CYCLES - found)
    assert not gone, f"these cycles are broken now: take them out of KNOWN_CYCLES: {gone}"


def test_the_cycle_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg import b\n")
    (tmp_path / "pkg" / "b.py").write_text("def later():\n    from . import a\n")
    (tmp_path / "pkg" / "c.py").write_text("import typing\nif typing.TYPE_CHECKING:\n    from pkg import a\n")
    graph = import_graph(sorted((tmp_path / "pkg").glob("*.py")), tmp_path)
    assert graph["pkg.b"] == {"pkg.a"} and graph["pkg.c"] == set()
    assert cycles(graph) == {frozenset({"pkg.a", "pkg.b"})}
