"""Measure the code's shape (issue 27's Show): name comparisons, literal-key reads, long functions,
large files, import cycles, hops to a dozen rules, and the `duplicates` count.

Run from the repository root: ``python scripts/shape_metrics.py`` (``--markdown`` prints the table
that docs/shape.md keeps). It reads files as text and imports nothing from the project.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE_DIRS = ("rules", "render", "bots", "cogs", "service", "store", "bench", "web")
TOP_FILES = ("bot.py", "localtable.py", "logpolicy.py")
NAME_KEYS = {"action", "kind", "step", "phase", "what", "stage", "decision"}
LONG_FUNCTION = 50

# Each rule by its rulebook name: the game, and the module and function that decide it.
RULES: dict[str, tuple[str, str, str]] = {
    "Shifting the Portal": ("institute", "rules/institute/flow.py", "_shift"),
    "the Ethereal Realm": ("institute", "rules/institute/scoring.py", "claim_realm"),
    "the Bell Tower": ("argent", "rules/argent/engine/turn.py", "take_bell"),
    "the Infirmary": ("argent", "rules/argent/effects/targets.py", "wound"),
    "Mysticism": ("argent", "rules/argent/engine/reactions.py", "run_mystic"),
    "the vault": ("argent", "rules/argent/engine/turn.py", "use_vault"),
    "the Helpful Hand of Fate": ("academy", "rules/academy/threats.py", "activation_ops"),
    "emergency recall": ("academy", "rules/academy/turn.py", "recall"),
    "water overflow": ("academy", "rules/academy/threats.py", "_add_water"),
    "the Winter Council": ("quadrivium", "rules/quadrivium/council.py", "open_council"),
    "Taint": ("quadrivium", "rules/quadrivium/magic.py", "taint_for"),
    "Claim": ("quadrivium", "rules/quadrivium/block.py", "open_claim"),
}


def code_files() -> list[Path]:
    """Return every Python file of the bot (tests and scripts left out)."""
    files = [p for d in CODE_DIRS if (ROOT / d).is_dir() for p in sorted((ROOT / d).rglob("*.py"))]
    return files + [ROOT / f for f in TOP_FILES if (ROOT / f).exists()]


def rel(path: Path) -> str:
    """Return a path relative to the repository root."""
    return str(path.relative_to(ROOT))


def parse(path: Path) -> ast.Module:
    """Parse one file."""
    return ast.parse(path.read_text(), filename=str(path))


# ---------------------------------------------------------------------------- names compared as strings


def _names_a_name(node: ast.AST) -> bool:
    """Whether an expression reads a name-like value (``x["kind"]``, ``x.kind``, ``kind``)."""
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value in NAME_KEYS
    if isinstance(node, ast.Attribute):
        return node.attr in NAME_KEYS
    if isinstance(node, ast.Name):
        return node.id in NAME_KEYS
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value in NAME_KEYS
    return False


def _is_string_literal(node: ast.AST) -> bool:
    """Whether a node is a string, or a tuple/list/set of strings."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
        )
    return False


def name_comparisons(tree: ast.AST) -> int:
    """Count comparisons of a name (action, kind, step, phase...) with a string literal."""
    count = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        if any(_names_a_name(s) for s in sides) and any(_is_string_literal(s) for s in sides):
            count += 1
    return count


def literal_key_reads(tree: ast.AST) -> int:
    """Count ``x["key"]`` reads (string-literal subscripts in load context)."""
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    )


def long_functions(tree: ast.AST) -> list[tuple[str, int]]:
    """Return (name, lines) of every function longer than LONG_FUNCTION lines."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > LONG_FUNCTION:
                out.append((node.name, lines))
    return out


# ---------------------------------------------------------------------------- imports and cycles


def module_name(path: Path) -> str:
    """Return a file's dotted module name."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def runtime_imports(tree: ast.Module, *, inside_functions: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """Yield the imports that run (not under ``if TYPE_CHECKING:``), those inside functions only if asked."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)) and (inside_functions or not in_function):
            yield node
        if _is_type_checking(node):
            stack.extend((n, in_function) for n in node.orelse)
            continue
        nested = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        stack.extend((child, nested) for child in ast.iter_child_nodes(node))


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    """Return the absolute module a ``from`` import names (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def import_graph(*, inside_functions: bool) -> dict[str, set[str]]:
    """Return module -> the project modules it imports at runtime."""
    files = code_files()
    modules = {module_name(f): f for f in files}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in runtime_imports(parse(path), inside_functions=inside_functions):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = _resolve(name, is_package, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def function_level_imports() -> int:
    """Count project imports made inside functions (outside TYPE_CHECKING)."""
    top = {d for d in CODE_DIRS} | {f.removesuffix(".py") for f in TOP_FILES}
    count = 0
    for path in code_files():
        tree = parse(path)
        inner = set(map(id, runtime_imports(tree, inside_functions=True))) - set(
            map(id, runtime_imports(tree, inside_functions=False))
        )
        for node in runtime_imports(tree, inside_functions=True):
            if id(node) not in inner:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or "."]
            if (isinstance(node, ast.ImportFrom) and node.level > 0) or any(
                n.split(".")[0] in top for n in names
            ):
                count += 1
    return count


# ---------------------------------------------------------------------------- hops to a rule


def _map_names(game: str, target: str, rule: str) -> bool:
    """Whether the game's file map has a line naming the rule and the file that decides it."""
    readme = ROOT / "rules" / game / "README.md"
    if not readme.exists():
        return False
    file_name = target.removeprefix(f"rules/{game}/")
    word = rule.removeprefix("the ").lower()
    return any(word in line.lower() and file_name in line for line in readme.read_text().splitlines())


def hops(rule: str, graph: dict[str, set[str]]) -> tuple[int, str]:
    """Return the files a reader opens to reach a rule's function, and how (map or imports)."""
    game, target, _function = RULES[rule]
    if _map_names(game, target, rule):
        return 2, "map"
    start, goal = f"rules.{game}", module_name(ROOT / target)
    seen, frontier, depth = {start}, [start], 1
    while frontier:
        if goal in frontier:
            return depth, "imports"
        nxt = []
        for m in frontier:
            for n in sorted(graph.get(m, ())):
                if n not in seen and n.startswith(f"rules.{game}"):
                    seen.add(n)
                    nxt.append(n)
        frontier, depth = nxt, depth + 1
    return -1, "unreached"


# ---------------------------------------------------------------------------- report


def duplicates_count() -> str:
    """Return the first line of ``duplicates`` over the tree (or why not)."""
    if not shutil.which("duplicates"):
        return "duplicates: not on PATH"
    done = subprocess.run(
        ["duplicates", "--seconds", "120"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return (done.stdout.splitlines() or ["(no output)"])[0]


def measure() -> dict[str, object]:
    """Measure everything once."""
    comparisons: Counter[str] = Counter()
    reads: Counter[str] = Counter()
    long: list[tuple[str, str, int]] = []
    sizes: list[tuple[int, str]] = []
    for path in code_files():
        tree = parse(path)
        room = rel(path).split("/")[0] if "/" in rel(path) else "(top)"
        comparisons[room] += name_comparisons(tree)
        reads[room] += literal_key_reads(tree)
        long += [(rel(path), n, lines) for n, lines in long_functions(tree)]
        sizes.append((len(path.read_text().splitlines()), rel(path)))
    with_inner = import_graph(inside_functions=True)
    top_only = import_graph(inside_functions=False)
    return {
        "comparisons": comparisons,
        "reads": reads,
        "long": sorted(long, key=lambda t: -t[2]),
        "largest": sorted(sizes, reverse=True)[:10],
        "cycles_all": cycles(with_inner),
        "cycles_top": cycles(top_only),
        "inner_imports": function_level_imports(),
        "hops": {rule: hops(rule, with_inner) for rule in RULES},
        "duplicates": duplicates_count(),
    }


def markdown(m: dict[str, object]) -> str:
    """Return the figures as the Markdown docs/shape.md keeps."""
    comparisons: Counter[str] = m["comparisons"]  # type: ignore[assignment]
    reads: Counter[str] = m["reads"]  # type: ignore[assignment]
    long: list[tuple[str, str, int]] = m["long"]  # type: ignore[assignment]
    lines = [
        f"- name comparisons with string literals: **{sum(comparisons.values())}** "
        + "("
        + ", ".join(f"{k} {v}" for k, v in sorted(comparisons.items()) if v)
        + ")",
        f"- literal-key reads outside rules/: **{sum(v for k, v in reads.items() if k != 'rules')}** "
        + "("
        + ", ".join(f"{k} {v}" for k, v in sorted(reads.items()) if v and k != "rules")
        + f"; rules/ {reads['rules']})",
        f"- functions over {LONG_FUNCTION} lines: **{len(long)}** (longest: "
        + ", ".join(f"`{f}:{n}` {n_lines}" for f, n, n_lines in long[:5])
        + ")",
        "- largest files: " + ", ".join(f"`{f}` {n}" for n, f in m["largest"]),  # type: ignore[attr-defined]
        f"- imports inside functions (project modules): **{m['inner_imports']}**",
    ]
    for label, key in (
        ("counting imports inside functions", "cycles_all"),
        ("module-level imports only", "cycles_top"),
    ):
        groups: list[list[str]] = m[key]  # type: ignore[assignment]
        lines.append(f"- import cycles, {label}: **{len(groups)}**")
        lines += [f"  - {' / '.join(g)}" for g in groups]
    lines.append(
        "- hops to a rule (files opened from the game's entry: map, else `__init__.py` along imports):"
    )
    for rule, (n, how) in m["hops"].items():  # type: ignore[attr-defined]
        _game, target, function = RULES[rule]
        lines.append(f"  - {rule} (`{target}:{function}`): {n} ({how})")
    lines.append(f"- `duplicates .`: {m['duplicates']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the Markdown block for docs/shape.md")
    parser.parse_args(argv)
    print(markdown(measure()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
